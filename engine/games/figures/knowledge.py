"""What a Figures seat knows, and the other hands dealt anew for the search (engine.core.search).

A seat sees its own hand, every card played this hand (the public history), how many cards each
seat holds, and what the passes told: a seat that passed against a 1-6 holds no higher number and
no figure, one that passed in a giro holds no figure (cards only ever leave a hand, so that stays
true for the rest of the hand). The knowledge is the state with the other hands emptied and the
generator and stacked decks blanked, plus the unknown cards (sorted: their deal is not known) and,
per other seat, its hand size and the cards it may still hold. A sample deals the unknown cards
to the other seats within those limits, the most constrained seat first (the limits are nested,
so that deal never gets stuck).
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from engine.core import Game, Rng
from engine.core.search import BaseKit, margin_rewards, outcome_rewards, reseed

from .cards import DECK, FIGURES, VALUE
from .model import (
    ALLOWED_OVER_BAR,
    BAR_AFTER,
    GIRO_TURNS,
    PAIRS,
    FiguresMove,
    FiguresState,
    Single,
    ThreeKings,
)

ALL_CARDS = frozenset(DECK)
# A lead of this many match points makes a win about 73% likely, for rollouts cut at a hand's end.
POINTS_SCALE = 8.0
KINGS_CANDIDATES = 6  # three-kings plays searched besides every single (the greedy's favourites)


class FiguresKnowledge(msgspec.Struct):
    state: FiguresState  # other hands empty, generator and stacked decks blanked
    unknown: list[str]  # the cards in other hands, sorted
    sizes: dict[int, int]  # other seat -> cards it holds
    allowed: dict[int, list[str]]  # other seat -> the unknown cards it may hold (sorted)


def pass_limits(state: FiguresState) -> dict[int, frozenset[str]]:
    """Per seat, the cards its passes this hand rule out, read from the public history."""
    ruled_out: dict[int, frozenset[str]] = {}
    bar = 0
    giro_left = 0
    for entry in state.history:
        move = entry.move
        if move == "pass":
            excluded = FIGURES if giro_left else ALLOWED_OVER_BAR[bar]
            ruled_out[entry.seat] = ruled_out.get(entry.seat, frozenset()) | excluded
            if giro_left:
                giro_left -= 1
        elif move.startswith("kings"):
            bar = BAR_AFTER[move.split()[-1]]
        elif giro_left:
            giro_left -= 1
        elif move in FIGURES:
            giro_left = GIRO_TURNS
        else:
            bar = BAR_AFTER[move]
        if entry.clears:
            bar = 0
            giro_left = 0
    return ruled_out


def played_cards(state: FiguresState) -> set[str]:
    played: set[str] = set()
    for entry in state.history:
        if entry.move == "pass":
            continue
        played.update(entry.move.split()[1:] if entry.move.startswith("kings") else (entry.move,))
    return played


class FiguresKit(BaseKit[FiguresKnowledge, FiguresState]):
    """The search's view of Figures; ``policy`` (the greedy seat) plays the rollouts."""

    def observe(self, state: FiguresState, seat: int) -> FiguresKnowledge:
        unknown = sorted(ALL_CARDS - set(state.hands[seat]) - played_cards(state))
        limits = pass_limits(state)
        others = [other for other in range(len(state.hands)) if other != seat]
        known = msgspec.structs.replace(
            state,
            hands=[list(state.hands[other]) if other == seat else [] for other in range(len(state.hands))],
            rng=Rng(seed=0),
            decks=[],
            history=list(state.history),
            totals=list(state.totals),
            kings_used=list(state.kings_used),
            results=[],  # past hands change nothing in the search
        )
        return FiguresKnowledge(
            state=known,
            unknown=unknown,
            sizes={other: len(state.hands[other]) for other in others},
            allowed={other: [card for card in unknown if card not in limits.get(other, ())] for other in others},
        )

    def sample(self, knowledge: FiguresKnowledge, seat: int, rng: random.Random) -> FiguresState:
        state = msgspec.msgpack.decode(msgspec.msgpack.encode(knowledge.state), type=FiguresState)
        state.rng = Rng(seed=reseed(rng))
        left = set(knowledge.unknown)
        for other in sorted(knowledge.sizes, key=lambda other: (len(knowledge.allowed[other]), other)):
            choices = [card for card in knowledge.allowed[other] if card in left]
            size = knowledge.sizes[other]
            if len(choices) < size:  # not expected (the passes are nested); never stall a search
                choices = sorted(left)
            hand = rng.sample(choices, size)
            left.difference_update(hand)
            state.hands[other] = hand
        return state

    def candidates(
        self, game: Game[Any, Any], state: FiguresState, seat: int, moves: list[FiguresMove]
    ) -> list[FiguresMove]:
        singles: list[FiguresMove] = [move for move in moves if not isinstance(move, ThreeKings)]
        kings = [move for move in moves if isinstance(move, ThreeKings)]
        if len(kings) <= KINGS_CANDIDATES:
            return moves
        kings.sort(key=_kings_key)
        return singles + list(kings[:KINGS_CANDIDATES])

    def rollout_move(self, game: Game[Any, Any], state: FiguresState, seat: int, rng: random.Random) -> Any:
        if rng.random() < 0.1:  # now and then another card: rollouts that all play alike tell little
            moves = game.legal_moves(state, seat)
            return rng.choice([move for move in moves if isinstance(move, Single)] or moves)
        return super().rollout_move(game, state, seat, rng)

    def progress(self, state: FiguresState) -> int:
        return state.hand_number

    def evaluate(self, game: Game[Any, Any], state: FiguresState) -> list[float]:
        if game.is_over(state):
            return outcome_rewards(game.outcome(state), len(state.totals))
        totals = [float(total) for total in state.totals]
        if state.mode == PAIRS:  # partners share a total: only the lead over the other pair counts
            first, second = margin_rewards([totals[state.table[0]], totals[state.table[1]]], POINTS_SCALE)
            return [first if state.table.index(seat) % 2 == 0 else second for seat in range(len(totals))]
        return margin_rewards(totals, POINTS_SCALE)

    def seats(self, state: FiguresState) -> int:
        return len(state.totals)


def _kings_key(move: ThreeKings) -> float:
    """Three-kings plays that shed low numbers and leave a high bar first (as the greedy seat)."""
    shed = sum(1.0 if card in FIGURES else 8.0 - VALUE[card] for card in move.cards)
    return -(shed + 0.3 * BAR_AFTER[move.cards[-1]])
