"""AI seats for Granja."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Game, Player


class GranjaRandom:
    """A random legal move: first a random kind of move (deliver, play, done...), then a random
    move of that kind, so that long lists of anytime actions do not drown the turn-ending move."""

    def choose(self, game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Any:
        moves = game.legal_moves(state, seat)
        kinds = sorted({move.kind for move in moves})
        kind = rng.choice(kinds)
        return rng.choice([move for move in moves if move.kind == kind])


AI_PLAYERS: Mapping[str, Callable[[], Player]] = {"random": GranjaRandom}
