"""The search's fast playout (rollout.play_out) against the rules: from positions of real games,
the hand played out on card counts must end as the same greedy play through rules.py does."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine.games.figures import GAME
from engine.games.figures.ai import FiguresGreedy
from engine.games.figures.model import Single, ThreeKings
from engine.games.figures.rollout import _kings_triple, counts_of, kind_of, play_out
from engine.games.figures.rules import kings_held

from .helpers import position, seat


class Pick(random.Random):
    """Dice that make the greedy seat and play_out pick alike where they pick at random: the
    lowest kind of card (a 7 before a fante or cavallo before a king) or the highest, the first
    of equal three-kings plays, never a noisy move."""

    def __init__(self, highest: bool) -> None:
        super().__init__(0)
        self.highest = highest

    def random(self) -> float:
        return 0.999

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        return (args[0] - 1) if self.highest else 0

    def choice(self, seq: Sequence[Any]) -> Any:
        if isinstance(seq[0], ThreeKings):
            return min(seq, key=lambda move: tuple(kind_of(card) for card in move.cards))
        cards = [item.card if isinstance(item, Single) else item for item in seq]
        pick = max if self.highest else min
        return seq[cards.index(pick(cards, key=kind_of))]


def _by_the_rules(state: Any, dice: Pick) -> tuple[list[int], bool]:
    """The hand played to its end by the greedy seat through the rules: points, and whether three
    kings were used."""
    state = GAME.copy_state(state)
    hand = state.hand_number
    greedy = FiguresGreedy()
    kings = False
    while not GAME.is_over(state) and state.hand_number == hand:
        mover = GAME.to_act(state)[0]
        move = greedy.choose(GAME, state, mover, dice)
        kings = kings or isinstance(move, ThreeKings)
        state, _ = GAME.apply(state, mover, move)
    return list(state.results[-1].points), kings


@pytest.mark.parametrize("highest", [False, True])
def test_play_out_ends_each_hand_as_the_rules_do(highest: bool):
    dice = Pick(highest)
    checked = kings = 0
    for mode in ("individual", "pairs"):
        for deal in range(25):
            state = GAME.new_game(4, deal, {"mode": mode})
            rng = random.Random(deal)
            greedy = FiguresGreedy()
            step = 0
            while not GAME.is_over(state) and state.hand_number <= 2:
                three_kings = any(kings_held(hand) >= 3 for hand in state.hands)
                if step % 5 == 0 or three_kings:
                    expected, used = _by_the_rules(state, dice)
                    assert play_out(state, dice) == expected, (mode, deal, step)
                    checked += 1
                    kings += used
                mover = GAME.to_act(state)[0]
                state, _ = GAME.apply(state, mover, greedy.choose(GAME, state, mover, rng))
                step += 1
    assert checked > 400 and kings > 20  # giros, passes and three-kings plays all met


def test_play_out_changes_nothing_and_noise_plays_other_cards():
    state = GAME.new_game(4, 5)
    before = GAME.copy_state(state)
    quiet = {tuple(play_out(state, random.Random(seed))) for seed in range(30)}
    noisy = {tuple(play_out(state, random.Random(seed), noise=0.5)) for seed in range(30)}
    assert state == before
    assert len(noisy) > len(quiet)


@pytest.mark.parametrize("highest", [False, True])
def test_play_out_keeps_kings_in_a_giro_and_plays_kings_as_the_greedy_seat(highest: bool):
    """Rare in dealt games, so set up: kings kept on a giro turn, a king between two aces."""
    giro = position({2: "Jd Kd Kc Ks 2d 3c"}, turn=2, phase="GIRO", top="Nb", owner=1, giro_starter=1, giro_left=3)
    aces = position({1: "Kd Kc Ks 1d 1c 5s 6c"}, turn=1, filler=6)
    for state in (giro, aces):
        assert play_out(state, Pick(highest)) == _by_the_rules(state, Pick(highest))[0]
    assert _kings_triple(counts_of(aces.hands[0]), 0, 7) == (kind_of("1d"), kind_of("Kd"), kind_of("1c"))


def test_a_planning_seat_looks_one_move_ahead():
    """P1 holds 2d and Jd, P2 only 3c, and nobody else a figure. The greedy seat leads its lowest
    number and P2 goes out on it; a seat that looks ahead starts a giro instead (nobody can answer
    it), leads again and goes out with the 2d."""
    state = position({1: "2d Jd", 2: "3c"}, turn=1, filler=3)
    assert play_out(state, random.Random(1))[seat(2)] == 10
    planned = play_out(state, random.Random(1), planner=seat(1), plans=1)
    assert planned[seat(1)] == 10
    assert play_out(state, random.Random(1), planner=seat(1), plans=0) == play_out(state, random.Random(1))
