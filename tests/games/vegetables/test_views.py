"""§4.2 public and private information (and R23, R34), and the text renderings."""

import json

from engine.games.vegetables import GAME
from engine.games.vegetables.model import Discard

from .helpers import (
    build_stack,
    last_card_t1_position,
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
    state = last_card_t1_position()
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


# ----- what the texts tell the player to do next ----------------------------------------------------


def test_must_pass_prompt_says_what_the_pass_will_do():
    from .test_turns import example_5_position

    state = example_5_position()
    view = GAME.view(state, P3)
    assert view["prompt"] == (
        "You cannot play: pass. The pass puts your 6 hidden cards face up (no penalty), "
        "then brings in your well (+20)."
    )
    assert "dead" not in view["prompt"]  # no dead card held: nothing to discard first
    text = GAME.render_private(view, NAMES)
    assert text.splitlines()[-1] == "For example: pass"


def test_must_pass_prompt_a_dead_farmland_does_not_save_the_50():
    """Only hidden cards are shown at a pass: keeping a dead Farmland saves nothing (§5, R34)."""
    from .test_turns import example_5_position

    state = example_5_position()
    take_well(state, P3, park=P2)
    set_cards(state, "hand", P3, [], park=P2)
    set_cards(state, "exposed", P3, ["K15"], park=P2)
    put(state, "G1", "farmland", P3)
    state.dead.append("G1")
    start_turn(state, P3)
    prompt = GAME.view(state, P3)["prompt"]
    assert prompt == (
        "You cannot play: pass. With no hidden card to show, the pass costs 50 points. "
        "You may first discard a dead card: G1."
    )
    assert "exposed instead" not in prompt and "free" not in prompt


def test_must_pass_prompt_keeping_a_hidden_dead_card_makes_the_pass_free():
    from .test_turns import example_5_with_dead_k5

    state = example_5_with_dead_k5()
    assert GAME.view(state, P3)["prompt"] == (
        "You cannot play: pass. The pass puts your 1 hidden card face up (no penalty). "
        "You may first discard a dead card: K5. "
        "Keep one in your hand and the pass is free; with none left it costs 50."
    )
    assert GAME.view(state, P3)["examples"] == ["pass", "discard K5"]


def test_off_turn_prompt_does_not_offer_a_discard_already_asked_for():
    state = example_2_position()
    state, _ = play(state, P2, "tractor T1 for K8 then K12")
    assert GAME.view(state, P3)["prompt"] == (
        "Not your turn. You may ask to discard a dead card (it leaves at your next turn)."
    )
    state, _ = play(state, P3, "discard K8")
    view = GAME.view(state, P3)
    assert view["prompt"] == "Not your turn. Asked to discard: K8 (leaves at the start of your next turn)."
    assert view["examples"] == []
    assert GAME.view(state, P4)["prompt"] == "Not your turn."


def test_board_marks_dead_cards_in_farmland_rows_and_exposed_cards():
    state = example_2_position()
    set_cards(state, "exposed", P4, ["K8", "G14"], park=P1)
    state, _ = play(state, P2, "tractor T1 for K8 then K12")
    text = GAME.render_board(GAME.view(state, None), NAMES)
    assert "exposed K8(dead) G14" in text

    state = example_2_position(hand=("T1", "R7", "G9"))
    holder = next(s for s, p in enumerate(state.seats) if "R3" in p.farmland)
    state, _ = play(state, P2, "tractor T1 for R3 then R7 row 2")
    lines = GAME.render_board(GAME.view(state, None), NAMES).splitlines()
    name_line = next(i for i, line in enumerate(lines) if line[1:].startswith(NAMES[holder]))
    assert "R3(dead)" in lines[name_line + 1]


def test_private_text_shows_how_to_write_the_possible_moves():
    state = example_2_position(hand=("T1", "K12", "K8", "G9"))
    view = GAME.view(state, P2)
    assert view["examples"] == ["play K8", "tractor T1 for K8 then K12", "discard T1"]
    text = GAME.render_private(view, NAMES)
    assert "For example: play K8 | tractor T1 for K8 then K12 | discard T1" in text
    assert "* playable now" in text
    state, _ = play(state, P2, "play K8")
    assert GAME.view(state, P2)["examples"][-1] == "done"
    # Off turn the marks only say what fits the field; nothing is offered to write.
    other = GAME.render_private(GAME.view(state, P3), NAMES)
    assert "* fits the field now" in other and "For example" not in other
    for example in GAME.view(state, P2)["examples"]:
        assert GAME.why_illegal(state, P2, GAME.parse_move(example)) is None
