"""Child process for the memory figure: load games in progress into the referee's cache and report
the growth of resident memory per cached game.

    python -m bench.memory --db PATH --games N [--game NAME] [--register NAME=MODULE ...]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import time

from bench.config import register
from bench.ready import import_stack
from bench.stats import rss_bytes


async def measure(db_path: str, count: int, game: str) -> dict[str, float]:
    import aiosqlite

    from db import SqliteStore
    from engine.games import get_game
    from engine.referee import Referee

    async with aiosqlite.connect(db_path) as connection:
        async with connection.execute(
            "SELECT id FROM games WHERE status = 'running' AND (? = '*' OR game = ?) ORDER BY id LIMIT ?",
            (game, game, count),
        ) as cursor:
            ids = [row[0] for row in await cursor.fetchall()]
    store = await SqliteStore.open(db_path)
    # Every game kept decoded: the worst case (the referee keeps only the recently used decoded).
    referee = Referee(store, cache_size=len(ids) + 10, hot_states=len(ids) + 10)
    await referee.state(ids[0])  # first load: lazy imports, statement cache, SQLite pages
    referee.forget_cache()
    gc.collect()
    before = rss_bytes()
    started = time.perf_counter()
    for table_id in ids:
        await referee.state(table_id)
    load_seconds = time.perf_counter() - started
    gc.collect()
    after = rss_bytes()
    state_bytes = 0
    for table_id in ids:
        table = await referee.table(table_id)
        state_bytes += len(get_game(table.game).encode_state(await referee.state(table_id)))
    await store.close()
    return {
        "games": len(ids),
        "rss_before_mb": before / 2**20,
        "rss_after_mb": after / 2**20,
        "bytes_per_game": (after - before) / len(ids),
        "state_json_bytes_per_game": state_bytes / len(ids),
        "load_games_per_s": len(ids) / load_seconds,
    }


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.memory")
    parser.add_argument("--db", required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--game", default="*", help="load only this game type's games (default: all)")
    parser.add_argument("--register", action="append", default=[])
    args = parser.parse_args()
    register(args.register)
    import_stack()
    print(json.dumps(asyncio.run(measure(args.db, args.games, args.game))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
