"""Warming a game's drawing caches, as a bot that has drawn boards before has them warm.

Boards are drawn from cached pieces (text masks, card sprites, chips), each made the first time it
is needed; a running bot holds the pieces of every board it drew. The benchmark draws a few
positions of one other seeded game first, so that its figures are those of a running bot and not
of the first boards after a start (which pay for their pieces once: about 1.5x slower at p95).
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Game

WARM_POSITIONS = 12  # positions drawn (board and every seat's hand), spread over one game


def warm_up(game: Game[Any, Any], seed: int = 1, positions: int = WARM_POSITIONS) -> int:
    """Draw the board and hands of up to ``positions`` positions of one game; returns how many."""
    if not game.draws:
        return 0
    players = max(game.min_players, min(game.max_players, 4))
    names = [f"Player {seat + 1}" for seat in range(players)]
    rng = random.Random(seed)
    state = game.new_game(players, seed, {})
    states = [state]
    while not game.is_over(state) and len(states) < 400:
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        states.append(state)
    step = max(1, len(states) // positions)
    drawn = 0
    for state in states[::step][:positions]:
        game.draw_board(game.view(state, None), names)
        for seat in range(players):
            game.draw_hand(game.view(state, seat), names)
        drawn += 1
    return drawn
