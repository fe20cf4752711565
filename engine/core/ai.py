"""AI seats: helpers for the games' own players, on the interface every player implements.

The interface (``Player``) and the baseline ``RandomPlayer`` are part of the game contract and live
in engine.core.game; they are re-exported here for the code that reaches them through this module.
"""

from __future__ import annotations

import random
from typing import Any

from .game import Game, Player, RandomPlayer

__all__ = ["GreedyPlayer", "Player", "RandomPlayer"]


class GreedyPlayer:
    """Plays the legal move with the best immediate value, ties broken at random.

    Games subclass it and define ``value(game, before, after, seat)``; the move is applied to a
    copy of the state, so the player never sees anything the seat could not know... as long as
    ``value`` only reads what the seat may see (its own hand and public information).
    """

    def value(self, game: Game[Any, Any], before: Any, after: Any, seat: int) -> float:
        raise NotImplementedError

    def choose(self, game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Any:
        best: list[Any] = []
        best_value = float("-inf")
        for move in game.legal_moves(state, seat):
            after, _ = game.apply(state, seat, move)
            value = self.value(game, state, after, seat)
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return rng.choice(best)
