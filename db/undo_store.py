"""The store's side of undo (engine/referee/undo.py): the requests waiting for consent. A mixin
of SqliteStore."""

from __future__ import annotations

from typing import Any

import aiosqlite

from engine.referee.undo import UndoRequest

from .reads import fetch_one
from .writer import Statement


class UndoRows:
    _db: aiosqlite.Connection

    async def _commit_in_group(self, work: Any) -> Any:  # provided by SqliteStore
        raise NotImplementedError

    async def undo_request(self, table_id: int) -> UndoRequest | None:
        row = await fetch_one(self._db, "SELECT version, seat, consents FROM undo_requests WHERE game_id = ?", (table_id,))
        if row is None:
            return None
        consents = tuple(int(seat) for seat in row[2].split(",") if seat)
        return UndoRequest(table_id, row[0], row[1], consents)

    async def save_undo_request(self, request: UndoRequest) -> None:
        await self._commit_in_group(
            Statement(
                "INSERT INTO undo_requests (game_id, version, seat, consents) VALUES (?,?,?,?)"
                " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, seat = excluded.seat,"
                " consents = excluded.consents",
                (request.table_id, request.version, request.seat, ",".join(map(str, request.consents))),
            )
        )

    async def clear_undo_request(self, table_id: int) -> None:
        await self._commit_in_group(Statement("DELETE FROM undo_requests WHERE game_id = ?", (table_id,)))
