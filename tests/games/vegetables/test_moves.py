"""§4.3 moves M1-M4 and actions A1-A3, with Examples 2 and 4 and rulings R5, R6, R10, R12, R13,
R14, R16."""

import pytest

from engine.core import IllegalMove, NotYourTurn
from engine.games.vegetables import GAME
from engine.games.vegetables.cards import FAMILY_NAMES
from engine.games.vegetables.model import MUST_PASS, PLAYING, Discard, Done, TakeWell, UseTractor
from engine.games.vegetables.rules import card_places, well_points

from . import helpers as H

P1, P2, P3, P4 = 0, 1, 2, 3


# ----- Example 2 and M3 -------------------------------------------------------------------------


def example_2_position(hand=("T1", "K12", "G9")):
    """Sequence K4 holds only its base; P2 has taken the well and holds {T, K12, G9}; K8 is in P3's
    hidden hand."""
    state = H.new_game(seed=21)
    H.build_stack(state, 1, "K4", ["K4"], park=P4)
    H.put(state, "K8", "hand", P3)
    H.take_well(state, P2, park=P4)
    H.set_cards(state, "hand", P2, hand, park=P4)
    H.set_cards(state, "farmland", P2, [], park=P4)
    H.start_turn(state, P2)
    return state


def test_example_2_tractor_replacing_a_missing_card():
    state = example_2_position()
    assert "tractor T1 for K8 then K12" in H.legal(state, P2)
    state, events = H.play(state, P2, "tractor T1 for K8 then K12")
    assert state.stacks["K4"] == ["K4", "T1", "K12"]  # next needed: K16
    assert sorted(state.seats[P2].hand) == ["G9"]  # hidden 3 -> 1
    assert state.dead == ["K8"]
    assert any("K8 is now dead" in text for text in events)  # announced publicly
    assert "K8" in state.seats[P3].hand  # it stays with its holder
    H.check_conservation(state)

    # P3 asks to discard K8 during P2's turn: it waits for the start of P3's next turn.
    assert H.legal(state, P3) == ["discard K8"]
    state, events = H.play(state, P3, "discard K8")
    assert state.seats[P3].pending == ["K8"] and "K8" in state.seats[P3].hand
    assert GAME.view(state, P3)["pending"] == ["K8"]
    state, events = H.play(state, P2, "done")
    assert state.turn == P3
    assert "K8" not in state.seats[P3].hand and state.discard == ["K8"]
    assert "{p2} discards the dead card K8 (asked earlier)." in events
    H.check_conservation(state)


def test_example_2_variant_a_without_the_following_card():
    state = example_2_position(hand=("T1", "G9"))
    assert not any(m.startswith("tractor") for m in H.legal(state, P2))
    assert H.why(state, P2, "tractor T1 for K8 then K12") == (
        "To use a Tractor for K8 you must hold K12 to play right after it."
    )
    assert "discard T1" in H.legal(state, P2)
    state, events = H.play(state, P2, "discard T1")
    assert state.turn == P3 and state.discard == ["T1"]


def test_example_2_variant_b_a_tractor_never_stands_for_17_to_20():
    state = example_2_position()
    for card in ("K20", "K17", "G19"):
        move = UseTractor("T1", card)
        assert GAME.why_illegal(state, P2, move) == (
            "A Tractor can stand only for a card numbered 1 to 16, never for a closing card (17-20)."
        )


def test_m3_slot_must_be_the_next_one():
    state = example_2_position(hand=("T1", "K16", "G9"))
    assert H.why(state, P2, "tractor T1 for K12 then K16") == (
        "A Tractor only fills the next place of a sequence: sequence K4 needs K8 next, not K12."
    )
    assert H.why(state, P2, "tractor T1 for K4 then K8") is not None  # K4's base is already there


def test_m3_the_following_card_may_close_and_score():
    state = example_2_position(hand=("T1", "K20", "G9"))
    state.stacks["K4"] += ["K8", "K12"]
    for card in ("K8", "K12"):
        for player in state.seats:
            if card in player.hand:
                player.hand.remove(card)
    state, events = H.play(state, P2, "tractor T1 for K16 then K20")
    assert state.stacks["K4"] == ["K4", "K8", "K12", "T1", "K20"]
    assert state.seats[P2].score == 10
    assert "{p1} closes sequence K4 (+10)." in events


def test_r10_tractor_for_a_farmland_followed_by_its_seed_card():
    state = example_2_position(hand=("T1", "R7", "G9"))
    assert "R3" in {c for p in state.seats for c in p.farmland}
    moves = [m for m in H.legal(state, P2) if m.startswith("tractor")]
    assert moves == [f"tractor T1 for R3 then R7 row {r}" for r in (2, 3, 4)]
    state, _ = H.play(state, P2, "tractor T1 for R3 then R7 row 2")
    assert state.stacks["R3"] == ["T1", "R7"] and "R3" in state.dead


def test_r10_the_following_card_must_come_from_the_player_holdings():
    state = example_2_position(hand=("T1", "G9"))
    H.put(state, "K12", "hand", P1)
    assert not any(m.startswith("tractor") for m in H.legal(state, P2))


def test_r12_two_tractors_are_never_adjacent():
    state = H.new_game(seed=3)
    H.build_stack(state, 1, "K2", ["K2"])
    H.set_cards(state, "hand", P1, ["T1", "T2", "K14", "G9", "G10", "G11"], park=P2)
    H.start_turn(state, P1)
    # K6 could only be replaced with the real K10 right after it; a second Tractor will not do.
    assert not any(m.startswith("tractor") for m in H.legal(state, P1))
    assert (
        H.why(state, P1, "tractor T1 for K6")
        == "To use a Tractor for K6 you must hold K10 to play right after it."
    )


def test_r12_example_k2_t_k10_t_k18():
    state = H.new_game(seed=3)
    H.build_stack(state, 1, "K2", ["K2", "T1", "K10"])
    state.dead.append("K6")
    H.set_cards(state, "hand", P1, ["T2", "K18", "G9", "G10", "G11", "G12"], park=P2)
    H.start_turn(state, P1)
    state, _ = H.play(state, P1, "tractor T2 for K14 then K18")
    assert state.stacks["K2"] == ["K2", "T1", "K10", "T2", "K18"]
    assert all(
        not (a.startswith("T") and b.startswith("T"))
        for a, b in zip(state.stacks["K2"], state.stacks["K2"][1:], strict=False)
    )


@pytest.mark.parametrize("where", ["farmland", "hand", "exposed", "well", "cell", "own hand"])
def test_r13_the_replaced_card_becomes_dead_wherever_it_is(where):
    state = example_2_position()
    if where == "cell":
        H.set_cell(state, 4, 4, "K8")
    elif where == "own hand":
        H.put(state, "K8", "hand", P2)
    else:
        H.put(state, "K8", where, P3)
    before = [(c, p) for c, p in card_places(state) if c == "K8"]
    state, _ = H.play(state, P2, "tractor T1 for K8 then K12")
    after = [(c, p) for c, p in card_places(state) if c == "K8"]
    assert before == after and state.dead == ["K8"]


def test_r13_a_dead_card_found_later_is_dead_on_arrival():
    state = example_2_position()
    H.set_cell(state, 4, 4, "K8")
    state, _ = H.play(state, P2, "tractor T1 for K8 then K12")
    H.put(state, "Y4", "farmland", P2)
    state, events = GAME.apply(state, P2, GAME.parse_move("play Y4 row 4"))
    private = [e.text for e in events if e.visible_to == (P2,)]
    assert private == ["You take the face-down field card K8. It is dead (a Tractor took its place)."]
    assert GAME.view(state, P2)["dead_held"] == ["K8"]
    assert H.why(state, P2, "play K8") is not None


def test_r13_discarding_a_dead_card_is_not_a_play():
    state = example_2_position()
    H.put_dead_in_hand(state, "K8", P2)
    H.start_turn(state, P2)
    state, _ = H.play(state, P2, "discard K8")
    assert state.plays == 0 and state.turn == P2
    assert H.why(state, P2, "done") == "Play at least one card or Tractor before ending your turn."


def test_r13_using_a_tractor_on_ones_own_card_is_legal():
    state = example_2_position()
    H.put(state, "K8", "hand", P2)
    assert "tractor T1 for K8 then K12" in H.legal(state, P2)


# ----- M2 ---------------------------------------------------------------------------------------


def test_m2_a_card_goes_on_its_own_sequence_when_the_card_4_lower_is_on_top():
    state = example_2_position(hand=("K8", "K12", "K16", "G9"))
    assert H.legal(state, P2)[:1] == ["play K8"]
    assert H.why(state, P2, "play K12") == "Sequence K4 needs K8 next; K12 must wait for it."
    assert (
        H.why(state, P2, "play G9") == "Sequence G1 has no base yet: G9 needs G1 (or a Tractor for it) first."
    )
    state, _ = H.play(state, P2, "play K8")
    state, _ = H.play(state, P2, "play K12")
    assert H.why(state, P2, "play K8") == "You do not hold K8."
    assert state.stacks["K4"] == ["K4", "K8", "K12"]


def test_m2_a_tractor_standing_below_counts_as_the_card_it_replaced():
    state = example_2_position(hand=("T1", "K12", "K16", "G9"))
    state, _ = H.play(state, P2, "tractor T1 for K8 then K12")
    state, _ = H.play(state, P2, "play K16")
    assert state.stacks["K4"] == ["K4", "T1", "K12", "K16"]


def test_m2_a_closed_sequence_takes_nothing():
    state = example_2_position()
    H.close_sequence(state, 2, "G1")
    assert H.why(state, P2, "play G9") in ("Sequence G1 is closed.", "You do not hold G9.")


def test_m2_row_is_only_for_bases():
    state = example_2_position(hand=("K8", "G9"))
    assert (
        H.why(state, P2, "play K8 row 1")
        == "Only a base (1-4) is placed in a row; K8 goes on its sequence: play K8."
    )


# ----- M4 and R14 -------------------------------------------------------------------------------


def test_m4_and_r14_discarding_a_tractor_is_the_play_and_ends_the_turn_at_any_point():
    state = example_2_position(hand=("T1", "T2", "K8", "G9"))
    state, _ = H.play(state, P2, "play K8")
    state, events = H.play(state, P2, "discard T2")
    assert state.turn == P3 and state.discard == ["T2"]
    assert "{p1} discards a Tractor (T2) and ends the turn." in events


def test_r14_discarding_the_last_tractor_goes_out():
    state = example_2_position(hand=("T1",))
    state, events = H.play(state, P2, "discard T1")
    assert GAME.is_over(state) and state.went_out == P2


def test_r14_discarding_the_last_tractor_with_the_well_uncollected_collects_it():
    state = H.new_game(seed=4)
    H.build_stack(state, 1, "K1", ["K1"], park=P1)
    H.set_cards(state, "farmland", P2, [], park=P1)
    H.set_cards(state, "hand", P2, ["K5", "K9", "K13", "K17", "R5", "T1"], park=P1)
    state.dead.append("R5")
    H.start_turn(state, P2)
    for move in ("play K5", "play K9", "play K13", "play K17", "discard R5"):
        state, _ = H.play(state, P2, move)
    assert state.turn == P2 and state.seats[P2].hand == ["T1"]
    state, events = H.play(state, P2, "discard T1")
    assert state.seats[P2].well_taken and len(state.seats[P2].hand) == 6
    assert state.seats[P2].score == 10 + 30 and state.turn == P3  # K1 closed, then the first well


# ----- A1, A2 and Example 4 -----------------------------------------------------------------------


def example_4_position():
    """P2 has taken the well; P3 (to play) holds 6 hidden cards including Y10; Y2's top is Y6."""
    state = H.new_game(seed=41)
    H.take_well(state, P2, park=P2)
    H.set_cards(state, "hand", P2, [c for c in state.seats[P2].hand][:8], park=P4)
    H.build_stack(state, 3, "Y2", ["Y2", "Y6"], park=P4)
    H.set_cards(state, "hand", P3, ["Y10", "K5", "K6", "G7", "G8", "R9"], park=P4)
    H.start_turn(state, P3)
    return state


def test_example_4_taking_the_well():
    state = example_4_position()
    assert state.phase == PLAYING
    # (a) before any play: refused (no play yet, and 6 is not below 6)
    assert H.why(state, P3, "well") == "Play at least one card or Tractor before taking the well."
    # (b) a play brings the hidden count to 5: now well-eligible
    state, _ = H.play(state, P3, "play Y10")
    assert len(state.seats[P3].hand) == 5 and "well" in H.legal(state, P3)
    assert GAME.view(state, P3)["can_take_well"]
    # (c) done takes the well instead: +20 (P1 and P4 still hold theirs)
    state, events = H.play(state, P3, "done")
    assert state.seats[P3].score == 20 and len(state.seats[P3].hand) == 11
    assert state.seats[P3].well_taken and state.turn == P4
    # A later collector among P1/P4 gets 10, the last one 0.
    assert well_points(state, P4) == 10 and well_points(state, P1) == 10
    state.seats[P4].well_taken = True
    assert well_points(state, P1) == 0


def test_a1_taking_the_well_ends_the_turn_at_once():
    state = example_4_position()
    state, _ = H.play(state, P3, "play Y10")
    state, events = H.play(state, P3, "well")
    assert state.turn == P4 and state.seats[P3].score == 20
    assert any(text == "{p2} takes the well: 6 cards (+20)." for text in events)


def test_a1_refused_when_taken_or_with_too_many_cards():
    state = example_4_position()
    H.put(state, "G5", "hand", P3)
    state, _ = H.play(state, P3, "play Y10")
    assert H.why(state, P3, "well") == "You hold 6 hidden cards; the well is taken only with fewer than 6."
    state, _ = H.play(state, P3, "done")  # not eligible: an ordinary end of turn
    assert not state.seats[P3].well_taken and state.turn == P4
    H.start_turn(state, P2)
    assert H.why(state, P2, "well") == "You have already taken your well."


def test_a2_done_needs_a_play():
    state = example_4_position()
    assert H.why(state, P3, "done") == "Play at least one card or Tractor before ending your turn."
    assert "done" not in H.legal(state, P3)


def test_r5_only_the_hidden_hand_counts_for_the_well():
    state = example_4_position()
    H.set_cards(state, "farmland", P3, ["K1", "K2", "K3", "K4"], park=P1)
    H.set_cards(state, "exposed", P3, ["G14", "G15"], park=P1)
    state, _ = H.play(state, P3, "play Y10")
    assert "well" in H.legal(state, P3)  # 5 hidden; Farmland and exposed cards do not count


def test_r5_dead_and_pending_cards_in_the_hand_count():
    state = example_4_position()
    H.put_dead_in_hand(state, "K8", P3)
    state, _ = H.play(state, P3, "play Y10")
    assert len(state.seats[P3].hand) == 6 and "well" not in H.legal(state, P3)


def test_r6_the_player_may_keep_playing_while_eligible():
    state = example_4_position()
    H.set_cards(state, "hand", P3, ["Y10", "Y14", "K13", "K14", "K15", "K16"], park=P4)
    state, _ = H.play(state, P3, "play Y10")
    assert {"well", "play Y14", "done"} <= set(H.legal(state, P3))
    state, _ = H.play(state, P3, "play Y14")
    assert state.turn == P3 and not state.seats[P3].well_taken


def test_r6_eligibility_is_judged_at_the_moment_of_the_action():
    state = example_4_position()
    H.put(state, "K1", "farmland", P3)
    state, _ = H.play(state, P3, "play Y10")  # 5 hidden: eligible
    state, _ = H.play(state, P3, "play K1 row 1")  # the field card brings it back to 6
    assert len(state.seats[P3].hand) == 6 and "well" not in H.legal(state, P3)
    state, events = H.play(state, P3, "done")
    assert not state.seats[P3].well_taken and state.turn == P4


# ----- A3 and R16 -------------------------------------------------------------------------------


def test_a3_a_dead_card_can_be_discarded_during_the_own_turn_at_once():
    state = example_2_position(hand=("T1", "K12", "G9", "R8"))
    state.dead.append("R8")
    state, events = H.play(state, P2, "discard R8")
    assert state.discard == ["R8"] and "R8" not in state.seats[P2].hand
    assert "{p1} discards the dead card R8." in events


def test_a3_an_off_turn_request_is_secret_until_applied():
    state = example_2_position()
    state, _ = H.play(state, P2, "tractor T1 for K8 then K12")
    new_state, events = GAME.apply(state, P3, Discard("K8"))
    assert [e.visible_to for e in events] == [(P3,)]
    for seat in (None, P1, P2, P4):
        assert "pending" not in GAME.view(new_state, seat) or GAME.view(new_state, seat)["pending"] == []
    assert GAME.view(new_state, None)["seats"][P3]["hidden"] == len(state.seats[P3].hand)


def test_a3_refusals():
    state = example_2_position()
    assert H.why(state, P3, "discard K8") == "Only a Tractor or a dead card can be discarded; K8 is not dead."
    state, _ = H.play(state, P2, "tractor T1 for K8 then K12")
    assert H.why(state, P1, "discard K8") == "You do not hold K8."
    state, _ = H.play(state, P3, "discard K8")
    assert (
        H.why(state, P3, "discard K8")
        == "You have already asked to discard K8; it leaves at the start of your next turn."
    )
    with pytest.raises(NotYourTurn):
        GAME.apply(state, P3, Done())
    with pytest.raises(IllegalMove):
        GAME.apply(state, P3, Discard("K8"))
    H.put(state, "T5", "hand", P3)
    assert H.why(state, P3, "discard T5") == "A Tractor can be discarded only during your own turn."


def test_r16_exposed_cards_are_played_normally_and_dead_ones_discarded():
    state = example_2_position(hand=("G9",))
    H.set_cards(state, "exposed", P2, ["K8", "R6"], park=P4)
    state.dead.append("R6")
    H.start_turn(state, P2)
    assert {"play K8", "discard R6"} <= set(H.legal(state, P2))
    state, _ = H.play(state, P2, "play K8")
    state, _ = H.play(state, P2, "discard R6")
    assert state.seats[P2].exposed == [] and state.discard == ["R6"]


def test_off_turn_seats_are_not_asked_to_act():
    state = example_2_position()
    assert GAME.to_act(state) == (P2,)
    assert H.legal(state, P1) == []
    assert GAME.automatic_move(state, P1) is None


def test_must_pass_phase_moves():
    state = example_2_position(hand=("G9",))
    H.set_cards(state, "hand", P2, ["G9", "K8"], park=P4)
    state.dead.append("K8")
    H.start_turn(state, P2)
    assert state.phase == MUST_PASS
    assert H.legal(state, P2) == ["pass", "discard K8"]
    assert GAME.automatic_move(state, P2) is None  # a real choice: keep or discard the dead card
    assert TakeWell() not in GAME.legal_moves(state, P2)


# ----- audit additions --------------------------------------------------------------------------


def test_m3_announcement_names_the_dead_card_but_never_its_holder():
    for holder in (P1, P3, P4):
        state = example_2_position()
        H.put(state, "K8", "hand", holder)
        state, events = GAME.apply(state, P2, GAME.parse_move("tractor T1 for K8 then K12"))
        public = [e.text for e in events if e.visible_to is None]
        assert any("K8 is now dead" in text for text in public)
        assert not any(f"{{p{holder}}}" in text for text in public if holder != P2)
        assert [e for e in events if e.visible_to is not None] == []


def test_r11_the_field_card_under_a_tractor_base_is_told_to_the_player_only():
    state = example_2_position(hand=("T1", "R7", "G9"))
    H.set_cell(state, 2, 3, "Y15")
    state, events = GAME.apply(state, P2, GAME.parse_move("tractor T1 for R3 then R7 row 2"))
    private = [e for e in events if e.visible_to is not None]
    assert [(e.visible_to, e.text) for e in private] == [((P2,), "You take the face-down field card Y15.")]
    assert all("Y15" not in e.text for e in events if e.visible_to is None)
    assert "Y15" in state.seats[P2].hand
    for viewer in (None, P1, P3, P4):
        assert "Y15" not in str(GAME.view(state, viewer))


def test_m4_an_exposed_tractor_can_be_discarded_too():
    state = example_2_position(hand=("G9",))
    H.set_cards(state, "exposed", P2, ["T3", "R14"], park=P4)
    H.start_turn(state, P2)
    assert "discard T3" in H.legal(state, P2)
    state, _ = H.play(state, P2, "discard T3")
    assert state.discard == ["T3"] and state.seats[P2].exposed == ["R14"] and state.turn == P3


def test_m4_end_turn_collects_the_well_when_the_discard_leaves_fewer_than_w_hidden_cards():
    state = example_4_position()
    H.set_cards(state, "hand", P3, ["Y10", "T2", "K5", "K6", "G7", "G8", "R9"], park=P4)
    H.start_turn(state, P3)
    state, _ = H.play(state, P3, "play Y10")  # 6 hidden: not yet eligible
    assert "well" not in H.legal(state, P3)
    state, events = H.play(state, P3, "discard T2")  # 5 hidden at the end of the turn
    assert state.seats[P3].well_taken and state.seats[P3].score == 20
    assert "{p2} takes the well: 6 cards (+20)." in events
    assert state.turn == P4


def test_m3_final_move_scores_closing_family_then_closure_points():
    """R20 with a Tractor move: the following card closes the last Green sequence and empties the
    player's holdings."""
    state = H.new_game(seed=31)
    for base in range(1, 4):
        H.close_sequence(state, 2, f"G{base}")
    H.build_stack(state, 2, "G4", ["G4", "G8", "G12"])
    H.take_well(state, P4, park=P1)
    H.set_cards(state, "farmland", P4, [], park=P1)
    H.set_cards(state, "hand", P4, ["T5", "G20"], park=P1)
    H.start_turn(state, P4)
    state, events = H.play(state, P4, "tractor T5 for G16 then G20")
    assert events[1:4] == [
        "{p3} closes sequence G4 (+10).",
        "{p3} completes the Green family (+30).",
        "{p3} has no cards left and ends the game: 12 sequences not closed (+120).",
    ]
    assert state.seats[P4].score == 160 and state.went_out == P4 and "G16" in state.dead


def test_default_move_never_discards_a_dead_card_and_ends_a_turn_when_it_can():
    state = example_2_position(hand=("G9", "K8"))
    state.dead.append("K8")
    H.start_turn(state, P2)
    assert state.phase == MUST_PASS
    assert GAME.default_move(state, P2) == GAME.parse_move("pass")  # keeping K8 makes the pass free
    state = example_2_position(hand=("T1", "K12", "K8", "G9", "R6"))
    state.dead.append("R6")
    first = GAME.default_move(state, P2)
    assert GAME.format_move(first) == "play K8"
    state, _ = GAME.apply(state, P2, first)
    assert GAME.default_move(state, P2) == Done()


def test_h3_the_removed_family_never_gets_a_row_and_no_move_names_it():
    state = H.new_game(3, seed=2)
    gone = state.removed_family
    seat = state.turn
    assert gone not in state.rows
    H.put(state, "T1", "hand", seat)
    for text in (f"play {gone}3 row 1", f"tractor T1 for {gone}3 then {gone}7 row 1", f"discard {gone}8"):
        assert GAME.why_illegal(state, seat, GAME.parse_move(text)) == (
            f"The {FAMILY_NAMES[gone]} family is out of this game."
        )
    assert GAME.why_illegal(state, seat, GAME.parse_move("discard T7")) == "T7 is not used in this game."
    assert all(gone not in GAME.format_move(m) for m in GAME.legal_moves(state, seat))


def test_a4_a_refused_pass_names_what_can_still_be_played():
    state = example_2_position(hand=("T1", "K12", "K8", "G9"))
    assert H.why(state, P2, "pass") == (
        "You can only pass when no play is possible, and you can still play: K8 T1."
    )
