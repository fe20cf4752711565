"""The clocks (``ClockStore``), the players' settings (``UserStore``), the announcement outbox
(``AnnouncementStore``), the limits' rows (``LimitsStore``), the undo requests and the claims
(``ClaimStore``) on PostgreSQL: mixins of PostgresStore. Small jobs each, the same queries as
SQLite's (db/clocks.py, users.py, announcements.py, limits_store.py, undo_store.py, claims.py) in
PostgreSQL's words."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import asyncpg

from engine.referee.batching import Coalescer
from engine.referee.clock import QuietHours
from engine.referee.limits import OpenCounts
from engine.referee.model import AnnouncedMark, PendingAnnouncement, TimedSeat
from engine.referee.undo import UndoRequest

from ..announcements import PENDING_FIELDS, PENDING_SQL, merged
from ..clocks import HEARTBEAT, SET_HEARTBEAT, ClockReads
from ..rows import clock_rows, from_row
from .plans import numbered


# A player's and a server's language are kept alike, each in its settings row (``table`` and
# ``key`` are these constant names, never input).
async def _language(pool: asyncpg.Pool, table: str, key: str, owner: str) -> str | None:
    value = await pool.fetchval(f"SELECT language FROM {table} WHERE {key} = $1", owner)
    return str(value) if value is not None else None


async def _set_language(pool: asyncpg.Pool, table: str, key: str, owner: str, code: str | None) -> None:
    await pool.execute(
        f"INSERT INTO {table} ({key}, language) VALUES ($1,$2)"
        f" ON CONFLICT ({key}) DO UPDATE SET language = excluded.language",
        owner,
        code,
    )


class PgClocks(ClockReads):
    """The clocks on PostgreSQL: the shared reads (db/clocks.py), and the timed seats' write."""

    _pool: asyncpg.Pool

    async def save_timed_seats(self, seats: list[TimedSeat], *, heartbeat: float | None = None) -> list[int]:
        """In one transaction: the tables still running at the version read are share-locked (no
        move of another process commits between the check and the writes), then their seats are
        written; the others are left alone and returned."""
        read_at = {seat.table_id: seat.version for seat in seats}
        async with self._pool.acquire() as connection, connection.transaction():
            current = dict(
                await connection.fetch(
                    "SELECT id, version FROM games WHERE status = 'running' AND id = ANY($1::bigint[])"
                    " ORDER BY id FOR SHARE",
                    sorted(read_at),
                )
            ) if read_at else {}
            unchanged = {table_id for table_id, version in read_at.items() if current.get(table_id) == version}
            rows = clock_rows([timed for timed in seats if timed.table_id in unchanged])
            if rows:
                await connection.executemany(
                    "UPDATE seats SET clock = $1, absent_since = $2, next_due_at = $3 WHERE game_id = $4 AND seat = $5",
                    rows,
                )
            if unchanged:  # a write of the table like any other: other processes' copies are stale
                await connection.execute(
                    "UPDATE games SET revision = revision + 1 WHERE id = ANY($1::bigint[])", sorted(unchanged)
                )
            if heartbeat is not None:
                await connection.execute(numbered(SET_HEARTBEAT), HEARTBEAT, heartbeat)
        return sorted(set(read_at) - unchanged)


class PgUsers:
    _pool: asyncpg.Pool

    async def get_quiet_hours(self, user_id: str) -> QuietHours | None:
        return (await self.quiet_hours_of([user_id])).get(user_id)

    async def quiet_hours_of(self, user_ids: list[str]) -> dict[str, QuietHours]:
        if not user_ids:
            return {}
        rows = await self._pool.fetch(
            "SELECT user_id, time_zone, quiet_start, quiet_end FROM user_settings"
            " WHERE time_zone IS NOT NULL AND user_id = ANY($1::text[])",
            list(user_ids),
        )
        return {r[0]: QuietHours(time_zone=r[1], start_hour=r[2], end_hour=r[3]) for r in rows}

    async def set_quiet_hours(self, user_id: str, quiet: QuietHours | None) -> None:
        values = (None, None, None) if quiet is None else (quiet.time_zone, quiet.start_hour, quiet.end_hour)
        await self._pool.execute(
            "INSERT INTO user_settings (user_id, time_zone, quiet_start, quiet_end) VALUES ($1,$2,$3,$4)"
            " ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone,"
            " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end",
            user_id,
            *values,
        )

    async def get_user_flag(self, user_id: str, flag: str) -> bool:
        value = await self._pool.fetchval(
            "SELECT value FROM user_flags WHERE user_id = $1 AND flag = $2", user_id, flag
        )
        return bool(value)

    async def set_user_flag(self, user_id: str, flag: str, value: bool) -> None:
        await self._pool.execute(
            "INSERT INTO user_flags (user_id, flag, value) VALUES ($1,$2,$3)"
            " ON CONFLICT (user_id, flag) DO UPDATE SET value = excluded.value",
            user_id,
            flag,
            int(value),
        )

    async def get_user_language(self, user_id: str) -> str | None:
        return await _language(self._pool, "user_settings", "user_id", user_id)

    async def set_user_language(self, user_id: str, code: str | None) -> None:
        await _set_language(self._pool, "user_settings", "user_id", user_id, code)


_MARKS_SQL = (
    "UPDATE games SET announced_version = GREATEST(announced_version, COALESCE(v.board, -1)),"
    " notified_version = GREATEST(notified_version, COALESCE(v.notices, -1)),"
    " unreachable_since = CASE WHEN v.board IS NULL THEN unreachable_since END"
    " FROM unnest($1::bigint[], $2::integer[], $3::integer[]) AS v(id, board, notices) WHERE games.id = v.id"
)


def _columns(rows: list[tuple[int, int | None, int | None]]) -> list[list[int | None]]:
    return [[row[index] for row in rows] for index in range(3)]


class PgAnnouncements:
    _pool: asyncpg.Pool
    _marks: Coalescer[AnnouncedMark, None]  # the marks waiting (PostgresStore's, over _write_marks)

    async def pending_announcements(self) -> list[PendingAnnouncement]:
        rows = await self._pool.fetch(numbered(PENDING_SQL))
        return [from_row(PendingAnnouncement, PENDING_FIELDS, row) for row in rows]

    async def mark_announced(self, mark: AnnouncedMark) -> None:
        """Every published move is marked: the marks made while others are on their way go
        together, in one statement (``_write_marks``), as SQLite's group does."""
        await self._marks.submit(mark)

    async def _write_marks(self, marks: list[AnnouncedMark]) -> list[None]:
        """One statement for a batch of marks, merged by table, in id order; GREATEST never
        lowers a mark another process raised meanwhile. Should it fail (a deadlock with another
        statement locking the same games in another order), each table is marked on its own."""
        rows = merged(marks)
        try:
            await self._pool.execute(_MARKS_SQL, *_columns(rows))
        except asyncpg.PostgresError:
            for row in rows:
                await self._pool.execute(_MARKS_SQL, *_columns([row]))
        return [None] * len(marks)

    async def mark_unreachable(self, table_id: int, since: float | None) -> None:
        if since is None:
            await self._pool.execute("UPDATE games SET unreachable_since = NULL WHERE id = $1", table_id)
        else:  # the first time it was seen stays
            await self._pool.execute(
                "UPDATE games SET unreachable_since = COALESCE(unreachable_since, $1) WHERE id = $2", since, table_id
            )

    async def unreachable_table_ids(self, table_ids: Iterable[int] | None = None) -> dict[int, float]:
        rows = await self._pool.fetch("SELECT id, unreachable_since FROM games WHERE unreachable_since IS NOT NULL")
        found = {row[0]: row[1] for row in rows}
        if table_ids is None:
            return found
        return {table_id: found[table_id] for table_id in table_ids if table_id in found}


_OPEN = "('lobby', 'running')"
# Never started, and cancelled long ago or left in its lobby longer still (db/limits_store.py).
_PURGEABLE = (
    "seed IS NULL AND ((status = 'abandoned' AND updated_at < {0}) OR (status = 'lobby' AND updated_at < {1}))"
)


class PgLimits:
    _pool: asyncpg.Pool

    async def guild_limits(self, guild_id: str) -> dict[str, int]:
        rows = await self._pool.fetch("SELECT name, value FROM guild_limits WHERE guild_id = $1", guild_id)
        return {row[0]: row[1] for row in rows}

    async def set_guild_limit(self, guild_id: str, name: str, value: int | None) -> None:
        if value is None:
            await self._pool.execute("DELETE FROM guild_limits WHERE guild_id = $1 AND name = $2", guild_id, name)
        else:
            await self._pool.execute(
                "INSERT INTO guild_limits (guild_id, name, value) VALUES ($1,$2,$3)"
                " ON CONFLICT (guild_id, name) DO UPDATE SET value = excluded.value",
                guild_id,
                name,
                value,
            )

    async def get_guild_language(self, guild_id: str) -> str | None:
        return await _language(self._pool, "guild_settings", "guild_id", guild_id)

    async def set_guild_language(self, guild_id: str, code: str | None) -> None:
        await _set_language(self._pool, "guild_settings", "guild_id", guild_id, code)

    async def open_counts(self, guild_id: str | None, user_id: str, *, count_tables: bool) -> OpenCounts:
        tables = (
            f"(SELECT COUNT(*) FROM games WHERE guild_id IS NOT DISTINCT FROM $1 AND status IN {_OPEN})"
            if count_tables
            else "0"
        )
        row = await self._pool.fetchrow(
            f"SELECT {tables},"
            " (SELECT COUNT(*) FROM games WHERE host = $2 AND guild_id IS NOT DISTINCT FROM $1 AND status = 'lobby'),"
            " (SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id"
            f"  WHERE s.user_id = $2 AND s.ai_kind IS NULL AND g.guild_id IS NOT DISTINCT FROM $1 AND g.status IN {_OPEN})",
            guild_id,
            user_id,
        )
        assert row is not None
        return OpenCounts(tables=row[0], lobbies_hosted=row[1], games_seated=row[2])

    async def unstarted_to_purge(self, cancelled_before: float, idle_before: float, limit: int) -> list[int]:
        rows = await self._pool.fetch(
            f"SELECT id FROM games WHERE {_PURGEABLE.format('$1', '$2')} ORDER BY id LIMIT $3",
            cancelled_before,
            idle_before,
            limit,
        )
        return [row[0] for row in rows]

    async def purge_unstarted(
        self, table_ids: list[int], cancelled_before: float, idle_before: float
    ) -> list[int]:
        rows = await self._pool.fetch(
            f"DELETE FROM games WHERE id = ANY($1::bigint[]) AND {_PURGEABLE.format('$2', '$3')} RETURNING id",
            list(table_ids),
            cancelled_before,
            idle_before,
        )
        return sorted(row[0] for row in rows)


class PgUndo:
    _pool: asyncpg.Pool

    async def undo_request(self, table_id: int) -> UndoRequest | None:
        row = await self._pool.fetchrow(
            "SELECT version, seat, consents FROM undo_requests WHERE game_id = $1", table_id
        )
        if row is None:
            return None
        return UndoRequest(table_id, row[0], row[1], tuple(int(seat) for seat in row[2].split(",") if seat))

    async def save_undo_request(self, request: UndoRequest) -> None:
        await self._pool.execute(
            "INSERT INTO undo_requests (game_id, version, seat, consents) VALUES ($1,$2,$3,$4)"
            " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, seat = excluded.seat,"
            " consents = excluded.consents",
            request.table_id,
            request.version,
            request.seat,
            ",".join(map(str, request.consents)),
        )

    async def clear_undo_request(self, table_id: int) -> None:
        await self._pool.execute("DELETE FROM undo_requests WHERE game_id = $1", table_id)


class PgClaims:
    """Leases on work done once across processes (engine/referee/claims.py). A claim is one
    upsert per table that takes the row only when it is free, expired or the claimer's own: two
    processes claiming the same table at once queue on its row, and the second finds the first's
    lease and leaves it (the upsert's ``WHERE``). Rows are taken in id order, so two processes
    claiming overlapping sets never deadlock."""

    _pool: asyncpg.Pool

    async def claim(self, kind: str, table_ids: Sequence[int], owner: str, now: float, until: float) -> list[int]:
        if not table_ids:
            return []
        rows = await self._pool.fetch(
            "INSERT INTO claims (kind, table_id, owner, expires_at)"
            " SELECT $1, t, $2, $3 FROM unnest($4::bigint[]) AS t ORDER BY t"
            " ON CONFLICT (kind, table_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at"
            " WHERE claims.owner = excluded.owner OR claims.expires_at <= $5 RETURNING table_id",
            kind,
            owner,
            until,
            sorted(set(table_ids)),
            now,
        )
        held = {row[0] for row in rows}
        return [table_id for table_id in table_ids if table_id in held]

    async def release(self, kind: str, table_ids: Sequence[int], owner: str) -> None:
        await self._pool.execute(
            "DELETE FROM claims WHERE kind = $1 AND owner = $2 AND table_id = ANY($3::bigint[])",
            kind,
            owner,
            list(table_ids),
        )
