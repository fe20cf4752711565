"""The PostgreSQL schema follows SQLite's: a twin for every numbered migration, applied at start-up
(and by several processes starting at once without harm), ending with the same columns."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from db import SqliteStore
from db.postgres.store import MIGRATIONS as PG_MIGRATIONS
from db.postgres.store import PostgresStore
from db.sqlite_store import MIGRATIONS
from tests.stores import PostgresBackend


def numbers(folder) -> list[int]:
    return sorted(int(script.name.split("_", 1)[0]) for script in folder.glob("*.sql"))


def test_every_sqlite_migration_has_its_postgresql_twin_with_the_same_number():
    assert numbers(PG_MIGRATIONS) == numbers(MIGRATIONS)
    assert sorted(p.name for p in PG_MIGRATIONS.glob("*.sql")) == sorted(p.name for p in MIGRATIONS.glob("*.sql"))


@pytest.mark.postgres
async def test_processes_starting_at_once_migrate_once_to_the_columns_of_sqlite(pg_server, tmp_path):
    backend = PostgresBackend(pg_server)
    url = await backend.database_for("schema", empty=True)
    try:
        stores = await asyncio.gather(*(PostgresStore.open(url) for _ in range(3)))
        versions = [await store._pool.fetchval("SELECT MAX(version) FROM schema_version") for store in stores]
        assert versions == [numbers(MIGRATIONS)[-1]] * 3
        assert await stores[0]._pool.fetchval("SELECT COUNT(*) FROM schema_version") == len(numbers(MIGRATIONS))
        theirs = {
            (row[0], row[1])
            for row in await stores[0]._pool.fetch(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'"
                " AND table_name != 'schema_version'"
            )
        }
        for store in stores:
            await store.close()
        lite = await SqliteStore.open(tmp_path / "schema.sqlite3")
        await lite.close()
        with sqlite3.connect(tmp_path / "schema.sqlite3") as connection:
            tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            mine = {
                (table, row[1])
                for table in tables
                if not table.startswith("sqlite_")
                for row in connection.execute(f'PRAGMA table_info("{table}")')
            }
        assert theirs == mine
    finally:
        await backend.drop_all()


@pytest.mark.postgres
async def test_a_pooled_connection_is_given_back_without_a_reset_statement_but_never_in_a_transaction(
    pg_server, monkeypatch
):
    """The pool does not send asyncpg's reset statement after every use (a round trip per read
    and write; the store leaves no session state to undo), yet a transaction left open by a
    failure is still rolled back before the connection serves again."""
    import asyncpg

    resets: list[object] = []
    monkeypatch.setattr(asyncpg.Connection, "reset", lambda self, **_: resets.append(self))
    backend = PostgresBackend(pg_server)
    url = await backend.database_for("reset", empty=True)
    store = await PostgresStore.open(url, min_size=1, max_size=1)
    try:
        for _ in range(3):
            await store.load_table(1)
        with pytest.raises(ZeroDivisionError):
            async with store._pool.acquire() as connection:
                transaction = connection.transaction()
                await transaction.start()
                await connection.execute("CREATE TABLE scratch (x INTEGER)")
                raise ZeroDivisionError  # the transaction is neither committed nor rolled back here
        assert resets == []
        async with store._pool.acquire() as connection:  # the same (only) connection
            assert not connection.is_in_transaction()
            assert await connection.fetchval("SELECT to_regclass('scratch')") is None
    finally:
        await store.close()
        await backend.drop_all()
