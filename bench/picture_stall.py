"""6. Pictures off the event loop: how long the loop stalls while boards and hands are drawn.

For each game that draws (``Game.draws``): one random game in memory (seeded), the public view and
the view of the seat to act after every move. Then, on an asyncio loop with the bot's thread
switching (engine/referee/gc_policy.py), a heartbeat task sleeps 1 ms again and again while every
board and hand of that game is drawn through the referee's picture service
(engine/referee/pictures.py, its boards-and-hands worker), one after another as boards are posted; the
heartbeat's lateness beyond its 1 ms is the loop's stall: the longest and the p99 are reported.
For comparison, the same drawings made on the loop itself (what the worker avoids): the longest
stall then; and the loop as long with nothing drawn (what the machine's other work alone costs). Also each drawing's own time (p50, p95, measured around the drawer) and the largest PNG.

    .venv/bin/python -m bench.picture_stall [--games figures,granja] [--boards 60]

(The drawing times themselves, on positions spread over whole games, are bench/pictures.py's.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.core import Game, Picture
from engine.referee.gc_policy import tune_thread_switching
from engine.referee.pictures import Pictures

from .config import bench_players, selected_games
from .stats import percentile, rounded

HEARTBEAT = 0.001


def positions(game: Game[Any, Any], players: int, seed: int, limit: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(public view, view of a seat to act) after each move of one random game, at most ``limit``."""
    rng = random.Random(seed)
    state = game.new_game(players, seed, game.resolve_options(players, {}))
    found = []
    while not game.is_over(state) and len(found) < limit:
        seat = rng.choice(game.to_act(state))
        found.append((game.view(state, None), game.view(state, seat)))
        state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
    return found


class Heartbeat:
    """Sleeps HEARTBEAT again and again; records how late each wake-up was (the loop's stalls)."""

    def __init__(self) -> None:
        self.lateness: list[float] = []
        self._running = True

    async def run(self) -> None:
        while self._running:
            before = time.perf_counter()
            await asyncio.sleep(HEARTBEAT)
            self.lateness.append(max(0.0, time.perf_counter() - before - HEARTBEAT))

    def stop(self) -> None:
        self._running = False


def timed(draw: Callable[..., Picture], times: list[float]) -> Callable[..., Picture]:
    def wrapper(*args: Any) -> Picture:
        started = time.perf_counter()
        picture = draw(*args)
        times.append(time.perf_counter() - started)
        return picture

    return wrapper


async def one_game(game: Game[Any, Any], seed: int, boards: int) -> dict[str, Any]:
    players = bench_players(game)
    names = [f"Player {index + 1}" for index in range(players)]
    seen = positions(game, players, seed, boards)
    board_times: list[float] = []
    hand_times: list[float] = []
    largest = 0
    pictures = Pictures(cache_size=4)
    # Warm up (Pillow and the fonts loaded once per process, as the bot's first board does).
    await pictures._draw(("warm", game.name), game.draw_board, seen[0][0], names)
    heartbeat = Heartbeat()
    beating = asyncio.create_task(heartbeat.run())
    started = time.perf_counter()
    for index, (public, private) in enumerate(seen):
        # The service's own path (its worker thread), keyed as it keys a table's versions.
        board = await pictures._draw((game.name, index, None), timed(game.draw_board, board_times), public, names)
        hand = await pictures._draw((game.name, index, 0), timed(game.draw_hand, hand_times), private, names)
        largest = max(largest, *(len(p.png) for p in (board, hand) if p is not None))
    heartbeat.stop()
    await beating
    drawing_seconds = time.perf_counter() - started
    pictures.close()
    worker = heartbeat.lateness
    # The loop with nothing drawn, as long: what the machine's other work alone costs it.
    idle = Heartbeat()
    beating = asyncio.create_task(idle.run())
    await asyncio.sleep(drawing_seconds)
    idle.stop()
    await beating
    # The same drawings on the loop itself, for comparison.
    inline = Heartbeat()
    beating = asyncio.create_task(inline.run())
    for public, private in seen:
        game.draw_board(public, names)
        await asyncio.sleep(0)
        game.draw_hand(private, names)
        await asyncio.sleep(0)
    inline.stop()
    await beating
    return {
        "game": game.name,
        "players": players,
        "boards": len(seen),
        "longest_stall_ms": rounded(max(worker, default=0.0) * 1000, 2),
        "p99_stall_ms": rounded(percentile(worker, 0.99) * 1000, 2) if worker else None,
        "heartbeats": len(worker),
        "longest_stall_drawing_on_the_loop_ms": rounded(max(inline.lateness, default=0.0) * 1000, 2),
        "longest_stall_nothing_drawn_ms": rounded(max(idle.lateness, default=0.0) * 1000, 2),
        "p99_stall_nothing_drawn_ms": rounded(percentile(idle.lateness, 0.99) * 1000, 2) if idle.lateness else None,
        "board_p50_ms": rounded(percentile(board_times, 0.5) * 1000, 2),
        "board_p95_ms": rounded(percentile(board_times, 0.95) * 1000, 2),
        "hand_p50_ms": rounded(percentile(hand_times, 0.5) * 1000, 2),
        "hand_p95_ms": rounded(percentile(hand_times, 0.95) * 1000, 2),
        "largest_png_kb": rounded(largest / 1024, 1),
    }


def measure(games: Sequence[Game[Any, Any]], seed: int, boards: int) -> dict[str, Any]:
    drawing = [game for game in games if game.draws]
    if not drawing:
        return {"status": "no game draws pictures yet"}
    tune_thread_switching()
    return {
        "status": "measured",
        "per_game": {game.name: asyncio.run(one_game(game, seed, boards)) for game in drawing},
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.picture_stall", description=__doc__.split("\n")[0])
    parser.add_argument("--games", help="comma list of games (default: every registered game that draws)")
    parser.add_argument("--boards", type=int, default=60, help="positions drawn per game (board and hand each)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    games = selected_games([name.strip() for name in args.games.split(",")] if args.games else None)
    print(json.dumps(measure(games, args.seed, args.boards), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
