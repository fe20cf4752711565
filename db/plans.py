"""The store's queries and writes written once for both backends, as plans.

A plan is a generator that yields the statements it needs, one ``Query`` at a time, and is sent
back each one's answer; it returns what the store method returns:

    def season_games(season_id: int) -> Plan[list[str]]:
        rows = yield fetch("SELECT game FROM season_ratings WHERE season_id = ? ...", season_id)
        return [row[0] for row in rows]

What differs between SQLite and PostgreSQL is the running, not the plan: SQLite's writer thread
runs a write plan on its connection (``run_sqlite``, inside the group's transaction) and its reads
run on the aiosqlite connection (``read_sqlite``); PostgreSQL's store runs both on a pooled
connection (db/postgres/plans.py, which numbers the ``?`` marks). The SQL is what both dialects
accept; where they must differ, a query carries PostgreSQL's own text (``postgresql=``), and a
``lock`` (an advisory lock of PostgreSQL's transaction, for several processes over one database)
is nothing on SQLite, whose one writer already orders every write."""

from __future__ import annotations

import sqlite3
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, TypeVar

import aiosqlite

R = TypeVar("R")

# What a query answers: every row, the first row (or None), the first value of the first row,
# nothing (one statement), nothing (one statement for each of ``rows``), or nothing (a lock).
Answer = Literal["rows", "row", "value", "execute", "many", "lock"]


@dataclass(frozen=True)
class Query:
    answer: Answer
    sql: str
    values: Sequence[Any] = ()
    postgresql: str | None = None  # PostgreSQL's own text, where the dialects differ
    rows: Sequence[Sequence[Any]] = ()  # for "many"


Plan: TypeAlias = Generator[Query, Any, R]


def fetch(sql: str, *values: Any, postgresql: str | None = None) -> Query:
    return Query("rows", sql, values, postgresql)


def fetch_row(sql: str, *values: Any, postgresql: str | None = None) -> Query:
    return Query("row", sql, values, postgresql)


def fetch_value(sql: str, *values: Any, postgresql: str | None = None) -> Query:
    return Query("value", sql, values, postgresql)


def execute(sql: str, *values: Any, postgresql: str | None = None) -> Query:
    """One statement (an empty ``sql``: PostgreSQL's alone)."""
    return Query("execute", sql, values, postgresql)


def execute_many(sql: str, rows: Sequence[Sequence[Any]], *, postgresql: str | None = None) -> Query:
    return Query("many", sql, (), postgresql, rows)


def lock(*key: str) -> Query:
    """Until the transaction ends, this process alone does what ``key`` names (PostgreSQL)."""
    return Query("lock", "\x1f".join(key))


# Plans of one query, for the reads and writes that need no more.


def rows_of(sql: str, *values: Any, postgresql: str | None = None) -> Plan[list[Any]]:
    return (yield fetch(sql, *values, postgresql=postgresql))  # type: ignore[no-any-return]


def column_of(sql: str, *values: Any) -> Plan[list[Any]]:
    """The first column of every row (a list of ids)."""
    return [row[0] for row in (yield fetch(sql, *values))]


def value_of(sql: str, *values: Any) -> Plan[Any]:
    return (yield fetch_value(sql, *values))


def statement(sql: str, *values: Any) -> Plan[None]:
    yield execute(sql, *values)


def marks(count: int) -> str:
    """``?,?,?``: an IN list of ``count`` values."""
    return ",".join("?" * count)


def run_sqlite(connection: sqlite3.Connection, plan: Plan[R]) -> R:
    """Run a plan on a SQLite connection (the writer's thread, inside its transaction)."""
    answer: Any = None
    try:
        while True:
            query = plan.send(answer)
            answer = None
            if query.answer == "many":
                if query.rows:
                    connection.executemany(query.sql, query.rows)
            elif query.answer != "lock" and query.sql:
                rows = connection.execute(query.sql, tuple(query.values)).fetchall()
                answer = _answer(query, rows)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


async def read_sqlite(db: aiosqlite.Connection, plan: Plan[R]) -> R:
    """Run a plan of reads on the store's aiosqlite connection."""
    answer: Any = None
    try:
        while True:
            query = plan.send(answer)
            async with db.execute(query.sql, tuple(query.values)) as cursor:
                answer = _answer(query, list(await cursor.fetchall()))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


def _answer(query: Query, rows: list[Any]) -> Any:
    if query.answer == "rows":
        return rows
    if query.answer == "row":
        return rows[0] if rows else None
    if query.answer == "value":
        return rows[0][0] if rows else None
    return None
