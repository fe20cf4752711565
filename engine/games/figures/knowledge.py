"""What a Figures seat knows, and the other hands dealt anew for the search (engine.core.search).

A seat sees its own hand, every card played this hand (the public history), how many cards each
seat holds, and what the passes told: a seat that passed against a 1-6 holds no higher number and
no figure, one that passed in a giro holds no figure (cards only ever leave a hand, so that stays
true for the rest of the hand). The knowledge is the state with the other hands emptied and the
generator and stacked decks blanked, plus the unknown cards (sorted: their deal is not known) and,
per other seat, its hand size and the cards it may still hold. A sample deals the unknown cards
to the other seats within those limits, the most constrained seat first (the limits are nested,
so that deal never gets stuck).

The plays tell something too, though not for sure: players shed their lowest number first
(numbers are the hard cards to get rid of), so a seat that played a 5 over a 2 probably holds no 3
or 4, and one that led a 4 probably no 1-3; one that played a 7 or a figure when a number 1-6 would
have done probably holds none. Each sample trusts those hints seat by seat (``TRUST``), and drops
them when they cannot all hold together (a player who does not play that way).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec

from engine.core import Game, Rng
from engine.core.search import BaseKit, margin_rewards, outcome_rewards, reseed

from .cards import DECK, FIGURES, KINGS, VALUE
from .model import (
    ALLOWED_OVER_BAR,
    BAR_AFTER,
    GIRO_TURNS,
    PAIRS,
    Entry,
    FiguresMove,
    FiguresState,
    Single,
    ThreeKings,
)
from .rollout import greedy_single

ALL_CARDS = frozenset(DECK)
# NUMBERS_BETWEEN[bar][value]: the number cards above ``bar`` and below ``value``.
NUMBERS_BETWEEN = [
    [frozenset(card for card in DECK if card not in FIGURES and bar < VALUE[card] < value) for value in range(8)]
    for bar in range(7)
]
# A lead of this many match points makes a win about 73% likely, for rollouts cut at a hand's end.
POINTS_SCALE = 8.0
# How often a sample keeps a seat's play hints: high, since shedding the lowest number is what
# both the easy seat and most people do; below 1 so that a player who does not still gets deals
# that fit their real hand.
TRUST = 0.9
KINGS_CANDIDATES = 6  # three-kings plays searched besides every single (the greedy's favourites)


class FiguresKnowledge(msgspec.Struct):
    state: FiguresState  # other hands empty, generator and stacked decks blanked
    unknown: list[str]  # the cards in other hands, sorted
    sizes: dict[int, int]  # other seat -> cards it holds
    allowed: dict[int, list[str]]  # other seat -> the unknown cards it may hold (sorted)
    hinted: dict[int, list[str]] = {}  # other seat -> of those, the ones its plays say it likely lacks


def faced(state: FiguresState) -> Iterator[tuple[Entry, int, bool]]:
    """Each move of this hand's public history with what its player faced: the bar (0: anything
    goes) and whether it was a giro turn."""
    bar = 0
    giro_left = 0
    for entry in state.history:
        yield entry, bar, bool(giro_left)
        move = entry.move
        if move == "pass":
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


def pass_limits(state: FiguresState) -> dict[int, frozenset[str]]:
    """Per seat, the cards its passes this hand rule out, read from the public history."""
    ruled_out: dict[int, frozenset[str]] = {}
    for entry, bar, giro in faced(state):
        if entry.move == "pass":
            excluded = FIGURES if giro else ALLOWED_OVER_BAR[bar]
            ruled_out[entry.seat] = ruled_out.get(entry.seat, frozenset()) | excluded
    return ruled_out


def play_hints(state: FiguresState) -> dict[int, frozenset[str]]:
    """Per seat, the number cards its plays this hand say it probably does not hold (see the module
    docstring): those between the bar it faced and the number it played, or every number above
    the bar below 7 when it played a 7 or started a giro. Giro answers and three kings tell nothing."""
    hinted: dict[int, frozenset[str]] = {}
    for entry, bar, giro in faced(state):
        move = entry.move
        if move == "pass" or move.startswith("kings") or giro:
            continue
        below = 7 if move in FIGURES else VALUE[move]
        hinted[entry.seat] = hinted.get(entry.seat, frozenset()) | NUMBERS_BETWEEN[bar][below]
    return hinted


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
        hints = play_hints(state)
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
            hinted={other: [card for card in unknown if card in hints.get(other, ())] for other in others},
        )

    def sample(self, knowledge: FiguresKnowledge, seat: int, rng: random.Random) -> FiguresState:
        state = msgspec.msgpack.decode(msgspec.msgpack.encode(knowledge.state), type=FiguresState)
        state.rng = Rng(seed=reseed(rng))
        allowed = dict(knowledge.allowed)
        for other, unlikely in knowledge.hinted.items():
            if unlikely and rng.random() < TRUST:
                allowed[other] = [card for card in allowed[other] if card not in unlikely]
        hands = _deal(knowledge, allowed, rng)
        if hands is None:  # the hints cannot all hold: the passes alone (nested: this deal fits)
            hands = _deal(knowledge, knowledge.allowed, rng) or {}
        for other, hand in hands.items():
            state.hands[other] = hand
        return state

    def candidates(
        self, game: Game[Any, Any], state: FiguresState, seat: int, moves: list[FiguresMove]
    ) -> list[FiguresMove]:
        # Suits never matter, nor which figure other than a king: one move of each kind is searched,
        # so the playouts are not spread over twins.
        kinds: dict[object, FiguresMove] = {}
        for move in moves:
            kinds.setdefault(_kind(move), move)
        moves = list(kinds.values())
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
        move = greedy_single(state, seat, rng)
        return move if move is not None else super().rollout_move(game, state, seat, rng)

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


def _deal(knowledge: FiguresKnowledge, allowed: dict[int, list[str]], rng: random.Random) -> dict[int, list[str]] | None:
    """The unknown cards dealt within ``allowed``, the most constrained seat first; None if a seat
    is left short (only the passes' limits are sure to fit: they are nested)."""
    left = set(knowledge.unknown)
    hands: dict[int, list[str]] = {}
    for other in sorted(knowledge.sizes, key=lambda other: (len(allowed[other]), other)):
        choices = [card for card in allowed[other] if card in left]
        size = knowledge.sizes[other]
        if len(choices) < size:
            if allowed is knowledge.allowed:  # not expected; never stall a search
                choices = sorted(left)
            else:
                return None
        hand = rng.sample(choices, size)
        left.difference_update(hand)
        hands[other] = hand
    return hands


def _card_kind(card: str) -> str:
    """What a card is worth to a player: its number, or figure, or king."""
    return "K" if card in KINGS else "F" if card in FIGURES else card[0]


def _kind(move: FiguresMove) -> object:
    if isinstance(move, Single):
        return _card_kind(move.card)
    if isinstance(move, ThreeKings):
        return tuple(_card_kind(card) for card in move.cards)
    return move


def _kings_key(move: ThreeKings) -> float:
    """Three-kings plays that shed low numbers and leave a high bar first (as the greedy seat)."""
    shed = sum(1.0 if card in FIGURES else 8.0 - VALUE[card] for card in move.cards)
    return -(shed + 0.3 * BAR_AFTER[move.cards[-1]])
