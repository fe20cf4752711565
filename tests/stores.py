"""The store tests run against both backends: SQLite and a real PostgreSQL server.

A test module marked ``pytestmark = pytest.mark.both_backends`` runs each of its tests twice
(tests/conftest.py parametrises ``store_backend``: ``sqlite`` and ``postgres``, the latter marked
``postgres`` so that ``pytest -m postgres`` runs them alone); a test marked ``sqlite_only`` (it
looks at SQLite's own files or connection) runs once. The tests open their store with
``open_test_store(path)``: a SQLite file as before, or, under ``postgres``, a database of its own
for that path, made from a migrated template on first use (so a test that "restarts" by opening
the same path again finds its data) and dropped when the test ends.

One server per session (``pg_server``): the system's PostgreSQL when installed, else the pinned
wheel's binaries (db/postgres/local_server.py); ``TEST_POSTGRES_BINARIES=wheel`` forces the wheel.
Without either, the PostgreSQL tests skip, but FAIL when ``CI=true`` (tests/conftest.py)."""

from __future__ import annotations

import asyncio
import hashlib
import os
import threading
from collections.abc import Coroutine
from typing import Any

import asyncpg

from db import SqliteStore
from db.postgres.local_server import LocalServer
from db.postgres.store import PostgresStore

TEMPLATE = "referee_template"


class PostgresBackend:
    """Databases of one test on the session's server."""

    def __init__(self, server: LocalServer) -> None:
        self.server = server
        self.databases: dict[str, str] = {}

    async def database_for(self, key: str, *, empty: bool = False) -> str:
        """The URL of the database of ``key`` (a test's SQLite path), made on first use: from the
        migrated template, or ``empty`` (not even migrated)."""
        if key not in self.databases:
            name = "t_" + hashlib.sha1(key.encode()).hexdigest()[:20]
            admin = await asyncpg.connect(self.server.url())
            try:
                await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
                template = "template0" if empty else TEMPLATE
                await admin.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
            finally:
                await admin.close()
            self.databases[key] = name
        return self.server.url(self.databases[key])

    async def drop_all(self) -> None:
        if not self.databases:
            return
        admin = await asyncpg.connect(self.server.url())
        try:
            for name in self.databases.values():
                await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()
        self.databases.clear()


async def make_template(server: LocalServer) -> None:
    """The migrated, empty database every test database is copied from (once per session)."""
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await admin.close()
    store = await PostgresStore.open(server.url(TEMPLATE), min_size=1, max_size=1)
    await store.close()


# The backend of the test running now (set by the ``store_backend`` fixture; None: SQLite).
current: PostgresBackend | None = None


async def open_test_store(path: str | os.PathLike[str], **options: Any) -> Any:
    """The store of ``path`` on the backend of the test running now."""
    if current is None:
        return await SqliteStore.open(path)
    return await PostgresStore.open(await current.database_for(str(path)), **options)


def backend_name() -> str:
    return "sqlite" if current is None else "postgres"


def run_aside(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run ``coroutine`` to its end on an event loop of its own, in a thread of its own: from a
    synchronous fixture, whatever loop the test itself runs on."""
    answer: list[Any] = []

    def run() -> None:
        try:
            answer.append((True, asyncio.run(coroutine)))
        except BaseException as error:
            answer.append((False, error))

    thread = threading.Thread(target=run, name="pg-fixture")
    thread.start()
    thread.join()
    ok, value = answer[0]
    if not ok:
        raise value
    return value


async def raw_sql(store: Any, sql: str, *values: Any) -> list[tuple[Any, ...]]:
    """Run one statement beside the store's own queries (``?`` marks, as SQLite writes them) and
    return its rows: how a test looks into, or changes behind, either backend."""
    if isinstance(store, SqliteStore):
        async with store._db.execute(sql, values) as cursor:
            rows = await cursor.fetchall()
        return [tuple(row) for row in rows]
    parts = sql.split("?")
    numbered = parts[0] + "".join(f"${number}{part}" for number, part in enumerate(parts[1:], 1))
    async with store._pool.acquire() as connection:
        return [tuple(row) for row in await connection.fetch(numbered, *values)]
