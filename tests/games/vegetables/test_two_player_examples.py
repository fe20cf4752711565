"""The worked examples of the 2-player rules (docs/rules/vegetables-2p.md §15, Examples 1-6)."""

from engine.games.vegetables import GAME
from engine.games.vegetables.duo.model import MUST_DRAW
from engine.games.vegetables.model import MUST_PASS, OVER, PLAYING

from . import helpers_two as H


def _example_1_position():
    state = H.new_duo(1)
    for card in ("K1", "R3"):
        if card not in state.seats[H.P1].grounds:
            H.swap(state, card, state.seats[H.P1].grounds[-1] if card == "K1" else state.seats[H.P1].grounds[0])
    for column, top in enumerate(("G17", "K14", "Y13", "R15")):
        H.swap(state, top, state.silos[column][-1])
    H.swap(state, "Y18", state.silos[2][-2])
    H.start_turn(state, H.P1)
    return state


def test_example_1_a_ground_takes_one_free_silo_card():
    state = _example_1_position()
    assert len(state.seats[H.P1].hand) == 12
    # (a) four Silo cards are free: one must be named.
    assert "Name the free Silo card" in H.why(state, H.P1, "play R3")
    # (b) Y18 is covered by Y13.
    assert "Y18 is covered in S3" in H.why(state, H.P1, "play R3 take Y18")
    # (c) legal.
    after, events = H.play(state, H.P1, "play R3 take Y13")
    assert after.stacks["R3"] == ["R3"]
    assert "Y13" in after.seats[H.P1].hand and len(after.seats[H.P1].hand) == 13
    assert after.silos[2][-1] == "Y18"
    assert after.seats[H.P1].used_grounds == 1 and after.seats[H.P1].tractors == ["T1"]
    assert after.seats[H.P1].score == 0
    assert "{p0} takes Y13 from S3." in events
    cell = GAME.view(after, None)["rows"][2]["cells"][2]
    assert cell["sequence"] == "R3" and cell["stack"] == ["R3"]  # cell (3, 3)
    H.check_conservation(after)


def _example_2_position():
    state = H.new_duo(2)
    p2 = state.seats[H.P2]
    H.put(state, "G4", "grounds", H.P2)
    H.set_place(state, "hand", [card for card in p2.hand if card not in ("G12", "G8")][:8] + ["G12"], H.P2)
    H.put(state, "G8", "hand", H.P1)
    for column in range(4):
        H.set_place(state, f"S{column + 1}", [])
    H.put(state, "K19", "S1")
    H.put(state, "R20", "S2")
    p2.used_grounds = 3
    H.put(state, "T6", "discard")
    H.start_turn(state, H.P2)
    return state


def test_example_2_the_fourth_ground_releases_two_tractors_usable_at_once():
    state = _example_2_position()
    assert len(state.seats[H.P2].hand) == 9 and state.seats[H.P2].tractors == []
    # (c) before the Ground: no available Tractor, and G4 has no base.
    assert H.why(state, H.P2, "tractor T7 for G8 then G12") is not None
    # (a)
    state, events = H.play(state, H.P2, "play G4 take K19")
    assert state.seats[H.P2].used_grounds == 4
    assert state.seats[H.P2].tractors == ["T7", "T8"] and state.seats[H.P2].locked == ["T9", "T10"]
    assert "{p1}: Tractors T7, T8 released." in events
    # (b)
    state, events = H.play(state, H.P2, "tractor T7 for G8 then G12")
    assert state.stacks["G4"] == ["G4", "T7", "G12"]
    assert "G8" in state.dead and "G8" in state.seats[H.P1].hand
    assert any("G8 is now dead: {p0} can only discard it." in text for text in events)
    assert H.why(state, H.P1, "discard G8") is None  # the holder may ask, off turn (not a play)


def _example_3_position(where: str):
    state = H.new_duo(3)
    H.set_place(state, "stack R3", ["R3"])
    H.put(state, "R11", "hand", H.P1)
    if where == "W3":
        H.put(state, "R7", "W3")
    elif where == "P1 hand":
        H.put(state, "R7", "hand", H.P1)
    else:
        H.put(state, "R7", where, H.P2)
    H.start_turn(state, H.P1)
    return state


def test_example_3_a_tractor_replaces_only_a_card_the_opponent_holds():
    move = "tractor T1 for R7 then R11"
    assert H.why(_example_3_position("exposed"), H.P1, move) is None  # (a)
    state = _example_3_position("hand")  # (b)
    assert H.why(state, H.P1, move) is None
    after, _ = H.play(state, H.P1, move)
    assert after.stacks["R3"] == ["R3", "T1", "R11"] and "R7" in after.seats[H.P2].hand and "R7" in after.dead
    # (c) in W3 before the reveal: refused, saying only that the move is not possible.
    refusal = H.why(_example_3_position("W3"), H.P1, move)
    assert refusal.startswith("That Tractor move is not possible now")
    assert "W3" not in refusal and "well" not in refusal
    # (d) in P1's own Hand: play R7 instead.
    assert "play it instead" in H.why(_example_3_position("P1 hand"), H.P1, move)


def _example_4_position():
    state = H.new_duo(4)
    H.set_place(state, "W1", ["Y19", "K15"])
    w2 = [card for card in state.wells[1] if card not in ("G16", "G20", "Y19", "K15")][:4]
    H.set_place(state, "W2", [*w2, "G20", "G16"])
    w3 = [card for card in state.wells[2] if card not in ("R9", "K11", "G10")][:5]
    H.set_place(state, "W3", [*w3, "G10", "K11", "R9"])
    H.start_turn(state, H.P2)
    H.set_place(state, "hand", state.seats[H.P2].hand[:5], H.P2)
    state.plays = 3  # P2 began the turn with 8 and has played three of them
    return state


def test_example_4_compulsory_draw_targets_and_the_w3_reveal():
    state = _example_4_position()
    assert len(state.seats[H.P2].hand) == 5 and not state.revealed
    # (a)
    state, _ = H.play(state, H.P2, "done")
    assert state.phase == MUST_DRAW and state.turn == H.P2
    # (b) two cards reach neither 8 nor 12.
    assert "3 or 7 cards, not 2" in H.why(state, H.P2, "draw K15 G16")
    # (c) W1 empties after Y19: W3 is revealed and R9 taken in the same draw.
    after, events = H.play(state, H.P2, "draw K15 Y19 R9")
    assert after.revealed and len(after.seats[H.P2].hand) == 8 and after.turn == H.P1
    assert any("Y19 (W1), then W3 is revealed" in text for text in events)
    assert after.wells[2][-2:] == ["G10", "K11"]
    # (d) instead of (c): to 12.
    after, _ = H.play(state, H.P2, "draw K15 Y19 R9 G16 G20 K11 G10")
    assert len(after.seats[H.P2].hand) == 12 and after.turn == H.P1
    H.check_conservation(after)


def _example_5_position():
    state = H.new_duo(5)
    p1 = state.seats[H.P1]
    H.set_place(state, "grounds", [])
    H.set_place(state, "tractors", [])
    H.set_place(state, "locked", [])
    H.set_place(state, "hand", ["R18", "K15", "Y13", "G19", "K20", "Y17", "R14", "G13"])
    while sum(len(well) for well in state.wells) > 20:
        H.put(state, state.wells[2][0], "discard")
    p1.score = 30
    H.start_turn(state, H.P1)
    return state


def test_example_5_a_pass_exposes_the_hand_then_draws_and_a_pass_with_nothing_costs_50():
    state = _example_5_position()
    assert sum(len(well) for well in state.wells) == 20
    assert state.phase == MUST_PASS
    state, _ = H.play(state, H.P1, "pass")
    assert sorted(state.seats[H.P1].exposed) == sorted(["R18", "K15", "Y13", "G19", "K20", "Y17", "R14", "G13"])
    assert state.seats[H.P1].hand == [] and state.phase == MUST_DRAW and state.seats[H.P1].score == 30
    draw = GAME.default_move(state, H.P1)  # §6.3 notes: to 8, lowest-numbered wells first
    assert GAME.format_move(draw).startswith("draw ") and len(draw.picks) == 8
    after, _ = H.play(state, H.P1, GAME.format_move(draw))
    assert len(after.seats[H.P1].hand) == 8 and after.seats[H.P1].score == 30
    # Later: the wells are empty and so is the Hand: the pass costs 50.
    for well in range(3):
        H.set_place(after, f"W{well + 1}", [])
    H.set_place(after, "hand", [])
    H.start_turn(after, H.P1)
    assert after.phase == MUST_PASS
    after, _ = H.play(after, H.P1, "pass")
    assert after.seats[H.P1].score == -20


def _example_6_position(w2_cards: int = 0):
    state = H.new_duo(6)
    p2 = state.seats[H.P2]
    for sequence in ("R1", "R2", "R3", "K1", "K2", "K3", "K4", "G1", "G2", "G3"):
        H.close(state, sequence)
    H.set_place(state, "stack R4", ["R4", "R8", "R12", "R16"])
    for name in ("grounds", "hand", "tractors", "locked"):
        H.set_place(state, name, [], H.P2)
    H.set_place(state, "exposed", ["R20"], H.P2)
    kept = list(state.wells[1][:w2_cards])
    for well in range(3):
        H.set_place(state, f"W{well + 1}", [])
    H.set_place(state, "W2", kept)
    p2.score = 70
    state.turn, state.phase, state.plays = H.P2, PLAYING, 0
    return state


def test_example_6_going_out():
    state = _example_6_position()
    after, events = H.play(state, H.P2, "play R20")
    assert after.phase == OVER and after.went_out == H.P2
    assert after.seats[H.P2].score == 70 + 10 + 30 + 50 == 160
    assert "{p1} has no cards left and ends the game: 5 sequences not closed (+50)." in events


def test_example_6_variant_a_well_with_cards_left_means_drawing_them_all():
    state = _example_6_position(w2_cards=3)
    state.plays = 2  # reachable only in the middle of a turn
    after, _ = H.play(state, H.P2, "play R20")
    assert after.phase == MUST_DRAW and after.seats[H.P2].score == 70 + 10 + 30
    assert "3 cards, not 2" in H.why(after, H.P2, "draw W2 W2")
    done, _ = H.play(after, H.P2, "draw W2 W2 W2")
    assert len(done.seats[H.P2].hand) == 3 and done.turn == H.P1
