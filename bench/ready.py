"""Child process for the restart figure: start, import the bot's stack, open the store, re-arm the
turn clocks as the bot does, and accept one move in a given game in progress. Prints a JSON line
when ready, then times the work a restarted bot does next (the re-arm batch and first clock poll,
and the sweep over the running games that ``on_ready`` makes), prints it, and exits.

    python -m bench.ready --db PATH --table ID [--register NAME=MODULE ...]

The parent times it from just before the process starts to the moment the "ready" line arrives.
"""

from __future__ import annotations

import time

STARTED = time.perf_counter()  # the first thing this module does: in-process time starts here

import argparse  # noqa: E402
import asyncio  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import sqlite3  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def import_stack() -> list[str]:
    """What the bot process imports before it can answer: bot.py (discord.py, the cogs, config,
    the store, the referee) when it is there, else the engine and store alone; then every
    registered game (the registry imports games on first use)."""
    imported: list[str] = []
    names = ["bot"] if (ROOT / "bot.py").is_file() else []
    for name in (*names, "db", "engine.referee", "engine.games"):
        importlib.import_module(name)
        imported.append(name)
    from engine.games import all_games

    imported.extend(f"game:{game.name}" for game in all_games())
    return imported


def say(line: dict[str, Any]) -> None:
    print(json.dumps(line), flush=True)


async def ready(db_path: str, table_id: int, seed: int, sweep: bool) -> None:
    from db import SqliteStore
    from engine.games import get_game
    from engine.referee import RUNNING, Referee

    opened = time.perf_counter()
    store = await SqliteStore.open(db_path)
    referee = Referee(store)
    armed = time.perf_counter()
    # Re-arm the turn clocks as the bot does at start-up, before taking commands: the downtime is
    # noted, each table gets it when first loaded, every other one in a batch at the first poll.
    await referee.credit_downtime(defer=True)
    moving = time.perf_counter()
    table = await referee.table(table_id)
    state = await referee.state(table_id)
    rng = random.Random(seed)
    user = table.seats[rng.choice(get_game(table.game).to_act(state))].user_id
    assert user is not None
    outbox = await referee.play(table_id, user, rng.choice(await referee.legal_moves(table_id, user)))
    done = time.perf_counter()
    say(
        {
            "ready": True,
            "moves_applied": outbox.moves_applied,
            "open_store_s": armed - opened,
            "rearm_clocks_s": moving - armed,
            "first_move_s": done - moving,
            "in_process_s": done - STARTED,
        }
    )
    # What follows the start in the background: the first poll of due clocks (the re-arm batch
    # first, timed apart), and the sweep that the Discord front end makes in on_ready.
    if not sweep:
        await store.close()
        return
    batch_started = time.perf_counter()
    await referee.finish_downtime_credit()
    started = time.perf_counter()
    await referee.due_actions()
    polled = time.perf_counter()
    # As GameDesk.resume_running_games: only the games that need it (see Referee.tables_to_resume).
    resumed = await referee.tables_to_resume()
    for table_id in resumed:
        await referee.table(table_id)
        await referee.resume(table_id)
    swept = time.perf_counter()
    with sqlite3.connect(db_path) as connection:
        running = connection.execute("SELECT COUNT(*) FROM games WHERE status = ?", (RUNNING,)).fetchone()[0]
    say(
        {
            "rearm_batch_s": started - batch_started,
            "first_due_poll_s": polled - started,
            "resume_sweep_s": swept - polled,
            "running_games": running,
            "resumed_games": len(resumed),
        }
    )
    await store.close()


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ready")
    parser.add_argument("--db", required=True)
    parser.add_argument("--table", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--register", action="append", default=[])
    parser.add_argument("--sweep", action="store_true", help="also time the due-clock poll and on_ready sweep")
    args = parser.parse_args()
    from bench.config import register

    register(args.register)
    before = time.perf_counter()
    import_stack()
    say({"imports_s": time.perf_counter() - before})
    asyncio.run(ready(args.db, args.table, args.seed, args.sweep))
    return 0


if __name__ == "__main__":
    sys.exit(main())
