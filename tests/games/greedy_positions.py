"""Positions of seeded greedy games, for the AI tests of every game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine.core import Game


def positions(game: Game[Any, Any], players: int, options: dict[str, Any], seed: int, every: int) -> Iterator[tuple[Any, int]]:
    """Every ``every``-th position of a greedy game where the seat to act has a real choice."""
    rng = random.Random(seed)
    greedy = game.ai_players()["greedy"]()
    state = game.new_game(players, seed, options)
    step = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        if step % every == 0 and len(game.legal_moves(state, seat)) > 1:
            yield state, seat
        state, _ = game.apply(state, seat, greedy.choose(game, state, seat, rng))
        step += 1
