"""AI seats: how long each level thinks per move, and how long the event loop stalls while AI
seats play, with the bot's thinker (worker processes) and, for comparison in the same run, with
the search in a thread of the bot's own process.

Decision times: positions taken along random games (a seat to act), each level choosing there as
the bot has it choose: easy in-process, normal and strong in the pool of worker processes with
the default time budgets (engine/referee/pool.py). CPU time is the thinking process's own;
wall time includes the trip to the worker.

Stall: a referee on an SQLite file, one person and AI seats at strong; the person plays random
legal moves while a ticker task measures how late the event loop wakes it (every 5 ms), until
``ai_stall_moves`` AI moves were played. The longest, the 99th percentile and the mean lateness
are reported (the machine's load, in the JSON's meta, weighs on all three).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from pathlib import Path
from typing import Any

from db import SqliteStore
from engine.core import Game, RandomPlayer
from engine.referee import InlineThinker, PoolThinker, Referee, Thinker
from engine.referee.levels import CHEAP_KINDS, LEVELS, player_kind
from engine.referee.pool import DEFAULT_BUDGETS
from engine.referee.thinking import ThinkRequest

from .config import Sizes
from .stats import rounded

TICK_S = 0.005  # the ticker's sleep: its lateness is the loop's stall


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def positions(game: Game[Any, Any], players: int, count: int, seed: int) -> list[tuple[Any, int]]:
    """``count`` positions along random games, each with a seat that must act there."""
    rng = random.Random(seed)
    found: list[tuple[Any, int]] = []
    player = RandomPlayer()
    while len(found) < count:
        state = game.new_game(players, rng.randrange(2**31))
        stop = rng.randrange(1, 60)
        for _ in range(stop):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            state, _ = game.apply(state, seat, player.choose(game, state, seat, rng))
        if not game.is_over(state):
            found.append((state, game.to_act(state)[0]))
    return found


async def decision_times(game: Game[Any, Any], players: int, count: int, seed: int) -> dict[str, Any]:
    pool = PoolThinker(DEFAULT_BUDGETS)
    figures: dict[str, Any] = {}
    try:
        started = time.perf_counter()
        await pool.think(ThinkRequest(game=game.name, state=game.encode_state(game.new_game(players, seed)),
                                      seat=game.to_act(game.new_game(players, seed))[0], kind=player_kind(game, "easy"), seed=1))
        figures["pool_start_s"] = rounded(time.perf_counter() - started, 3)
        places = positions(game, players, count, seed)
        for level in LEVELS:
            kind = player_kind(game, level)
            cpu: list[float] = []
            wall: list[float] = []
            playouts: list[int] = []
            for number, (state, seat) in enumerate(places):
                began_wall = time.perf_counter()
                if kind in CHEAP_KINDS:
                    began_cpu = time.process_time()
                    game.ai_players()[kind]().choose(game, state, seat, random.Random(number))
                    cpu.append((time.process_time() - began_cpu) * 1000)
                else:
                    request = ThinkRequest(game=game.name, state=game.encode_state(state), seat=seat, kind=kind,
                                           seed=number, budget=pool.budget(kind))
                    thought = await pool.think(request)
                    cpu.append(thought.cpu_ms)
                    playouts.append(thought.iterations)
                wall.append((time.perf_counter() - began_wall) * 1000)
            budget = pool.budget(kind).cpu_ms if kind not in CHEAP_KINDS else None
            figures[level] = {
                "kind": kind,
                "where": "in-process" if kind in CHEAP_KINDS else "worker process",
                "budget_cpu_ms": budget,
                "decisions": len(cpu),
                "mean_cpu_ms": rounded(statistics.fmean(cpu), 2),
                "p95_cpu_ms": rounded(_percentile(cpu, 0.95), 2),
                "max_cpu_ms": rounded(max(cpu), 2),
                "mean_wall_ms": rounded(statistics.fmean(wall), 2),
                "p95_wall_ms": rounded(_percentile(wall, 0.95), 2),
                "mean_playouts": rounded(statistics.fmean(playouts), 1) if playouts else 0,
            }
    finally:
        await pool.close()
    return figures


async def loop_stall(
    game: Game[Any, Any], players: int, workdir: Path, seed: int, ai_moves: int, where: str
) -> dict[str, Any]:
    """The loop's lateness while AI seats at strong play ``ai_moves`` moves, thinking ``where``
    ("pool": worker processes; "thread": a thread of this process)."""
    thinker: Thinker = PoolThinker(DEFAULT_BUDGETS) if where == "pool" else InlineThinker(DEFAULT_BUDGETS)
    store = await SqliteStore.open(workdir / f"ai-{game.name}-{where}-{seed}.sqlite3")
    referee = Referee(store, thinker=thinker, ai_rng=random.Random(seed))
    rng = random.Random(seed)
    lateness: list[float] = []
    running = True

    async def ticker() -> None:
        while running:
            before = time.perf_counter()
            await asyncio.sleep(TICK_S)
            lateness.append((time.perf_counter() - before - TICK_S) * 1000)

    played = 0
    games = 0
    started = time.perf_counter()
    tick = asyncio.create_task(ticker())
    try:
        while played < ai_moves:
            table = await referee.create_table(game.name, "u1", "U1", ai_seats=["strong"] * (players - 1))
            outbox = await referee.start(table.id, "u1", seed=rng.randrange(2**31))
            games += 1
            played += outbox.moves_applied
            while played < ai_moves and not outbox.finished:
                moves = await referee.legal_moves(table.id, "u1")
                if not moves:
                    break  # the seat waits for a simultaneous choice of the others: a new table
                outbox = await referee.play(table.id, "u1", rng.choice(moves))
                played += outbox.moves_applied - 1
    finally:
        running = False
        await tick
        await thinker.close()
        await store.close()
    return {
        "where": where,
        "ai_moves": played,
        "games": games,
        "seconds": rounded(time.perf_counter() - started, 2),
        "ticks": len(lateness),
        "max_stall_ms": rounded(max(lateness, default=0.0), 2),
        "p99_stall_ms": rounded(_percentile(lateness, 0.99), 2),
        "mean_stall_ms": rounded(statistics.fmean(lateness), 2) if lateness else 0.0,
    }


def measure(games: list[Game[Any, Any]], sizes: Sizes, workdir: Path, seed: int, players_of: dict[str, int]) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for index, game in enumerate(games):
        players = players_of[game.name]
        figures: dict[str, Any] = {"players": players}
        figures["decisions"] = asyncio.run(decision_times(game, players, sizes.ai_positions, seed + index))
        figures["stall"] = {
            where: asyncio.run(loop_stall(game, players, workdir, seed + index, sizes.ai_stall_moves, where))
            for where in ("pool", "thread")
        }
        results[game.name] = figures
    return results
