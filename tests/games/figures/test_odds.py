"""The match chances the search scores a hand's end by (engine/games/figures/odds.py)."""

from __future__ import annotations

import pytest

from engine.games.figures.odds import _CACHE, _DEEPEST, HORIZON, match_chances, within_reach


def test_even_totals_give_even_chances_and_chances_add_up():
    assert match_chances([0, 0, 0, 0], 31) == pytest.approx([0.25] * 4)
    for totals in ([10, 5, 3, 1], [25, 20, 10, 5], [30, 22, 21, 20], [12, 31, 30, 8]):
        assert sum(match_chances(totals, 31)) == pytest.approx(1.0)


def test_the_chances_follow_the_totals_seat_by_seat():
    chances = match_chances([3, 10, 1, 5], 31)
    assert chances[1] > chances[3] > chances[0] > chances[2]
    assert match_chances([10, 5, 3, 1], 31) == pytest.approx([chances[1], chances[3], chances[0], chances[2]])


def test_a_decided_match_and_a_tied_lead():
    assert match_chances([33, 20, 31, 2], 31) == [1.0, 0.0, 0.0, 0.0]
    tied = match_chances([31, 31, 10, 0], 31)  # another hand is played: the two leaders share it
    assert tied[0] == pytest.approx(tied[1]) and tied[2] < 0.05 and tied[3] == 0.0


def test_a_leader_close_to_the_target_is_hard_to_catch():
    """Early points are worth little, late ones much: a 23-point lead at 28 nearly decides it."""
    assert match_chances([28, 5, 5, 5], 31)[0] > 0.9
    assert match_chances([10, 5, 3, 1], 31)[0] < 0.5


def test_a_long_match_is_weighed_within_bounds():
    """The target is any positive integer, but the exact sum over what can still happen grows with
    the fourth power of the points to go: it waits until the leader is within reach and keeps
    far-behind seats at a bounded distance; before that, the chances are estimated."""
    assert within_reach([0, 0, 0, 0], HORIZON) and not within_reach([0, 0, 0, 0], HORIZON + 1)
    near = match_chances([990, 0, 0, 0], 1000)
    assert near[0] > 0.95 and near[1] == pytest.approx(near[2]) and sum(near) == pytest.approx(1.0)
    far = match_chances([500, 450, 420, 400], 1000)
    assert far[0] > far[1] > far[2] > far[3] and sum(far) == pytest.approx(1.0)
    assert match_chances([0, 0, 0, 0], 10**12) == pytest.approx([0.25] * 4)
    assert match_chances([10**12 - 40, 0, 0, 0], 10**12) == pytest.approx([1.0, 0.0, 0.0, 0.0])
    # The estimate meets the exact sum where they join, and a lead weighs less with more to play.
    exact, estimated = match_chances([5, 0, 0, 0], 5 + HORIZON), match_chances([5, 0, 0, 0], 6 + HORIZON)
    assert estimated[0] == pytest.approx(exact[0], abs=0.02)
    assert match_chances([5, 0, 0, 0], 200)[0] < estimated[0]
    assert all(max(deficits) <= _DEEPEST and deficits[0] <= HORIZON for deficits in _CACHE)
