"""The clocks (``ClockStore``): due seats, running timed tables, turns waiting and the heartbeat.
The reads are the same on both backends (``ClockReads``); the timed seats' write is SQLite's here
(``ClockQueries``, a mixin of SqliteStore) and PostgreSQL's in db/postgres/clocks.py."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

import aiosqlite

from engine.referee.model import Seat, TimedSeat
from engine.referee.reports import TableLinks

from . import rows as db_rows
from .plans import Plan, column_of, marks, rows_of, statement, value_of
from .rows import SEAT_COLUMNS, clock_rows, seat_from_row, timed_seat_from_row
from .writer import Call, Work

HEARTBEAT = "heartbeat"
SET_HEARTBEAT = (
    "INSERT INTO bot_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)
_SEAT_COLUMNS_S = ", ".join("s." + column.strip() for column in SEAT_COLUMNS.split(","))
_TIMED_SEATS = (
    "SELECT g.id, g.version, g.speed, u.time_zone, u.quiet_start, u.quiet_end, v.started_at, v.until,"
    f" {_SEAT_COLUMNS_S}"
    " FROM games g JOIN seats s ON s.game_id = g.id"
    " LEFT JOIN user_settings u ON u.user_id = s.user_id AND s.ai_kind IS NULL AND u.time_zone IS NOT NULL"
    # The player's latest vacation: the only one that can still pause a running clock.
    " LEFT JOIN vacations v ON v.user_id = s.user_id AND s.ai_kind IS NULL"
    " AND v.started_at = (SELECT MAX(started_at) FROM vacations w WHERE w.user_id = s.user_id)"
    " WHERE g.status = 'running' AND g.speed != 'untimed' AND (s.next_due_at IS NOT NULL"
    " OR (s.absent_since IS NOT NULL AND s.forfeited = 0)"
    " OR {running} IS NOT NULL)"
    " ORDER BY g.id, s.seat"
)
# A seat's running clock, read from its JSON: each dialect has its own words for it.
_RUNNING_SQLITE = "json_extract(s.clock, '$.running_since')"
_TIMED_SEATS_PG = _TIMED_SEATS.format(running="(s.clock::json ->> 'running_since')")


class ClockReads:
    """The clocks' reads and the heartbeat, the same on both backends: a mixin of SqliteStore
    (through ClockQueries) and of PostgresStore (PgClocks), whose plans (db/plans.py) they run."""

    _read: Callable[[Plan[Any]], Awaitable[Any]]
    _write: Callable[[Plan[Any]], Awaitable[Any]]

    async def due_table_ids(self, now: float) -> list[int]:
        """Running tables with a seat whose clock needs looking at by ``now``, most overdue first."""
        return await self._read(
            column_of(
                # The due-time index: only the seats due by now are read, not every running game's.
                "SELECT s.game_id FROM seats s INDEXED BY seats_due JOIN games g ON g.id = s.game_id"
                " WHERE s.next_due_at <= ? AND g.status = 'running' GROUP BY s.game_id"
                " ORDER BY MIN(s.next_due_at)",
                now,
            )
        )

    async def next_due_at(self) -> float | None:
        value = await self._read(
            value_of(
                "SELECT s.next_due_at FROM seats s INDEXED BY seats_due JOIN games g ON g.id = s.game_id"
                " WHERE s.next_due_at IS NOT NULL AND g.status = 'running' ORDER BY s.next_due_at LIMIT 1"
            )
        )
        return None if value is None else float(value)

    async def running_table_ids_to_resume(self) -> list[int]:
        """Running tables that need resuming (``needs_resume``) or have no thread yet: read from a
        small partial index, without touching the other games."""
        return await self._read(
            column_of(
                "SELECT id FROM games WHERE status = 'running' AND (needs_resume = 1 OR thread_id IS NULL)"
                " ORDER BY id"
            )
        )

    async def running_timed_table_ids(self) -> list[int]:
        return await self._read(
            column_of("SELECT id FROM games WHERE status = 'running' AND speed != 'untimed' ORDER BY id")
        )

    async def running_timed_seats(self) -> list[TimedSeat]:
        """Every seat of a running timed table whose time counts (a running clock, skipped and not
        forfeited, or a next check set), with its table's version and speed and its player's quiet
        hours: one query, no IN list, whatever the number of tables."""
        rows = await self._read(rows_of(_TIMED_SEATS.format(running=_RUNNING_SQLITE), postgresql=_TIMED_SEATS_PG))
        return [timed_seat_from_row(row) for row in rows]

    async def waiting_seats(
        self, user_id: str, guild_ids: tuple[str, ...] | None = None
    ) -> list[tuple[TableLinks, str, Seat]]:
        """(links, speed, seat) of the running tables where the user must act (and no AI plays for
        them), oldest waiting first. ``guild_ids=None``: every server and none."""
        if guild_ids == ():
            return []  # no server at all: no table
        where = "" if guild_ids is None else f" AND g.guild_id IN ({marks(len(guild_ids))})"
        rows = await self._read(
            rows_of(
                "SELECT g.id, g.game, g.guild_id, g.channel_id, g.thread_id, g.message_id, g.speed,"
                f" {_SEAT_COLUMNS_S}"
                " FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND g.status = 'running'"
                f" AND s.waiting_since IS NOT NULL AND s.absent_since IS NULL{where}"
                " ORDER BY s.waiting_since, g.id",
                user_id,
                *(guild_ids or ()),
            )
        )
        return [
            (
                TableLinks(
                    table_id=r[0], game=r[1], guild_id=r[2], channel_id=r[3], thread_id=r[4], message_id=r[5]
                ),
                r[6],
                seat_from_row(r[7:]),
            )
            for r in rows
        ]

    async def get_heartbeat(self) -> float | None:
        value = await self._read(value_of("SELECT value FROM bot_state WHERE key = ?", HEARTBEAT))
        return None if value is None else float(value)

    async def set_heartbeat(self, at: float) -> None:
        await self._write(statement(SET_HEARTBEAT, HEARTBEAT, at))


class ClockQueries(ClockReads):
    """The clocks on SQLite: the shared reads, and the timed seats' writes in the writer's group."""

    _db: aiosqlite.Connection
    _commit_in_group: Callable[[Work], Awaitable[Any]]

    async def save_timed_seats(self, seats: list[TimedSeat], *, heartbeat: float | None = None) -> list[int]:
        """In ONE transaction: each seat's clock, absence start and next check, for the tables still
        running at the version read (a table that moved on keeps what it has), and the heartbeat
        when given. Returns the ids of the tables left alone."""
        read_at = {seat.table_id: seat.version for seat in seats}
        return await self._commit_in_group(Call(_save_timed_seats, read_at, clock_rows(seats), heartbeat))


def _save_timed_seats(
    connection: sqlite3.Connection, read_at: dict[int, int], rows: list[tuple[Any, ...]], heartbeat: float | None
) -> list[int]:
    # Read inside the transaction: no move can come between this check and the writes.
    current: dict[int, int] = {}
    ids = list(read_at)
    for start in range(0, len(ids), db_rows.IN_LIST_LIMIT):
        chunk = ids[start : start + db_rows.IN_LIST_LIMIT]
        current.update(
            connection.execute(
                f"SELECT id, version FROM games WHERE status = 'running' AND id IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
        )
    unchanged = {table_id for table_id, version in read_at.items() if current.get(table_id) == version}
    connection.executemany(
        "UPDATE seats SET clock = ?, absent_since = ?, next_due_at = ? WHERE game_id = ? AND seat = ?",
        [row for row in rows if row[3] in unchanged],
    )
    # A write of the table like any other: another process's cached copy of it is now stale.
    connection.executemany(
        "UPDATE games SET revision = revision + 1 WHERE id = ?", [(table_id,) for table_id in sorted(unchanged)]
    )
    if heartbeat is not None:
        connection.execute(SET_HEARTBEAT, (HEARTBEAT, heartbeat))
    return sorted(set(read_at) - unchanged)
