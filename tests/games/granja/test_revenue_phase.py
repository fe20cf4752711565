"""Revenue phase (1.10, 3.3): dice, their options, the shared die, Die nudge (H09)."""

from __future__ import annotations

import pytest

from engine.games.granja import GAME
from engine.games.granja.model import R2_PICK, R3_PICK, R4_SHARED, T1_DONKEY
from engine.games.granja.rules import to_act

from .support import (
    add_barrow,
    add_field,
    add_helper,
    at_sequential,
    card_with,
    do,
    goods,
    kinds,
    move,
    new,
    options,
    refused,
    set_hand,
)


def at_dice(dice, seat=0, phase=R2_PICK, players=2, seed=1):
    state = new(players, seed=seed)
    state.dice = sorted(dice)
    state.order = list(range(players))
    return at_sequential(state, phase, seat, round_number=2)


def die_options(state, seat):
    return [text for text in options(state, seat) if text.startswith(("die", "nudge", "pass"))]


def test_r34_a_die_must_be_taken_and_its_action_may_be_declined():
    state = at_dice([2, 4, 4, 5, 6])
    assert "pass" not in options(state, 0) and "done" not in options(state, 0)
    assert "must take a die" in refused(state, 0, "pass")
    assert [text for text in options(state, 0) if text.startswith("take")] == ["take 2", "take 4", "take 5", "take 6"]
    assert "No die shows 3" in refused(state, 0, "take 3")
    state, _ = do(state, 0, "take 4", "pass")
    assert state.dice == [2, 4, 5, 6] and to_act(state) == (1,)


def test_r34_second_pick_in_the_same_order_and_the_last_die_is_shared():
    state = at_dice([1, 2, 3, 4, 6])
    state, _ = do(state, 0, "take 1", "pass")
    state, _ = do(state, 1, "take 2", "pass")
    assert state.phase == R3_PICK and to_act(state) == (0,)
    state, _ = do(state, 0, "take 3", "pass")
    state, _ = do(state, 1, "take 4", "pass")
    assert state.phase == R4_SHARED and state.dice == [6] and to_act(state) == (0,)
    silver = [farm.silver for farm in state.farms]
    state, _ = do(state, 0, "die silver", "done")
    state, _ = do(state, 1, "die silver", "done")
    assert [farm.silver for farm in state.farms] == [silver[0] + 2, silver[1] + 2]
    assert state.phase == T1_DONKEY


@pytest.mark.parametrize(
    ("face", "expected"),
    [
        (1, ["die pig"]),
        (2, ["die play", "die draw", "die crop GR", "die crop OL", "die crop GP"]),
        (3, ["die crops GR OL", "die crops GR GP", "die crops OL GP"]),
        (4, ["die silver"]),
        (5, ["die upgrade 2", "die upgrade siesta", "die siesta 2"]),
        (6, ["die deliver", "die silver"]),
    ],
)
def test_1_10_revenue_space_options(face, expected):
    state = at_dice([face, 1, 1, 1, 1] if face != 1 else [1, 2, 2, 2, 2])
    goods(state, 0, GR=1)
    add_barrow(state, 0, "C012")  # OL+OL, so that a delivery exists only with an olive
    goods(state, 0, OL=1)
    state, _ = do(state, 0, f"take {face}")
    assert die_options(state, 0) == expected + ["pass"]


def test_1_10_face_effects():
    state = at_dice([1, 2, 3, 4, 5])
    goods(state, 0, silver=0, PG=0, GR=0, OL=0)
    state, _ = do(state, 0, "take 4", "die silver", "done")
    assert state.farms[0].silver == 4
    state, _ = do(state, 1, "take 3", "die crops GR GP", "done")
    assert (state.farms[1].goods["GR"], state.farms[1].goods["GP"]) == (1, 1)
    state, _ = do(state, 0, "take 1", "die pig", "done")
    assert state.farms[0].goods["PG"] == 1
    hand = len(state.farms[1].hand)
    state, _ = do(state, 1, "take 2", "die draw")
    assert len(state.farms[1].hand) == hand + 1


def test_3_4_a_card_played_by_die_two_gets_no_refill():
    state = at_dice([2, 2, 2, 2, 2])
    hand = list(state.farms[0].hand)
    state, _ = do(state, 0, "take 2", "die play")
    assert options(state, 0)[0] == f"play {hand[0]} field"
    state, _ = do(state, 0, f"play {hand[1]} barrow")
    assert state.farms[0].hand == [hand[0]] + hand[2:]
    assert state.farms[0].barrows[0].card == hand[1]


def test_1_10_face_five_upgrades_up_to_two_and_may_stop_after_one():
    state = at_dice([5, 5, 5, 5, 5])
    goods(state, 0, GR=1, PG=1)
    state, _ = do(state, 0, "take 5", "die upgrade 2")
    assert options(state, 0) == ["upgrade GR", "upgrade PG"]  # the first is due
    state, _ = do(state, 0, "upgrade PG")
    assert options(state, 0) == ["upgrade GR", "pass"]
    state, _ = do(state, 0, "pass")
    farm = state.farms[0]
    assert (farm.goods["GR"], farm.goods["PG"], farm.goods["MT"]) == (1, 0, 1)
    assert to_act(state) == (0,) and "done" in options(state, 0)  # the window stays open (3.1)
    state, _ = do(state, 0, "done")
    assert to_act(state) == (1,)


def test_1_10_face_five_upgrade_and_siesta():
    state = at_dice([5, 5, 5, 5, 5])
    goods(state, 0, GP=1, silver=0)
    state, _ = do(state, 0, "take 5", "die upgrade siesta")
    assert state.siesta_space[0] == 1
    state, _ = do(state, 0, "upgrade GP")
    assert state.farms[0].goods["WN"] == 1 and state.farms[0].silver == 0  # free


def test_3_3_siesta_advances_in_the_revenue_phase_land_on_top_at_once():
    state = at_dice([5, 5, 5, 5, 5])
    state.siesta_space = [0, 2]
    state, _ = do(state, 0, "take 5", "die siesta 2")
    assert state.siesta_space == [2, 2]
    assert state.siesta_stamp[0] > state.siesta_stamp[1]


def test_r47_die_options_without_effect_are_not_offered():
    state = at_dice([5, 6, 6, 6, 6])
    goods(state, 0, GR=0, OL=0, GP=0, PG=0, FD=0, WN=0, MT=0, TG=0)
    state.siesta_space[0] = 8
    state, _ = do(state, 0, "take 5")
    assert die_options(state, 0) == ["pass"]  # nothing to upgrade, disc on top
    state = at_dice([6, 6, 6, 6, 6])
    goods(state, 0, GR=0, OL=0, GP=0, PG=0, FD=0, WN=0, MT=0, TG=0)
    state, _ = do(state, 0, "take 6")
    assert die_options(state, 0) == ["die silver", "pass"]  # no legal delivery
    state = at_dice([2, 2, 2, 2, 2])
    state.farms[0].hand, state.deck, state.discard = [], [], []  # nothing to play, nothing to draw
    state, _ = do(state, 0, "take 2")
    assert die_options(state, 0) == ["die crop GR", "die crop OL", "die crop GP", "pass"]


def test_1_10_face_six_delivers():
    state = at_dice([6, 6, 6, 6, 6])
    add_barrow(state, 0, "C012")  # OL+OL
    add_field(state, 0, card_with(field="OL"), crop=True)
    state, _ = do(state, 0, "take 6", "die deliver")
    assert "deliver OL@field C012" in options(state, 0) and "pass" not in options(state, 0)
    state, _ = do(state, 0, "deliver OL@field C012")
    assert state.farms[0].barrows[0].covered == [True, False]
    assert not state.farms[0].fields[0].crop


def test_h09_die_nudge_moves_the_face_one_step_once():
    state = at_dice([1, 3, 3, 3, 3])
    add_helper(state, 0, card_with(helper="H09"))
    state, _ = do(state, 0, "take 1")
    assert "nudge up" in options(state, 0) and "nudge down" not in options(state, 0)
    state, _ = do(state, 0, "nudge up")
    assert die_options(state, 0)[0] == "die play" and "nudge down" not in options(state, 0)
    assert "already been nudged" in refused(state, 0, "nudge up")
    state, _ = do(state, 0, "die crop GP")
    assert state.farms[0].goods["GP"] == 1 and state.farms[0].helpers[0].used


def test_h09_die_nudge_is_not_for_the_shared_die():
    state = at_dice([4], phase=R4_SHARED)
    add_helper(state, 0, card_with(helper="H09"))
    assert not any(text.startswith("nudge") for text in options(state, 0))
    assert options(state, 0)[:2] == ["die silver", "pass"]


@pytest.mark.parametrize("phase", [R2_PICK, R3_PICK, R4_SHARED])
def test_1_12_3_a_helper_played_with_a_die_works_in_the_same_step(phase):
    state = at_dice([2] if phase == R4_SHARED else [2, 2, 2, 2, 2], phase=phase)
    h02 = card_with(helper="H02")
    set_hand(state, 0, [h02])
    goods(state, 0, GR=1)
    state, _ = do(state, 0, *([] if phase == R4_SHARED else ["take 2"]), "die play", f"play {h02} helper")
    # The die is resolved but the turn is not over: the new Free upgrade is usable now (3.1, 3.4).
    assert to_act(state) == (0,) and f"use {h02}" in options(state, 0) and "done" in options(state, 0)
    assert not {"take", "die", "pass"} & kinds(state, 0)
    assert "already had your die" in refused(state, 0, "die silver" if phase == R4_SHARED else "take 2")
    assert GAME.default_move(state, 0) == move("done")
    state, _ = do(state, 0, f"use {h02}", "upgrade GR")
    assert state.farms[0].goods["FD"] == 1 and to_act(state) == (0,)
    state, _ = do(state, 0, "done")
    assert to_act(state) == (1,)


def test_3_3_done_comes_only_after_the_die():
    state = at_dice([2, 4, 4, 5, 6])
    assert "Take a die first" in refused(state, 0, "done")
    state = at_dice([4], phase=R4_SHARED)
    assert "done" not in options(state, 0) and "pass" in options(state, 0)
    state, _ = do(state, 0, "pass")  # declining the shared die ends the turn, as before
    assert to_act(state) == (1,)
