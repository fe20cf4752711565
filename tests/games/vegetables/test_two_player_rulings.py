"""The 2-player rules section by section and ruling by ruling (docs/rules/vegetables-2p.md §1-§11,
R2-R28; R1 is the choice of rule set itself, the whole module)."""

from collections import Counter

import pytest

from engine.core import BadNotation
from engine.games.vegetables import GAME
from engine.games.vegetables.cards import back_of
from engine.games.vegetables.duo.model import MUST_DRAW, Draw, PlayGround, TractorGround
from engine.games.vegetables.duo.rules import card_places
from engine.games.vegetables.model import MUST_PASS, OVER, PLAYING, Discard, Done, Pass, Play, UseTractor

from . import helpers_two as H

# ----- §1, §2: components and the deal -------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_s1_s2_r2_the_deal_uses_all_90_cards(seed):
    state = H.new_duo(seed)
    H.check_conservation(state)
    assert len(card_places(state)) == 90
    for seat, player in enumerate(state.seats):
        assert len(player.grounds) == 8 and all(back_of(card) == "red" for card in player.grounds)
        assert len(player.hand) == 12 and all(back_of(card) == "white" for card in player.hand)
        first = 1 + 5 * seat
        assert player.tractors == [f"T{first}"]  # R23: T1-T5 for P1, T6-T10 for P2
        assert player.locked == [f"T{n}" for n in range(first + 1, first + 5)]
    assert [len(silo) for silo in state.silos] == [4, 4, 4, 4]
    assert all(back_of(card) == "green" for silo in state.silos for card in silo)
    assert [len(well) for well in state.wells] == [8, 8, 8] and not state.revealed
    assert all(back_of(card) == "green" for well in state.wells[:2] for card in well)
    assert all(back_of(card) == "white" for card in state.wells[2])  # R2: W3 is the 8 White left


@pytest.mark.parametrize("seed", range(8))
def test_r21_the_holder_of_k1_starts(seed):
    state = H.new_duo(seed)
    assert "K1" in state.seats[state.turn].grounds
    assert state.phase == PLAYING and state.plays == 0


def test_s2_a_stacked_deck_goes_on_top_of_its_piles():
    state = GAME.new_game(2, 1, {"deck": ["K1", "K5", "K13"]})
    assert state.seats[H.P1].grounds[0] == "K1" and state.seats[H.P1].hand[0] == "K5"
    assert state.silos[0][0] == "K13" and state.turn == H.P1
    with pytest.raises(Exception, match="Tractors are given out"):
        GAME.new_game(2, 1, {"deck": ["T1"]})


# ----- §3: the board and the Silos ----------------------------------------------------------------


def test_r5_rows_are_fixed_and_never_named():
    state = H.new_duo(1)
    ground = state.seats[state.turn].grounds[0]
    assert "rows are fixed" in H.why(state, state.turn, f"play {ground} row 2")
    with pytest.raises(BadNotation, match="No row is named"):
        GAME.parse_move("play R3 row 2 take G17")
    rows = [row["family"] for row in GAME.view(state, None)["rows"]]
    assert rows == ["K", "G", "R", "Y"]


def test_r3_r6_only_a_silo_top_is_free_and_a_lone_one_may_be_left_unnamed():
    state = H.new_duo(1)
    seat = state.turn
    ground = state.seats[seat].grounds[0]
    moves = [m for m in GAME.legal_moves(state, seat) if isinstance(m, PlayGround) and m.card == ground]
    assert sorted(m.take for m in moves) == sorted(silo[-1] for silo in state.silos)
    for column in range(3):
        H.set_place(state, f"S{column + 1}", [])
    only = state.silos[3][-1]
    assert H.why(state, seat, f"play {ground}") is None  # §11: take may be left out with one free card
    after, _ = H.play(state, seat, f"play {ground}")
    assert only in after.seats[seat].hand


def test_r6_a_tractor_as_a_base_takes_a_silo_card_too_and_counts_for_nobodys_release():
    state = H.new_duo(2)
    seat = state.turn
    rival = 1 - seat
    H.put(state, "Y2", "grounds", rival)
    H.put(state, "Y6", "hand", seat)
    top = state.silos[0][-1]
    text = f"tractor {state.seats[seat].tractors[0]} for Y2 then Y6 take {top}"
    assert text in H.legal(state, seat)
    assert "takes a free Silo card" in H.why(
        state, seat, f"tractor {state.seats[seat].tractors[0]} for Y2 then Y6"
    )
    after, events = H.play(state, seat, text)
    assert after.stacks["Y2"][1:] == ["Y6"] and top in after.seats[seat].hand
    assert "Y2" in after.dead and "Y2" in after.seats[rival].grounds
    assert after.seats[seat].used_grounds == 0 and after.seats[rival].used_grounds == 0
    assert sum(len(silo) for silo in after.silos) == 15


# ----- §4: wells, draws and the hand limits -------------------------------------------------------


def _after_one_play(seed=3, hand=None):
    """The player on turn has played a Ground; optionally their Hand is cut to ``hand`` cards."""
    state = H.new_duo(seed)
    seat = state.turn
    ground = state.seats[seat].grounds[0]
    state, _ = H.play(state, seat, f"play {ground} take {state.silos[0][-1]}")
    if hand is not None:
        H.set_place(state, "hand", state.seats[seat].hand[:hand], seat)
    return state, seat


def test_r8_a_draw_needs_a_play_first_and_ends_the_turn():
    state = H.new_duo(3)
    seat = state.turn
    H.set_place(state, "hand", state.seats[seat].hand[:10], seat)
    assert "before drawing" in H.why(state, seat, "draw W1 W1")
    state, seat = _after_one_play(hand=10)
    assert H.why(state, seat, "draw W1 W1") is None  # voluntary, below 12: to 12
    after, _ = H.play(state, seat, "draw W1 W1")
    assert after.turn == 1 - seat and len(after.seats[seat].hand) == 12


def test_r8_no_voluntary_draw_at_12_or_more():
    state, seat = _after_one_play()
    assert len(state.seats[seat].hand) == 13  # R26: the Silo card took the Hand above 12
    assert "only with fewer than 12" in H.why(state, seat, "draw W1")
    assert not any(isinstance(move, Draw) for move in GAME.legal_moves(state, seat))
    after, _ = H.play(state, seat, "done")
    assert after.turn == 1 - seat  # R26: no maximum, nothing to give back


def test_r9_targets_are_exactly_8_or_12_and_picks_may_switch_wells():
    state, seat = _after_one_play(hand=6)
    sizes = sorted({len(move.picks) for move in GAME.legal_moves(state, seat) if isinstance(move, Draw)})
    assert sizes == [2, 6]
    assert "2 or 6 cards, not 3" in H.why(state, seat, "draw W1 W1 W2")
    w1, w2 = state.wells[0][-1], state.wells[1][-1]
    assert H.why(state, seat, f"draw {w2} {w1}") is None
    assert "not a free card" in H.why(state, seat, f"draw {state.wells[0][-2]} {w1}")
    assert "W3 stays face down" in H.why(state, seat, "draw W3 W1")


def test_r9_when_the_wells_hold_too_few_every_card_left_is_taken():
    state, seat = _after_one_play(hand=5)
    H.set_place(state, "W1", [])
    H.set_place(state, "W3", state.wells[2][:1])
    H.set_place(state, "W2", state.wells[1][:1])
    draws = [move for move in GAME.legal_moves(state, seat) if isinstance(move, Draw)]
    assert [len(move.picks) for move in draws] == [2]
    after, _ = H.play(state, seat, "done")
    assert after.phase == MUST_DRAW
    assert GAME.automatic_move(after, seat) == draws[0]  # nothing left to choose


def test_r4_w3_opens_when_w1_or_w2_runs_out_even_in_the_middle_of_a_draw():
    state, seat = _after_one_play(hand=10)
    H.set_place(state, "W2", state.wells[1][-1:])
    top_w3 = state.wells[2][-1]
    assert H.why(state, seat, f"draw W2 {top_w3}") is None
    assert "not a free card" in H.why(state, seat, f"draw {top_w3} W2")
    view = GAME.view(state, None)
    assert view["wells"][2]["cards"] == [] and view["wells"][2]["count"] == 8
    after, events = H.play(state, seat, f"draw W2 {top_w3}")
    assert after.revealed and "W3 is revealed" in events[-1]
    assert GAME.view(after, None)["wells"][2]["cards"] == after.wells[2]


def test_r7_only_the_hand_counts_for_the_limits():
    state, seat = _after_one_play(hand=7)
    H.put(state, state.wells[0][0], "exposed", seat)
    state.seats[seat].tractors.extend(["T2"] if seat == H.P1 else ["T7"])
    state.seats[seat].locked.remove("T2" if seat == H.P1 else "T7")
    after, _ = H.play(state, seat, "done")
    assert after.phase == MUST_DRAW  # 7 Hand cards: exposed cards, Grounds and Tractors do not count


def test_r27_done_when_a_draw_is_due_leads_to_the_draw():
    state, seat = _after_one_play(hand=4)
    after, _ = H.play(state, seat, "done")
    assert after.phase == MUST_DRAW and after.turn == seat
    assert "draw now" in H.why(after, seat, "done")
    assert all(isinstance(move, (Draw, Discard)) for move in GAME.legal_moves(after, seat))


def test_r28_a_dead_card_discarded_during_the_draw_makes_the_draw_bigger():
    state, seat = _after_one_play(hand=6)
    dead = state.seats[seat].hand[0]
    state.dead.append(dead)
    state, _ = H.play(state, seat, "done")
    assert {len(m.picks) for m in GAME.legal_moves(state, seat) if isinstance(m, Draw)} == {2, 6}
    state, _ = H.play(state, seat, f"discard {dead}")
    assert state.phase == MUST_DRAW
    assert {len(m.picks) for m in GAME.legal_moves(state, seat) if isinstance(m, Draw)} == {3, 7}


def test_r25_a_kept_dead_card_counts_in_the_hand_and_can_spare_a_draw():
    state, seat = _after_one_play(hand=8)
    state.dead.append(state.seats[seat].hand[0])
    after, _ = H.play(state, seat, "done")
    assert after.turn == 1 - seat  # 8 cards, one of them dead: no draw due, nothing discarded
    assert state.seats[seat].hand[0] in after.seats[seat].hand


def test_r15_empty_holdings_with_cards_in_a_well_lead_to_the_draw_not_the_end():
    state = H.new_duo(4)
    seat = state.turn
    for name in ("grounds", "hand", "exposed", "locked"):
        H.set_place(state, name, [], seat)
    tractor = state.seats[seat].tractors[0]
    after, _ = H.play(state, seat, f"discard {tractor}")
    assert after.phase == MUST_DRAW and after.turn == seat and after.went_out is None


def test_r14_locked_tractors_are_holdings():
    state = H.new_duo(4)
    seat = state.turn
    for name in ("grounds", "hand", "exposed"):
        H.set_place(state, name, [], seat)
    for well in ("W1", "W2", "W3"):
        H.set_place(state, well, [])
    H.put(state, "R5", "hand", seat)
    H.set_place(state, "stack R1", ["R1"])
    tractor = state.seats[seat].tractors[0]
    H.set_place(state, "tractors", [], seat)
    H.put(state, tractor, "discard")
    after, _ = H.play(state, seat, "play R5")
    assert after.phase != OVER and state.seats[seat].locked  # locked Tractors: not out


# ----- §5: the Tractors ---------------------------------------------------------------------------


def test_r10_the_last_two_tractors_come_with_the_eighth_used_ground():
    state = H.new_duo(5)
    seat = state.turn
    player = state.seats[seat]
    H.set_place(state, "grounds", player.grounds[:1], seat)
    player.used_grounds, player.released = 7, 1
    freed = player.locked[:2]
    player.tractors.extend(freed)
    del player.locked[:2]
    after, events = H.play(state, seat, f"play {player.grounds[0]} take {state.silos[0][-1]}")
    assert after.seats[seat].locked == [] and len(after.seats[seat].tractors) == 5
    assert any("released" in text for text in events)


def test_r10_a_dead_ground_discarded_counts_as_used_and_releases_even_when_asked_off_turn():
    state = H.new_duo(6)
    seat = state.turn
    rival = 1 - seat
    player = state.seats[rival]
    player.used_grounds = 3
    H.set_place(state, "grounds", player.grounds[:5], rival)
    dead = player.grounds[0]
    state.dead.append(dead)
    state, _ = H.play(state, rival, f"discard {dead}")  # off turn: a secret request
    assert dead in state.seats[rival].grounds and state.seats[rival].pending == [dead]
    state, _ = H.play(state, seat, f"play {state.seats[seat].grounds[0]} take {state.silos[0][-1]}")
    state, events = H.play(state, seat, "done")
    assert state.turn == rival and dead in state.discard
    assert state.seats[rival].used_grounds == 4 and len(state.seats[rival].tractors) == 3
    assert any("(asked earlier)" in text for text in events) and any("released" in text for text in events)


def test_r23_any_available_tractor_id_may_be_named_but_not_a_locked_or_foreign_one():
    state = H.new_duo(3)
    H.set_place(state, "stack R3", ["R3"])
    H.put(state, "R11", "hand", H.P1)
    H.put(state, "R7", "exposed", H.P2)
    state.seats[H.P1].tractors.extend(["T2", "T3"])
    state.seats[H.P1].locked = ["T4", "T5"]
    state.seats[H.P1].released = 1
    H.start_turn(state, H.P1)
    assert H.why(state, H.P1, "tractor T3 for R7 then R11") is None
    assert "still locked" in H.why(state, H.P1, "tractor T4 for R7 then R11")
    assert "not one of your available Tractors" in H.why(state, H.P1, "tractor T6 for R7 then R11")


def test_r12_a_tractor_never_stands_for_17_20():
    state = H.new_duo(3)
    H.start_turn(state, H.P1)
    with pytest.raises(BadNotation, match="never stands for a card numbered 17-20"):
        GAME.parse_move("tractor T1 for R17 then R1")
    assert "never for a closing card" in H.why(state, H.P1, "tractor T1 for R17")


def test_r13_a_tractor_discard_is_the_play_and_ends_the_turn_with_the_draw_check():
    state = H.new_duo(3)
    seat = state.turn
    H.set_place(state, "hand", state.seats[seat].hand[:7], seat)
    tractor = state.seats[seat].tractors[0]
    after, _ = H.play(state, seat, f"discard {tractor}")
    assert tractor in after.discard and after.phase == MUST_DRAW and after.turn == seat
    state2 = H.new_duo(3)
    after2, _ = H.play(state2, state2.turn, f"discard {tractor}")
    assert after2.turn == 1 - state2.turn


# ----- §6, §7: turns, passes and the valve ---------------------------------------------------------


def test_s7_a_player_with_a_live_ground_or_a_tractor_never_passes():
    state = H.new_duo(7)
    seat = state.turn
    assert state.phase == PLAYING and Pass() not in GAME.legal_moves(state, seat)
    assert "you can still play" in H.why(state, seat, "pass")


def _stuck(seed=8):
    """The player on turn holds no Ground, no Tractor and nothing that fits."""
    state = H.new_duo(seed)
    seat = state.turn
    for name in ("grounds", "tractors", "locked"):
        H.set_place(state, name, [], seat)
    H.set_place(state, "hand", ["R18", "K15", "Y13", "G19", "K20", "Y17", "R14", "G13"], seat)
    H.start_turn(state, seat)
    return state, seat


def test_r24_discarding_every_dead_card_before_a_pass_costs_50_then_the_draw():
    state, seat = _stuck()
    for card in list(state.seats[seat].hand):
        state.dead.append(card)
    assert state.phase == MUST_PASS
    for card in list(state.seats[seat].hand):
        state, _ = H.play(state, seat, f"discard {card}")
    assert state.phase == MUST_PASS
    state, _ = H.play(state, seat, "pass")
    assert state.seats[seat].score == -50 and state.phase == MUST_DRAW


def test_r20_two_passes_in_a_row_with_nothing_to_draw_end_the_game_without_closure_points():
    state, seat = _stuck()
    H.empty_wells(state)
    other = 1 - seat
    H.strand(state, other)
    state, _ = H.play(state, seat, "pass")
    assert state.turn == other and state.phase == MUST_PASS and state.valve == 1
    state, events = H.play(state, other, "pass")
    assert state.phase == OVER and state.went_out is None
    assert state.seats[other].score == -50
    assert not any("ends the game:" in text for text in events)


def test_r22_equal_scores_share_the_win():
    state = H.new_duo(9)
    state.seats[H.P1].score = state.seats[H.P2].score = 40
    state.phase = OVER
    assert GAME.outcome(state).winners == [H.P1, H.P2]


def test_r17_r18_going_out_pays_10_per_open_sequence_and_there_are_no_well_points():
    state = H.new_duo(10)
    seat = state.turn
    for sequence in ("K1", "K2"):
        H.close(state, sequence)
    H.set_place(state, "stack K3", ["K3", "K7", "K11", "K15"])
    for name in ("grounds", "hand", "exposed", "tractors", "locked"):
        H.set_place(state, name, [], seat)
    H.put(state, "K19", "hand", seat)
    for well in ("W1", "W2", "W3"):
        H.set_place(state, well, [])
    H.start_turn(state, seat)
    assert "no personal wells" in H.why(state, seat, "well")
    after, _ = H.play(state, seat, "play K19")
    assert after.went_out == seat and after.seats[seat].score == 10 + 13 * 10


def test_s11_notation_round_trips_and_reads_piles():
    for move in (
        PlayGround("R3", "G17"),
        TractorGround("T3", "R2", "G17"),
        Draw(("K13", "G18", "Y15")),
        Draw(("W1", "W1", "W3")),
        Play("R7"),
        UseTractor("T10", "R7"),
        Discard("T10"),
        Done(),
    ):
        assert GAME.parse_move(GAME.format_move(move)) == move
    assert GAME.format_move(TractorGround("T3", "R2", "G17")) == "tractor T3 for R2 then R6 take G17"
    assert GAME.parse_move("Draw w1, k13") == Draw(("W1", "K13"))
    with pytest.raises(BadNotation, match="draw K15 Y19 R9"):
        GAME.parse_move("draw")


def test_s11_the_4_player_game_refuses_the_2_player_moves():
    state = GAME.new_game(4, 1, {})
    assert "belong to the 2-player game" in GAME.why_illegal(state, state.turn, Draw(("W1",)))


def test_s6_1_every_card_is_in_one_place_after_a_few_moves():
    state = H.new_duo(11)
    H.swap(state, state.seats[H.P1].grounds[0], state.seats[H.P2].grounds[0])
    H.check_conservation(state)
    assert Counter(place.split()[0] for _, place in card_places(state))["tractors"] == 2


def test_r10_nothing_is_released_before_the_fourth_used_ground():
    state = H.new_duo(12)
    seat = state.turn
    state.seats[seat].used_grounds = 2
    H.set_place(state, "grounds", state.seats[seat].grounds[:6], seat)
    state, events = H.play(state, seat, f"play {state.seats[seat].grounds[0]} take {state.silos[0][-1]}")
    assert state.seats[seat].used_grounds == 3 and len(state.seats[seat].tractors) == 1
    assert not any("released" in text for text in events)
    state, events = H.play(state, seat, f"play {state.seats[seat].grounds[0]} take {state.silos[0][-1]}")
    assert len(state.seats[seat].tractors) == 3 and any("released" in text for text in events)


def test_s6_3_a_dead_ground_discarded_in_must_pass_may_release_tractors_and_reopen_play():
    state, seat = _stuck()
    H.put(state, "Y4", "grounds", seat)
    state.dead.append("Y4")
    state.seats[seat].used_grounds = 7
    state.seats[seat].released = 1
    for tractor in ("T4", "T5") if seat == H.P1 else ("T9", "T10"):
        H.put(state, tractor, "locked", seat)
    H.start_turn(state, seat)
    assert state.phase == MUST_PASS
    state, _ = H.play(state, seat, "discard Y4")
    assert state.seats[seat].used_grounds == 8 and len(state.seats[seat].tractors) == 2
    assert state.phase == PLAYING and Pass() not in GAME.legal_moves(state, seat)


def test_r11_a_tractor_base_refusal_reads_the_same_whether_or_not_the_opponent_holds_the_card():
    refusals = []
    for where in ("hand", "W3"):
        state = H.new_duo(13)
        seat = state.turn
        H.put(state, "Y6", "hand", seat)
        H.put(state, "Y2", where, 1 - seat)
        tractor = state.seats[seat].tractors[0]
        refusals.append(H.why(state, seat, f"tractor {tractor} for Y2 then Y6"))
    assert refusals[0] == refusals[1] and "takes a free Silo card" in refusals[0]
