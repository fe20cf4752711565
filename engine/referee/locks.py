"""One lock per table, kept only while it is useful: one move at a time per table.

A lock is made when a call first needs it and dropped as soon as nobody holds or awaits it and
the table is not in the referee's cache (an unknown id, a table evicted or forgotten): the map
never grows with every id ever asked about. Dropping an idle lock is safe: the next caller makes
a new one, and nobody can be holding or awaiting the old one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import TracebackType


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0  # holding or awaiting the lock


class TableLocks:
    def __init__(self, is_cached: Callable[[int], bool]) -> None:
        self._is_cached = is_cached
        self._entries: dict[int, _Entry] = {}

    def __call__(self, table_id: int) -> _Held:
        """``async with locks(table_id):`` holds the table's lock."""
        return _Held(self, table_id)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._entries

    def discard(self, table_id: int) -> None:
        """The table left the cache: drop its lock unless someone holds or awaits it (then the
        last of them drops it)."""
        entry = self._entries.get(table_id)
        if entry is not None and entry.users == 0:
            del self._entries[table_id]

    def clear_idle(self) -> None:
        for table_id in [table_id for table_id, entry in self._entries.items() if entry.users == 0]:
            del self._entries[table_id]

    async def _acquire(self, table_id: int) -> None:
        entry = self._entries.get(table_id)
        if entry is None:
            entry = self._entries[table_id] = _Entry()
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:  # cancelled while waiting
            self._left(table_id, entry)
            raise

    def _release(self, table_id: int) -> None:
        entry = self._entries[table_id]
        entry.lock.release()
        self._left(table_id, entry)

    def _left(self, table_id: int, entry: _Entry) -> None:
        entry.users -= 1
        if entry.users == 0 and not self._is_cached(table_id) and self._entries.get(table_id) is entry:
            del self._entries[table_id]


class _Held:
    __slots__ = ("_locks", "_table_id")

    def __init__(self, locks: TableLocks, table_id: int) -> None:
        self._locks = locks
        self._table_id = table_id

    async def __aenter__(self) -> None:
        await self._locks._acquire(self._table_id)

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._locks._release(self._table_id)
