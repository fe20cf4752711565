"""AI seats for Draft Cider: the shared random player, a greedy one (also the easy level) and the
search levels normal and strong (engine.core.search, with the knowledge of ``knowledge``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Game, GreedyPlayer, Player, RandomPlayer
from engine.core.search import clairvoyant_levels, search_levels

from .knowledge import KIT
from .model import OrchardState
from .rules import legal_placements, placement_gain, total_score


class OrchardGreedy(GreedyPlayer):
    """Takes the placement that raises its own total the most right now; ties broken at random.

    Everything it reads is public. Rather than applying every move to a copy of the state (the
    base class's way), it asks the rules for each placement's gain, which gives the same values
    far faster.
    """

    def value(self, game: Game[Any, Any], before: OrchardState, after: OrchardState, seat: int) -> float:
        return total_score(after.orchards[seat], after.easy) - total_score(before.orchards[seat], before.easy)

    def choose(self, game: Game[Any, Any], state: OrchardState, seat: int, rng: random.Random) -> Any:
        orchard = state.orchards[seat]
        best: list[Any] = []
        best_gain = None
        for move in legal_placements(state, seat):
            gain = placement_gain(orchard, move.card, move.batch, state.easy)
            if best_gain is None or gain > best_gain:
                best, best_gain = [move], gain
            elif gain == best_gain:
                best.append(move)
        return rng.choice(best)


# Search budgets (iterations, rollout horizon): a rollout plays the game out (the game is short).
NORMAL = (20, None)
STRONG = (100, None)

AI_PLAYERS: Mapping[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "greedy": OrchardGreedy,
    **search_levels(KIT, OrchardGreedy, NORMAL, STRONG),
}
TEST_PLAYERS: Mapping[str, Callable[[], Player]] = clairvoyant_levels(KIT, STRONG)
