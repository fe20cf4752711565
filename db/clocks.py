"""The clocks on SQLite (``ClockStore``): due seats, running timed tables, turns waiting and the
heartbeat. A mixin of SqliteStore."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

import aiosqlite

from engine.referee.clock import QuietHours, Vacation
from engine.referee.model import Seat, TimedSeat
from engine.referee.reports import TableLinks

from . import rows as db_rows
from .reads import fetch_all, fetch_column, fetch_one
from .rows import SEAT_COLUMNS, seat_from_row, to_json
from .writer import Call, Statement, Work

HEARTBEAT = "heartbeat"
_SET_HEARTBEAT = (
    "INSERT INTO bot_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


class ClockQueries:
    _db: aiosqlite.Connection
    _commit_in_group: Callable[[Work], Awaitable[Any]]

    # ----- clocks: due seats, turns waiting, quiet hours, heartbeat --------------------------------

    async def due_table_ids(self, now: float) -> list[int]:
        """Running tables with a seat whose clock needs looking at by ``now``, most overdue first."""
        return await fetch_column(
            self._db,
            # The due-time index: only the seats due by now are read, not every running game's.
            "SELECT s.game_id FROM seats s INDEXED BY seats_due JOIN games g ON g.id = s.game_id"
            " WHERE s.next_due_at <= ? AND g.status = 'running' GROUP BY s.game_id ORDER BY MIN(s.next_due_at)",
            (now,),
        )

    async def next_due_at(self) -> float | None:
        row = await fetch_one(
            self._db,
            "SELECT s.next_due_at FROM seats s INDEXED BY seats_due JOIN games g ON g.id = s.game_id"
            " WHERE s.next_due_at IS NOT NULL AND g.status = 'running' ORDER BY s.next_due_at LIMIT 1",
        )
        return None if row is None else row[0]

    async def running_table_ids_to_resume(self) -> list[int]:
        """Running tables that need resuming (``needs_resume``) or have no thread yet: read from a
        small partial index, without touching the other games."""
        return await fetch_column(
            self._db,
            "SELECT id FROM games WHERE status = 'running' AND (needs_resume = 1 OR thread_id IS NULL) ORDER BY id",
        )

    async def running_timed_table_ids(self) -> list[int]:
        return await fetch_column(
            self._db,
            "SELECT id FROM games WHERE status = 'running' AND speed != 'untimed' ORDER BY id",
        )

    async def running_timed_seats(self) -> list[TimedSeat]:
        """Every seat of a running timed table whose time counts (a running clock, skipped and not
        forfeited, or a next check set), with its table's version and speed and its player's quiet
        hours: one query, no IN list, whatever the number of tables."""
        seat_columns = ", ".join("s." + column.strip() for column in SEAT_COLUMNS.split(","))
        rows = await fetch_all(
            self._db,
            f"SELECT g.id, g.version, g.speed, u.time_zone, u.quiet_start, u.quiet_end, v.started_at, v.until,"
            f" {seat_columns}"
            " FROM games g JOIN seats s ON s.game_id = g.id"
            " LEFT JOIN user_settings u ON u.user_id = s.user_id AND s.ai_kind IS NULL AND u.time_zone IS NOT NULL"
            # The player's latest vacation: the only one that can still pause a running clock.
            " LEFT JOIN vacations v ON v.user_id = s.user_id AND s.ai_kind IS NULL"
            " AND v.started_at = (SELECT MAX(started_at) FROM vacations w WHERE w.user_id = s.user_id)"
            " WHERE g.status = 'running' AND g.speed != 'untimed' AND (s.next_due_at IS NOT NULL"
            " OR (s.absent_since IS NOT NULL AND NOT s.forfeited)"
            " OR json_extract(s.clock, '$.running_since') IS NOT NULL)"
            " ORDER BY g.id, s.seat",
        )
        return [
            TimedSeat(
                table_id=row[0],
                version=row[1],
                speed=row[2],
                quiet=None if row[3] is None else QuietHours(time_zone=row[3], start_hour=row[4], end_hour=row[5]),
                vacation=None if row[6] is None else Vacation(started_at=row[6], until=row[7]),
                seat=seat_from_row(row[8:]),
            )
            for row in rows
        ]

    async def save_timed_seats(self, seats: list[TimedSeat], *, heartbeat: float | None = None) -> list[int]:
        """In ONE transaction: each seat's clock, absence start and next check, for the tables still
        running at the version read (a table that moved on keeps what it has), and the heartbeat
        when given. Returns the ids of the tables left alone."""
        read_at = {seat.table_id: seat.version for seat in seats}
        rows = [
            (
                None if timed.seat.clock is None else to_json(timed.seat.clock),
                timed.seat.absent_since,
                timed.seat.next_due_at,
                timed.table_id,
                timed.seat.index,
            )
            for timed in seats
        ]
        return await self._commit_in_group(Call(_save_timed_seats, read_at, rows, heartbeat))

    async def waiting_seats(
        self, user_id: str, guild_ids: tuple[str, ...] | None = None
    ) -> list[tuple[TableLinks, str, Seat]]:
        """(links, speed, seat) of the running tables where the user must act (and no AI plays for
        them), oldest waiting first. ``guild_ids=None``: every server and none."""
        where = ""
        values: list[Any] = [user_id]
        if guild_ids is not None:
            where = f" AND g.guild_id IN ({','.join('?' * len(guild_ids))})"
            values.extend(guild_ids)
        rows = await fetch_all(
            self._db,
            "SELECT g.id, g.game, g.guild_id, g.channel_id, g.thread_id, g.message_id, g.speed,"
            f" {', '.join('s.' + c.strip() for c in SEAT_COLUMNS.split(','))}"
            " FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND g.status = 'running'"
            f" AND s.waiting_since IS NOT NULL AND s.absent_since IS NULL{where}"
            " ORDER BY s.waiting_since, g.id",
            values,
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
        row = await fetch_one(self._db, "SELECT value FROM bot_state WHERE key = ?", (HEARTBEAT,))
        return None if row is None else row[0]

    async def set_heartbeat(self, at: float) -> None:
        await self._commit_in_group(Statement(_SET_HEARTBEAT, (HEARTBEAT, at)))

    # ----- user flags ---------------------------------------------------------------------------


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
    if heartbeat is not None:
        connection.execute(_SET_HEARTBEAT, (HEARTBEAT, heartbeat))
    return sorted(set(read_at) - unchanged)
