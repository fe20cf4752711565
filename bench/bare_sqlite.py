"""The physical limit beside the referee: bare single-row commits with the store's pragmas (each
commit synced to disk), on the same disk, three ways:

- plain sqlite3, in the calling thread: the floor of this design on this disk;
- aiosqlite, as the store uses it: one hop to the connection's worker thread per statement
  (BEGIN, INSERT, COMMIT: three hops per commit);
- sqlite3 in a one-thread executor, one hop per whole transaction: what an async store can reach.

And, for comparison only, plain sqlite3 with ``synchronous=NORMAL``: commits that do not wait for
the disk, so the rate of SQLite's own work per commit (what the referee's CPU is held against).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import aiosqlite

from db import sqlite_store

PRAGMAS = tuple(f"PRAGMA {pragma}" for pragma in sqlite_store.PRAGMAS)
NO_SYNC = "PRAGMA synchronous=NORMAL"
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS bare (game_id INTEGER NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,"
    " move TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, n)) WITHOUT ROWID"
)
INSERT = "INSERT INTO bare (game_id, n, seat, move, at) VALUES (?,?,?,?,?)"


def _fresh(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def sqlite3_commits(path: Path, count: int, *, synced: bool = True) -> dict[str, float]:
    """``count`` transactions of one INSERT each; returns commits per second. ``synced=False``:
    the same with commits that do not wait for the disk."""
    _fresh(path)
    connection = sqlite3.connect(path, isolation_level=None)
    for pragma in PRAGMAS if synced else (*PRAGMAS, NO_SYNC):
        connection.execute(pragma)
    connection.execute(SCHEMA)
    started = time.perf_counter()
    for n in range(count):
        connection.execute("BEGIN IMMEDIATE")
        connection.execute(INSERT, (1, n, n % 4, "play 12", started))
        connection.execute("COMMIT")
    seconds = time.perf_counter() - started
    connection.close()
    _fresh(path)
    return {"commits": count, "seconds": seconds, "commits_per_s": count / seconds}


async def aiosqlite_commits(path: Path, count: int) -> dict[str, float]:
    _fresh(path)
    connection = await aiosqlite.connect(path, isolation_level=None)
    for pragma in PRAGMAS:
        await connection.execute(pragma)
    await connection.execute(SCHEMA)
    started = time.perf_counter()
    for n in range(count):
        await connection.execute("BEGIN IMMEDIATE")
        await connection.execute(INSERT, (1, n, n % 4, "play 12", started))
        await connection.execute("COMMIT")
    seconds = time.perf_counter() - started
    await connection.close()
    _fresh(path)
    return {"commits": count, "seconds": seconds, "commits_per_s": count / seconds}


async def one_hop_commits(path: Path, count: int) -> dict[str, float]:
    _fresh(path)
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bare-sqlite")
    loop = asyncio.get_running_loop()

    def connect() -> sqlite3.Connection:
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        for pragma in PRAGMAS:
            connection.execute(pragma)
        connection.execute(SCHEMA)
        return connection

    def commit(n: int, at: float) -> None:
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute(INSERT, (1, n, n % 4, "play 12", at))
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise

    connection = await loop.run_in_executor(executor, connect)
    started = time.perf_counter()
    for n in range(count):
        await loop.run_in_executor(executor, commit, n, started)
    seconds = time.perf_counter() - started
    await loop.run_in_executor(executor, connection.close)
    executor.shutdown()
    _fresh(path)
    return {"commits": count, "seconds": seconds, "commits_per_s": count / seconds}
