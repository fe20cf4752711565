"""The write-ahead log stays bounded under writes that never pause, and shrinks once they stop.

Sizes are scaled down (a restart past 256 KB instead of 16 MB) so that the test writes little."""

from __future__ import annotations

import asyncio
import time

import pytest

from db import SqliteStore, wal
from engine.referee import Table

KB = 1024


def big_lobby(n: int) -> Table:
    # About 6 KB a row: a few pages written per table.
    return Table(game="nim", host=f"host{n}", options={"pad": "x" * 6000}, created_at=n, updated_at=n)


async def write_without_pause(store: SqliteStore, tables: int, writers: int) -> int:
    """``writers`` coroutines each creating tables one after another: the group writer always has
    the next group waiting. Returns the largest WAL size seen after any write."""
    largest = 0

    async def writer(first: int) -> None:
        nonlocal largest
        for n in range(first, tables, writers):
            await store.create_table(big_lobby(n))
            largest = max(largest, wal.wal_size(store.path))

    await asyncio.gather(*(writer(first) for first in range(writers)))
    return largest


@pytest.fixture
def small_wal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wal, "WAL_RESTART_BYTES", 256 * KB)
    monkeypatch.setattr(wal, "JOURNAL_SIZE_LIMIT", 64 * KB)


async def test_the_wal_stays_bounded_while_writes_never_pause(tmp_path, small_wal):
    store = await SqliteStore.open(tmp_path / "busy.sqlite3")
    try:
        # The scaled-down limit, on the connection that commits (the group writer's).
        await store._writer.call(lambda connection: connection.execute(f"PRAGMA journal_size_limit={wal.JOURNAL_SIZE_LIMIT}").fetchall())
        largest = await write_without_pause(store, tables=1500, writers=20)
    finally:
        await store.close()
    # ~10 MB were written in all; the WAL never holds much more than the restart size plus a group.
    assert largest < 4 * wal.WAL_RESTART_BYTES, largest


async def test_the_wal_shrinks_once_the_writes_stop(tmp_path, small_wal, monkeypatch):
    monkeypatch.setattr(wal, "CHECKPOINT_SECONDS", 0.2)
    monkeypatch.setattr(wal, "WAL_RESTART_BYTES", 1 << 40)  # only the idle truncation is tested here
    store = await SqliteStore.open(tmp_path / "idle.sqlite3")
    try:
        # The largest WAL seen while writing: on a loaded machine the checkpoint thread may
        # already have truncated it between the last write and a read made afterwards.
        busy = await write_without_pause(store, tables=300, writers=10)
        deadline = time.monotonic() + 30  # generous: a loaded machine checkpoints late, an idle one at once
        while wal.wal_size(store.path) > wal.JOURNAL_SIZE_LIMIT and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        idle = wal.wal_size(store.path)
        # Nothing was lost: every table is there, and the store goes on writing.
        async with store._db.execute("SELECT COUNT(*) FROM games") as cursor:
            assert (await cursor.fetchone())[0] == 300
        await store.create_table(big_lobby(301))
    finally:
        await store.close()
    assert busy > wal.JOURNAL_SIZE_LIMIT >= idle, (busy, idle)


async def test_the_journal_size_limit_is_set(tmp_path):
    store = await SqliteStore.open(tmp_path / "limit.sqlite3")
    async with store._db.execute("PRAGMA journal_size_limit") as cursor:
        assert (await cursor.fetchone())[0] == wal.JOURNAL_SIZE_LIMIT
    writer_limit = await store._writer.call(lambda connection: connection.execute("PRAGMA journal_size_limit").fetchone()[0])
    assert writer_limit == wal.JOURNAL_SIZE_LIMIT  # the connection that commits
    await store.close()
