"""§4.2 public and private information (and R23, R34), and the text renderings."""

import json

from engine.games.vegetables import GAME
from engine.games.vegetables.rules import Discard

from .helpers import (
    build_stack,
    new_game,
    play,
    put,
    secrets,
    set_cards,
    start_turn,
    swap,
    take_well,
)
from .test_moves import example_2_position

P1, P2, P3, P4 = 0, 1, 2, 3
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def _strings(value):
    return set(
        json.dumps(value).replace("[", " ").replace("]", " ").replace('"', " ").replace(",", " ").split()
    )


def test_4_2_public_view_has_players_and_no_randomness():
    state = new_game(seed=77)
    view = GAME.view(state, None)
    assert view["players"] == 4
    assert "rng" not in view and "seed" not in json.dumps(view)
    assert str(state.rng.seed) not in _strings(view)


def test_4_2_public_items():
    state = example_2_position()
    state, _ = play(state, P2, "tractor T1 for K8 then K12")
    view = GAME.view(state, None)
    seat = view["seats"][P3]
    assert seat["farmland"] == sorted(
        state.seats[P3].farmland, key=lambda c: ("KGRY".index(c[0]), int(c[1:]))
    )
    assert seat["hidden"] == len(state.seats[P3].hand) and seat["well"] == 6 and not seat["well_taken"]
    assert {"score", "passes", "exposed"} <= set(seat)
    assert view["rows"][0]["family"] == "K" and view["rows"][0]["cells"][3]["stack"] == ["K4", "T1", "K12"]
    assert view["dead"] == ["K8"]  # the identity of a dead card is public
    assert view["discard"] == [] and view["turn"] == P2 and view["prompt"]


def test_4_2_secrets_are_in_no_other_view():
    state = new_game(seed=78)
    views = {seat: _strings(GAME.view(state, seat)) for seat in (None, 0, 1, 2, 3)}
    for seat in range(4):
        own_hand = set(state.seats[seat].hand)
        assert own_hand <= views[seat]
        for other in (None, 0, 1, 2, 3):
            if other != seat:
                assert not own_hand & views[other]
    # Wells and face-down field cards: nobody, the owner included.
    for seat in range(4):
        assert not set(state.seats[seat].well) & views[seat]
    assert not set(state.cells) & set().union(*views.values())
    assert set(secrets(state, 0)) >= set(state.seats[0].hand) | set(state.cells)


def test_4_2_the_holder_of_a_dead_card_kept_hidden_is_private():
    state = example_2_position()
    state, _ = play(state, P2, "tractor T1 for K8 then K12")
    # The same position with K8 in P4's hand instead of P3's (P4 gives P3 another card back).
    other = GAME.decode_state(GAME.encode_state(state))
    swap(other, "K8", other.seats[P4].hand[0])
    for viewer in (None, P1, P2):
        assert GAME.view(state, viewer) == GAME.view(other, viewer)
    assert GAME.view(state, P3)["dead_held"] == ["K8"]


def test_4_2_and_r34_a_pending_request_is_seen_by_the_requester_only():
    state = example_2_position()
    state, _ = play(state, P2, "tractor T1 for K8 then K12")
    requested, _ = GAME.apply(state, P3, Discard("K8"))
    for viewer in (None, P1, P2, P4):
        assert GAME.view(state, viewer) == GAME.view(requested, viewer)
    assert GAME.view(requested, P3)["pending"] == ["K8"]
    assert "K8(discarding)" in GAME.render_private(GAME.view(requested, P3), NAMES)


def test_4_2_and_r34_a_dead_card_in_a_well_is_not_told_to_the_owner():
    state = example_2_position()
    put(state, "K8", "well", P3)
    state, _ = play(state, P2, "tractor T1 for K8 then K12")
    other = GAME.decode_state(GAME.encode_state(state))
    swap(other, "K8", other.seats[P4].well[0])
    for viewer in (None, P1, P2, P3, P4):
        assert GAME.view(state, viewer) == GAME.view(other, viewer)


def test_4_2_a_dead_farmland_stays_visible_in_its_row():
    state = example_2_position(hand=("T1", "R7", "G9"))
    holder = next(s for s, p in enumerate(state.seats) if "R3" in p.farmland)
    state, _ = play(state, P2, "tractor T1 for R3 then R7 row 2")
    assert "R3" in GAME.view(state, None)["seats"][holder]["farmland"]


def test_4_2_exposed_cards_are_public():
    state = new_game(seed=7)
    set_cards(state, "exposed", P2, ["G14", "R9"], park=P1)
    assert GAME.view(state, None)["seats"][P2]["exposed"] == ["G14", "R9"]


def test_private_view_lists_the_hand_and_what_is_playable():
    state = example_2_position(hand=("T1", "K12", "K8", "G9"))
    view = GAME.view(state, P2)
    assert view["hand"] == ["K8", "K12", "G9", "T1"] and view["your_turn"]
    assert view["playable"] == ["K8", "T1"]
    assert view["playable_after_tractor"] == ["K12"]
    text = GAME.render_private(view, NAMES)
    assert "Black   K8* K12+" in text and "Green   G9" in text and "Tractor T1*" in text


def test_render_board_shows_field_players_and_stays_short():
    state = new_game(5, seed=3)
    long_names = ["A very long player name indeed"] * 5
    build_stack(state, 1, "K1", ["K1", "K5", "K9", "K13", "K17"])
    build_stack(state, 2, "R2", ["R2", "T1", "R10"])
    state.dead.append("R6")
    set_cards(state, "exposed", P2, ["G14", "R9", "Y5", "Y6", "Y7", "Y8", "K20"], park=P1)
    text = GAME.render_board(GAME.view(state, None), long_names)
    assert len(text) <= 1800
    assert "K17*" in text and "R10(T)" in text and "Dead cards: R6" in text
    assert "house rules (H5)" in text
    for line in text.splitlines():
        assert len(line) <= 80


def test_render_board_at_the_end_names_the_winner():
    state = new_game(seed=6)
    take_well(state, P2, park=P1)
    set_cards(state, "farmland", P2, [], park=P1)
    set_cards(state, "hand", P2, ["T1"], park=P1)
    start_turn(state, P2)
    state, _ = play(state, P2, "discard T1")
    text = GAME.render_board(GAME.view(state, None), NAMES)
    assert "Game over (Bob went out). Winner: Bob." in text


def test_r23_hand_sizes_well_sizes_well_status_and_passes_are_public():
    state = new_game(5, seed=4)
    take_well(state, P2, park=P2)
    state.seats[P3].passes = 2
    view = GAME.view(state, None)
    assert [s["hidden"] for s in view["seats"]] == [len(p.hand) for p in state.seats]
    assert [s["well"] for s in view["seats"]] == [len(p.well) for p in state.seats]
    assert [s["well_taken"] for s in view["seats"]] == [False, True, False, False, False]
    assert view["seats"][P3]["passes"] == 2
    text = GAME.render_board(view, NAMES)
    assert "taken" in text and "passes 2" in text
