"""§3 the field and M1 (Farmland), with Example 1 and rulings R2, R3, R4, R11, R28."""

import pytest

from engine.games.vegetables import GAME
from engine.games.vegetables.cards import FAMILY_NAMES
from engine.games.vegetables.model import UseTractor

from .helpers import (
    build_stack,
    check_conservation,
    legal,
    play,
    put,
    set_cards,
    set_cell,
    start_turn,
    why,
)


def example_1_position():
    """Start of game: P1 holds K1 and the Farmland row {K1, R3, G2, Y4}; cell (2, 3) hides K17."""
    state = GAME.new_game(4, 11, {"deck": ["K1", "R3", "G2", "Y4"]})
    set_cell(state, 2, 3, "K17")
    return state


def test_example_1_farmland_placement_and_row_choice():
    state = example_1_position()
    assert state.turn == 0 and len(state.seats[0].hand) == 8
    state, events = play(state, 0, "play R3 row 2")
    assert state.rows == ["", "R", "", ""]  # row 2 is Red's for the whole game
    assert state.stacks["R3"] == ["R3"]  # base of sequence R3 at cell (2, 3)
    assert state.cells[1 * 4 + 2] == ""
    assert "K17" in state.seats[0].hand and len(state.seats[0].hand) == 9
    assert [p.score for p in state.seats] == [0, 0, 0, 0]
    assert state.turn == 0 and state.plays == 1  # P1 may continue...
    assert "done" in legal(state, 0)  # ...or declare done
    put(state, "R7", "hand", 0)
    put(state, "R11", "hand", 0)
    assert "play R7" in legal(state, 0)  # sequence R3 next needs R7
    assert why(state, 0, "play R11") == "Sequence R3 needs R7 next; R11 must wait for it."
    assert why(state, 0, "play Y4 row 2") == "Row 2 belongs to Red; free rows: 1, 3 or 4."
    check_conservation(state)


def test_example_1_the_field_card_is_private_to_the_player():
    state = example_1_position()
    new_state, events = GAME.apply(state, 0, GAME.parse_move("play R3 row 2"))
    private = [e for e in events if e.visible_to is not None]
    assert [e.visible_to for e in private] == [(0,)] and "K17" in private[0].text
    assert all("K17" not in e.text for e in events if e.visible_to is None)


def test_3_columns_are_fixed_by_the_farmland_number():
    state = example_1_position()
    state, _ = play(state, 0, "play G2 row 4")
    assert state.cells[3 * 4 + 1] == ""  # row 4, column 2
    view = GAME.view(state, None)
    cell = view["rows"][3]["cells"][1]
    assert cell["sequence"] == "G2" and cell["top"] == "G2" and not cell["face_down"]


def test_3_first_base_of_a_family_names_any_free_row():
    state = example_1_position()
    assert {m for m in legal(state, 0) if m.startswith("play R3")} == {
        f"play R3 row {r}" for r in range(1, 5)
    }
    assert (
        why(state, 0, "play R3") == "Red has no row yet: name a free row (1, 2, 3 or 4), e.g. play R3 row 1."
    )
    assert why(state, 0, "play R3 row 5") == "The field rows are numbered 1 to 4."


def test_3_a_family_with_a_row_places_its_bases_there_without_naming_it():
    state = example_1_position()
    state, _ = play(state, 0, "play K1 row 3")
    put(state, "K2", "farmland", 0)
    assert "play K2" in legal(state, 0)
    # M1 forbids naming another row only: naming Black's own row is the plain move.
    assert why(state, 0, "play K2 row 3") is None
    assert GAME.format_move(GAME.canonical_move(state, 0, GAME.parse_move("play K2 row 3"))) == "play K2"
    assert why(state, 0, "play K2 row 1") == "Black bases go in row 3, its row: play K2."
    state, _ = play(state, 0, "play R3 row 1")
    assert why(state, 0, "play K2 row 1") == "Row 1 belongs to Red; Black bases go in row 3: play K2."
    state, _ = play(state, 0, "play K2 row 3")
    assert state.stacks["K2"] == ["K2"] and state.cells[2 * 4 + 1] == "" and state.rows[2] == "K"


def test_3_the_last_free_row_is_taken_automatically():
    state = example_1_position()
    for move in ("play K1 row 1", "play R3 row 2", "play G2 row 3"):
        state, _ = play(state, 0, move)
    assert "play Y4" in legal(state, 0)
    assert why(state, 0, "play Y4 row 4") is None  # the only free row: naming it changes nothing
    assert GAME.format_move(GAME.canonical_move(state, 0, GAME.parse_move("play Y4 row 4"))) == "play Y4"
    assert why(state, 0, "play Y4 row 1") == "Row 1 belongs to Black; the only free row is 4: play Y4."
    state, events = play(state, 0, "play Y4 row 4")
    assert state.rows == ["K", "R", "G", "Y"]
    assert "Row 4 now belongs to the Yellow family." in events


def test_3_each_cell_yields_its_card_once_and_the_row_choice_is_permanent():
    state = example_1_position()
    state, _ = play(state, 0, "play R3 row 2")
    hand = len(state.seats[0].hand)
    put(state, "R1", "farmland", 0)
    state, _ = play(state, 0, "play R1")
    assert state.rows[1] == "R" and len(state.seats[0].hand) == hand + 1
    assert state.cells[4] == ""  # row 2, column 1


def test_3_public_field_shows_rows_stacks_face_down_cells_and_closures():
    state = example_1_position()
    state, _ = play(state, 0, "play R3 row 2")
    view = GAME.view(state, None)
    assert [row["family"] for row in view["rows"]] == [None, "R", None, None]
    assert [cell["face_down"] for cell in view["rows"][1]["cells"]] == [True, True, False, True]
    assert all(not cell["closed"] for row in view["rows"] for cell in row["cells"])
    assert "K17" not in str(view)


def test_r2_the_fourth_family_is_called_yellow():
    assert FAMILY_NAMES == {"K": "Black", "G": "Green", "R": "Red", "Y": "Yellow"}


def test_r3_a_base_never_enters_another_family_row():
    state = example_1_position()
    state, _ = play(state, 0, "play R3 row 2")
    assert all("row 2" not in move for move in legal(state, 0))


def test_r4_the_field_card_may_be_played_in_the_same_turn():
    state = example_1_position()
    build_stack(state, 1, "K1", ["K1", "K5", "K9"])
    set_cell(state, 2, 3, "K13")
    state, _ = play(state, 0, "play R3 row 2")
    assert "play K13" in legal(state, 0)
    state, events = play(state, 0, "play K13")
    assert state.stacks["K1"][-1] == "K13"


def test_r11_a_tractor_as_base_takes_the_field_card():
    state = example_1_position()
    set_cards(state, "hand", 0, ["T1", "G6", "K5", "K9", "K10", "K11", "K12", "R5"], park=1)
    set_cell(state, 3, 2, "G13")
    move = GAME.parse_move("tractor T1 for G2 then G6 row 3")
    assert move == UseTractor("T1", "G2", 3)
    assert move in GAME.legal_moves(state, 0)
    state, _ = GAME.apply(state, 0, move)
    assert state.stacks["G2"] == ["T1", "G6"]
    assert state.rows[2] == "G"
    assert "G13" in state.seats[0].hand
    assert "G2" in state.dead and "G2" in state.seats[0].farmland  # the replaced Farmland is dead in place
    assert why(state, 0, "play G2") == "G2 is dead (a Tractor took its place): it can only be discarded."
    check_conservation(state)


@pytest.mark.parametrize("card", ["K1", "R3", "G2", "Y4"])
def test_r28_any_live_farmland_can_open_with_no_order_among_bases(card):
    state = example_1_position()
    state, _ = play(state, 0, f"play {card} row 1")
    assert state.stacks[card] == [card] and state.rows[0] == card[0]
    assert len([m for m in legal(state, 0) if m.startswith("play ") and "row" in m]) == 3 * 3


def test_m1_a_farmland_in_an_assigned_family_always_has_an_empty_cell():
    state = example_1_position()
    start_turn(state, 0)
    state, _ = play(state, 0, "play K1 row 1")
    put(state, "K3", "farmland", 0)
    put(state, "K4", "farmland", 0)
    state, _ = play(state, 0, "play K4")
    assert "play K3" in legal(state, 0)


def test_m3_a_tractor_base_may_name_its_family_row_too():
    state = example_1_position()
    state, _ = play(state, 0, "play G2 row 3")  # Green owns row 3 now
    set_cards(state, "hand", 0, ["T1", "G5"], park=1)
    state.dead = [card for card in state.dead if card != "G1"]
    text = "tractor T1 for G1 then G5 row 3"
    assert why(state, 0, text) is None
    assert GAME.format_move(GAME.canonical_move(state, 0, GAME.parse_move(text))) == "tractor T1 for G1 then G5"
    assert "Green bases go in row 3" in why(state, 0, "tractor T1 for G1 then G5 row 1")
