"""What a Draft Cider seat knows, and hidden cards dealt anew for the search (engine.core.search).

Everything is public but the order of the undrawn deck; which cards it holds is public too (every
card not in a pool or an orchard). A seat's knowledge is the state with the deck sorted and the
generator blanked; a sample shuffles that deck with the search's own randomness.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Game, Rng
from engine.core.search import BaseKit, outcome_rewards, reseed

from .cards import BAD, BATCHES
from .model import PLACES, OrchardState, Place
from .rules import can_place, placement_gain, total_score

# Solo has nobody to beat: its reward is the total on this scale (a very good solo game).
SOLO_SCALE = 80.0
ROLLOUT_CARDS = 4  # pool cards a rollout seat weighs


class OrchardKit(BaseKit[OrchardState, OrchardState]):
    def observe(self, state: OrchardState, seat: int) -> OrchardState:
        # Which cards are left is public, their order is not.
        return _with_deck(state, sorted(state.deck), 0)

    def sample(self, knowledge: OrchardState, seat: int, rng: random.Random) -> OrchardState:
        deck = list(knowledge.deck)
        rng.shuffle(deck)
        return _with_deck(knowledge, deck, reseed(rng))

    def rollout_move(self, game: Game[Any, Any], state: OrchardState, seat: int, rng: random.Random) -> Place:
        """Greedy on the immediate gain among a few pool cards drawn at random: a third of the
        greedy seat's cost, and rollouts that do not all play the same game."""
        pool = state.pool
        cards = pool if len(pool) <= ROLLOUT_CARDS else rng.sample(pool, ROLLOUT_CARDS)
        orchard = state.orchards[seat]
        easy = state.easy
        best: list[Place] = []
        best_gain = -1000
        for card in cards:
            row = PLACES[card]
            for batch in BATCHES:
                if not can_place(orchard, card, batch):
                    continue
                gain = placement_gain(orchard, card, batch, easy)
                if batch == BAD:
                    gain -= 1  # the Bad Batch is the last resort, not a tie
                if gain > best_gain:
                    best, best_gain = [row[batch]], gain
                elif gain == best_gain:
                    best.append(row[batch])
        return rng.choice(best)

    def evaluate(self, game: Game[Any, Any], state: OrchardState) -> list[float]:
        if state.players == 1:
            return [min(1.0, max(0.0, total_score(state.orchards[0], state.easy) / SOLO_SCALE))]
        return outcome_rewards(game.outcome(state), state.players)

    def seats(self, state: OrchardState) -> int:
        return state.players


KIT = OrchardKit()


def _with_deck(state: OrchardState, deck: list[int], seed: int) -> OrchardState:
    """A copy of ``state`` with this deck and a generator of this seed."""
    return OrchardState(
        players=state.players,
        easy=state.easy,
        first_picker=state.first_picker,
        current_round=state.current_round,
        picks_made=state.picks_made,
        pool=list(state.pool),
        deck=deck,
        orchards=[[list(batch) for batch in orchard] for orchard in state.orchards],
        rng=Rng(seed=seed),
    )
