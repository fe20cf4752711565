"""Keeping SQLite's write-ahead log (the ``-wal`` file beside the database) small.

Every commit appends the pages it changed to the WAL; a checkpoint copies them back into the
database file. SQLite starts writing the WAL again from its beginning only when a transaction
starts after a checkpoint copied *every* frame and no reader still uses them; and the file never
shrinks unless told to. Under a steady stream of moves neither happened: the background
checkpoint (PASSIVE, so that it never blocks the writer) copied what was there when it started,
the writer had appended more by the time it finished, so the WAL was never entirely copied when
the next transaction began: it grew by megabytes a second (800 MB in 45 s) beside a 4 MB
database, and stayed that large until the store closed.

Three things keep it bounded now:

- the background thread still copies frames every second without blocking anyone (PASSIVE);
- the writer itself, between two groups of moves (``restart_if_large``), when the WAL passed
  ``WAL_RESTART_BYTES``: a RESTART checkpoint copies the few frames the background one has not
  copied yet and makes the next transaction write the WAL from its beginning; being the only
  writer, it waits for nobody, and the moves that arrive meanwhile form the next group;
- ``journal_size_limit``: when the WAL starts again from its beginning, SQLite truncates the file
  to ``JOURNAL_SIZE_LIMIT``; and once the writes stop, the background thread truncates it to
  nothing as soon as every frame is copied (TRUNCATE, which gives up at once if a write is in
  progress: it tries again a second later).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading

MB = 1024 * 1024
WAL_RESTART_BYTES = 16 * MB  # the writer restarts the WAL past this size
JOURNAL_SIZE_LIMIT = 4 * MB  # the WAL file is cut back to this when it starts again
CHECKPOINT_SECONDS = 1.0  # the background thread's period
BUSY_TIMEOUT_MS = 5000  # the store's connections' busy timeout (see PRAGMAS)


def wal_size(path: str) -> int:
    """The WAL file's size in bytes (0 when there is none)."""
    try:
        return os.stat(path + "-wal").st_size
    except OSError:
        return 0


def restart_if_large(connection: sqlite3.Connection, path: str) -> bool:
    """In the writer's thread, between two groups: when the WAL is past ``WAL_RESTART_BYTES``,
    checkpoint it entirely so that the next transaction writes it from its beginning (and cuts
    the file to ``JOURNAL_SIZE_LIMIT``). Never waits: with a reader on old frames, or the
    background checkpoint at work, it copies what it can and the next group tries again.
    Returns whether it checkpointed."""
    if wal_size(path) <= WAL_RESTART_BYTES or connection.in_transaction:
        return False
    return _checkpoint(connection, "RESTART")


def _checkpoint(connection: sqlite3.Connection, mode: str) -> bool:
    """``wal_checkpoint(mode)`` without waiting on a busy lock; True if every frame was copied
    (and, for RESTART and TRUNCATE, the WAL will start again from its beginning)."""
    try:
        connection.execute("PRAGMA busy_timeout=0")
        try:
            busy, _, _ = connection.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        finally:
            connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    except sqlite3.Error:  # a statement of this connection still reading, say: next time
        return False
    return busy == 0


def checkpoint_every(path: str, seconds: float, stop: threading.Event) -> None:
    """Until ``stop``: every ``seconds``, copy the WAL's frames into the database (PASSIVE: never
    blocks the writer nor waits for readers); when all of them are copied and the file is larger
    than ``JOURNAL_SIZE_LIMIT`` (the writes have stopped after a busy time), truncate it."""
    try:
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error:
        return
    try:
        connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        while not stop.wait(seconds):
            with contextlib.suppress(sqlite3.Error):  # busy or a transient error: try again next time
                busy, frames, copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                if busy == 0 and frames == copied and wal_size(path) > JOURNAL_SIZE_LIMIT:
                    _checkpoint(connection, "TRUNCATE")
    finally:
        connection.close()
