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
from dataclasses import dataclass

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


# More choices than any seat makes in a hand (it holds ten cards): a planner that plans them all.
EVERY_CHOICE = 1000


def play_out(
    state: FiguresState,
    rng: random.Random,
    noise: float = 0.0,
    planner: int | None = None,
    plans: int = EVERY_CHOICE,
) -> list[int]:
    """The hand in ``state`` (not over, not changed) played to its end by the greedy policy;
    each seat's points. ``noise``: how often a seat plays a random legal card instead.
    ``planner``: a seat that instead looks one move ahead (``_plan``) at its next ``plans`` choices."""
    table = state.table
    following = [0] * len(table)
    for place, seat in enumerate(table):
        following[seat] = table[(place + 1) % len(table)]
    position = _Position(
        [counts_of(hand) for hand in state.hands],
        [len(hand) for hand in state.hands],
        set(state.kings_used),
        state.turn,
        state.giro_left if state.phase == GIRO else 0,
        current_bar(state) if state.phase == BEAT else 0,
        state.passes,
    )
    seat = _run(position, following, rng, noise, planner, plans)
    return _points(state, seat, position.sizes)


def _points(state: FiguresState, winner: int, sizes: list[int]) -> list[int]:
    table = state.table
    if state.mode == PAIRS:
        return pairs_points(winner, table[(table.index(winner) + 2) % len(table)], sizes)
    return individual_points(winner, sizes)


@dataclass(slots=True)
class _Position:
    """A hand in play on card counts: per seat the count of each kind and the hand size, the seats
    that used three kings, who is on turn, giro turns left, the bar and the passes in a row."""

    counts: list[list[int]]
    sizes: list[int]
    used: set[int]
    seat: int
    giro_left: int
    bar: int
    passes: int

    def copy(self) -> _Position:
        return _Position(
            [list(mine) for mine in self.counts], list(self.sizes), set(self.used),
            self.seat, self.giro_left, self.bar, self.passes,
        )


# A choice at the planner's turn: a kind of card, or a three-kings play in kinds.
_Choice = int | tuple[int, int, int]


def _run(
    position: _Position, following: list[int], rng: random.Random, noise: float, planner: int | None, plans: int = 0
) -> int:
    """Play ``position`` (changed in place) to the end of the hand; the seat that went out."""
    counts = position.counts
    sizes = position.sizes
    used = position.used
    seat = position.seat
    giro_left = position.giro_left
    bar = position.bar
    passes = position.passes
    while True:
        mine = counts[seat]
        if giro_left:
            if mine[FIGURE] or mine[KING]:
                if seat == planner and plans and mine[FIGURE] and mine[KING]:
                    plans -= 1
                    position.seat, position.giro_left, position.bar, position.passes = seat, giro_left, bar, passes
                    kind = _plan(position, following, rng, [FIGURE, KING])
                elif noise and rng.random() < noise:
                    kind = _pick(mine, [FIGURE, KING], rng)
                elif sizes[seat] > 1 and mine[FIGURE] and seat not in used and mine[KING] >= 3:
                    kind = FIGURE
                else:
                    kind = _pick(mine, [FIGURE, KING], rng)
                assert isinstance(kind, int)
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
        playable = [kind for kind in _ALLOWED[bar] if mine[kind]]
        kings = seat not in used and mine[KING] >= 3
        choice: _Choice
        if seat == planner and plans and (kings or len(playable) > 1):
            plans -= 1
            options: list[_Choice] = [_kings_triple(mine, bar, sizes[seat])] if kings else []
            position.seat, position.giro_left, position.bar, position.passes = seat, giro_left, bar, passes
            options.extend(playable)
            choice = _plan(position, following, rng, options)
        elif kings:
            choice = _kings_triple(mine, bar, sizes[seat])
        elif not playable:
            passes += 1
            if passes == PASSES_TO_CLEAR:
                bar = 0
                passes = 0
            seat = following[seat]
            continue
        elif noise and rng.random() < noise:
            choice = _pick(mine, playable, rng)
        elif playable[0] < SEVEN:
            choice = playable[0]
        else:
            choice = _pick(mine, playable, rng)
        if isinstance(choice, tuple):
            for kind in choice:
                mine[kind] -= 1
            sizes[seat] -= 3
            used.add(seat)
            if not sizes[seat]:
                break
            bar = _BAR_AFTER[choice[2]]
            passes = 0
            seat = following[seat]
            continue
        mine[choice] -= 1
        sizes[seat] -= 1
        if not sizes[seat]:
            break
        passes = 0
        if choice >= FIGURE:
            giro_left = GIRO_TURNS
        else:
            bar = _BAR_AFTER[choice]
        seat = following[seat]
    return seat


def _plan(position: _Position, following: list[int], rng: random.Random, options: list[_Choice]) -> _Choice:
    """The planner's choice among ``options`` (the greedy one first where it has one): each played
    then the hand played out greedily, every option on the same dice; the first with the best
    result for the planner (going out first, else fewest cards left)."""
    seat = position.seat
    seed = rng.getrandbits(32)
    best: _Choice = options[0]
    best_score = -1
    for option in options:
        trial = position.copy()
        if not _apply(trial, following, option):
            return option  # goes out at once
        winner = _run(trial, following, random.Random(seed), 0.0, None)
        score = 64 * individual_points(winner, trial.sizes)[seat] - trial.sizes[seat]
        if score > best_score:
            best, best_score = option, score
    return best


def _apply(position: _Position, following: list[int], choice: _Choice) -> bool:
    """Play ``choice`` for the seat on turn; False when that empties its hand. The same
    transitions as ``_run``'s loop, which keeps them inline on local variables because it is the
    search's innermost loop; the planner's test and the play-alike test of ``play_out`` keep the
    two in step."""
    seat = position.seat
    mine = position.counts[seat]
    kinds = choice if isinstance(choice, tuple) else (choice,)
    for kind in kinds:
        mine[kind] -= 1
    position.sizes[seat] -= len(kinds)
    if not position.sizes[seat]:
        return False
    if position.giro_left:
        position.giro_left -= 1
        if not position.giro_left:
            position.bar = 0
            position.passes = 0
    else:
        if isinstance(choice, tuple):
            position.used.add(seat)
            position.bar = _BAR_AFTER[choice[2]]
        elif choice >= FIGURE:
            position.giro_left = GIRO_TURNS
        else:
            position.bar = _BAR_AFTER[choice]
        position.passes = 0
    position.seat = following[seat]
    return True
