"""The worked examples of section 6 of the Figures spec, one test each."""

from __future__ import annotations

import pytest

from engine.core import BadNotation, IllegalMove
from engine.games.figures import GAME
from engine.games.figures.rules import individual_points, pairs_points

from .helpers import legal, play, position, refusal, seat, singles


def test_E1_free_beat_open_and_a_forced_figure():
    state = position(
        {2: "3d 6c", 3: "1c 3b 5s 7c Nd", 4: "2b 6d Js", 1: "1d 2s Kc"}, turn=2, phase="FREE"
    )
    # 1. FREE: anything goes.
    assert legal(state, 2) == {"3d", "6c"}
    state, _ = play(state, 2, "3d")
    assert (state.phase, state.top, state.owner, state.turn) == ("BEAT", "3d", seat(2), seat(3))
    # 2. BEAT(3): only higher numbers and figures.
    assert legal(state, 3) == {"5s", "7c", "Nd"}
    assert "equals" in refusal(state, 3, "3b")
    assert refusal(state, 3, "1c") is not None
    assert refusal(state, 3, "pass") is not None
    state, _ = play(state, 3, "7c")
    assert (state.phase, state.turn) == ("OPEN", seat(4))
    # 3. OPEN: anything goes.
    assert legal(state, 4) == {"2b", "6d", "Js"}
    state, _ = play(state, 4, "2b")
    assert (state.phase, state.top, state.owner, state.turn) == ("BEAT", "2b", seat(4), seat(1))
    # 4. P1 can only play the king, and cannot pass.
    assert legal(state, 1) == {"Kc"}
    assert refusal(state, 1, "pass") is not None
    state, _ = play(state, 1, "Kc")
    assert (state.phase, state.giro_starter, state.giro_left, state.turn) == ("GIRO", seat(1), 3, seat(2))


def test_E2_giro_over_a_3():
    state = position(
        {3: "4c 6b Nb", 4: "5d Jd Kd", 1: "1b 2c 7b", 2: "4s Jc Nc"},
        turn=3, phase="BEAT", top="3s", owner=2,
    )
    assert legal(state, 3) == {"4c", "6b", "Nb"}
    state, _ = play(state, 3, "Nb")
    assert (state.phase, state.giro_starter) == ("GIRO", seat(3))
    # P4's giro turn: a figure, nothing else.
    assert legal(state, 4) == {"Jd", "Kd"}
    assert refusal(state, 4, "5d") is not None and refusal(state, 4, "pass") is not None
    state, _ = play(state, 4, "Kd")
    # P1 holds no figure: pass is the only move.
    assert legal(state, 1) == {"pass"}
    assert refusal(state, 1, "7b") is not None
    state, _ = play(state, 1, "pass")
    # P2: any figure, no need to beat the king.
    assert legal(state, 2) == {"Jc", "Nc"}
    assert refusal(state, 2, "4s") is not None and refusal(state, 2, "pass") is not None
    state, _ = play(state, 2, "Jc")
    # The giro is over: P3 leads in FREE on a clear table.
    assert (state.phase, state.top, state.turn) == ("FREE", None, seat(3))
    assert legal(state, 3) == {"4c", "6b"}
    state, _ = play(state, 3, "4c")
    assert state.hands[seat(4)] == ["5d", "Jd"]
    assert legal(state, 4) == {"5d", "Jd"}


def _e3_after_two_passes(third_hand: str):
    """E3: P4 led the 6c; P1 and P2 pass; P3, holding ``third_hand``, is to act."""
    state = position(
        {1: "2d 5b", 2: "1s 4d", 3: third_hand, 4: "1c 5s 7d"}, turn=1, phase="BEAT", top="6c", owner=4
    )
    state, _ = play(state, 1, "pass")
    state, _ = play(state, 2, "pass")
    return state


def test_E3_everyone_passes():
    state = _e3_after_two_passes("3c 6s")
    assert legal(state, 3) == {"pass"}  # 6s only equals the 6
    state, events = play(state, 3, "pass")
    assert (state.phase, state.top, state.turn, state.passes) == ("FREE", None, seat(4), 0)
    assert any("Three passes" in text for text in events)
    assert legal(state, 4) == {"1c", "5s", "7d"}
    state, _ = play(state, 4, "1c")
    assert (state.phase, state.top, state.owner, state.passes) == ("BEAT", "1c", seat(4), 0)
    assert legal(state, 1) == {"2d", "5b"}


def test_E3_variant_a_seven_must_be_played_and_restarts_the_count():
    state = _e3_after_two_passes("3c 7s")
    assert state.passes == 2
    assert legal(state, 3) == {"7s"}
    with pytest.raises(IllegalMove):
        play(state, 3, "pass")
    state, _ = play(state, 3, "7s")
    assert (state.phase, state.passes, state.turn) == ("OPEN", 0, seat(4))


def _e4_position():
    return position({2: "Kd Kc Ks 2d 5c 6s 7d"}, turn=2, phase="BEAT", top="4b", owner=1)


def test_E4_three_kings_privilege():
    state = _e4_position()
    assert singles(state, 2) == {"5c", "6s", "7d", "Kd", "Kc", "Ks"}
    assert refusal(state, 2, "2d") is not None
    # A single king starts a giro as usual.
    after_king, _ = play(state, 2, "Kd")
    assert after_king.phase == "GIRO"
    expected = {
        "kings 5c 6s 7d": ("OPEN", None),
        "kings 5c 7d 2d": ("BEAT", 2),
        "kings Kd 2d 5c": ("BEAT", 5),
        "kings 6s Kd Kc": ("OPEN", None),
    }
    for text, (phase, bar) in expected.items():
        assert refusal(state, 2, text) is None, text
        after, events = play(state, 2, text)
        assert after.phase == phase and after.turn == seat(3), text
        assert GAME.view(after, None)["beat"] == bar
        assert after.giro_starter is None
    for text in ("kings 2d 5c 6s", "kings 6s 5c 7d"):
        assert refusal(state, 2, text) is not None
    with pytest.raises(BadNotation, match="three cards"):
        GAME.parse_move("kings 5c 6s")
    after, _ = play(state, 2, "kings 5c 6s 7d")
    assert after.hands[seat(2)].count("Kd") == 1 and seat(2) in after.kings_used
    # Play on in the same hand until P2 is on turn again: three kings are still held, but not offered.
    others = {3: "1c 2c 3c", 4: "1s 2s 3s", 1: "1b 2b 3b"}
    after = position({2: "Kd Kc Ks 2d 5c 6s 7d", **others}, turn=2, phase="BEAT", top="4b", owner=1)
    for player, text in ((2, "kings 5c 6s 7d"), (3, "1c"), (4, "2s"), (1, "3b")):
        after, _ = play(after, player, text)
    assert (after.turn, after.phase, after.hand_number) == (seat(2), "BEAT", 1)
    assert after.hands[seat(2)] == ["2d", "Kd", "Kc", "Ks"]
    assert legal(after, 2) == {"Kd", "Kc", "Ks"}
    assert "already used" in refusal(after, 2, "kings Kd Kc Ks")
    # Later in the hand, the privilege is gone even though P2 still holds three kings.
    later = position(
        {2: "Kd Kc Ks 2d"}, turn=2, phase="OPEN", top="7c", owner=1, kings_used=[2]
    )
    assert not any(text.startswith("kings") for text in legal(later, 2))
    assert "already used" in refusal(later, 2, "kings Kd Kc Ks")


def test_E4_admits_exactly_152_three_kings_plays():
    kings = [text for text in legal(_e4_position(), 2) if text.startswith("kings")]
    assert len(kings) == len(set(kings)) == 152


@pytest.mark.parametrize(
    ("out", "cards_left", "points"),
    [
        # P2 goes out; P1 holds 5, P3 and P4 hold 2 each.
        pytest.param(2, [5, 0, 2, 2], [1, 10, 3, 3], id="E5a_the_seeds_individual_example"),
        pytest.param(4, [1, 3, 3, 0], [5, 1, 1, 10], id="E5b_tie_for_third_and_fourth"),
    ],
)
def test_E5_individual_examples(out, cards_left, points):
    assert individual_points(seat(out), cards_left) == points


@pytest.mark.parametrize(
    ("out", "partner", "cards_left", "points"),
    [
        # P3 goes out with partner P1 (2 cards); opponents P2 and P4 hold 4 and 3.
        pytest.param(3, 1, [2, 4, 0, 3], [10, 0, 10, 0], id="E6a_pairs_partner_cards_count_against"),
        pytest.param(2, 4, [1, 0, 1, 6], [0, 1, 0, 1], id="E6b_pairs_result_can_be_small"),
    ],
)
def test_E6_pairs_examples(out, partner, cards_left, points):
    assert pairs_points(seat(out), seat(partner), cards_left) == points


def test_E5_E6_through_play():
    """The same scores come out of a hand that actually ends, in both modes."""
    state = position({2: "Ks", 1: "1d 2d 3d 4d 5d", 3: "1c 2c", 4: "1s 2s"}, turn=2, phase="FREE")
    after, events = play(state, 2, "Ks")
    assert after.results[-1].points == [1, 10, 3, 3]
    assert after.totals == [1, 10, 3, 3]
    assert any("goes out" in text for text in events)
    pairs = position(
        {3: "7b", 2: "1c 2c 3c 4c", 4: "1s 2s 3s", 1: "1d 2d"}, turn=3, phase="OPEN", top="7c", owner=2,
        mode="pairs",
    )
    after, _ = play(pairs, 3, "7b")
    assert after.results[-1].points == [10, 0, 10, 0]


def test_R5_the_truncated_pairs_example_is_replaced_by_E6():
    """The seed's pairs example breaks off; E6 (above) supplies one, checked here through a played hand."""
    state = position(
        {2: "Kb", 1: "1d", 3: "1c", 4: "1s 2s 3s 4s 5s 6s"}, turn=2, phase="OPEN", top="7c", owner=1, mode="pairs"
    )
    state, _ = play(state, 2, "Kb")
    assert state.results[-1].points == [0, 1, 0, 1]  # E6(b): 5 + (1 + 1) - 6
