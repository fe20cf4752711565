"""The store's side of the limits (engine/referee/limits.py): server settings, the counts that
admission checks, and the purge of lobbies never started. A mixin of SqliteStore."""

from __future__ import annotations

import sqlite3
from typing import Any

import aiosqlite

from engine.referee.limits import OpenCounts

from .reads import fetch_all, fetch_column, fetch_one
from .writer import Call, Statement

_OPEN = "('lobby', 'running')"


class LimitsRows:
    _db: aiosqlite.Connection

    async def _commit_in_group(self, work: Any) -> Any:  # provided by SqliteStore
        raise NotImplementedError

    async def guild_limits(self, guild_id: str) -> dict[str, int]:
        rows = await fetch_all(self._db, "SELECT name, value FROM guild_limits WHERE guild_id = ?", (guild_id,))
        return {row[0]: row[1] for row in rows}

    async def set_guild_limit(self, guild_id: str, name: str, value: int | None) -> None:
        if value is None:
            work = Statement("DELETE FROM guild_limits WHERE guild_id = ? AND name = ?", (guild_id, name))
        else:
            work = Statement(
                "INSERT INTO guild_limits (guild_id, name, value) VALUES (?,?,?)"
                " ON CONFLICT (guild_id, name) DO UPDATE SET value = excluded.value",
                (guild_id, name, value),
            )
        await self._commit_in_group(work)

    async def get_guild_language(self, guild_id: str) -> str | None:
        row = await fetch_one(self._db, "SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return row[0] if row else None

    async def set_guild_language(self, guild_id: str, code: str | None) -> None:
        await self._commit_in_group(
            Statement(
                "INSERT INTO guild_settings (guild_id, language) VALUES (?,?)"
                " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                (guild_id, code),
            )
        )

    async def open_counts(self, guild_id: str | None, user_id: str, *, count_tables: bool) -> OpenCounts:
        """Three small counts, each read from an index: the server's open tables (when asked),
        the lobbies the player hosts, the open tables where the player holds a seat."""
        tables = (
            f"(SELECT COUNT(*) FROM games WHERE guild_id IS ?1 AND status IN {_OPEN})"
            if count_tables
            else "0"
        )
        row = await fetch_one(
            self._db,
            f"SELECT {tables},"
            " (SELECT COUNT(*) FROM games INDEXED BY games_lobbies_by_host"
            "  WHERE host = ?2 AND guild_id IS ?1 AND status = 'lobby'),"
            " (SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id"
            f"  WHERE s.user_id = ?2 AND s.ai_kind IS NULL AND g.guild_id IS ?1 AND g.status IN {_OPEN})",
            (guild_id, user_id),
        )
        assert row is not None
        return OpenCounts(tables=row[0], lobbies_hosted=row[1], games_seated=row[2])

    async def unstarted_to_purge(self, cancelled_before: float, idle_before: float, limit: int) -> list[int]:
        return await fetch_column(
            self._db,
            f"SELECT id FROM games WHERE {_PURGEABLE} ORDER BY id LIMIT ?",
            (cancelled_before, idle_before, limit),
        )

    async def purge_unstarted(
        self, table_ids: list[int], cancelled_before: float, idle_before: float
    ) -> list[int]:
        return await self._commit_in_group(Call(_purge, table_ids, cancelled_before, idle_before))


# Never started (no seed), and cancelled long ago or left in its lobby longer still. Seats go
# with their game (ON DELETE CASCADE); a lobby has no moves, state or result.
_PURGEABLE = (
    "seed IS NULL AND ((status = 'abandoned' AND updated_at < ?1) OR (status = 'lobby' AND updated_at < ?2))"
)


def _purge(
    connection: sqlite3.Connection, table_ids: list[int], cancelled_before: float, idle_before: float
) -> list[int]:
    marks = ",".join("?" * len(table_ids))
    rows = connection.execute(
        f"DELETE FROM games WHERE id IN ({marks}) AND {_PURGEABLE.replace('?1', '?').replace('?2', '?')} RETURNING id",
        (*table_ids, cancelled_before, idle_before),
    ).fetchall()
    return sorted(row[0] for row in rows)
