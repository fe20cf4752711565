"""Small writes that arrive together go to the store together: a ``Coalescer`` sends one batch
at a time, and the calls made while a batch is on its way make the next one.

For the writes that follow each published move on several processes (claiming a table's
announcement, giving the claim back, marking it announced: claims.py, db/postgres/clocks.py):
one transaction each per move would cost a bot under load more than the move's own commit, which
already goes in groups. Under load many wait together, and the batch costs one transaction;
alone, a call goes at once, as it would without the batch.

    batch = Coalescer(send)          # send(items) -> one answer per item, in their order
    answer = await batch.submit(item)

Every caller gets its own answer once its batch is stored, or the batch's exception."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Coalescer(Generic[T, R]):
    def __init__(self, send: Callable[[list[T]], Awaitable[list[R]]]) -> None:
        self._send = send
        self._waiting: list[tuple[T, asyncio.Future[R]]] = []
        self._sending = False

    async def submit(self, item: T) -> R:
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if not self._sending:
            self._sending = True
            asyncio.get_running_loop().create_task(self._send_batches())
        return await future

    async def _send_batches(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                try:
                    answers = await self._send([item for item, _ in batch])
                except Exception as error:
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(error)
                    continue
                except BaseException:  # cancelled: its callers too
                    for _, future in batch:
                        future.cancel()
                    raise
                for (_, future), answer in zip(batch, answers, strict=True):
                    if not future.done():
                        future.set_result(answer)
        finally:
            self._sending = False
            for _, future in self._waiting:  # cut short (the loop closing): nobody waits forever
                if not future.done():
                    future.cancel()
            self._waiting = []


__all__ = ["Coalescer"]
