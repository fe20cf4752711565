"""The referee's Store on one SQLite file.

WAL mode lets readers go on while a move commits; ``synchronous=NORMAL`` keeps every committed
move safe from a crash of the bot process (a power cut may lose the last instants, an accepted
trade-off for a game referee). Schema changes are numbered SQL files under ``migrations/``,
applied in order and tracked with ``PRAGMA user_version``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import aiosqlite
import msgspec

from engine.core import RecordedMove
from engine.referee.model import Seat, Table, VersionConflict

MIGRATIONS = Path(__file__).with_name("migrations")
DEFAULT_DATABASE_PATH = "data/referee.sqlite3"

_TABLE_COLUMNS = (
    "id, game, options, host, status, seed, version, guild_id, channel_id, thread_id, message_id, "
    "created_at, updated_at"
)


def database_path_from_env() -> str:
    return os.environ.get("DATABASE_PATH") or DEFAULT_DATABASE_PATH


class SqliteStore:
    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self._db = connection
        self.path = path

    @classmethod
    async def open(cls, path: str | os.PathLike[str] | None = None) -> SqliteStore:
        path = str(path or database_path_from_env())
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)  # explicit transactions
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA synchronous=NORMAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA busy_timeout=5000")
        store = cls(connection, path)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self._db.close()

    async def migrate(self) -> int:
        """Apply the migrations not yet applied; returns the schema version."""
        async with self._db.execute("PRAGMA user_version") as cursor:
            (current,) = await cursor.fetchone()  # type: ignore[misc]
        for script in sorted(MIGRATIONS.glob("*.sql")):
            number = int(script.name.split("_", 1)[0])
            if number <= current:
                continue
            await self._db.executescript(
                f"BEGIN;\n{script.read_text()}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
            current = number
        return current

    # ----- tables -------------------------------------------------------------------------------

    async def create_table(self, table: Table) -> int:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            cursor = await self._db.execute(
                "INSERT INTO games (game, options, host, status, seed, version, guild_id, channel_id,"
                " thread_id, message_id, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    table.game,
                    _json(table.options),
                    table.host,
                    table.status,
                    table.seed,
                    table.version,
                    table.guild_id,
                    table.channel_id,
                    table.thread_id,
                    table.message_id,
                    table.created_at,
                    table.updated_at,
                ),
            )
            table_id = int(cursor.lastrowid or 0)
            await self._write_seats(table_id, table.seats)
            await self._db.execute("COMMIT")
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        return table_id

    async def load_table(self, table_id: int) -> Table | None:
        async with self._db.execute(f"SELECT {_TABLE_COLUMNS} FROM games WHERE id = ?", (table_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        table = _table_from_row(row)
        table.seats = await self._seats(table_id)
        return table

    async def load_state(self, table_id: int) -> bytes | None:
        async with self._db.execute("SELECT state FROM games WHERE id = ?", (table_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0]

    async def save_table(self, table: Table, expected_version: int) -> None:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            await self._update_table(table, expected_version)
            await self._write_seats(table.id, table.seats)
            await self._db.execute("COMMIT")
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise

    async def commit_moves(
        self,
        table: Table,
        expected_version: int,
        moves: list[RecordedMove],
        state: bytes,
        outcome: bytes | None = None,
    ) -> None:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            await self._update_table(table, expected_version, state=state)
            if moves:
                await self._db.executemany(
                    "INSERT INTO moves (game_id, n, seat, move, at) VALUES (?,?,?,?,?)",
                    [
                        (table.id, expected_version + offset, move.seat, move.move, table.updated_at)
                        for offset, move in enumerate(moves)
                    ],
                )
            if outcome is not None:
                await self._db.execute(
                    "INSERT OR REPLACE INTO results (game_id, outcome, finished_at) VALUES (?,?,?)",
                    (table.id, outcome.decode(), table.updated_at),
                )
            await self._db.execute("COMMIT")
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise

    async def _update_table(self, table: Table, expected_version: int, *, state: bytes | None = None) -> None:
        assignments = (
            "options = ?, host = ?, status = ?, seed = ?, version = ?, guild_id = ?, channel_id = ?,"
            " thread_id = ?, message_id = ?, updated_at = ?"
        )
        values: list[Any] = [
            _json(table.options),
            table.host,
            table.status,
            table.seed,
            table.version,
            table.guild_id,
            table.channel_id,
            table.thread_id,
            table.message_id,
            table.updated_at,
        ]
        if state is not None:
            assignments += ", state = ?"
            values.append(state)
        cursor = await self._db.execute(
            f"UPDATE games SET {assignments} WHERE id = ? AND version = ?", (*values, table.id, expected_version)
        )
        if cursor.rowcount != 1:
            raise VersionConflict(f"game {table.id} is no longer at version {expected_version}")

    async def _write_seats(self, table_id: int, seats: list[Seat]) -> None:
        await self._db.execute("DELETE FROM seats WHERE game_id = ?", (table_id,))
        await self._db.executemany(
            "INSERT INTO seats (game_id, seat, name, user_id, ai_kind) VALUES (?,?,?,?,?)",
            [(table_id, seat.index, seat.name, seat.user_id, seat.ai_kind) for seat in seats],
        )

    async def _seats(self, table_id: int) -> list[Seat]:
        async with self._db.execute(
            "SELECT seat, name, user_id, ai_kind FROM seats WHERE game_id = ? ORDER BY seat", (table_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [Seat(index=row[0], name=row[1], user_id=row[2], ai_kind=row[3]) for row in rows]

    async def move_log(self, table_id: int) -> list[RecordedMove]:
        async with self._db.execute(
            "SELECT seat, move FROM moves WHERE game_id = ? ORDER BY n", (table_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [RecordedMove(row[0], row[1]) for row in rows]

    async def list_tables(
        self,
        *,
        guild_id: str | None = None,
        statuses: tuple[str, ...] | None = None,
        user_id: str | None = None,
        limit: int = 100,
    ) -> list[Table]:
        where: list[str] = []
        values: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            values.append(guild_id)
        if statuses:
            where.append(f"status IN ({','.join('?' * len(statuses))})")
            values.extend(statuses)
        if user_id is not None:
            where.append("id IN (SELECT game_id FROM seats WHERE user_id = ?)")
            values.append(user_id)
        sql = f"SELECT {_TABLE_COLUMNS} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY updated_at DESC LIMIT ?"
        values.append(limit)
        async with self._db.execute(sql, values) as cursor:
            rows = await cursor.fetchall()
        tables = [_table_from_row(row) for row in rows]
        for table in tables:
            table.seats = await self._seats(table.id)
        return tables

    async def result(self, table_id: int) -> bytes | None:
        async with self._db.execute("SELECT outcome FROM results WHERE game_id = ?", (table_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0].encode()

    # ----- user flags ---------------------------------------------------------------------------

    async def get_user_flag(self, user_id: str, flag: str) -> bool:
        async with self._db.execute(
            "SELECT value FROM user_flags WHERE user_id = ? AND flag = ?", (user_id, flag)
        ) as cursor:
            row = await cursor.fetchone()
        return bool(row and row[0])

    async def set_user_flag(self, user_id: str, flag: str, value: bool) -> None:
        await self._db.execute(
            "INSERT INTO user_flags (user_id, flag, value) VALUES (?,?,?)"
            " ON CONFLICT (user_id, flag) DO UPDATE SET value = excluded.value",
            (user_id, flag, int(value)),
        )


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _table_from_row(row: Any) -> Table:
    return Table(
        id=row[0],
        game=row[1],
        options=msgspec.json.decode(row[2]),
        host=row[3],
        status=row[4],
        seed=row[5],
        version=row[6],
        guild_id=row[7],
        channel_id=row[8],
        thread_id=row[9],
        message_id=row[10],
        created_at=row[11],
        updated_at=row[12],
    )
