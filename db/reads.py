"""The store's reads: one statement, its rows fetched and its cursor closed, in one call.

Every query module reads through these rather than opening and closing a cursor of its own
(an unfinished cursor keeps its statement, and with it a read, open on the connection)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import aiosqlite

R = TypeVar("R")


async def fetch_all(db: aiosqlite.Connection, sql: str, values: Iterable[Any] = ()) -> list[Any]:
    async with db.execute(sql, tuple(values)) as cursor:
        return list(await cursor.fetchall())


async def fetch_one(db: aiosqlite.Connection, sql: str, values: Iterable[Any] = ()) -> Any | None:
    """The first row, or None when there is none."""
    async with db.execute(sql, tuple(values)) as cursor:
        return await cursor.fetchone()


async def fetch_records(
    db: aiosqlite.Connection, record: Callable[[Any], R], sql: str, values: Iterable[Any] = ()
) -> list[R]:
    """Every row, each made a record by ``record`` (``seat_from_row``...)."""
    return [record(row) for row in await fetch_all(db, sql, values)]


async def fetch_column(db: aiosqlite.Connection, sql: str, values: Iterable[Any] = ()) -> list[Any]:
    """The first column of every row (a list of ids)."""
    return [row[0] for row in await fetch_all(db, sql, values)]


async def fetch_for_ids(db: aiosqlite.Connection, sql: str, ids: list[str], chunk: int = 10_000) -> list[Any]:
    """The rows of ``sql``, whose ``{ids}`` is an IN list, for any number of ids: one statement per
    ``chunk`` of them (SQLite binds at most 32,766 values in one statement)."""
    rows: list[Any] = []
    for start in range(0, len(ids), chunk):
        part = ids[start : start + chunk]
        rows.extend(await fetch_all(db, sql.format(ids=",".join("?" * len(part))), part))
    return rows
