"""The Figures search's rollouts: the easy seat's choice (ai.FiguresGreedy) made directly from the
hand, and a whole hand played out on card counts (``play_out``), since rollouts spend most of the
search's time and suits never matter in play.

``play_out`` keeps per seat a count of each kind of card (the numbers 1-7, the fante and cavallo,
the kings) and plays the greedy seat's policy to the end of the hand: the lowest number 1-6 it
may, else a 7 or a figure picked at random card by card, kings kept while they promise three
kings, and the three-kings play (the greedy seat always makes it when it may) shedding the most
and leaving the highest bar. It follows rules.py move for move (tests/games/figures/test_rollout.py
plays both side by side).
"""

from __future__ import annotations

import random

from .cards import KINGS, VALUE
from .model import BEAT, GIRO, GIRO_TURNS, PAIRS, PASS, PASSES_TO_CLEAR, SINGLES, FiguresMove, FiguresState
from .rules import allowed_cards, current_bar, individual_points, kings_held, may_use_kings, pairs_points


def greedy_single(state: FiguresState, seat: int, rng: random.Random) -> FiguresMove | None:
    """What the greedy seat plays (the lowest number 1-6 it may, else a 7 or a figure, keeping
    kings while they promise three kings), or None where it might use three kings."""
    if may_use_kings(state, seat):
        return None
    hand = state.hands[seat]
    allowed = allowed_cards(state)
    playable = [card for card in hand if card in allowed]
    if not playable:
        return PASS
    if len(hand) == 1:
        return SINGLES[playable[0]]
    lowest = None
    for card in playable:
        value = VALUE[card]
        if 0 < value < 7 and (lowest is None or value < VALUE[lowest]):
            lowest = card
    if lowest is not None:
        return SINGLES[lowest]
    if seat not in state.kings_used and kings_held(hand) >= 3:
        others = [card for card in playable if card not in KINGS]
        playable = others or playable
    return SINGLES[rng.choice(playable)]


# ----- a hand played out on card counts --------------------------------------------------------
# Kinds: 0-6 the numbers 1-7, FIGURE the fante and cavallo, KING the kings.
FIGURE = 7
KING = 8
KINDS = 9
SEVEN = 6
_SHED = [8.0 - value for value in range(1, 8)] + [1.0, 1.0]  # the greedy seat's gladness to shed a kind
_BAR_AFTER = [1, 2, 3, 4, 5, 6, 0, 0, 0]  # the bar a kind leaves (0: open)
# _ALLOWED[bar]: the kinds playable against a bar (figures always; numbers above it).
_ALLOWED = [[kind for kind in range(KINDS) if kind >= FIGURE or kind + 1 > bar] for bar in range(7)]


def kind_of(card: str) -> int:
    return KING if card in KINGS else FIGURE if VALUE[card] == 0 else VALUE[card] - 1


def counts_of(hand: list[str]) -> list[int]:
    counts = [0] * KINDS
    for card in hand:
        counts[kind_of(card)] += 1
    return counts


def _kings_triple(counts: list[int], bar: int, size: int) -> tuple[int, int, int]:
    """The greedy seat's three-kings play in kinds: each card legal after the one before, shedding
    the most and leaving the highest bar (any play when it goes out)."""
    best = (-1.0, (KING, KING, KING))
    for first in _ALLOWED[bar]:
        if not counts[first]:
            continue
        counts[first] -= 1
        for second in _ALLOWED[_BAR_AFTER[first]]:
            if not counts[second]:
                continue
            counts[second] -= 1
            for third in _ALLOWED[_BAR_AFTER[second]]:
                if counts[third]:
                    if size == 3:
                        counts[second] += 1
                        counts[first] += 1
                        return (first, second, third)
                    score = _SHED[first] + _SHED[second] + _SHED[third] + 0.3 * _BAR_AFTER[third]
                    if score > best[0]:
                        best = (score, (first, second, third))
            counts[second] += 1
        counts[first] += 1
    return best[1]


def _pick(counts: list[int], kinds: list[int], rng: random.Random) -> int:
    """A kind among ``kinds``, as likely as its cards (a card picked at random)."""
    roll = rng.randrange(sum(counts[kind] for kind in kinds))
    for kind in kinds:
        roll -= counts[kind]
        if roll < 0:
            return kind
    raise AssertionError("unreachable")


def play_out(state: FiguresState, rng: random.Random, noise: float = 0.0) -> list[int]:
    """The hand in ``state`` (not over, not changed) played to its end by the greedy policy;
    each seat's points. ``noise``: how often a seat plays a random legal card instead."""
    counts = [counts_of(hand) for hand in state.hands]
    sizes = [len(hand) for hand in state.hands]
    table = state.table
    following = [0] * len(table)
    for position, seat in enumerate(table):
        following[seat] = table[(position + 1) % len(table)]
    used = set(state.kings_used)
    seat = state.turn
    giro_left = state.giro_left if state.phase == GIRO else 0
    bar = current_bar(state) if state.phase == BEAT else 0
    passes = state.passes
    while True:
        mine = counts[seat]
        if giro_left:
            if mine[FIGURE] or mine[KING]:
                if noise and rng.random() < noise:
                    kind = _pick(mine, [FIGURE, KING], rng)
                elif sizes[seat] > 1 and mine[FIGURE] and seat not in used and mine[KING] >= 3:
                    kind = FIGURE
                else:
                    kind = _pick(mine, [FIGURE, KING], rng)
                mine[kind] -= 1
                sizes[seat] -= 1
                if not sizes[seat]:
                    break
            giro_left -= 1
            if not giro_left:
                bar = 0
                passes = 0
            seat = following[seat]
            continue
        if seat not in used and mine[KING] >= 3:
            triple = _kings_triple(mine, bar, sizes[seat])
            for kind in triple:
                mine[kind] -= 1
            sizes[seat] -= 3
            used.add(seat)
            if not sizes[seat]:
                break
            bar = _BAR_AFTER[triple[2]]
            passes = 0
            seat = following[seat]
            continue
        playable = [kind for kind in _ALLOWED[bar] if mine[kind]]
        if not playable:
            passes += 1
            if passes == PASSES_TO_CLEAR:
                bar = 0
                passes = 0
            seat = following[seat]
            continue
        if noise and rng.random() < noise:
            kind = _pick(mine, playable, rng)
        elif playable[0] < SEVEN:
            kind = playable[0]
        else:
            kind = _pick(mine, playable, rng)
        mine[kind] -= 1
        sizes[seat] -= 1
        if not sizes[seat]:
            break
        passes = 0
        if kind >= FIGURE:
            giro_left = GIRO_TURNS
        else:
            bar = _BAR_AFTER[kind]
        seat = following[seat]
    if state.mode == PAIRS:
        return pairs_points(seat, table[(table.index(seat) + 2) % len(table)], sizes)
    return individual_points(seat, sizes)
