"""Child process of the scale-out figure (bench/scaleout.py): one bot process's referee on a
store, playing its share of the active games as fast as it answers for a given time.

    python -m bench.scaleout_worker SPEC.json

The spec names the store (a SQLite path or a PostgreSQL URL), the game, the active tables and the
spares, the seconds, the warm-up seconds and a seed. The worker opens the store, caches its tables
and plays for the warm-up seconds unmeasured (a bot that has been running), prints
``{"ready": true}``, waits for a line on its standard input (so that every
process starts at once), plays, and prints one JSON line with its figures."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from typing import Any

from db import open_store
from engine.games import get_game
from engine.referee import Referee
from engine.referee.gc_policy import tune_garbage_collector, tune_thread_switching
from engine.referee.limits import UNLIMITED

from .config import register
from .referee_load import Pool, Tally, move_in_slot


async def play_for(pool: Pool, seconds: float, rng: random.Random) -> Tally:
    """Every active game of this process plays at once, each as fast as the referee answers,
    until ``seconds`` have passed."""
    tally = Tally()
    deadline = time.perf_counter() + seconds

    async def driver(slot: int, driver_rng: random.Random) -> None:
        while time.perf_counter() < deadline:
            await move_in_slot(pool, slot, driver_rng, tally)

    await asyncio.gather(*(driver(slot, random.Random(rng.random())) for slot in range(len(pool.slots))))
    return tally


async def run(spec: dict[str, Any]) -> dict[str, Any]:
    game = get_game(spec["game"])
    store = await open_store(spec["store"])
    try:
        referee = Referee(
            store,
            ai_rng=random.Random(spec["seed"]),
            cache_size=2 * len(spec["active"]) + 100,
            limits=UNLIMITED,
            shared=spec["shared"],  # one of several processes over the store: tables read as stored
        )
        for table_id in spec["active"]:
            await referee.table(table_id)
        pool = Pool(referee, game, spec["players"], spec["active"], spec["spares"])
        # A bot that has been running has its connections open and its statements prepared (on
        # PostgreSQL, a new connection also reads the server's types, a statement planned by the
        # server of tens of milliseconds): play a moment, unmeasured, before the start.
        await play_for(pool, spec.get("warmup_seconds", 0.0), random.Random(-spec["seed"]))
        print(json.dumps({"ready": True}), flush=True)
        await asyncio.to_thread(sys.stdin.readline)  # the parent starts every process at once
        started = time.perf_counter()
        cpu = time.process_time()
        tally = await play_for(pool, spec["seconds"], random.Random(spec["seed"]))
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu
    finally:
        await store.close()
    summary = tally.summary(seconds)
    summary["latencies"] = [round(latency, 6) for latency in summary["latencies"]]
    summary["cpu_seconds"] = round(cpu, 3)
    summary["finished_games"] = pool.finished
    return summary


def main() -> int:
    tune_garbage_collector()
    tune_thread_switching()
    with open(sys.argv[1], encoding="utf-8") as file:
        spec = json.load(file)
    register([f"{name}={module}" for name, module in spec.get("register", {}).items()])
    print(json.dumps(asyncio.run(run(spec))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
