"""The announcement outbox on SQLite (engine/referee/announcements.py says what it is for).

Three columns of ``games`` (migration 0004): ``announced_version``, ``notified_version`` and
``unreachable_since``. A move never writes them, so a move costs nothing more than before but one
partial index entry (``games_unannounced``: the tables behind). A front end marks a table
announced once its board is posted: one mark per move, so the marks waiting for the same group
transaction are written together, in a single statement (``_MarkBatch``).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from engine.referee.announcements import AnnouncedMark, PendingAnnouncement

_ROWS_PER_STATEMENT = 1_000  # SQLite binds at most 32,766 values in one statement
_MARK_SQL = (
    "WITH v(id, board, notices) AS (VALUES {rows})"
    " UPDATE games SET announced_version = MAX(announced_version, COALESCE(v.board, -1)),"
    " notified_version = MAX(notified_version, COALESCE(v.notices, -1)),"
    " unreachable_since = CASE WHEN v.board IS NULL THEN unreachable_since END"
    " FROM v WHERE games.id = v.id"
)


class AnnouncementQueries:
    """Mixed into SqliteStore: ``_db``, ``_commit_in_group`` and ``_enqueue`` are its own."""

    _db: Any
    _commit_in_group: Callable[[Any], Awaitable[Any]]
    _enqueue: Callable[[Any], asyncio.Future[Any]]

    def _init_marks(self) -> None:
        self._marks = _MarkBatch()

    async def pending_announcements(self) -> list[PendingAnnouncement]:
        async with self._db.execute(
            "SELECT id, version, announced_version, notified_version, unreachable_since"
            " FROM games INDEXED BY games_unannounced WHERE status IN ('running', 'finished')"
            " AND (announced_version < version OR notified_version < version) ORDER BY id"
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            PendingAnnouncement(
                table_id=row[0],
                version=row[1],
                board_version=row[2],
                notice_version=row[3],
                unreachable_since=row[4],
            )
            for row in rows
        ]

    async def mark_announced(self, mark: AnnouncedMark) -> None:
        # Each caller waits for a future of its own (cancelling one wait cancels no other), that
        # the write which takes its mark resolves.
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self._marks.add(mark, waiter):  # the first mark since the last write: queue one
            work = _TakeMarks(self._marks)
            try:
                written = self._enqueue(work)
            except Exception:  # the store is closed: nothing will take these marks
                self._marks.take()
                raise
            written.add_done_callback(work.answer)
        await waiter

    async def mark_unreachable(self, table_id: int, since: float | None) -> None:
        if since is None:
            await self._commit_in_group(
                _Sql("UPDATE games SET unreachable_since = NULL WHERE id = ?", (table_id,))
            )
        else:  # the first time it was seen stays
            await self._commit_in_group(
                _Sql(
                    "UPDATE games SET unreachable_since = COALESCE(unreachable_since, ?) WHERE id = ?",
                    (since, table_id),
                )
            )

    async def unreachable_table_ids(self, table_ids: Iterable[int] | None = None) -> dict[int, float]:
        async with self._db.execute(
            "SELECT id, unreachable_since FROM games INDEXED BY games_unreachable WHERE unreachable_since IS NOT NULL"
        ) as cursor:
            rows = await cursor.fetchall()
        found = {row[0]: row[1] for row in rows}
        if table_ids is None:
            return found
        return {table_id: found[table_id] for table_id in table_ids if table_id in found}


class _Sql:
    """One statement as a unit of the group transaction."""

    def __init__(self, sql: str, values: tuple[Any, ...]) -> None:
        self.sql, self.values = sql, values

    def run(self, connection: sqlite3.Connection) -> None:
        connection.execute(self.sql, self.values)


class _TakeMarks:
    """A unit of the group transaction: writes whatever marks are waiting when it runs, then
    (on the event loop) answers the callers whose marks it took."""

    def __init__(self, batch: _MarkBatch) -> None:
        self.batch = batch
        self.waiters: list[asyncio.Future[None]] = []

    def run(self, connection: sqlite3.Connection) -> None:
        rows, self.waiters = self.batch.take()
        for start in range(0, len(rows), _ROWS_PER_STATEMENT):
            chunk = rows[start : start + _ROWS_PER_STATEMENT]
            connection.execute(
                _MARK_SQL.format(rows=",".join(["(?,?,?)"] * len(chunk))),
                [value for row in chunk for value in row],
            )

    def answer(self, written: asyncio.Future[Any]) -> None:
        error = written.exception() if not written.cancelled() else None
        for waiter in self.waiters:
            if waiter.done():
                continue
            if error is not None:
                waiter.set_exception(error)
            else:
                waiter.set_result(None)


class _MarkBatch:
    """The marks waiting for the next group transaction, merged by table (the highest versions),
    and their callers. Filled on the event loop, written (and emptied) in the connection's
    thread: hence the lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._marks: dict[int, tuple[int | None, int | None]] = {}
        self._waiters: list[asyncio.Future[None]] = []
        self._queued = False  # a write is queued that has not taken the marks yet

    def add(self, mark: AnnouncedMark, waiter: asyncio.Future[None]) -> bool:
        """Merge a mark; True when no write is queued to take it (the caller queues one)."""
        with self._lock:
            board, notices = self._marks.get(mark.table_id, (None, None))
            if mark.board:
                board = max(board if board is not None else -1, mark.version)
            if mark.notices:
                notices = max(notices if notices is not None else -1, mark.version)
            self._marks[mark.table_id] = (board, notices)
            self._waiters.append(waiter)
            queue, self._queued = not self._queued, True
            return queue

    def take(self) -> tuple[list[tuple[int, int | None, int | None]], list[asyncio.Future[None]]]:
        """The rows to write and their callers; the next mark queues a new write."""
        with self._lock:
            marks, self._marks = self._marks, {}
            waiters, self._waiters, self._queued = self._waiters, [], False
        return [(table_id, board, notices) for table_id, (board, notices) in marks.items()], waiters
