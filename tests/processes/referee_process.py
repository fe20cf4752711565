"""One bot process of the multi-process test: a referee on a shared PostgreSQL database, taking
moves from its standard input and answering each on its standard output, as a shard process
takes interactions from Discord.

    python -m tests.processes.referee_process DATABASE_URL SEED

Prints ``READY``, then reads JSON lines ``{"id", "table", "user", "move"}`` and answers each, once
``Referee.play`` has returned, with ``{"id", "ok": true, "version"}`` (acknowledged: committed) or
``{"id", "ok": false, "error"}``. Moves are played concurrently, as they arrive.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from typing import Any

from db.postgres.store import PostgresStore
from engine.games import REGISTRY, get_game
from engine.referee import Referee


def answer(reply: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()


async def play(referee: Referee, request: dict[str, Any]) -> None:
    try:
        outbox = await referee.play(request["table"], request["user"], request["move"])
    except Exception as error:  # refused (or the store failed): answered, never acknowledged
        answer({"id": request["id"], "ok": False, "error": type(error).__name__})
    else:
        answer({"id": request["id"], "ok": True, "version": outbox.table.version})


async def main(url: str, seed: int) -> None:
    REGISTRY["nim"] = "tests.toy_game"
    get_game.cache_clear()
    store = await PostgresStore.open(url)
    referee = Referee(store, ai_rng=random.Random(seed), shared=True, owner=f"process-{seed}")
    answer({"ready": True})
    tasks: set[asyncio.Task[None]] = set()
    try:
        while line := await asyncio.to_thread(sys.stdin.readline):
            task = asyncio.create_task(play(referee, json.loads(line)))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.gather(*tasks)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
