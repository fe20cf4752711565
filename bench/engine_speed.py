"""1. Engine speed: whole random-AI games per second, in memory (``engine.simulate.play_in_memory``),
and what one referee move costs in engine work, piece by piece, on states taken along real games:
apply (legality check, copy, play), the state's JSON encoding (written with every move), and one
seat's private view with its text (the referee renders every human seat's, to see whose changed)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from engine.core import Game
from engine.simulate import play_in_memory

from .build import advance
from .config import Sizes, bench_players, player_counts
from .stats import median, rounded


def one_run(game: Game[Any, Any], players: int, seconds: float, first_seed: int) -> dict[str, float]:
    games = moves = 0
    seed = first_seed
    started = time.perf_counter()
    while True:
        _, played = play_in_memory(game, players, seed, {}, ["random"])
        games += 1
        moves += played
        seed += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            break
    return {"games": games, "moves": moves, "seconds": elapsed}


def measure(game: Game[Any, Any], sizes: Sizes) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for players in player_counts(game):
        play_in_memory(game, players, 0, {}, ["random"])  # warm-up: imports, caches
        runs = [one_run(game, players, sizes.engine_seconds, 1 + run * 100_000) for run in range(sizes.engine_runs)]
        result[str(players)] = {
            "games_per_s": rounded(median([r["games"] / r["seconds"] for r in runs]), 2),
            "moves_per_s": rounded(median([r["moves"] / r["seconds"] for r in runs]), 1),
            "moves_per_game": rounded(sum(r["moves"] for r in runs) / sum(r["games"] for r in runs), 2),
            "us_per_move": rounded(median([1e6 * r["seconds"] / r["moves"] for r in runs]), 2),
            "runs": runs,
        }
    players = bench_players(game)
    return {
        "by_players": result,
        "breakdown": breakdown(game, players, _mean_length(result, players), sizes.engine_runs),
    }


def _per_call_us(samples: list[Any], call: Callable[[Any], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        for sample in samples:
            call(sample)
        times.append(1e6 * (time.perf_counter() - started) / len(samples))
    return median(times)


def breakdown(game: Game[Any, Any], players: int, mean_length: float, runs: int) -> dict[str, float]:
    """Microseconds per call of the engine work inside one referee move."""
    rng = random.Random(7)
    states = []
    for seed in range(20):
        depths = [rng.randrange(max(1, int(mean_length))) for _ in range(10)]
        states.extend(state for state, _ in advance(game, players, 500 + seed, depths))
    moves = []
    for state in states:
        seat = rng.choice(game.to_act(state))
        moves.append((state, seat, rng.choice(game.legal_moves(state, seat))))
    names = [f"U{seat + 1}" for seat in range(players)]
    seats = [(state, seat) for state in states for seat in range(players)]
    encoded = [game.encode_state(state) for state in states]
    return {
        "apply_us": rounded(_per_call_us(moves, lambda m: game.apply(*m), runs), 1),
        "legal_moves_us": rounded(_per_call_us(moves, lambda m: game.legal_moves(m[0], m[1]), runs), 1),
        "encode_state_us": rounded(_per_call_us(states, game.encode_state, runs), 1),
        "decode_state_us": rounded(_per_call_us(encoded, game.decode_state, runs), 1),
        "private_view_and_text_us": rounded(
            _per_call_us(seats, lambda s: game.render_private(game.view(s[0], s[1]), names), runs), 1
        ),
        "public_view_and_board_us": rounded(
            _per_call_us(states, lambda state: game.render_board(game.view(state, None), names), runs), 1
        ),
        "state_json_bytes": rounded(sum(map(len, encoded)) / len(encoded), 1),
        "players": players,
    }


def _mean_length(by_players: dict[str, Any], players: int) -> float:
    entry = by_players.get(str(players))
    return float(entry["moves_per_game"]) if entry else 50.0


def mean_length(engine_result: dict[str, Any], players: int) -> float:
    """Moves in a whole game at this player count (50 if not measured)."""
    return _mean_length(engine_result.get("by_players", {}), players)
