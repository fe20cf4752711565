"""What each seat and the table see in the 2-player game (docs/rules/vegetables-2p.md §10), the
boards that show it, and the stored state."""

from engine.core import format_event
from engine.games.vegetables import GAME
from engine.games.vegetables.duo.model import MUST_DRAW, DuoState
from engine.games.vegetables.model import VegetablesState
from tests.contract_checks import string_leaves

from .helpers_two import P1, P2, new_duo, play, put, set_place, start_turn

NAMES = ["Ann", "Bob"]


def test_s10_hands_and_the_face_down_w3_are_in_no_public_or_opponent_view():
    state = new_duo(1)
    public = string_leaves(GAME.view(state, None))
    for seat in (P1, P2):
        other = string_leaves(GAME.view(state, 1 - seat))
        for card in state.seats[seat].hand:
            assert card not in public and card not in other
        assert set(state.seats[seat].hand) <= string_leaves(GAME.view(state, seat))
    for card in state.wells[2]:
        assert card not in public and all(card not in string_leaves(GAME.view(state, s)) for s in (P1, P2))
    board = GAME.render_board(GAME.view(state, None), NAMES)
    assert not any(card in board.split() for card in state.seats[P1].hand + state.wells[2])


def test_s10_silos_wells_reserves_and_hand_sizes_are_public_in_order():
    state = new_duo(2)
    view = GAME.view(state, None)
    assert [silo["cards"] for silo in view["silos"]] == state.silos
    assert [silo["free"] for silo in view["silos"]] == [silo[-1] for silo in state.silos]
    assert view["wells"][0]["cards"] == state.wells[0] and view["wells"][1]["free"] == state.wells[1][-1]
    assert view["wells"][2] == {"well": "W3", "count": 8, "face_up": False, "cards": [], "free": None}
    for seat in (P1, P2):
        info = view["seats"][seat]
        assert info["hand_size"] == 12 and info["grounds"] and len(info["locked"]) == 4
        assert info["tractors"] == state.seats[seat].tractors
    assert view["hand_limits"] == {"may_draw_below": 12, "must_draw_below": 8}
    assert "Board Game Arena" in view["rules_note"]


def test_s10_a_pending_discard_is_the_requesters_secret_until_applied():
    state = new_duo(3)
    rival = 1 - state.turn
    dead = state.seats[rival].hand[0]
    state.dead.append(dead)
    state, events = play(state, rival, f"discard {dead}")
    assert events and all(event for event in events)
    assert GAME.view(state, rival)["pending"] == [dead]
    assert GAME.view(state, state.turn).get("pending") == []
    assert GAME.secret_view(state, rival)["pending"] == [dead]
    # The dead card itself and its holder are public (R11).
    assert GAME.view(state, None)["seats"][rival]["dead_held"] == [dead]


def test_board_shows_silos_wells_both_grounds_rows_reserves_hand_sizes_and_limits():
    state = new_duo(4)
    board = GAME.render_board(GAME.view(state, None), NAMES)
    assert "Board Game Arena" in board
    assert f"S1 {' '.join(state.silos[0][:-1])} [{state.silos[0][-1]}]" in board
    assert f"W1 (8) {' '.join(state.wells[0][:-1])} [{state.wells[0][-1]}]" in board
    assert "W3 (8) face down" in board
    for seat in (P1, P2):
        assert "grounds " + " ".join(GAME.view(state, None)["seats"][seat]["grounds"]) in board
        reserve = state.seats[seat].tractors[0] + " (locked " + " ".join(state.seats[seat].locked) + ")"
        assert reserve in board
    assert "Hand limits: may draw below 12, must draw below 8" in board
    assert "   12  no draw" in board  # hand sizes and the limit that applies now
    set_place(state, "hand", state.seats[P2].hand[:6], P2)
    board = GAME.render_board(GAME.view(state, None), NAMES)
    assert "    6  must draw" in board and GAME.view(state, None)["seats"][P2]["hand_limit"] == "must draw"


def test_private_view_marks_playable_cards_and_says_when_a_draw_is_allowed_or_required():
    state = new_duo(5)
    seat = state.turn
    view = GAME.view(state, seat)
    text = GAME.render_private(view, NAMES)
    ground = state.seats[seat].grounds[0]
    assert ground in view["playable"] and f"{ground}*" in text
    assert state.seats[seat].tractors[0] + "*" in text
    assert "no draw while it holds 12 or more" in text
    state, _ = play(state, seat, f"play {ground} take {state.silos[0][-1]}")
    set_place(state, "hand", state.seats[seat].hand[:9], seat)
    view = GAME.view(state, seat)
    assert view["can_draw"] and not view["must_draw"]
    assert "you may draw to 12 now" in GAME.render_private(view, NAMES)
    assert any(example.startswith("draw ") for example in view["examples"])
    set_place(state, "hand", state.seats[seat].hand[:5], seat)
    view = GAME.view(state, seat)
    assert view["must_draw"] and "you must draw before your turn ends" in GAME.render_private(view, NAMES)
    state, _ = play(state, seat, "done")
    view = GAME.view(state, seat)
    assert state.phase == MUST_DRAW and view["draw_sizes"] == [3, 7]
    assert "you must draw 3 or 7 cards now" in format_event(view["prompt"], NAMES)


def test_r11_examples_never_name_a_tractor_target_in_the_opponents_hand():
    state = new_duo(6)
    set_place(state, "stack R3", ["R3"])
    put(state, "R11", "hand", P1)
    put(state, "R7", "hand", P2)
    start_turn(state, P1)
    assert "tractor T1 for R7 then R11" in [GAME.format_move(m) for m in GAME.legal_moves(state, P1)]
    view = GAME.view(state, P1)
    assert not any("for R7" in example for example in view["examples"])
    assert "R11" in view["playable_after_tractor"]  # R7 is out of sight: it may be the opponent's
    put(state, "R7", "discard")
    assert "R11" not in GAME.view(state, P1)["playable_after_tractor"]


def test_state_survives_json_and_keeps_its_type():
    state = new_duo(7)
    again = GAME.decode_state(GAME.encode_state(state))
    assert isinstance(again, DuoState) and again == state
    assert GAME.copy_state(state) == state
    four = GAME.new_game(4, 7, {})
    assert isinstance(GAME.decode_state(GAME.encode_state(four)), VegetablesState)


def test_the_game_over_board_names_the_winner():
    state = new_duo(8)
    for well in ("W1", "W2", "W3"):
        set_place(state, well, [])
    seat = state.turn
    for name in ("grounds", "hand", "exposed", "locked"):
        set_place(state, name, [], seat)
    state, _ = play(state, seat, f"discard {state.seats[seat].tractors[0]}")
    board = GAME.render_board(GAME.view(state, None), NAMES)
    assert f"Game over ({NAMES[seat]} went out)" in board


def test_the_moves_offered_never_name_a_card_of_the_face_down_w3():
    """Ruling 4: nobody may look at W3 before it is revealed, the drawing player included. A draw
    that would reach it once W1 or W2 runs out names its cards by their pile (draw K13 W3 W3)."""
    import random

    from engine.games.vegetables.duo.model import Draw

    reaching_w3 = 0
    for seed in range(1, 9):
        rng = random.Random(seed)
        state = GAME.new_game(2, seed, {})
        while not GAME.is_over(state):
            for seat in (0, 1):
                hidden = set() if state.revealed else set(state.wells[2])
                for move in GAME.legal_moves(state, seat):
                    named = set(GAME.format_move(move).split()[1:])
                    assert not named & hidden, (seed, GAME.format_move(move))
                    reaching_w3 += isinstance(move, Draw) and "W3" in move.picks and not state.revealed
            seat = GAME.to_act(state)[0]
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
    assert reaching_w3  # the games met draws that open W3 on the way
