"""The thinker of the bot and the local table: searches run in worker processes.

A search is pure Python: in a thread it would hold the interpreter lock that the event loop
needs, and a strong move (about a second of CPU) would stall every other table and every
interaction's three-second deadline. ``PoolThinker`` sends each ``ThinkRequest`` (plain data:
the game's name, the encoded state, seat, kind, seed, budget) to a
``concurrent.futures.ProcessPoolExecutor`` and awaits the ``Thought``, so the loop only waits.

The pool is started on the first request (a table of easy seats never starts it), with
``spawn`` processes (a fork of a process running threads, such as the store's writer, may
deadlock), sized for this machine (two cores: two workers), and shut down by ``close`` when the
bot or the local table closes. A worker that died is replaced by a new pool, once per request.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from engine.games import REGISTRY, get_game

from .thinking import Budget, ThinkRequest, Thought, think

# The budgets when nothing is configured (config.py reads AI_NORMAL_MS and AI_STRONG_MS).
DEFAULT_BUDGETS: dict[str, Budget] = {"normal": Budget(cpu_ms=100.0), "strong": Budget(cpu_ms=1000.0)}


def default_workers() -> int:
    """Two workers on a machine of two cores or more; one on a single core."""
    return max(1, min(2, os.cpu_count() or 1))


def _warm_up(registry: dict[str, str]) -> None:
    """Each worker knows the games its parent knew when the pool started (a game registered at
    run time, by a test or ``bench --register``, included) and imports them once, now, rather
    than at its first move."""
    REGISTRY.update(registry)  # a fresh process: nothing is cached yet
    for name in registry:
        with contextlib.suppress(Exception):  # a broken game fails where it is asked for
            get_game(name)


class PoolThinker:
    def __init__(self, budgets: Mapping[str, Budget] | None = None, *, workers: int | None = None) -> None:
        self.budgets = dict(DEFAULT_BUDGETS if budgets is None else budgets)
        self.workers = workers or default_workers()
        self._executor: ProcessPoolExecutor | None = None
        self.closed = False
        self.started = 0  # pools started (for tests: lazily, and again after a broken one)

    @property
    def running(self) -> bool:
        return self._executor is not None

    def budget(self, kind: str) -> Budget:
        return self.budgets.get(kind, Budget())

    def _pool(self) -> ProcessPoolExecutor:
        if self.closed:
            raise RuntimeError("the thinker is closed")
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_up,
                initargs=(dict(REGISTRY),),
            )
            self.started += 1
        return self._executor

    async def think(self, request: ThinkRequest) -> Thought:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), think, request)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): a fresh pool, and one more try.
            self._discard()
            return await loop.run_in_executor(self._pool(), think, request)

    def _discard(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Cancel what waits, let the running searches end (each within its budget) and stop
        the workers. Idempotent."""
        self.closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
