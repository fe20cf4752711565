"""AI seats for Vege tables: the shared random player, a simple greedy one (also the easy level) and
the search levels normal and strong (engine.core.search, ``knowledge``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Game, Player, RandomPlayer
from engine.core.search import clairvoyant_levels, search_levels

from .cards import SEQUENCE, SLOT, SLOTS, is_tractor
from .duo import ai as duo_ai
from .duo.model import DuoMove, DuoState
from .knowledge import VegetablesKit
from .model import MUST_PASS, Discard, Done, Move, Pass, Play, TakeWell, UseTractor, VegetablesState
from .rules import holdings, legal_moves
from .scoring import family_complete


class VegetablesGreedy:
    """Plays for points and for running out of cards, one move at a time.

    It reads only what its seat may see: its own cards, the field, the dead list and the well
    threshold. In order of preference: close a sequence (more when it completes a family), play a
    sequence card, lay a Farmland (not while that would spoil a well it can take now), use a
    Tractor when it closes a sequence or when nothing else counts as the turn's play, discard a
    Tractor only as a last resort, and discard dead cards only when that lets it go out.
    """

    def choose(
        self, game: Game[Any, Any], state: VegetablesState | DuoState, seat: int, rng: random.Random
    ) -> DuoMove:
        if isinstance(state, DuoState):  # the 2-player game has its own greedy play
            return duo_ai.choose(state, seat, rng)
        moves = legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        player = state.seats[seat]
        dead = state.dead
        only_dead_left = player.well_taken and all(card in dead for card in holdings(player))
        if only_dead_left:
            # Every card left is dead: discarding them one by one is how this seat goes out.
            for move in moves:
                if isinstance(move, Discard) and not is_tractor(move.card):
                    return move
        if state.phase == MUST_PASS:
            return Pass()  # keeping dead cards makes the pass free (they are exposed instead)

        eligible = any(isinstance(move, TakeWell) for move in moves)
        best: list[Move] = []
        best_value = float("-inf")
        for move in moves:
            value = self._value(state, move, eligible)
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return rng.choice(best)

    def _value(self, state: VegetablesState, move: Move, eligible: bool) -> float:
        played = state.plays >= 1
        if isinstance(move, Play):
            if SLOT[move.card] == SLOTS:
                return 100 + (30 if _completes_family(state, move.card) else 0)
            if SLOT[move.card] > 1:
                return 60
            return 5 if eligible else 50  # a Farmland brings a card back into the hand
        if isinstance(move, UseTractor):
            following = move.following
            assert following is not None
            if SLOT[following] == SLOTS:
                return 90 + (30 if _completes_family(state, following) else 0)
            return 0 if played else 20
        if isinstance(move, Discard):
            return 1 if not played and is_tractor(move.card) else -10
        if isinstance(move, (TakeWell, Done)):
            return 10  # the well (when eligible) is worth most taken soon; "done" takes it too
        return -100


def _completes_family(state: VegetablesState, closing_card: str) -> bool:
    """Whether placing this closing card completes its family (the other three already closed)."""
    family = closing_card[0]
    stacks = state.stacks
    others = [f"{family}{base}" for base in range(1, 5) if f"{family}{base}" != SEQUENCE[closing_card]]
    return not family_complete(state, family) and all(len(stacks[seq]) == SLOTS for seq in others)


# Search budgets (playouts per decision, rollouts to the end of the game).
NORMAL = (20, None)
STRONG = (80, None)
KIT = VegetablesKit(VegetablesGreedy())

AI_PLAYERS: Mapping[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "greedy": VegetablesGreedy,
    **search_levels(KIT, VegetablesGreedy, NORMAL, STRONG),
}
TEST_PLAYERS: Mapping[str, Callable[[], Player]] = clairvoyant_levels(KIT, STRONG)
