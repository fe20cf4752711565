"""Vacations and rematches on SQLite (``VacationStore``, ``RematchStore``): a mixin of SqliteStore."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import aiosqlite

from engine.referee.clock import Vacation
from engine.referee.model import Table

from . import rows as db_rows
from .reads import fetch_all, fetch_for_ids, fetch_one
from .writer import Statement, Work


class VacationQueries:
    _db: aiosqlite.Connection
    _commit_in_group: Callable[[Work], Awaitable[Any]]

    load_table: Callable[[int], Awaitable[Table | None]]  # TableQueries'

    async def vacations_of(self, user_ids: list[str]) -> dict[str, Vacation]:
        rows = await fetch_for_ids(
            self._db,
            "SELECT user_id, MAX(started_at), until FROM vacations WHERE user_id IN ({ids}) GROUP BY user_id",
            user_ids,
            db_rows.IN_LIST_LIMIT,
        )
        return {r[0]: Vacation(started_at=r[1], until=r[2]) for r in rows}

    async def vacations_since(self, user_id: str, since: float) -> list[Vacation]:
        rows = await fetch_all(
            self._db,
            "SELECT started_at, until FROM vacations WHERE user_id = ? AND started_at >= ? ORDER BY started_at",
            (user_id, since),
        )
        return [Vacation(started_at=r[0], until=r[1]) for r in rows]

    async def save_vacation(self, user_id: str, vacation: Vacation) -> None:
        await self._commit_in_group(Statement(_SAVE_VACATION, (user_id, vacation.started_at, vacation.until)))

    async def rematch_of(self, table_id: int) -> Table | None:
        row = await fetch_one(
            self._db,
            "SELECT id FROM games WHERE rematch_of = ? AND status IN ('lobby', 'running') ORDER BY id DESC LIMIT 1",
            (table_id,),
        )
        return None if row is None else await self.load_table(row[0])


_SAVE_VACATION = (
    "INSERT INTO vacations (user_id, started_at, until) VALUES (?,?,?)"
    " ON CONFLICT (user_id, started_at) DO UPDATE SET until = excluded.until"
)
