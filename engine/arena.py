"""Play AI levels against each other and print one JSON summary (the AI's measured strength).

    python -m engine.arena --game orchard --players 4 --seats strong,greedy,greedy,greedy \
        --games 400 --seed 1 [--iterations N] [--budget-ms MS] [--option NAME=VALUE ...] [--jobs 2]
    python -m engine.arena --summarise LOG [LOG ...]   # the same report from --log files

The K games rotate the seats: game g gives lobby seat s the level listed at (s + g) mod N, so
every level sits in every position equally often (no seat order favours anyone). Each level's
win share counts a tie as a shared win (two winners: half each); mean score and decision times
(mean, p95, max, in CPU milliseconds) come per level. ``--iterations`` overrides the search
levels' iteration count, ``--budget-ms`` stops each search after that much CPU time (then the
games are no longer exactly reproducible). ``--log`` keeps each game as it ends, so that a run
cut short still counts: ``--summarise`` reports on such files (several: their games together).
The clock is read here, by the entry point; the
search itself only checks the ``deadline`` it is given.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.core import Game, Player
from engine.core.search import SearchPlayer
from engine.games import REGISTRY, get_game
from engine.simulate import game_and_options, parse_options


def levels_of(game: Game[Any, Any]) -> dict[str, Callable[[], Player]]:
    """Every AI kind the arena may seat: the table's kinds and the test-only ones."""
    return {**game.ai_players(), **game.ai_test_players()}


def make_player(
    game: Game[Any, Any], level: str, iterations: int | None, budget_ms: float | None
) -> Player:
    player = levels_of(game)[level]()
    if isinstance(player, SearchPlayer):
        if iterations is not None:
            player.iterations = iterations
        if budget_ms is not None:
            player.iterations = max(player.iterations, 1_000_000) if iterations is None else player.iterations
            player.deadline = _cpu_deadline(budget_ms)
    return player


class _Deadline:
    """A CPU-time budget restarted at every decision (``start``), read between iterations."""

    def __init__(self, budget_ms: float) -> None:
        self.budget = budget_ms / 1000.0
        self.until = 0.0

    def start(self) -> None:
        self.until = time.process_time() + self.budget

    def __call__(self) -> bool:
        return time.process_time() >= self.until


def _cpu_deadline(budget_ms: float) -> _Deadline:
    return _Deadline(budget_ms)


def play_one(
    game_name: str,
    players: int,
    levels: Sequence[str],
    seed: int,
    rotation: int,
    options: dict[str, Any],
    iterations: int | None,
    budget_ms: float | None,
) -> dict[str, Any]:
    """One game; lobby seat s plays ``levels[(s + rotation) % len(levels)]``. Returns per seat its
    level, score, win share and decision times (CPU seconds)."""
    game = get_game(game_name)
    seat_levels = [levels[(seat + rotation) % len(levels)] for seat in range(players)]
    seats = [make_player(game, level, iterations, budget_ms) for level in seat_levels]
    rng = random.Random(seed * 7919 + rotation)
    state = game.new_game(players, seed, options)
    times: list[list[float]] = [[] for _ in range(players)]
    moves = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        player = seats[seat]
        deadline = getattr(player, "deadline", None)
        if isinstance(deadline, _Deadline):
            deadline.start()
        began = time.process_time()
        move = player.choose(game, state, seat, rng)
        times[seat].append(time.process_time() - began)
        state, _ = game.apply(state, seat, move)  # apply checks the move: an illegal one raises
        moves += 1
        if moves > 100_000:
            raise RuntimeError("game did not end")
    outcome = game.outcome(state)
    winners = outcome.winners
    return {
        "levels": seat_levels,
        "scores": list(outcome.scores),
        "wins": [(1.0 / len(winners)) if seat in winners else 0.0 for seat in range(players)],
        "times": times,
    }


def summarise(results: Sequence[dict[str, Any]], levels: Sequence[str]) -> dict[str, Any]:
    per_level: dict[str, dict[str, Any]] = {}
    for level in dict.fromkeys(levels):
        seats = 0
        wins = 0.0
        scores: list[float] = []
        times: list[float] = []
        for result in results:
            for seat, seat_level in enumerate(result["levels"]):
                if seat_level == level:
                    seats += 1
                    wins += result["wins"][seat]
                    scores.append(result["scores"][seat])
                    times.extend(result["times"][seat])
        times.sort()
        per_level[level] = {
            "seats_played": seats,
            "win_share": round(wins / seats, 4) if seats else None,
            "wins": round(wins, 2),
            "fair_share": round(1.0 / len(levels), 4) if len(levels) > 1 else None,
            "mean_score": round(sum(scores) / len(scores), 3) if scores else None,
            "decisions": len(times),
            "mean_decision_ms": round(1000 * sum(times) / len(times), 2) if times else None,
            "p95_decision_ms": round(1000 * times[int(0.95 * (len(times) - 1))], 2) if times else None,
            "max_decision_ms": round(1000 * times[-1], 2) if times else None,
        }
    return per_level


def _keep(result: dict[str, Any], results: list[dict[str, Any]], log: Any) -> None:
    results.append(result)
    if log is not None:
        log.write(json.dumps(result) + "\n")
        log.flush()


def summarise_logs(paths: Sequence[str]) -> dict[str, Any]:
    """The report of the games kept in ``--log`` files (one JSON object per line)."""
    results: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as log:
            results.extend(json.loads(line) for line in log if line.strip())
    seats = results[0]["levels"] if results else []  # one rotation: its levels, each seat once
    return {"logs": list(paths), "games": len(results), "seats": seats, "levels": summarise(results, seats)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.arena", description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(REGISTRY))
    parser.add_argument("--players", type=int)
    parser.add_argument("--seats", help="levels, one per seat, comma separated")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, help="iterations per decision for every search level")
    parser.add_argument("--budget-ms", type=float, help="CPU time per search decision (not reproducible)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--log", metavar="PATH", help="append each game's result to PATH as it ends (JSON lines)")
    parser.add_argument("--summarise", nargs="+", metavar="LOG", help="report on --log files instead of playing")
    args = parser.parse_args(argv)
    if args.summarise:
        json.dump(summarise_logs(args.summarise), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    if args.game is None or args.seats is None:
        parser.error("--game and --seats are required (unless --summarise)")

    game, players, options = game_and_options(args)
    levels = [level.strip() for level in args.seats.split(",")]
    unknown = [level for level in levels if level not in levels_of(game)]
    if unknown:
        parser.error(f"unknown level {unknown[0]!r}; {game.title} has {', '.join(levels_of(game))}")
    if len(levels) != players:
        parser.error(f"--seats names {len(levels)} levels for {players} players")
    # Game g uses deal seed + g // N and rotation g % N: each deal is played once in every rotation.
    jobs = [
        (args.game, players, levels, args.seed + g // players, g % players, options, args.iterations, args.budget_ms)
        for g in range(args.games)
    ]
    began = time.monotonic()
    results: list[dict[str, Any]] = []
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115 (closed below)
    try:
        if args.jobs > 1:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                for result in pool.map(play_one, *zip(*jobs, strict=True)):
                    _keep(result, results, log)
        else:
            for job in jobs:
                _keep(play_one(*job), results, log)
    finally:
        if log is not None:
            log.close()
    summary = {
        "game": args.game,
        "players": players,
        "options": parse_options(args.option),  # as given on the command line
        "seats": levels,
        "games": args.games,
        "seed": args.seed,
        "iterations": args.iterations,
        "budget_ms": args.budget_ms,
        "levels": summarise(results, levels),
        "wall_seconds": round(time.monotonic() - began, 1),
    }
    json.dump(summary, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
