"""§4.4 the turn state machine, §5 passing (Example 5) and the safety valve of §7, with rulings
R8, R15, R17, R24, R27, R31-R34."""

from engine.games.vegetables import GAME
from engine.games.vegetables.model import MUST_PASS, OVER, PLAYING, Pass

from . import helpers as H

P1, P2, P3, P4 = 0, 1, 2, 3


# ----- Example 5 --------------------------------------------------------------------------------


def example_5_position():
    """P3 holds hidden {R18, K15, K19, Y13, Y14, Y17}, nothing else; R2's top is R10, K3's top K7,
    no Yellow base. P3's well is uncollected, P1 has collected, P2 and P4 have not. P3 has 20."""
    state = H.new_game(seed=51)
    H.build_stack(state, 1, "R2", ["R2", "R6", "R10"], park=P4)
    H.build_stack(state, 2, "K3", ["K3", "K7"], park=P4)
    H.set_cards(state, "farmland", P3, [], park=P4)
    H.set_cards(state, "hand", P3, ["R18", "K15", "K19", "Y13", "Y14", "Y17"], park=P4)
    # A well without Tractors or playable cards, so that the later passes are forced too.
    H.set_cards(state, "well", P3, ["Y15", "Y16", "Y18", "Y19", "Y20", "K20"], park=P2)
    H.take_well(state, P1, park=P1)
    state.seats[P3].score = 20
    H.start_turn(state, P3)
    return state



def example_5_with_dead_k5():
    """Example 5, P3's well taken and a dead K5 its one hidden card, at the start of its turn."""
    state = example_5_position()
    H.take_well(state, P3, park=P2)
    H.set_cards(state, "hand", P3, ["K5"], park=P2)
    state.dead.append("K5")
    H.start_turn(state, P3)
    return state

def test_example_5_pass_escalation():
    state = example_5_position()
    H.check_conservation(state)
    assert state.phase == MUST_PASS and H.legal(state, P3) == ["pass"]
    assert GAME.automatic_move(state, P3) == Pass()  # nothing to decide: the referee may pass for P3

    # Turn 1: the six hidden cards are exposed, no penalty; the well comes in: +20.
    state, events = H.play(state, P3, "pass")
    player = state.seats[P3]
    assert sorted(player.exposed) == sorted(["R18", "K15", "K19", "Y13", "Y14", "Y17"])
    assert player.well_taken and sorted(player.hand) == sorted(["Y15", "Y16", "Y18", "Y19", "Y20", "K20"])
    assert player.score == 40 and state.turn == P4
    assert events[0] == "{p2} cannot play and passes, exposing K15 K19 R18 Y13 Y14 Y17."

    # Turn 2: still nothing to play: the well cards are exposed, no penalty.
    H.start_turn(state, P3)
    assert state.phase == MUST_PASS
    state, _ = H.play(state, P3, "pass")
    assert len(state.seats[P3].exposed) == 12 and state.seats[P3].hand == [] and state.seats[P3].score == 40

    # Turn 3 and later: nothing left to expose: -50 each time.
    H.start_turn(state, P3)
    state, events = H.play(state, P3, "pass")
    assert state.seats[P3].score == -10
    assert events[0] == "{p2} cannot play and passes with no hidden card (-50)."
    H.start_turn(state, P3)
    state, _ = H.play(state, P3, "pass")
    assert state.seats[P3].score == -60
    assert state.seats[P3].passes == 4
    H.check_conservation(state)


def test_example_5_a_tractor_in_the_well_forbids_the_later_passes():
    state = example_5_position()
    H.swap(state, "K20", "T1")
    H.check_conservation(state)
    state, _ = H.play(state, P3, "pass")
    H.start_turn(state, P3)
    assert state.phase == PLAYING
    assert H.why(state, P3, "pass") == (
        "You can only pass when no play is possible, and you can still play: T1."
    )
    assert "discard T1" in H.legal(state, P3)


# ----- §5 and R15, R17, R33, R34 ----------------------------------------------------------------


def test_5_and_r17_a_live_farmland_or_a_tractor_forbids_passing():
    state = example_5_position()
    H.put(state, "G1", "farmland", P3)
    H.start_turn(state, P3)
    assert state.phase == PLAYING and "pass" not in H.legal(state, P3)
    assert H.why(state, P3, "pass") == "You can only pass when no play is possible, and you can still play: G1."
    state = example_5_position()
    H.put(state, "T2", "exposed", P3)
    H.start_turn(state, P3)
    assert state.phase == PLAYING and "pass" not in H.legal(state, P3)


def test_5_a_dead_farmland_does_not_prevent_a_pass():
    state = example_5_position()
    H.put(state, "G1", "farmland", P3)
    state.dead.append("G1")
    H.start_turn(state, P3)
    assert state.phase == MUST_PASS and H.legal(state, P3) == ["pass", "discard G1"]


def test_r15_a_player_who_took_the_well_earlier_pays_at_the_second_pass():
    state = example_5_position()
    H.take_well(state, P3, park=P2)
    state, _ = H.play(state, P3, "pass")
    assert state.seats[P3].score == 20 and len(state.seats[P3].exposed) == 6
    H.start_turn(state, P3)
    state, _ = H.play(state, P3, "pass")
    assert state.seats[P3].score == -30


def test_r15_a_hidden_card_received_later_is_exposed_instead_of_paying():
    state = example_5_position()
    H.take_well(state, P3, park=P2)
    state, _ = H.play(state, P3, "pass")
    H.put(state, "G20", "hand", P3)  # e.g. a field card taken with a Tractor base
    H.start_turn(state, P3)
    state, _ = H.play(state, P3, "pass")
    assert state.seats[P3].score == 20 and "G20" in state.seats[P3].exposed


def test_r33_pass_with_an_empty_hand_and_the_well_uncollected_pays_then_collects():
    state = example_5_position()
    # A hidden hand made only of dead cards (R32: the turn still starts with at least 6 of them).
    state.dead += ["R18", "K15", "K19", "Y13", "Y14", "Y17"]
    H.start_turn(state, P3)
    for card in ("R18", "K15", "K19", "Y13", "Y14", "Y17"):
        state, _ = H.play(state, P3, f"discard {card}")
    assert state.phase == MUST_PASS and state.turn == P3 and state.seats[P3].hand == []
    state, events = H.play(state, P3, "pass")
    assert state.seats[P3].score == 20 - 50 + 20
    assert events[:2] == [
        "{p2} cannot play and passes with no hidden card (-50).",
        "{p2} takes the well: 6 cards (+20).",
    ]


def test_r34_a_kept_dead_card_is_exposed_at_the_pass_for_free():
    state = example_5_position()
    H.take_well(state, P3, park=P2)
    H.set_cards(state, "hand", P3, ["K5"], park=P2)
    state.dead.append("K5")
    state.seats[P3].exposed = []
    H.start_turn(state, P3)
    assert GAME.automatic_move(state, P3) is None  # a choice: keep it (free pass) or discard it
    state, _ = H.play(state, P3, "pass")
    assert state.seats[P3].score == 20 and state.seats[P3].exposed == ["K5"]


def test_r34_dead_cards_are_never_discarded_unasked():
    state = example_5_position()
    H.put_dead_in_hand(state, "K5", P3)
    H.start_turn(state, P3)
    state, _ = H.play(state, P3, "pass")
    assert "K5" in state.seats[P3].exposed and "K5" not in state.discard


# ----- §4.4 --------------------------------------------------------------------------------------


def test_4_4_and_7_pending_discards_apply_at_turn_start_and_only_the_active_player_goes_out():
    state = H.new_game(seed=8)
    H.take_well(state, P2, park=P1)
    H.set_cards(state, "farmland", P2, [], park=P1)
    H.set_cards(state, "hand", P2, ["K5"], park=P1)
    state.dead.append("K5")
    H.start_turn(state, P1)
    state, _ = H.play(state, P2, "discard K5")  # off turn: pending
    assert not GAME.is_over(state)
    while state.turn != P2:
        move = GAME.legal_moves(state, state.turn)[0]
        state, _ = GAME.apply(state, state.turn, move)
        if state.turn == P1 and state.plays:
            state, _ = H.play(state, P1, "done")
    assert GAME.is_over(state) and state.went_out == P2
    assert state.discard[-1] == "K5"


def _six_playable_cards_position():
    """P2 (to play, well uncollected, no Farmland) holds six cards that all fit: K5 K9 K13 K17 on
    K1, and K6 K10 on K2."""
    state = H.new_game(seed=9)
    H.build_stack(state, 1, "K1", ["K1"], park=P3)
    H.build_stack(state, 1, "K2", ["K2"], park=P3)
    H.set_cards(state, "farmland", P2, [], park=P3)
    H.set_cards(state, "hand", P2, ["K5", "K9", "K13", "K17", "K6", "K10"], park=P3)
    H.start_turn(state, P2)
    return state


def test_4_4_and_r8_a_play_that_leaves_only_the_well_collects_it_instead_of_going_out():
    state = _six_playable_cards_position()
    for card in ("K5", "K9", "K13", "K17", "K6"):
        state, _ = H.play(state, P2, f"play {card}")
        assert state.turn == P2
    state, events = H.play(state, P2, "play K10")
    assert not GAME.is_over(state)
    assert state.seats[P2].well_taken and len(state.seats[P2].hand) == 6
    assert state.seats[P2].score == 10 + 30 and state.turn == P3  # K1 closed, then the first well


def test_4_4_discarding_the_last_dead_card_after_a_play_collects_the_well():
    state = _six_playable_cards_position()
    H.set_cards(state, "hand", P2, ["K5", "K9", "K13", "K17", "K6", "R5"], park=P3)
    state.dead.append("R5")
    for card in ("K5", "K9", "K13", "K17", "K6"):
        state, _ = H.play(state, P2, f"play {card}")
    state, _ = H.play(state, P2, "discard R5")
    assert state.seats[P2].well_taken and state.turn == P3


def test_4_4_dead_discard_in_must_pass_keeps_must_pass():
    state = example_5_position()
    H.put(state, "K5", "hand", P3)
    H.put(state, "K6", "hand", P3)
    state.dead += ["K5", "K6"]
    H.start_turn(state, P3)
    state, _ = H.play(state, P3, "discard K5")
    assert state.phase == MUST_PASS and state.turn == P3
    assert H.legal(state, P3) == ["pass", "discard K6"]


def test_4_4_going_out_by_a_dead_discard_in_must_pass_ends_the_game():
    state = example_5_with_dead_k5()
    state, _ = H.play(state, P3, "discard K5")
    assert GAME.is_over(state) and state.went_out == P3


def test_r24_done_passes_the_turn_to_the_next_seat_clockwise():
    state = H.new_game(seed=2)
    seat = state.turn
    state, _ = H.play(state, seat, GAME.format_move(GAME.legal_moves(state, seat)[0]))
    state, _ = H.play(state, seat, "done")
    assert state.turn == (seat + 1) % 4


def test_automatic_done_when_nothing_else_is_possible():
    state = H.new_game(seed=9)
    H.build_stack(state, 1, "K1", ["K1"], park=P3)
    H.set_cards(state, "farmland", P2, [], park=P3)
    H.set_cards(state, "hand", P2, ["K5", "G6", "G7", "G8", "G9", "G10", "G11"], park=P3)
    H.start_turn(state, P2)
    assert GAME.automatic_move(state, P2) is None
    state, _ = H.play(state, P2, "play K5")
    assert H.legal(state, P2) == ["done"]
    assert GAME.automatic_move(state, P2) == GAME.parse_move("done")


# ----- §7 safety valve, R27, R31 ----------------------------------------------------------------


def _stuck_position():
    """Every sequence closed; every player has collected the well and keeps one dead card."""
    state = H.new_game(seed=12)
    for row, family in enumerate("KGRY", start=1):
        for base in range(1, 5):
            H.close_sequence(state, row, f"{family}{base}")
    dead = ["K5", "G6", "R7", "Y8"]
    for seat, card in enumerate(dead):
        state.stacks[f"{card[0]}{int(card[1:]) - 4}"][1] = f"T{seat + 1}"
        state.dead.append(card)
        H.set_cards(state, "farmland", seat, [], park=-1)
        H.set_cards(state, "hand", seat, [card], park=-1)
        H.take_well(state, seat, park=-1)
    for t in ("T1", "T2", "T3", "T4"):
        if t in state.discard:
            state.discard.remove(t)
    state.cells = [""] * 16
    H.start_turn(state, P1)
    return state


def test_7_safety_valve_a_round_of_passes_ends_the_game_without_closure_points():
    state = _stuck_position()
    H.check_conservation(state)
    scores = [p.score for p in state.seats]
    for seat in range(4):
        assert state.turn == seat and state.phase == MUST_PASS
        state, events = H.play(state, seat, "pass")  # the dead card is exposed: free
    # Second round: exposed dead cards, empty hands: -50 each... until the round completes.
    assert not GAME.is_over(state) or state.valve >= 4
    assert GAME.is_over(state) and state.went_out is None
    assert [p.score for p in state.seats] == scores
    assert "A full round of passes: nobody can play any more, and the game ends." in events


def test_r31_a_pass_that_collects_a_well_restarts_the_count():
    state = _stuck_position()
    state.seats[P4].well_taken = False
    state.seats[P4].well = []
    for seat in range(4):
        state, _ = H.play(state, seat, "pass")
    assert not GAME.is_over(state) and state.valve == 0
    for seat in range(4):
        state, _ = H.play(state, seat, "pass")
    assert GAME.is_over(state) and state.went_out is None
    assert state.seats[P1].score == -50  # P1's second pass had nothing to expose


def test_r27_a_turn_with_a_play_restarts_the_count():
    state = _stuck_position()
    state, _ = H.play(state, P1, "pass")
    state, _ = H.play(state, P2, "pass")
    assert state.valve == 2
    H.put(state, "T8", "hand", P3)
    H.start_turn(state, P3)
    state, _ = H.play(state, P3, "discard T8")
    assert state.valve == 0 and not GAME.is_over(state)


def test_r31_discarding_the_dead_cards_instead_ends_the_game_normally_with_zero_closure_points():
    state = _stuck_position()
    state, events = H.play(state, P1, "discard K5")
    assert GAME.is_over(state) and state.went_out == P1
    assert state.seats[P1].score == 0
    assert state.phase == OVER and GAME.to_act(state) == ()


def test_r32_a_player_with_an_uncollected_well_starts_each_turn_with_at_least_w_hidden_cards():
    # Ends of turn after a play: done, a Tractor discard, and the automatic collection all take
    # the well when the hidden count is below W; a pass always takes it.
    state = _six_playable_cards_position()
    state, _ = H.play(state, P2, "play K5")
    state, _ = H.play(state, P2, "done")
    assert state.seats[P2].well_taken
    # Hence the first pass of a player who still has the well exposes at least W cards.
    state = example_5_position()
    assert len(state.seats[P3].hand) >= state.well_threshold
    state, events = H.play(state, P3, "pass")
    assert len(state.seats[P3].exposed) >= state.well_threshold


def test_r32_only_pending_discards_can_bring_the_count_below_w_at_a_turn_start():
    state = example_5_position()
    state.dead += ["R18", "K15"]
    state.seats[P3].pending = ["R18", "K15"]
    H.start_turn(state, P3)
    assert len(state.seats[P3].hand) == 4 < state.well_threshold
    assert state.phase == MUST_PASS  # no play was made, so the well still cannot be taken by A1
