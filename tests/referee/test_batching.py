"""The Coalescer (engine/referee/batching.py): calls made while a batch is on its way go together
in the next one, each caller gets its own answer, and a failed batch fails its callers only."""

from __future__ import annotations

import asyncio

import pytest

from engine.referee.batching import Coalescer


async def test_calls_made_while_a_batch_is_on_its_way_go_together_each_with_its_answer() -> None:
    sent: list[list[int]] = []

    async def send(items: list[int]) -> list[int]:
        sent.append(items)
        await asyncio.sleep(0.01)
        return [item * 10 for item in items]

    batch: Coalescer[int, int] = Coalescer(send)
    assert await asyncio.gather(*(batch.submit(item) for item in range(3))) == [0, 10, 20]
    assert sent == [[0, 1, 2]]  # made together: one batch
    first = asyncio.ensure_future(batch.submit(3))
    await asyncio.sleep(0.001)  # on its way alone
    assert await asyncio.gather(first, *(batch.submit(item) for item in range(4, 8))) == [30, 40, 50, 60, 70]
    assert sent[1:] == [[3], [4, 5, 6, 7]]  # the rest while it was on its way, together


async def test_a_failed_batch_fails_its_callers_and_the_next_batch_goes_on() -> None:
    async def send(items: list[int]) -> list[int]:
        await asyncio.sleep(0.01)
        if 2 in items:
            raise RuntimeError("the store is down")
        return items

    batch: Coalescer[int, int] = Coalescer(send)
    first = asyncio.ensure_future(batch.submit(1))
    await asyncio.sleep(0)  # on its way: the next two wait together
    failing = [asyncio.ensure_future(batch.submit(item)) for item in (2, 3)]
    assert await first == 1
    for call in failing:
        with pytest.raises(RuntimeError, match="the store is down"):
            await call
    assert await batch.submit(4) == 4


async def test_a_cancelled_batch_leaves_nobody_waiting() -> None:
    started = asyncio.Event()

    async def send(items: list[int]) -> list[int]:
        started.set()
        await asyncio.sleep(3600)
        return items

    batch: Coalescer[int, int] = Coalescer(send)
    call = asyncio.ensure_future(batch.submit(1))
    await started.wait()
    waiting = asyncio.ensure_future(batch.submit(2))
    await asyncio.sleep(0)
    for task in asyncio.all_tasks():
        if task.get_coro().__qualname__.endswith("_send_batches"):  # type: ignore[union-attr]
            task.cancel()
    for future in (call, waiting):
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(future, 1)
