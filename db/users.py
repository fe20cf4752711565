"""A player's flags and settings on SQLite (``UserStore``): a mixin of SqliteStore."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import aiosqlite

from engine.referee.clock import QuietHours

from . import rows as db_rows
from .reads import fetch_for_ids, fetch_one
from .writer import Statement, Work


class UserQueries:
    _db: aiosqlite.Connection
    _commit_in_group: Callable[[Work], Awaitable[Any]]

    async def get_quiet_hours(self, user_id: str) -> QuietHours | None:
        return (await self.quiet_hours_of([user_id])).get(user_id)

    async def quiet_hours_of(self, user_ids: list[str]) -> dict[str, QuietHours]:
        rows = await fetch_for_ids(
            self._db,
            "SELECT user_id, time_zone, quiet_start, quiet_end FROM user_settings"
            " WHERE time_zone IS NOT NULL AND user_id IN ({ids})",
            user_ids,
            db_rows.IN_LIST_LIMIT,
        )
        return {r[0]: QuietHours(time_zone=r[1], start_hour=r[2], end_hour=r[3]) for r in rows}

    async def set_quiet_hours(self, user_id: str, quiet: QuietHours | None) -> None:
        values = (None, None, None) if quiet is None else (quiet.time_zone, quiet.start_hour, quiet.end_hour)
        await self._commit_in_group(Statement(_SET_QUIET_HOURS, (user_id, *values)))

    async def get_user_flag(self, user_id: str, flag: str) -> bool:
        row = await fetch_one(
            self._db,
            "SELECT value FROM user_flags WHERE user_id = ? AND flag = ?", (user_id, flag),
        )
        return bool(row and row[0])

    async def set_user_flag(self, user_id: str, flag: str, value: bool) -> None:
        await self._commit_in_group(Statement(_SET_USER_FLAG, (user_id, flag, int(value))))

    async def get_user_language(self, user_id: str) -> str | None:
        row = await fetch_one(self._db, "SELECT language FROM user_settings WHERE user_id = ?", (user_id,))
        return row[0] if row else None

    async def set_user_language(self, user_id: str, code: str | None) -> None:
        await self._commit_in_group(Statement(_SET_USER_LANGUAGE, (user_id, code)))


_SET_QUIET_HOURS = (
    "INSERT INTO user_settings (user_id, time_zone, quiet_start, quiet_end) VALUES (?,?,?,?)"
    " ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone,"
    " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end"
)
_SET_USER_LANGUAGE = (
    "INSERT INTO user_settings (user_id, language) VALUES (?,?)"
    " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language"
)
_SET_USER_FLAG = (
    "INSERT INTO user_flags (user_id, flag, value) VALUES (?,?,?)"
    " ON CONFLICT (user_id, flag) DO UPDATE SET value = excluded.value"
)
