"""Claims on SQLite (``ClaimStore``; engine/referee/claims.py says what they are for): one row
per (kind, table) in ``claims`` (migration 0006). A mixin of SqliteStore.

Claiming is one upsert in the group commit: the row is taken when it is free, expired, or
already the claimer's. Two processes claim through their own writers, and SQLite's write lock
(``BEGIN IMMEDIATE``) puts their transactions one after the other: the second sees the first's
row and leaves it."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from .rows import IN_LIST_LIMIT
from .writer import Call, Work

_TAKE = (
    "INSERT INTO claims (kind, table_id, owner, expires_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (kind, table_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at"
    " WHERE claims.owner = excluded.owner OR claims.expires_at <= ?"
)


class ClaimQueries:
    _commit_in_group: Callable[[Work], Awaitable[Any]]

    async def claim(self, kind: str, table_ids: Sequence[int], owner: str, now: float, until: float) -> list[int]:
        return await self._commit_in_group(Call(_claim, kind, list(table_ids), owner, now, until))

    async def release(self, kind: str, table_ids: Sequence[int], owner: str) -> None:
        await self._commit_in_group(Call(_release, kind, list(table_ids), owner))


def _claim(
    connection: sqlite3.Connection, kind: str, table_ids: list[int], owner: str, now: float, until: float
) -> list[int]:
    connection.executemany(_TAKE, [(kind, table_id, owner, until, now) for table_id in table_ids])
    held: set[int] = set()
    for start in range(0, len(table_ids), IN_LIST_LIMIT):
        chunk = table_ids[start : start + IN_LIST_LIMIT]
        held.update(
            row[0]
            for row in connection.execute(
                f"SELECT table_id FROM claims WHERE kind = ? AND owner = ? AND expires_at = ?"
                f" AND table_id IN ({','.join('?' * len(chunk))})",
                (kind, owner, until, *chunk),
            )
        )
    return [table_id for table_id in table_ids if table_id in held]


def _release(connection: sqlite3.Connection, kind: str, table_ids: list[int], owner: str) -> None:
    connection.executemany(
        "DELETE FROM claims WHERE kind = ? AND table_id = ? AND owner = ?",
        [(kind, table_id, owner) for table_id in table_ids],
    )
