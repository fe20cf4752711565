"""The announcement outbox on SQLite (engine/referee/announcements.py says what it is for).

Three columns of ``games`` (migration 0004): ``announced_version``, ``notified_version`` and
``unreachable_since``. A move never writes them, so a move costs nothing more than before but one
partial index entry (``games_unannounced``: the tables behind). A front end marks a table
announced once its board is posted: one mark per move, so the marks waiting for the same group
transaction are merged and written together, in a single statement (``_MarkBatch``). The one
write that lowers a mark is the vote that abandons a game (a trigger, migration 0012): its end is
owed though no move raised the version.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from engine.referee.model import AnnouncedMark, PendingAnnouncement

from .reads import fetch_all, fetch_records
from .rows import from_row
from .writer import Work

# The columns read for a PendingAnnouncement, as its fields.
PENDING_FIELDS = ("table_id", "version", "board_version", "notice_version", "unreachable_since")
# The tables behind (both stores: PostgreSQL's numbers the marks and leaves out the index hint).
PENDING_SQL = (
    "SELECT id, version, announced_version, notified_version, unreachable_since"
    " FROM games INDEXED BY games_unannounced"
    " WHERE (status IN ('running', 'finished') OR status = 'abandoned' AND seed IS NOT NULL)"
    " AND (announced_version < version OR notified_version < version) ORDER BY id"
)

_ROWS_PER_STATEMENT = 1_000  # SQLite binds at most 32,766 values in one statement
_MARK_SQL = (
    "WITH v(id, board, notices) AS (VALUES {rows})"
    " UPDATE games SET announced_version = MAX(announced_version, COALESCE(v.board, -1)),"
    " notified_version = MAX(notified_version, COALESCE(v.notices, -1)),"
    " unreachable_since = CASE WHEN v.board IS NULL THEN unreachable_since END"
    " FROM v WHERE games.id = v.id"
)


class AnnouncementQueries:
    """Mixed into SqliteStore: ``_db`` and ``_commit_in_group`` are its own."""

    _db: Any
    _commit_in_group: Callable[[Any], Awaitable[Any]]

    def _init_marks(self) -> None:
        self._marks = _MarkBatch()

    async def pending_announcements(self) -> list[PendingAnnouncement]:
        return await fetch_records(
            self._db, lambda row: from_row(PendingAnnouncement, PENDING_FIELDS, row), PENDING_SQL
        )

    async def mark_announced(self, mark: AnnouncedMark) -> None:
        # Every caller queues a unit of its own (and waits for it as any write does); the first
        # of them to run writes every mark merged so far, the others find nothing left to write.
        self._marks.add(mark)
        await self._commit_in_group(_TakeMarks(self._marks))

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
        rows = await fetch_all(
            self._db,
            "SELECT id, unreachable_since FROM games INDEXED BY games_unreachable WHERE unreachable_since IS NOT NULL",
        )
        found = {row[0]: row[1] for row in rows}
        if table_ids is None:
            return found
        return {table_id: found[table_id] for table_id in table_ids if table_id in found}


class _Sql(Work):
    """One statement as a unit of the group transaction."""

    def __init__(self, sql: str, values: tuple[Any, ...]) -> None:
        self.sql, self.values = sql, values

    def run(self, connection: sqlite3.Connection) -> None:
        connection.execute(self.sql, self.values)


class _TakeMarks(Work):
    """A unit of the group transaction: writes whatever marks are waiting when it runs."""

    def __init__(self, batch: _MarkBatch) -> None:
        self.batch = batch

    def run(self, connection: sqlite3.Connection) -> None:
        rows = self.batch.take()
        for start in range(0, len(rows), _ROWS_PER_STATEMENT):
            chunk = rows[start : start + _ROWS_PER_STATEMENT]
            connection.execute(
                _MARK_SQL.format(rows=",".join(["(?,?,?)"] * len(chunk))),
                [value for row in chunk for value in row],
            )


class _MarkBatch:
    """The marks waiting for the next group transaction, merged by table (``merged``). Filled on
    the event loop, written (and emptied) in the writer's thread: hence the lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._marks: list[AnnouncedMark] = []

    def add(self, mark: AnnouncedMark) -> None:
        with self._lock:
            self._marks.append(mark)

    def take(self) -> list[tuple[int, int | None, int | None]]:
        with self._lock:
            marks, self._marks = self._marks, []
        return merged(marks)


def merged(marks: list[AnnouncedMark]) -> list[tuple[int, int | None, int | None]]:
    """Marks written together, one row per table by id: the highest board and notice versions
    marked (None: that one not marked), whatever order the marks came in (both stores)."""
    by_table: dict[int, tuple[int | None, int | None]] = {}
    for mark in marks:
        board, notices = by_table.get(mark.table_id, (None, None))
        if mark.board:
            board = max(board if board is not None else -1, mark.version)
        if mark.notices:
            notices = max(notices if notices is not None else -1, mark.version)
        by_table[mark.table_id] = (board, notices)
    return [(table_id, *by_table[table_id]) for table_id in sorted(by_table)]
