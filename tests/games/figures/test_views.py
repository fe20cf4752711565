"""What each seat may see (2.11, R32, R34) and the text rendering of board and hand."""

from __future__ import annotations

import random

from engine.games.figures import GAME
from engine.games.figures.cards import CARD_SET
from tests.contract_checks import string_leaves

from .helpers import play, position, seat

NAMES = ["Alice", "Bob", "Carol", "Dave"]
LONG_NAMES = ["A very long display name indeed" + str(n) for n in range(4)]


def _all_ints(value):
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, int):
            found.append(item)
    return found


def test_2_11_public_view_has_what_a_table_shows():
    state = position(
        {1: "2d 5d", 2: "Jc 4c", 3: "1b", 4: "6s"}, turn=2, phase="GIRO", top="Kd", owner=1,
        giro_starter=1, giro_left=3, kings_used=[3],
    )
    view = GAME.view(state, None)
    assert view["players"] == 4
    assert (view["top"], view["owner"], view["phase"], view["turn"], view["giro_left"]) == ("Kd", 0, "GIRO", 1, 3)
    assert view["card_counts"] == [2, 2, 1, 1]
    assert view["kings_used"] == [seat(3)]
    assert (view["hand_number"], view["dealer"], view["totals"]) == (1, 0, [0, 0, 0, 0])
    assert "figure" in view["prompt"]
    assert "hand" not in view and "rng" not in view


def test_2_11_history_lists_every_discard_and_pass_with_its_player():
    state = position({1: "Kd Kc Ks 1d 2d 3d 6d", 2: "1c 2c", 3: "1b 2b", 4: "1s 2s"}, turn=1)
    state, _ = play(state, 1, "kings 1d 2d 3d")
    state, _ = play(state, 2, "pass")
    history = GAME.view(state, None)["history"]
    assert history == [
        {"seat": 0, "move": "kings 1d 2d 3d", "clears": False},
        {"seat": 1, "move": "pass", "clears": False},
    ]


def test_R32_hands_are_private_and_counts_public():
    state = GAME.new_game(4, 8)
    public = GAME.view(state, None)
    assert not (string_leaves(public) & CARD_SET)  # nothing discarded yet, so no card at all
    for s in range(4):
        private = GAME.view(state, s)
        assert private["hand"] == state.hands[s]
        others = {card for other in range(4) if other != s for card in state.hands[other]}
        assert not (string_leaves(private) & others)


def test_views_never_show_the_seed_or_the_draw_counter():
    state = GAME.new_game(4, 987654321)
    state.rng.counter = 123456789
    for viewer in (None, 0, 1, 2, 3):
        view = GAME.view(state, viewer)
        assert 987654321 not in _all_ints(view) and 123456789 not in _all_ints(view)
        assert "seed" not in str(view) and "rng" not in view


def test_R34_hands_stay_private_after_the_match_ends():
    state = GAME.new_game(4, 3, {"target_score": 5})
    while not GAME.is_over(state):
        state, _ = GAME.apply(state, state.turn, GAME.default_move(state, state.turn))
    public = GAME.view(state, None)
    assert public["match_over"] and public["turn"] is None and public["winners"]
    held = {card for hand in state.hands for card in hand}
    assert held and not (string_leaves(public) & held)
    for s in range(4):
        view = GAME.view(state, s)
        assert view["hand"] == state.hands[s]
        others = {card for other in range(4) if other != s for card in state.hands[other]}
        assert not (string_leaves(view) & others)  # nor does any other seat's view show them
        text = GAME.render_private(view, NAMES) + GAME.render_board(public, NAMES)
        assert not any(card in text.split() for card in others)
    # Only counts enter the record of the hand.
    assert public["results"][-1]["cards_left"] == [len(hand) for hand in state.hands]


def test_private_view_prompts_the_seat_on_turn():
    stuck = position({1: "2d 4d"}, turn=1, phase="BEAT", top="5c", owner=4)
    view = GAME.view(stuck, seat(1))
    assert view["must_pass"] and "pass" in view["prompt"]
    kings = position({1: "Kd Kc Ks 2d"}, turn=1)
    view = GAME.view(kings, seat(1))
    assert view["can_use_kings"] and view["playable"] == ["2d", "Kd", "Kc", "Ks"]
    assert "three kings" in GAME.render_private(view, NAMES)
    waiting = GAME.view(kings, seat(2))
    assert not waiting["can_use_kings"] and waiting["playable"] == []


def test_render_board_and_hand():
    state = position(
        {1: "2d 5d", 2: "Jc 4c", 3: "1b", 4: "6s"}, turn=2, phase="BEAT", top="3d", owner=1, passes=1,
        kings_used=[3], mode="pairs",
    )
    board = GAME.render_board(GAME.view(state, None), NAMES)
    assert "Table: 3d (Alice) · BEAT 3 · passes 1" in board
    assert "Bob to play" in board and "used 3 kings" in board and "pairs" in board
    hand = GAME.render_private(GAME.view(state, seat(2)), NAMES)
    assert "4c Jc" in hand and "Playable: 4c Jc" in hand


def test_render_board_stays_short_in_long_games():
    rng = random.Random(5)
    players = [GAME.ai_players()["random"]() for _ in range(4)]
    for seed in range(3):
        state = GAME.new_game(4, seed, {"mode": "pairs" if seed % 2 else "individual"})
        longest = 0
        while not GAME.is_over(state):
            longest = max(longest, len(GAME.render_board(GAME.view(state, None), LONG_NAMES)))
            state, _ = GAME.apply(state, state.turn, players[state.turn].choose(GAME, state, state.turn, rng))
        longest = max(longest, len(GAME.render_board(GAME.view(state, None), LONG_NAMES)))
        assert longest <= 1800


def test_events_are_public_and_name_seats_by_placeholder():
    state = position({1: "2d 5d", 2: "Jc 4c", 3: "1b", 4: "6s"}, turn=1)
    _, events = GAME.apply(state, 0, GAME.parse_move("5d"))
    assert [event.text for event in events] == ["{p0} plays 5d."]
    assert all(event.visible_to is None for event in events)


def test_private_text_of_a_seat_waiting_names_who_is_to_play():
    """The table prompt is an order for the player on turn; a waiting seat must not read it as its own."""
    state = position({1: "2d 5d", 2: "Jc 4c", 3: "1b", 4: "6s"}, turn=2, phase="OPEN", top="7c", owner=1)
    waiting = GAME.render_private(GAME.view(state, seat(1)), NAMES)
    assert waiting.splitlines()[0] == "Alice, your hand (2): 2d 5d"
    assert "Not your turn: Bob to play." in waiting
    assert "Playable" not in waiting
    on_turn = GAME.render_private(GAME.view(state, seat(2)), NAMES)
    assert "Not your turn" not in on_turn and "Your turn." in on_turn


def test_private_text_offers_three_kings_once():
    state = position({1: "Kd Kc Ks 2d"}, turn=1)
    text = GAME.render_private(GAME.view(state, seat(1)), NAMES)
    assert text.lower().count("three kings") == 1
    assert "kings <card> <card> <card>" in text


def test_board_marks_a_tie_break_hand():
    """3.3: a tied lead adds hands; the board should say why a hand beyond the set number is played."""
    hands = {1: "7d", 2: "1c 2c", 3: "1s", 4: "1b 2b 3b"}
    tied, _ = play(position(hands, turn=1, totals=(0, 7, 0, 0), match_end="hands", number_of_hands=3, hand_number=3), 1, "7d")
    view = GAME.view(tied, None)
    assert view["tie_break"] and view["hand_number"] == 4
    assert "hand 4 (tie-break)" in GAME.render_board(view, NAMES)
    target, _ = play(position(hands, turn=1, totals=(22, 29, 0, 0), target_score=31), 1, "7d")
    assert target.totals[:2] == [32, 32] and GAME.view(target, None)["tie_break"]
    assert "(tie-break)" in GAME.render_board(GAME.view(target, None), NAMES)
    normal, _ = play(position(hands, turn=1, totals=(0, 0, 0, 0), match_end="hands", number_of_hands=3, hand_number=2), 1, "7d")
    assert not GAME.view(normal, None)["tie_break"]
    assert "tie-break" not in GAME.render_board(GAME.view(normal, None), NAMES)
