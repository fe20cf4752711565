"""The plans of db/plans.py run on PostgreSQL: the same queries as on SQLite, their ``?`` marks
numbered as PostgreSQL's ``$1, $2...``, and ``lock`` steps taken as advisory locks of the
transaction (several processes share the database)."""

from __future__ import annotations

import functools
import re
from typing import Any

import asyncpg

from ..plans import Plan, R

_INDEX_HINT = re.compile(r" INDEXED BY \w+")


@functools.cache
def numbered(sql: str) -> str:
    """SQLite's text in PostgreSQL's: each ``?`` (none of our statements has one in a quoted
    string) becomes ``$1``, ``$2``...; SQLite's index hints (``INDEXED BY``) are left out."""
    parts = _INDEX_HINT.sub("", sql).split("?")
    return parts[0] + "".join(f"${number}{part}" for number, part in enumerate(parts[1:], 1))


async def run_postgres(connection: asyncpg.Connection, plan: Plan[R]) -> R:
    """Run a plan on one connection (a write inside the caller's transaction)."""
    answer: Any = None
    try:
        while True:
            query = plan.send(answer)
            answer = None
            sql = numbered(query.sql) if query.postgresql is None else query.postgresql
            if query.answer == "lock":
                await connection.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", query.sql)
            elif query.answer == "many":
                if query.rows:
                    await connection.executemany(sql, query.rows)
            elif query.answer == "rows":
                answer = [tuple(row) for row in await connection.fetch(sql, *query.values)]
            elif query.answer == "row":
                row = await connection.fetchrow(sql, *query.values)
                answer = None if row is None else tuple(row)
            elif query.answer == "value":
                answer = await connection.fetchval(sql, *query.values)
            else:
                await connection.execute(sql, *query.values)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


async def read_postgres(pool: asyncpg.Pool, plan: Plan[R]) -> R:
    async with pool.acquire() as connection:
        return await run_postgres(connection, plan)


async def write_postgres(pool: asyncpg.Pool, plan: Plan[R]) -> R:
    """Run a write plan in a transaction of its own."""
    async with pool.acquire() as connection, connection.transaction():
        return await run_postgres(connection, plan)
