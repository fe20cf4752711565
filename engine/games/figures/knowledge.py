"""What a Figures seat knows, and the other hands dealt anew for the search (engine.core.search).

A seat sees its own hand, every card played this hand (the public history), how many cards each
seat holds, and what the passes told: a seat that passed against a 1-6 holds no higher number and
no figure, one that passed in a giro holds no figure (cards only ever leave a hand, so that stays
true for the rest of the hand). The knowledge is the state with the other hands emptied and the
generator and stacked decks blanked, plus the unknown cards (sorted: their deal is not known) and,
per other seat, its hand size and the cards it may still hold. A sample deals the unknown cards
to the other seats within those limits card by card, never into a dead end (``_deal``: the hints
below make limits that do not nest, where dealing seat by seat got stuck and then dropped every
hint), then mixes it by random swaps that keep every hand within its limits, so that each deal
that fits is about equally likely.

The plays tell something too, though not for sure: players shed their lowest number first
(numbers are the hard cards to get rid of), so a seat that played a 5 over a 2 probably holds no 3
or 4, and one that led a 4 probably no 1-3; one that played a 7 or a figure when a number 1-6 would
have done probably holds none; one that played a single outside a giro without having used three
kings probably holds fewer than three kings (the easy seat uses them at its first turn, and kings
only leave a hand). Each sample trusts those hints seat by seat (``TRUST``; the strong seat's kit
always: against the easy seat they are facts), and drops them when they cannot all hold together
(a player who does not play that way).
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
    BY_TARGET,
    GIRO_TURNS,
    PAIRS,
    Entry,
    FiguresMove,
    FiguresState,
    Single,
    ThreeKings,
)
from .odds import match_chances
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
KINGS_TRIES = 10  # deals tried before giving up on the kings hints
SWAPS = 60  # swaps mixing each deal (deal_hidden)
KINGS_CANDIDATES = 6  # three-kings plays searched besides every single (the greedy's favourites)


class FiguresKnowledge(msgspec.Struct):
    state: FiguresState  # other hands empty, generator and stacked decks blanked
    unknown: list[str]  # the cards in other hands, sorted
    sizes: dict[int, int]  # other seat -> cards it holds
    allowed: dict[int, list[str]]  # other seat -> the unknown cards it may hold (sorted)
    hinted: dict[int, list[str]] = {}  # other seat -> of those, the ones its plays say it likely lacks
    few_kings: list[int] = []  # other seats whose plays say they likely hold fewer than three kings


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


def kings_hints(state: FiguresState) -> set[int]:
    """The seats that played a single outside a giro without having used three kings this hand:
    one holding three kings would likely have used them then (the easy seat always does), and
    kings only leave a hand, so it likely holds fewer now."""
    return {
        entry.seat
        for entry, _, giro in faced(state)
        if not giro and entry.move != "pass" and not entry.move.startswith("kings") and entry.seat not in state.kings_used
    }


def played_cards(state: FiguresState) -> set[str]:
    played: set[str] = set()
    for entry in state.history:
        if entry.move == "pass":
            continue
        played.update(entry.move.split()[1:] if entry.move.startswith("kings") else (entry.move,))
    return played


class FiguresKit(BaseKit[FiguresKnowledge, FiguresState]):
    """The search's view of Figures; ``policy`` (the greedy seat) plays the rollouts."""

    def __init__(self, policy: Any = None, trust: float = TRUST) -> None:
        super().__init__(policy)
        self.trust = trust  # how often a sample keeps a seat's play hints (deal_hidden)
        self._last_deal: tuple[FiguresKnowledge, int, dict[int, list[str]]] | None = None

    def observe(self, state: FiguresState, seat: int) -> FiguresKnowledge:
        unknown = sorted(ALL_CARDS - set(state.hands[seat]) - played_cards(state))
        limits = pass_limits(state)
        hints = play_hints(state)
        few_kings = kings_hints(state)
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
            few_kings=[other for other in others if other in few_kings],
        )

    def sample(self, knowledge: FiguresKnowledge, seat: int, rng: random.Random) -> FiguresState:
        state = msgspec.msgpack.decode(msgspec.msgpack.encode(knowledge.state), type=FiguresState)
        # The search deals one world for each of its candidates with the same generator: the deal
        # is kept for the next call (a pure saving, the same draw gives the same deal).
        key = rng.getrandbits(63)
        last = self._last_deal
        if last is not None and last[0] is knowledge and last[1] == key:
            hands = last[2]
        else:
            hands = deal_hidden(knowledge, random.Random(key), self.trust)
            self._last_deal = (knowledge, key, hands)
        state.rng = Rng(seed=reseed(rng))
        for other, hand in hands.items():
            state.hands[other] = list(hand)
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
        return self.rewards(state, state.totals)

    def rewards(self, state: FiguresState, totals_now: list[int]) -> list[float]:
        """Each seat's reward for reaching ``totals_now`` at a hand's end: its chance to win the
        match to a target (odds.py), else a logistic of its lead."""
        if state.mode != PAIRS and state.match_end == BY_TARGET:
            return match_chances(totals_now, state.target_score)
        totals = [float(total) for total in totals_now]
        if state.mode == PAIRS:  # partners share a total: only the lead over the other pair counts
            first, second = margin_rewards([totals[state.table[0]], totals[state.table[1]]], POINTS_SCALE)
            return [first if state.table.index(seat) % 2 == 0 else second for seat in range(len(totals))]
        return margin_rewards(totals, POINTS_SCALE)

    def seats(self, state: FiguresState) -> int:
        return len(state.totals)


def deal_hidden(knowledge: FiguresKnowledge, rng: random.Random, trust: float = TRUST) -> dict[int, list[str]]:
    """The other hands dealt anew: within the passes' limits always, and for most seats
    (``trust``) within their plays' hints too; then mixed by swaps (``SWAPS``) so that every deal
    that fits is about as likely as any other (the first deal favours no seat)."""
    allowed = dict(knowledge.allowed)
    trusted = {other for other in knowledge.sizes if rng.random() < trust}
    for other, unlikely in knowledge.hinted.items():
        if unlikely and other in trusted:
            allowed[other] = [card for card in allowed[other] if card not in set(unlikely)]
    few_kings = [other for other in knowledge.few_kings if other in trusted]
    hands = None
    for _ in range(KINGS_TRIES):
        hands = _deal(knowledge, allowed, rng)
        if hands is None or not any(_kings(hands[other]) >= 3 for other in few_kings):
            break
    if hands is None:  # the hints cannot all hold: the passes alone (the real deal fits them)
        allowed = knowledge.allowed
        hands = _deal(knowledge, allowed, rng)
    if hands is None:  # not expected (the passes are facts); never stall a search
        allowed = {other: knowledge.unknown for other in knowledge.sizes}
        hands = _deal(knowledge, allowed, rng) or {}
    if SWAPS and len(hands) > 1:
        _mix(hands, {other: set(cards) for other, cards in allowed.items()}, set(few_kings), rng)
    return hands


def _kings(hand: list[str]) -> int:
    return sum(1 for card in hand if card in KINGS)


def _mix(hands: dict[int, list[str]], allowed: dict[int, set[str]], few_kings: set[int], rng: random.Random) -> None:
    """Random swaps of two cards between two hands, each kept if both hands still fit: a walk
    whose every step is as likely as its reverse, so it tends to an even choice among the deals
    that fit, whichever deal it starts from."""
    others = sorted(hands)
    count = len(others)
    draw = rng.random
    for _ in range(SWAPS):
        first = int(draw() * count)
        second = int(draw() * (count - 1))
        first, second = others[first], others[second + 1 if second >= first else second]
        one, two = hands[first], hands[second]
        if not one or not two:
            continue
        i, j = int(draw() * len(one)), int(draw() * len(two))
        mine, theirs = one[i], two[j]
        if mine not in allowed[second] or theirs not in allowed[first]:
            continue
        one[i], two[j] = theirs, mine
        # Only a king coming in may break a kings hint.
        if (theirs in KINGS and first in few_kings and _kings(one) >= 3) or (
            mine in KINGS and second in few_kings and _kings(two) >= 3
        ):
            one[i], two[j] = mine, theirs


def _deal(knowledge: FiguresKnowledge, allowed: dict[int, list[str]], rng: random.Random) -> dict[int, list[str]] | None:
    """The unknown cards dealt within ``allowed``, or None when no deal fits them all. Card by card,
    the cards fewest seats may hold first, each to one of its seats drawn in proportion to the room
    left there, among the seats that still leave a deal for the cards after it (Hall's condition:
    for every group of seats, the cards only that group may hold fit in its room): so the deal never
    gets stuck, even where the limits are not nested (the plays' hints make them so), and a deal
    that fits is never missed."""
    others = sorted(knowledge.sizes)
    room = [knowledge.sizes[other] for other in others]
    masks = dict.fromkeys(knowledge.unknown, 0)  # card -> the seats (bits) that may hold it
    for index, other in enumerate(others):
        for card in allowed[other]:
            if card in masks:
                masks[card] |= 1 << index
    surplus = len(masks) - sum(room)
    if surplus > 0:  # cards in no hand (a test's partial position): a seat of their own, holding any
        others.append(-1)
        room.append(surplus)
        for card in masks:
            masks[card] |= 1 << len(room) - 1
    seats = len(others)
    groups = 1 << seats
    # need[group]: the cards left that only seats of ``group`` may hold; space[group]: its room.
    need = [0] * groups
    for mask in masks.values():
        for group in _SUPERSETS[seats][mask]:
            need[group] += 1
    space = [sum(room[index] for index in range(seats) if group >> index & 1) for group in range(groups)]
    if need[0] or any(need[group] > space[group] for group in range(groups)) or need[-1] != space[-1]:
        return None
    cards = list(knowledge.unknown)
    rng.shuffle(cards)
    cards.sort(key=lambda card: _SEATS_IN[masks[card]])  # stable: the order within a kind stays random
    hands: dict[int, list[str]] = {other: [] for other in others}  # -1: the cards in no hand
    anyone = groups - 1
    for place, card in enumerate(cards):
        mask = masks[card]
        if mask == anyone:  # the rest may go anywhere: dealt as they lie (already shuffled)
            for index, other in enumerate(others):
                hands[other].extend(cards[place : place + room[index]])
                place += room[index]
            break
        for group in _SUPERSETS[seats][mask]:
            need[group] -= 1
        choices = [index for index in range(seats) if mask >> index & 1 and room[index]]
        while True:
            if not choices:
                return None  # not expected: the deal fitted before this card
            roll = rng.random() * sum(room[index] for index in choices)
            for index in choices:
                roll -= room[index]
                if roll < 0:
                    break
            containing = _SUPERSETS[seats][1 << index]
            if all(need[group] < space[group] for group in containing):
                break
            choices.remove(index)
        room[index] -= 1
        for group in containing:
            space[group] -= 1
        hands[others[index]].append(card)
    hands.pop(-1, None)
    return hands


# _SEATS_IN[mask]: how many seats a mask names; _SUPERSETS[seats][mask]: the groups of seats (of
# ``seats`` seats) that contain every seat of ``mask``.
_SEATS_IN = [bin(mask).count("1") for mask in range(32)]
_SUPERSETS = [
    [[group for group in range(1 << seats) if mask & ~group == 0] for mask in range(1 << seats)] for seats in range(5)
]


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
