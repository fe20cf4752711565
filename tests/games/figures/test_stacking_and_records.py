"""Stacking any hand for tests (options decks and first_dealer) and the public record of finished
hands (2.11, R34): their plays stay visible once the next hand is dealt."""

from __future__ import annotations

import pytest

from engine.core import STACKING_OPTIONS, SetupError
from engine.games.figures import GAME
from engine.games.figures.cards import DECK


def play_out_hand(state):
    """Play the current hand to its end by legal moves (each seat's timeout default)."""
    number = state.hand_number
    while state.hand_number == number and not GAME.is_over(state):
        state, _ = GAME.apply(state, state.turn, GAME.default_move(state, state.turn))
    return state


def dealt_from(state, deck):
    """Whether the current hand was dealt from ``deck``: card k to the k-th seat after the dealer (1.7)."""
    first = (state.table.index(state.dealer) + 1) % 4
    return all(card in state.hands[state.table[(first + k) % 4]] for k, card in enumerate(deck))


def test_stacking_options_are_named_for_the_referee():
    assert set(GAME.stacking_options) <= set(STACKING_OPTIONS)
    assert set(GAME.stacking_options) == {"deck", "decks", "first_dealer"}


def test_decks_stack_every_hand_in_turn_and_the_match_goes_on_shuffled():
    first, second = list(reversed(DECK)), DECK[10:20] + DECK[:10] + DECK[20:]
    state = GAME.new_game(4, 3, {"decks": [first, second], "match_end": "hands", "number_of_hands": 3})
    assert state.table == [0, 1, 2, 3] and state.dealer == 0 and dealt_from(state, first)
    state = play_out_hand(state)
    assert state.hand_number == 2 and state.dealer == 1 and dealt_from(state, second)  # R8: the deal moved on
    state = play_out_hand(state)
    assert state.hand_number == 3 and sorted(c for hand in state.hands for c in hand) == sorted(DECK)


def test_decks_read_from_text_and_a_partial_deck_is_topped_up():
    state = GAME.new_game(4, 3, {"decks": "Kd ks | 1d, 1c"})
    assert "Kd" in state.hands[1] and "Ks" in state.hands[2]
    state = play_out_hand(state)
    assert "1d" in state.hands[2] and "1c" in state.hands[3]  # hand 2: seat 2 deals, seat 3 first


def test_first_dealer_lets_any_seat_deal_the_stacked_first_hand():
    deck = list(DECK)
    state = GAME.new_game(4, 3, {"deck": deck, "first_dealer": 3})
    assert state.dealer == 2 and state.turn == 3 and dealt_from(state, deck)
    state = play_out_hand(state)
    assert state.dealer == 3 and state.turn == 0  # the rotation goes on from there


def test_first_dealer_alone_fixes_the_seats_too():
    state = GAME.new_game(4, 9, {"first_dealer": 2})
    assert state.table == [0, 1, 2, 3] and state.dealer == 1 and state.turn == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"deck": "Kd", "decks": ["Ks"]}, "not both"),
        ({"decks": ["Kd Kd"]}, "twice"),
        ({"decks": []}, "at least one deck"),
        ({"first_dealer": 5}, "1 to 4"),
        ({"first_dealer": "north"}, "seat number"),
    ],
)
def test_bad_stacking_is_refused(options, message):
    with pytest.raises(SetupError, match=message):
        GAME.new_game(4, 1, options)


def test_2_11_a_finished_hand_keeps_its_plays_in_its_result_and_on_the_board_until_the_next_move():
    state = GAME.new_game(4, 5, {"match_end": "hands", "number_of_hands": 2})
    before = state
    while state.hand_number == 1:
        before = state
        state, _ = GAME.apply(state, state.turn, GAME.default_move(state, state.turn))
    last = GAME.default_move(before, before.turn)
    plays = [*before.history]
    record = state.results[-1].history
    assert record[:-1] == plays and record[-1].move == GAME.format_move(last) and record[-1].seat == before.turn
    view = GAME.view(state, None)
    as_dicts = [{"seat": entry.seat, "move": entry.move, "clears": entry.clears} for entry in record]
    assert view["history"] == [] and view["previous_history"] == as_dicts
    assert view["results"][-1]["history"] == as_dicts
    board = GAME.render_board(view, ["A", "B", "C", "D"])
    assert "Hand 1 moves" in board and record[-1].move in board.split("Hand 1 moves")[1]
    state, _ = GAME.apply(state, state.turn, GAME.default_move(state, state.turn))
    view = GAME.view(state, None)
    assert view["previous_history"] == [] and len(view["history"]) == 1
    assert view["results"][-1]["history"] == as_dicts  # the record stays in the result entry
    assert "Hand 1 moves" not in GAME.render_board(view, ["A", "B", "C", "D"])
