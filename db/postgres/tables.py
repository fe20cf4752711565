"""Tables, seats, the move log and the state snapshot on PostgreSQL (``TableStore``): a mixin
of PostgresStore, whose pool (``_pool``) it uses.

A move's commit is a compare-and-swap: ``UPDATE games ... WHERE id = $ AND version = $``. Two
processes committing the same table at once queue on that row's lock; the second then sees the
version the first wrote, updates nothing and raises VersionConflict, and its referee reloads the
table and judges the move again (engine/referee/turns.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import asyncpg

from engine.core import RecordedMove
from engine.referee.model import GameResult, RatingChange, Seat, Table, VersionConflict

from ..results import insert_bare_result, insert_result
from ..rows import (
    SEAT_COLUMNS,
    TABLE_COLUMNS,
    TABLE_FIELDS,
    UPDATED_FIELDS,
    MoveRows,
    seat_from_row,
    seat_rows,
    table_from_row,
    table_values,
    updated_values,
)
from ..tables import _SEATS_ON_CONFLICT, SharedTables
from .batch import GroupCommitter
from .plans import run_postgres


def marks(count: int, start: int = 1) -> str:
    """``$1,$2,...``: PostgreSQL's numbered parameters."""
    return ",".join(f"${number}" for number in range(start, start + count))


_SEAT_COUNT = len(SEAT_COLUMNS.split(","))
_UPSERT_SEATS = (
    f"INSERT INTO seats (game_id, {SEAT_COLUMNS}) VALUES ({marks(_SEAT_COUNT + 1)})" + _SEATS_ON_CONFLICT
)
# Every write raises the revision and is compare-and-swapped on it with the version (migration 0006).
_SET_FIELDS = ", ".join(f"{field} = ${number}" for number, field in enumerate(UPDATED_FIELDS, 1))
_AFTER = len(UPDATED_FIELDS)
_UPDATE_TABLE = (
    f"UPDATE games SET {_SET_FIELDS}, revision = revision + 1"
    f" WHERE id = ${_AFTER + 1} AND version = ${_AFTER + 2} AND revision = ${_AFTER + 3}"
)
_UPDATE_GAME = (
    f"UPDATE games SET {_SET_FIELDS}, state = ${_AFTER + 1}, revision = revision + 1"
    f" WHERE id = ${_AFTER + 2} AND version = ${_AFTER + 3} AND revision = ${_AFTER + 4}"
)
# A move's commit in ONE statement (one round trip, atomic on its own): the compare-and-swap of the
# table row, then, only if it matched, the changed seats and the moves, from arrays. Answers 1 if
# the version matched, 0 if another process moved first (nothing then written).
_SEAT_TYPES = ("int", "text", "text", "text", "float8", "text", "float8", "int", "int", "int", "float8")
_MOVE_TYPES = ("int", "int", "text", "float8")
_SEATS_FROM = _AFTER + 5
_MOVES_FROM = _SEATS_FROM + len(_SEAT_TYPES)
_COMMIT_MOVE = (
    f"WITH g AS ({_UPDATE_GAME} RETURNING id),"
    f" s AS (INSERT INTO seats (game_id, {SEAT_COLUMNS}) SELECT g.id, x.* FROM g, unnest("
    + ", ".join(f"${_SEATS_FROM + offset}::{kind}[]" for offset, kind in enumerate(_SEAT_TYPES))
    + f") AS x{_SEATS_ON_CONFLICT}),"
    " m AS (INSERT INTO moves (game_id, n, seat, move, at) SELECT g.id, x.* FROM g, unnest("
    + ", ".join(f"${_MOVES_FROM + offset}::{kind}[]" for offset, kind in enumerate(_MOVE_TYPES))
    + ") AS x)"
    " SELECT COUNT(*) FROM g"
)
_INSERT_TABLE = f"INSERT INTO games ({', '.join(TABLE_FIELDS)}) VALUES ({marks(len(TABLE_FIELDS))}) RETURNING id"


def updated_one(status: str) -> bool:
    """asyncpg answers a write with its command tag: ``UPDATE 1`` when one row changed."""
    return status.rsplit(" ", 1)[-1] == "1"


class PgTables(SharedTables):
    _pool: asyncpg.Pool
    _groups: GroupCommitter

    async def create_table(self, table: Table) -> int:
        values, seats = table_values(table), seat_rows(table.seats)
        async with self._pool.acquire() as connection, connection.transaction():
            table_id = int(await connection.fetchval(_INSERT_TABLE, *values))
            await _write_seats(connection, table_id, seats)
        return table_id

    async def load_table(self, table_id: int) -> Table | None:
        async with self._pool.acquire() as connection:
            row = await connection.fetchrow(f"SELECT {TABLE_COLUMNS} FROM games WHERE id = $1", table_id)
            if row is None:
                return None
            table = table_from_row(row)
            table.seats = await _seats(connection, table_id)
        return table

    async def load_state(self, table_id: int) -> bytes | None:
        state = await self._pool.fetchval("SELECT state FROM games WHERE id = $1", table_id)
        return None if state is None else bytes(state)

    async def save_table(self, table: Table, expected_version: int) -> None:
        values, seats = updated_values(table), seat_rows(table.seats)
        async with self._pool.acquire() as connection, connection.transaction():
            status = await connection.execute(_UPDATE_TABLE, *values, table.id, expected_version, table.revision)
            if not updated_one(status):
                raise VersionConflict(
                    f"game {table.id} is no longer at version {expected_version}, revision {table.revision}"
                )
            await _write_seats(connection, table.id, seats)
        table.revision += 1  # as stored: the next write of this copy expects it

    async def _commit_move(
        self, table: Table, rows: MoveRows, outcome: bytes | None, result: GameResult | None
    ) -> list[RatingChange]:
        """In ONE transaction: the table row (compare-and-swapped on its version, which also
        locks it until the commit), the changed seats, the moves and, at the end, the result and
        the rating updates."""
        changes: list[RatingChange] = []
        conflict = f"game {table.id} is no longer at version {rows.game[-2]}, revision {table.revision}"
        if result is None and outcome is None:  # a plain move: in the next group (batch.py)
            if not await self._groups.commit(rows):
                raise VersionConflict(conflict)
        else:
            async with self._pool.acquire() as connection, connection.transaction():
                if await connection.fetchval(_COMMIT_MOVE, *_single_values(rows)) != 1:
                    raise VersionConflict(conflict)
                if result is not None:
                    changes = await run_postgres(connection, insert_result(result))
                else:
                    assert outcome is not None
                    await run_postgres(connection, insert_bare_result(table, outcome))
        return changes

    async def move_log(self, table_id: int) -> list[RecordedMove]:
        rows = await self._pool.fetch("SELECT seat, move FROM moves WHERE game_id = $1 ORDER BY n", table_id)
        return [RecordedMove(row[0], row[1]) for row in rows]

    async def running_tables_off_rules(self, current: Mapping[str, int]) -> list[int]:
        """Running tables whose rules version is not the code's for their game (or whose game
        the code does not know), by id."""
        rows = await self._pool.fetch(
            "SELECT g.id FROM games g LEFT JOIN unnest($1::text[], $2::int[]) AS c(game, rules_version)"
            " ON c.game = g.game WHERE g.status = 'running'"
            " AND (c.game IS NULL OR c.rules_version != g.rules_version) ORDER BY g.id",
            list(current),
            list(current.values()),
        )
        return [row[0] for row in rows]


def _columns(rows: list[tuple[Any, ...]], width: int) -> list[list[Any]]:
    """Rows as columns (one array parameter per column, for ``unnest``)."""
    return [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in range(width)]


def _single_values(move: MoveRows) -> tuple[Any, ...]:
    """The parameters of _COMMIT_MOVE for one move (its seat and move rows without the game id)."""
    return (
        *move.game,
        *_columns([row[1:] for row in move.seats], len(_SEAT_TYPES)),
        *_columns([row[1:] for row in move.moves], len(_MOVE_TYPES)),
    )


async def commit_one(pool: asyncpg.Pool, move: MoveRows) -> bool:
    """One plain move on its own (a group of one, or a group that failed as a whole)."""
    return bool(await pool.fetchval(_COMMIT_MOVE, *_single_values(move)) == 1)


async def _seats(connection: asyncpg.Connection, table_id: int) -> list[Seat]:
    rows = await connection.fetch(f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1 ORDER BY seat", table_id)
    return [seat_from_row(row) for row in rows]


async def _write_seats(connection: asyncpg.Connection, table_id: int, rows: list[tuple[Any, ...]]) -> None:
    """Replace the seats (the lobby may remove some)."""
    await connection.execute("DELETE FROM seats WHERE game_id = $1", table_id)
    if rows:
        await connection.executemany(_UPSERT_SEATS, [(table_id, *row) for row in rows])
