"""The group-commit writer: every write of the store goes through it.

WAL mode lets readers go on while a move commits; ``synchronous=FULL`` syncs the log to disk at
every commit, so an accepted move survives a power cut or a host crash too, not only a crash of
the bot. Group commit (``GroupWriter.commit``) shares that one sync among all the writes that
arrive together, which is what makes it affordable. Each write is a ``Work``: it runs in the
writer's thread on a plain sqlite3 connection, inside the group's transaction."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import sqlite3
import threading
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any

from . import wal


class Work:
    """One unit of a group transaction: runs in the writer's thread on the plain sqlite3
    connection, inside its own savepoint."""

    def run(self, connection: sqlite3.Connection) -> Any:
        raise NotImplementedError

    def together_key(self) -> Hashable | None:
        """Works of one kind with distinct keys may go to disk together, in a few multi-row
        statements (``write_together``); None: this one runs on its own."""
        return None

    @classmethod
    def write_together(cls, connection: sqlite3.Connection, works: list[Any]) -> list[Any] | None:
        """Write ``works`` (of this class, distinct keys) together and return their results; None
        (having written only what the caller undoes) if one of them cannot be: they then run one
        by one."""
        return None


class Call(Work):
    """``function(connection, *args)`` as one unit of a group transaction."""

    def __init__(self, function: Callable[..., Any], *args: Any) -> None:
        self.function = function
        self.args = args

    def run(self, connection: sqlite3.Connection) -> Any:
        return self.function(connection, *self.args)


class Statement(Work):
    """One writing statement as one unit of a group transaction."""

    def __init__(self, sql: str, values: Sequence[Any]) -> None:
        self.sql = sql
        self.values = values

    def run(self, connection: sqlite3.Connection) -> None:
        connection.execute(self.sql, self.values)


class GroupWriter:
    """Runs the store's writes in groups, one transaction (and one sync) per group, in a thread
    of its own on a plain sqlite3 connection (the standard library's public API: the reads stay
    on aiosqlite's connection, which WAL mode lets read while the writer commits)."""

    def __init__(self, path: str) -> None:
        self.path = path
        # What the writer's thread runs, in order (None: stop); functions that never raise.
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._connection: sqlite3.Connection | None = None
        self._closed = False
        # The writes waiting for the next transaction, and whether a drain is queued in the
        # writer's thread; both shared with that thread.
        self._waiting: list[tuple[Work, asyncio.Future[Any]]] = []
        self._waiting_lock = threading.Lock()
        self._draining = False
        self._stop_checkpoints: threading.Event | None = None
        self._thread = threading.Thread(
            target=self._serve,
            name="sqlite-writer",
            daemon=True,  # a store left open never holds the process open
        )

    async def open(self, pragmas: Sequence[str]) -> None:
        """Start the thread and connect in it, with the store's settings; SQLite's automatic
        checkpoint is off (the background thread and ``wal.restart_if_large`` do it)."""
        self._thread.start()
        await self._in_thread(self._connect, (*pragmas, "wal_autocheckpoint=0"))

    def _connect(self, pragmas: Sequence[str]) -> None:
        # Explicit transactions (isolation_level=None): _transaction says BEGIN IMMEDIATE.
        connection = sqlite3.connect(self.path, isolation_level=None)
        for pragma in pragmas:
            connection.execute(f"PRAGMA {pragma}").fetchall()  # some return a row: read it
        self._connection = connection

    def _disconnect(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            job()

    def start_checkpoints(self, path: str) -> None:
        """Copy the WAL back into the database file from another thread and connection, so that
        no move's COMMIT waits for a checkpoint (SQLite otherwise runs one inside whichever commit
        crosses 1,000 pages: a latency spike for one unlucky player)."""
        self._stop_checkpoints = threading.Event()
        threading.Thread(
            target=wal.checkpoint_every,
            args=(path, wal.CHECKPOINT_SECONDS, self._stop_checkpoints),
            name="sqlite-checkpoints",
            daemon=True,  # never holds the process open; the last WAL frames are checkpointed at the next open
        ).start()

    async def close(self) -> None:
        """Once the writes already accepted are on disk: close the connection, stop the thread
        and the background checkpoints. Any write after this is refused."""
        while self._draining:
            await asyncio.sleep(0.001)
        if not self._closed:
            self._closed = True
            if self._thread.is_alive():
                await self._in_thread(self._disconnect)
                self._jobs.put(None)  # the thread ends
        if self._stop_checkpoints is not None:
            self._stop_checkpoints.set()

    async def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(connection, *args)`` in the writer's thread, outside any group: its result.
        For tests that look at the writer's own connection (its settings)."""
        if self._closed:
            raise ValueError("The store is closed.")
        return await self._in_thread(lambda: function(self._connection, *args))

    async def _in_thread(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in the writer's thread, behind what is queued: its result."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()

        def job() -> None:
            try:
                answer: tuple[bool, Any] = (True, function(*args))
            except BaseException as error:
                answer = (False, error)
            _hand_over(loop, [((None, future), answer)])

        self._jobs.put(job)
        return await future

    async def commit(self, work: Work) -> Any:
        """Run ``work`` in the next group transaction and return its result (or raise its error).

        Every write goes this way. A commit costs about the same for one move as for fifty (the
        sync to disk, the hand-over to the writer's thread), so the writes that arrive while
        a transaction is on its way to disk wait and share the next one; see _write_group for how
        one failing write is kept from the others. The first write to arrive when none is being
        written is handed to the writer's thread at once, not at the event loop's next turn:
        the disk then works while the loop goes on with the next moves. With one move at a time
        this is a single hop per move."""
        if self._closed:
            raise ValueError("The store is closed.")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        with self._waiting_lock:
            self._waiting.append((work, future))
            start, self._draining = not self._draining, True
        if start:
            self._queue_in_writer_thread(functools.partial(self._drain, loop))
        return await future

    def _queue_in_writer_thread(self, function: Callable[[], None]) -> None:
        """Queue ``function`` in the writer's thread without waiting for it. ``function`` must
        never raise: it hands its outcome to the event loop itself."""
        self._jobs.put(function)

    def _drain(self, loop: asyncio.AbstractEventLoop) -> None:
        """In the writer's thread: write everything waiting as one group, hand the answers to
        the event loop, and queue itself again behind whatever was queued meanwhile; stop when
        nothing waits."""
        with self._waiting_lock:
            group, self._waiting = self._waiting, []
            if not group:
                self._draining = False
                return
        connection = self._connection
        assert connection is not None  # connected before any write is accepted
        try:
            answers = _write_group(connection, [work for work, _ in group])
        except BaseException as error:  # the COMMIT itself failed: nothing of the group is on disk
            answers = [(False, error)] * len(group)
        # Between two groups, the writer keeps the WAL bounded (wal.py); the moves that
        # arrive meanwhile wait for the next group, as they would for this one's sync.
        wal.restart_if_large(connection, self.path)
        _hand_over(loop, list(zip(group, answers, strict=True)))
        self._queue_in_writer_thread(functools.partial(self._drain, loop))


def _hand_over(
    loop: asyncio.AbstractEventLoop, answered: list[tuple[tuple[Any, asyncio.Future[Any]], tuple[bool, Any]]]
) -> None:
    """From the writer's thread: each waiting caller gets its result or its error."""
    try:
        loop.call_soon_threadsafe(
            _deliver, [entry for entry, _ in answered], [answer for _, answer in answered]
        )
    except RuntimeError:  # the event loop is closed: nobody is waiting any more
        pass


@contextlib.contextmanager
def _transaction(connection: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT on a plain connection, rolled back if anything fails."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def _write_group(connection: sqlite3.Connection, works: list[Work]) -> list[tuple[bool, Any]]:
    """One transaction for a group of works; returns (ok, result or error) per work. Raises (and
    rolls back everything) only if the transaction itself fails.

    Works that may go together (plain moves of distinct games: ``Work.together_key``) go first,
    in a few multi-row statements (``Work.write_together``; if one of them is stale, the
    transaction starts again without them); the rest (a game's end, any other write, or every
    work when that fails) one by one, each in its own savepoint, so that one failing work (a stale version)
    is undone alone and the others still commit."""
    answers: dict[int, tuple[bool, Any]] = {}
    with _transaction(connection):
        together = _together(works)
        if len(together) > 1:
            results = type(together[0]).write_together(connection, together)
            if results is not None:
                answers.update((id(work), (True, result)) for work, result in zip(together, results, strict=True))
            else:  # a stale game: undo what was written (nothing else was yet) and go one by one
                connection.execute("ROLLBACK")
                connection.execute("BEGIN IMMEDIATE")
        for work in works:
            if id(work) in answers:
                continue
            connection.execute("SAVEPOINT work")
            try:
                answers[id(work)] = (True, work.run(connection))
            except Exception as error:
                connection.execute("ROLLBACK TO work")
                answers[id(work)] = (False, error)
            connection.execute("RELEASE work")
    return [answers[id(work)] for work in works]


def _together(works: list[Work]) -> list[Work]:
    """The works that may go together: of the first such work's class, one per key."""
    seen: set[Hashable] = set()
    together: list[Work] = []
    for work in works:
        key = work.together_key()
        if key is not None and key not in seen and (not together or type(work) is type(together[0])):
            seen.add(key)
            together.append(work)
    return together


def _deliver(group: list[tuple[Any, asyncio.Future[Any]]], answers: list[tuple[bool, Any]]) -> None:
    """On the event loop: each waiting write gets its result or its error."""
    for (_, future), (ok, value) in zip(group, answers, strict=True):
        if future.done():  # its caller gave up waiting (cancelled); the write stands
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)
