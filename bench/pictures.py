"""6. Pictures: how long (wall and CPU time: other processes on the machine inflate the first
much more than the second) drawing one public board and one private hand takes, and how big the
PNGs are, on positions spread over whole random games; beside them, on the same positions, the
engine's work for one move (``apply``), so the drawing cost reads against the cost of a move.

The first draw of each kind fills the caches (fonts, card sprites) and is not counted: the bot
keeps them for its lifetime."""

from __future__ import annotations

import random
import time
from typing import Any

from engine.core import Game
from engine.pictures.warm import warm_up

from .config import Sizes, bench_players
from .stats import median, percentile, rounded


def positions(game: Game[Any, Any], players: int, count: int, seed: int) -> list[Any]:
    """About ``count`` states spread evenly over whole random games, each game's end included."""
    states: list[Any] = []
    game_seed = seed
    while len(states) < count:
        rng = random.Random(game_seed)
        state = game.new_game(players, game_seed, {})
        played = [state]
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
            played.append(state)
        step = max(1, len(played) // 20)  # about twenty positions a game
        states.extend(played[::step])
        states.append(played[-1])
        game_seed += 1
    return states[:count]


def measure(game: Game[Any, Any], sizes: Sizes, seed: int) -> dict[str, Any]:
    if not game.draws:
        return {"skipped": "draws no pictures"}
    players = bench_players(game)
    names = [f"Player {seat + 1}" for seat in range(players)]
    states = positions(game, players, sizes.picture_positions, seed)
    rng = random.Random(seed)
    samples = []
    for state in states:
        acting = game.to_act(state)
        seat = acting[0] if acting else 0
        samples.append((game.view(state, None), game.view(state, seat)))
    warm_up(game)  # as a bot does at start-up (engine/pictures/warm.py): the caches of a running bot
    board_ms, hand_ms, board_cpu, hand_cpu, board_kb, hand_kb = [], [], [], [], [], []
    for public, private in samples:
        started, started_cpu = time.perf_counter(), time.thread_time()
        board = game.draw_board(public, names)
        middle, middle_cpu = time.perf_counter(), time.thread_time()
        hand = game.draw_hand(private, names)
        ended, ended_cpu = time.perf_counter(), time.thread_time()
        board_ms.append(1000 * (middle - started))
        hand_ms.append(1000 * (ended - middle))
        board_cpu.append(1000 * (middle_cpu - started_cpu))
        hand_cpu.append(1000 * (ended_cpu - middle_cpu))
        board_kb.append(len(board.png) / 1024)
        hand_kb.append(len(hand.png) / 1024)
    apply_ms = []
    for state in states:
        if game.is_over(state):
            continue
        seat = game.to_act(state)[0]
        move = rng.choice(game.legal_moves(state, seat))
        started = time.perf_counter()
        game.apply(state, seat, move)
        apply_ms.append(1000 * (time.perf_counter() - started))
    return {
        "players": players,
        "positions": len(samples),
        "board_p50_ms": rounded(median(board_ms), 2),
        "board_p95_ms": rounded(percentile(board_ms, 0.95), 2),
        "board_max_ms": rounded(max(board_ms), 2),
        "board_cpu_p95_ms": rounded(percentile(board_cpu, 0.95), 2),
        "hand_cpu_p95_ms": rounded(percentile(hand_cpu, 0.95), 2),
        "hand_p50_ms": rounded(median(hand_ms), 2),
        "hand_p95_ms": rounded(percentile(hand_ms, 0.95), 2),
        "hand_max_ms": rounded(max(hand_ms), 2),
        "board_png_p95_kb": rounded(percentile(board_kb, 0.95), 1),
        "board_png_max_kb": rounded(max(board_kb), 1),
        "hand_png_p95_kb": rounded(percentile(hand_kb, 0.95), 1),
        "hand_png_max_kb": rounded(max(hand_kb), 1),
        "apply_p50_ms": rounded(median(apply_ms), 3) if apply_ms else None,
    }
