"""What the Figures search infers from the public history (engine/games/figures/knowledge.py):
the plays' hints about the cards a seat probably lacks, and the twins it does not search twice."""

from __future__ import annotations

import random

from engine.games.figures import GAME
from engine.games.figures.ai import KIT
from engine.games.figures.knowledge import play_hints

from .helpers import play, position, seat


def _after_two_plays():
    """P1 leads 2d, P2 answers 5c although it holds 3c: P3 is to play."""
    state = position({1: "2d 6d Jb", 2: "5c 3c 7b 1s", 3: "6c Nd 2b"}, turn=1, filler=8)
    state, _ = play(state, 1, "2d")
    state, _ = play(state, 2, "5c")
    return state


def test_a_play_hints_at_the_lower_numbers_the_seat_did_not_play():
    hints = play_hints(_after_two_plays())
    assert hints[seat(1)] == {"1d", "1c", "1s", "1b"}  # led a 2: probably no asso
    assert hints[seat(2)] == {rank + suit for rank in "34" for suit in "dcsb"}  # a 5 over a 2: no 3, no 4


def test_the_samples_mostly_follow_the_hints_but_not_always():
    state = _after_two_plays()
    knowledge = KIT.observe(state, seat(3))
    assert "3c" in knowledge.hinted[seat(2)]  # a hint, not a certainty: P2 does hold 3c
    rng = random.Random(1)
    samples = [KIT.sample(knowledge, seat(3), rng).hands[seat(2)] for _ in range(400)]
    against = sum(1 for hand in samples if any(card[0] in "34" for card in hand))
    # Without the hints about half the deals give P2 a 3 or a 4; with them only the few that do not
    # trust them (TRUST) may.
    assert 0 < against < 400 * 0.2


def test_twins_are_searched_once():
    state = position({1: "3d 3c Jb Nd Kd 5s"}, turn=1)
    moves = KIT.candidates(GAME, state, seat(1), GAME.legal_moves(state, seat(1)))
    assert sorted(GAME.format_move(move)[0] for move in moves) == ["3", "5", "J", "K"]  # one 3, one of Jb Nd
