"""Rule 2.8 of the Figures spec (the three-kings privilege) and rulings R20, R23-R25, R36."""

from __future__ import annotations

import itertools

import pytest

from engine.games.figures import GAME
from engine.games.figures.model import ALLOWED_OVER_BAR, BAR_AFTER, ThreeKings

from .helpers import assert_refused_unchanged, legal, play, position, refusal, seat


def _kings(state, player):
    return {text for text in legal(state, player) if text.startswith("kings")}


# ----- 2.8.1 eligibility ------------------------------------------------------------------------


@pytest.mark.parametrize(("phase", "top"), [("FREE", None), ("OPEN", "7b"), ("BEAT", "3b")])
def test_2_8_1_on_own_turn_in_free_open_or_beat(phase, top):
    state = position({1: "Kd Kc Ks 4d 5d"}, turn=1, phase=phase, top=top, owner=4 if top else None)
    assert "kings 4d 5d Kd" in _kings(state, 1)


def test_2_8_1_never_on_a_giro_turn():
    state = position({2: "Kd Kc Ks 4d"}, turn=2, phase="GIRO", top="Jb", owner=1, giro_starter=1, giro_left=3)
    assert not _kings(state, 2)
    assert "giro turn" in refusal(state, 2, "kings Kd Kc Ks")


def test_2_8_1_needs_three_kings_in_hand():
    state = position({1: "Kd Kc Nd 4d 5d"}, turn=1)
    assert not _kings(state, 1)
    assert "you hold 2" in refusal(state, 1, "kings 4d 5d Kd")


def test_2_8_1_R25_four_kings_qualify():
    state = position({1: "Kd Kc Ks Kb 1d"}, turn=1)
    assert "kings Kd Kc Ks" in _kings(state, 1) and "kings 1d Kb Kd" in _kings(state, 1)


def test_2_8_1_R25_once_per_player_per_hand_and_again_next_hand():
    state = position({1: "Kd Kc Ks Kb 1d 2d 4d 7d", 2: "5c"}, turn=1)
    state, _ = play(state, 1, "kings 1d 2d 4d")
    assert state.kings_used == [seat(1)]
    later = GAME.copy_state(state)
    later.turn, later.phase = seat(1), "FREE"  # P1's next turn in this hand
    assert not _kings(later, 1)
    assert "already used" in refusal(later, 1, "kings Kd Kc Ks")
    # Another player's privilege is unaffected.
    assert _kings(position({2: "Kd Kc Ks 4c"}, turn=2, kings_used=[1]), 2)
    # A new hand forgets who used it: P2 goes out, the next hand is dealt.
    state, _ = play(state, 2, "5c")
    assert state.hand_number == 2 and state.kings_used == []


# ----- 2.8.2 form -------------------------------------------------------------------------------


def test_2_8_2_R23_each_card_checked_against_the_one_before():
    state = position({1: "Kd Kc Ks 2d 3d 3c 6d"}, turn=1, phase="BEAT", top="1b", owner=4)
    assert refusal(state, 1, "kings 2d 3d 6d") is None
    assert "second card, 3c, only equals the 3d played before it" in refusal(state, 1, "kings 3d 3c 6d")
    assert "third card, 2d, does not beat the 6d played before it" in refusal(state, 1, "kings 3d 6d 2d")
    assert "first card" in refusal(position({1: "Kd Kc Ks 2d"}, turn=1, phase="BEAT", top="3b", owner=4), 1, "kings 2d Kd Kc")


def test_2_8_2_R24_a_seven_or_a_figure_inside_leaves_the_table_open():
    state = position({1: "Kd Kc Ks 6d 1d 7c Jb"}, turn=1, phase="BEAT", top="5b", owner=4)
    assert refusal(state, 1, "kings 6d 7c 1d") is None
    assert refusal(state, 1, "kings 6d Jb 1d") is None
    assert refusal(state, 1, "kings Kd 1d Kc") is None


def test_2_8_2_cards_must_be_three_different_cards_you_hold():
    state = position({1: "Kd Kc Ks 1d 2d"}, turn=1)
    assert "different" in refusal(state, 1, "kings 1d 1d 2d")
    assert "do not hold 3d" in refusal(state, 1, "kings 1d 2d 3d")


def test_2_8_2_the_enumeration_matches_the_rule_exactly():
    hand = "Kd Kc Ks 1d 2d 5c 7b Jb"
    for phase, top in (("FREE", None), ("BEAT", "1b"), ("BEAT", "4b"), ("BEAT", "6b")):
        state = position({1: hand}, turn=1, phase=phase, top=top, owner=4 if top else None)
        bar = int(top[0]) if top else 0
        expected = set()
        for cards in itertools.permutations(hand.split(), 3):
            level, ok = bar, True
            for card in cards:
                ok = ok and card in ALLOWED_OVER_BAR[level]
                level = BAR_AFTER[card]
            if ok:
                expected.add("kings " + " ".join(cards))
        assert _kings(state, 1) == expected
        for cards in itertools.permutations(hand.split(), 3):
            text = "kings " + " ".join(cards)
            assert (refusal(state, 1, text) is None) == (text in expected)


@pytest.mark.parametrize(
    ("state", "text", "reason"),
    [
        (
            position({1: "Kd Kc Ks 1d"}, turn=1, kings_used=[1]), "kings Kd Kc Ks",
            "You have already used three kings in this hand (once per hand).",
        ),
        (
            position({1: "Kd Kc 1d 2d"}, turn=1), "kings Kd Kc 1d",
            "Three kings needs at least three kings in your hand; you hold 2.",
        ),
        (
            position({1: "Kd Kc Ks 1d"}, turn=1), "kings 1d 1d Kd",
            "The three cards of a three-kings play must be different cards.",
        ),
        (position({1: "Kd Kc Ks 1d"}, turn=1), "kings 1d 2d Kd", "You do not hold 2d."),
        (
            position({1: "Kd Kc Ks 2d 5d"}, turn=1, phase="BEAT", top="3b", owner=4), "kings 2d 5d Kd",
            "Three kings refused (nothing was played): the first card, 2d, does not beat the 3 on the table.",
        ),
        (
            position({1: "Kd Kc Ks 5d 5c"}, turn=1, phase="BEAT", top="3b", owner=4), "kings 5d 5c Kd",
            "Three kings refused (nothing was played): the second card, 5c, only equals the 5d played before it; "
            "a card must be strictly higher.",
        ),
        (
            position({1: "Kd Kc Ks 5d 2d"}, turn=1), "kings Kd 5d 2d",
            "Three kings refused (nothing was played): the third card, 2d, does not beat the 5d played before it.",
        ),
    ],
)
def test_why_illegal_names_the_reason_a_three_kings_play_is_refused(state, text, reason):
    assert refusal(state, 1, text) == reason


# ----- 2.8.3 all or nothing ---------------------------------------------------------------------


def test_2_8_3_a_failed_play_changes_nothing():
    state = position({1: "Kd Kc Ks 5d 2d 6d"}, turn=1, phase="BEAT", top="4b", owner=4)
    assert_refused_unchanged(state, 1, "kings 5d 6d 2d", "nothing was played")
    assert GAME.legal_moves(state, seat(1))  # the player simply chooses again


# ----- 2.8.4 result -------------------------------------------------------------------------------


def test_2_8_4_result_of_the_play():
    state = position({1: "Kd Kc Ks 1d 2d 4d"}, turn=1, phase="BEAT", top="3b", owner=4, passes=2)
    state, events = play(state, 1, "kings 4d Kd 1d")
    assert (state.phase, state.top, state.owner, state.passes, state.turn) == ("BEAT", "1d", seat(1), 0, seat(2))
    assert [entry.move for entry in state.history] == ["kings 4d Kd 1d"]
    assert state.hands[seat(1)] == ["2d", "Kc", "Ks"]


# ----- 2.8.5 optional and announced ----------------------------------------------------------------


def test_2_8_5_optional_and_announced():
    state = position({1: "Kd Kc Ks 1d 2d 4d"}, turn=1)
    assert {"1d", "2d", "4d", "Kd"} <= legal(state, 1)  # singles remain
    _, events = play(state, 1, "kings 1d 2d 4d")
    assert events == ["{p0}: three kings! Plays 1d 2d 4d."]
    assert GAME.default_move(state, seat(1)) == GAME.parse_move("1d")  # never forced on a timeout


# ----- 2.8.6 going out ----------------------------------------------------------------------------


def test_2_8_6_going_out_with_the_privilege_needs_exactly_three_cards():
    state = position({1: "Kd Kc Ks", 2: "1c 2c"}, turn=1, phase="BEAT", top="6b", owner=4)
    state, events = play(state, 1, "kings Kd Kc Ks")
    assert state.results[-1].winner == seat(1)
    assert any("goes out" in text for text in events)


def test_R20_kings_offer_a_way_out_of_a_forced_giro():
    state = position({1: "Kd Kc Ks 2b 4s"}, turn=1, phase="BEAT", top="6c", owner=4)
    assert {text for text in legal(state, 1) if not text.startswith("kings")} == {"Kd", "Kc", "Ks"}
    assert refusal(state, 1, "kings Kc 2b 4s") is None
    state, _ = play(state, 1, "kings Kc 2b 4s")
    assert (state.phase, state.top, state.giro_starter) == ("BEAT", "4s", None)


def test_R24_kings_themselves_can_be_shed_and_start_no_giro():
    state = position({1: "Kd Kc Ks 1d"}, turn=1, phase="OPEN", top="7c", owner=4)
    state, _ = play(state, 1, "kings Kd Kc Ks")
    assert (state.phase, state.giro_starter, state.giro_left) == ("OPEN", None, 0)


def test_R36_a_three_kings_hand_never_has_to_pass_outside_a_giro():
    for phase, top in (("FREE", None), ("OPEN", "7c"), ("BEAT", "6c")):
        state = position({1: "Kd Kc Ks 1d"}, turn=1, phase=phase, top=top, owner=4 if top else None)
        assert "pass" not in legal(state, 1)
        assert _kings(state, 1)


def test_three_kings_move_is_hashable_and_ordered():
    first, second = ThreeKings(("1d", "2d", "Kd")), ThreeKings(("2d", "1d", "Kd"))
    assert first != second and len({first, second, ThreeKings(("1d", "2d", "Kd"))}) == 2


def test_2_8_4_R21_the_three_kings_player_owns_the_third_card_and_leads_after_three_passes():
    state = position(
        {1: "Kd Kc Ks 2d 3d 6d 1d", 2: "1c 5c", 3: "2s 4s", 4: "3b 6b"}, turn=1, phase="BEAT", top="1b", owner=4,
        passes=1,
    )
    state, _ = play(state, 1, "kings 2d 3d 6d")
    assert (state.phase, state.top, state.owner, state.passes) == ("BEAT", "6d", seat(1), 0)
    for player in (2, 3, 4):  # nobody beats a 6 without a 7 or a figure
        assert legal(state, player) == {"pass"}
        state, _ = play(state, player, "pass")
    assert (state.phase, state.turn, state.top) == ("FREE", seat(1), None)
    assert not _kings(state, 1)  # still three kings in hand, but the privilege is spent
