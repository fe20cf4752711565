"""Tables, seats, the move log and the state snapshot on SQLite (``TableStore``): a mixin of
SqliteStore, whose ``_db`` (reads) and ``_commit_in_group`` (writes) it uses."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from typing import Any

import aiosqlite

from engine.core import RecordedMove
from engine.referee.model import GameResult, RatingChange, Seat, Table, VersionConflict

from .plans import Plan, fetch, marks, run_sqlite
from .reads import fetch_column, fetch_one, fetch_records
from .results import insert_bare_result, insert_result
from .rows import (
    IN_LIST_LIMIT,
    SEAT_COLUMNS,
    TABLE_COLUMNS,
    TABLE_FIELDS,
    UPDATED_FIELDS,
    MoveRows,
    chunks,
    move_rows,
    placeholders,
    seat_from_row,
    seat_rows,
    table_from_row,
    table_values,
    updated_values,
)
from .writer import Call, Work


class SharedTables:
    """What both stores do alike with tables (a mixin of TableQueries here and of PgTables): a
    move's rows built once (``commit_moves`` hands them to the store's ``_commit_move``), and the
    list of tables, read by a plan (db/plans.py)."""

    _read: Callable[[Plan[Any]], Awaitable[Any]]

    async def _commit_move(
        self, table: Table, rows: MoveRows, outcome: bytes | None, result: GameResult | None
    ) -> list[RatingChange]:
        raise NotImplementedError

    async def commit_moves(
        self,
        table: Table,
        expected_version: int,
        moves: list[RecordedMove],
        state: bytes,
        outcome: bytes | None = None,
        *,
        result: GameResult | None = None,
        changed_seats: Sequence[int] | None = None,
    ) -> list[RatingChange]:
        """In ONE transaction: the moves, the snapshot, the table and its seats (turn flow and
        clocks; only ``changed_seats`` when given) and, when the game ended, its result with every
        seat and, for a rated game, the rating updates. Either all of it is stored or none of it.
        Returns the rating changes."""
        rows = move_rows(table, expected_version, moves, state, changed_seats)
        changes = await self._commit_move(table, rows, outcome, result)
        table.revision += 1  # as stored: the next write of this copy expects it
        return changes

    async def list_tables(
        self,
        *,
        guild_id: str | None = None,
        statuses: tuple[str, ...] | None = None,
        user_id: str | None = None,
        limit: int = 100,
    ) -> list[Table]:
        return await self._read(_list_tables(guild_id, statuses, user_id, limit))  # type: ignore[no-any-return]


def _list_tables(
    guild_id: str | None, statuses: tuple[str, ...] | None, user_id: str | None, limit: int
) -> Plan[list[Table]]:
    where: list[str] = []
    values: list[Any] = []
    if guild_id is not None:
        where.append("guild_id = ?")
        values.append(guild_id)
    if statuses:
        where.append(f"status IN ({marks(len(statuses))})")
        values.extend(statuses)
    if user_id is not None:
        where.append("id IN (SELECT game_id FROM seats WHERE user_id = ?)")
        values.append(user_id)
    sql = f"SELECT {TABLE_COLUMNS} FROM games"
    if where:
        sql += " WHERE " + " AND ".join(where)
    rows = yield fetch(sql + " ORDER BY updated_at DESC LIMIT ?", *values, limit)
    tables = [table_from_row(row) for row in rows]
    seats: dict[int, list[Seat]] = {table.id: [] for table in tables}
    ids = list(seats)
    for start in range(0, len(ids), IN_LIST_LIMIT):
        chunk = ids[start : start + IN_LIST_LIMIT]
        for row in (
            yield fetch(
                f"SELECT game_id, {SEAT_COLUMNS} FROM seats WHERE game_id IN ({marks(len(chunk))})"
                " ORDER BY game_id, seat",
                *chunk,
            )
        ):
            seats[row[0]].append(seat_from_row(row[1:]))
    for table in tables:
        table.seats = seats[table.id]
    return tables


class TableQueries(SharedTables):
    _db: aiosqlite.Connection
    _commit_in_group: Callable[[Work], Awaitable[Any]]

    async def create_table(self, table: Table) -> int:
        # Rows are built now, on the event loop: the caller's table may change once we wait.
        return await self._commit_in_group(Call(_create_table, table_values(table), seat_rows(table.seats)))

    async def load_table(self, table_id: int) -> Table | None:
        row = await fetch_one(self._db, f"SELECT {TABLE_COLUMNS} FROM games WHERE id = ?", (table_id,))
        if row is None:
            return None
        table = table_from_row(row)
        table.seats = await self._seats(table_id)
        return table

    async def load_state(self, table_id: int) -> bytes | None:
        row = await fetch_one(self._db, "SELECT state FROM games WHERE id = ?", (table_id,))
        return None if row is None else row[0]

    async def save_table(self, table: Table, expected_version: int) -> None:
        values = updated_values(table)
        await self._commit_in_group(
            Call(_save_table, table.id, (*values, table.id, expected_version, table.revision), seat_rows(table.seats))
        )
        table.revision += 1  # as stored: the next write of this copy expects it

    async def _commit_move(
        self, table: Table, rows: MoveRows, outcome: bytes | None, result: GameResult | None
    ) -> list[RatingChange]:
        # Committed with the other moves that arrive meanwhile, in one hop to the connection's
        # thread (the end of a game too: its result and ratings are part of the same unit).
        changes: list[RatingChange] = await self._commit_in_group(_MoveCommit(table, rows, outcome, result))
        return changes

    async def _seats(self, table_id: int) -> list[Seat]:
        return await fetch_records(
            self._db, seat_from_row, f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (table_id,)
        )

    async def move_log(self, table_id: int) -> list[RecordedMove]:
        return await fetch_records(
            self._db, lambda row: RecordedMove(*row), "SELECT seat, move FROM moves WHERE game_id = ? ORDER BY n", (table_id,)
        )

    async def running_tables_off_rules(self, current: Mapping[str, int]) -> list[int]:
        # One condition per game the code knows; a running game of a game it does not know is off too.
        known = " OR ".join("(game = ? AND rules_version = ?)" for _ in current) or "0"
        values = [value for pair in current.items() for value in pair]
        return await fetch_column(
            self._db, f"SELECT id FROM games WHERE status = 'running' AND NOT ({known}) ORDER BY id", values
        )


_SEATS_ON_CONFLICT = (
    " ON CONFLICT (game_id, seat) DO UPDATE SET name = excluded.name, user_id = excluded.user_id,"
    " ai_kind = excluded.ai_kind, waiting_since = excluded.waiting_since, clock = excluded.clock,"
    " absent_since = excluded.absent_since, skips = excluded.skips, forfeited = excluded.forfeited,"
    " ai_played = excluded.ai_played, next_due_at = excluded.next_due_at"
)
_INSERT_SEATS = f"INSERT INTO seats (game_id, {SEAT_COLUMNS}) VALUES "
_UPSERT_SEATS = _INSERT_SEATS + "(?,?,?,?,?,?,?,?,?,?,?,?)" + _SEATS_ON_CONFLICT
_INSERT_MOVE_ROWS = "INSERT INTO moves (game_id, n, seat, move, at) VALUES "
_INSERT_MOVES = _INSERT_MOVE_ROWS + "(?,?,?,?,?)"
# Every write raises the revision and is compare-and-swapped on it with the version (migration 0006).
_SET_TABLE_FIELDS = (
    "UPDATE games SET " + ", ".join(f"{field} = ?" for field in UPDATED_FIELDS) + ", revision = revision + 1"
)
_UPDATE_TABLE = _SET_TABLE_FIELDS + " WHERE id = ? AND version = ? AND revision = ?"
_INSERT_TABLE = f"INSERT INTO games ({', '.join(TABLE_FIELDS)}) VALUES ({','.join('?' * len(TABLE_FIELDS))})"
_UPDATE_GAME = _SET_TABLE_FIELDS + ", state = ? WHERE id = ? AND version = ? AND revision = ?"


def _create_table(connection: sqlite3.Connection, values: list[Any], seat_rows: list[tuple[Any, ...]]) -> int:
    table_id = int(connection.execute(_INSERT_TABLE, values).lastrowid or 0)
    _write_seats(connection, table_id, seat_rows)
    return table_id


def _save_table(
    connection: sqlite3.Connection, table_id: int, values: tuple[Any, ...], seat_rows: list[tuple[Any, ...]]
) -> None:
    """A table's row and seats (lobby changes, seats taken over); ``values`` end with the id and
    the version expected on disk."""
    if connection.execute(_UPDATE_TABLE, values).rowcount != 1:
        raise VersionConflict(f"game {table_id} is no longer at version {values[-2]}, revision {values[-1]}")
    _write_seats(connection, table_id, seat_rows)


def _write_seats(connection: sqlite3.Connection, table_id: int, seat_rows: list[tuple[Any, ...]]) -> None:
    """Replace the seats (the lobby may remove some)."""
    connection.execute("DELETE FROM seats WHERE game_id = ?", (table_id,))
    connection.executemany(_UPSERT_SEATS, [(table_id, *row) for row in seat_rows])


class _MoveCommit(Work):
    """A move (or several): snapshot, table row, changed seats, move log and, when the game
    ended, its result and the rating updates (returned)."""

    def __init__(self, table: Table, rows: MoveRows, outcome: bytes | None, result: GameResult | None) -> None:
        self.table = table
        self.outcome = outcome
        self.result = result
        self.table_id = table.id
        self.expected_version = rows.game[-2]
        self.game_values = rows.game
        self.seat_rows = rows.seats
        self.move_rows = rows.moves

    def run(self, connection: sqlite3.Connection) -> list[RatingChange]:
        if connection.execute(_UPDATE_GAME, self.game_values).rowcount != 1:
            raise VersionConflict(f"game {self.table_id} is no longer at version {self.expected_version}")
        if self.seat_rows:
            connection.executemany(_UPSERT_SEATS, self.seat_rows)
        if self.move_rows:
            connection.executemany(_INSERT_MOVES, self.move_rows)
        if self.result is not None:
            return run_sqlite(connection, insert_result(self.result))
        if self.outcome is not None:
            run_sqlite(connection, insert_bare_result(self.table, self.outcome))
        return []

    def together_key(self) -> Hashable | None:
        """Plain moves (no game end) of distinct games go to disk together."""
        return self.table_id if self.result is None and self.outcome is None else None

    @classmethod
    def write_together(cls, connection: sqlite3.Connection, works: list[Any]) -> list[Any] | None:
        return [[] for _ in works] if _write_moves_together(connection, works) else None


# A game row as _MoveCommit.game_values lists it.
_GAME_VALUE_NAMES = [*UPDATED_FIELDS, "state", "id", "expected", "expected_revision"]
_UPDATE_GAMES_FROM_V = (
    " UPDATE games SET "
    + ", ".join(f"{name} = v.{name}" for name in _GAME_VALUE_NAMES[:-3])
    + ", revision = games.revision + 1"
    + " FROM v WHERE games.id = v.id AND games.version = v.expected AND games.revision = v.expected_revision"
)


def _write_moves_together(connection: sqlite3.Connection, works: list[_MoveCommit]) -> bool:
    """The works' game rows, seats and moves in three multi-row statements instead of three
    statements a move. Why: each statement hands over to SQLite's C code, which runs without
    Python's interpreter lock, and takes the lock back when done; with the event loop busy in
    another thread, every taking back waits. Returns False (and writes nothing) if a game is no
    longer at the expected version, having written only game rows (the caller undoes them): it
    then writes the works one by one, to refuse only that one. No savepoint of its own: every
    statement more is one more wait for the interpreter lock."""
    changes = connection.total_changes
    for rows in chunks([work.game_values for work in works]):
        connection.execute(
            f"WITH v({', '.join(_GAME_VALUE_NAMES)}) AS (VALUES {placeholders(rows)})" + _UPDATE_GAMES_FROM_V,
            [value for row in rows for value in row],
        )
    if connection.total_changes - changes != len(works):
        return False
    for rows in chunks([row for work in works for row in work.seat_rows]):
        connection.execute(
            _INSERT_SEATS + placeholders(rows) + _SEATS_ON_CONFLICT, [value for row in rows for value in row]
        )
    for rows in chunks([row for work in works for row in work.move_rows]):
        connection.execute(_INSERT_MOVE_ROWS + placeholders(rows), [value for row in rows for value in row])
    return True
