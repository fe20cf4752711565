"""The group writer's own thread and connection: public API only, one database for reads and
writes whatever the path, and nothing left running once the store closes."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from db import SqliteStore
from engine.referee import Table

DB = Path(__file__).resolve().parents[2] / "db"
# What the store once reached inside aiosqlite to queue work on its thread: an upgrade of the
# library could break every write.
PRIVATE = re.compile(r"\._(tx|execute|running|conn)\b")


def lobby(n: int) -> Table:
    return Table(game="nim", host=f"host{n}", options={}, created_at=n, updated_at=n)


def test_the_store_uses_no_private_attribute_of_aiosqlite() -> None:
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(DB.glob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if PRIVATE.search(line)
    ]
    assert not found, found


async def test_an_in_memory_store_reads_what_it_wrote() -> None:
    """Reads and writes have a connection each: ':memory:' must still be one database."""
    store = await SqliteStore.open(":memory:")
    try:
        table_id = await store.create_table(lobby(1))
        loaded = await store.load_table(table_id)
        assert loaded is not None and loaded.host == "host1"
    finally:
        await store.close()


async def test_closing_the_store_ends_the_writer_thread(tmp_path) -> None:
    store = await SqliteStore.open(tmp_path / "close.sqlite3")
    await store.create_table(lobby(1))
    writer = store._writer._thread
    assert writer.is_alive() and writer.name == "sqlite-writer"
    await store.close()
    writer.join(timeout=5)
    assert not writer.is_alive()
    assert writer not in threading.enumerate()
