"""Section 1 of the Figures spec: cards, seats and the deal (with rulings R7, R8 and R35)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import SetupError
from engine.games.figures import GAME
from engine.games.figures.cards import DECK, FIGURES, SUITS, VALUE, card_name
from engine.games.figures.model import next_seat

from .helpers import position


def test_1_1_exactly_four_players():
    for players in (2, 3, 5):
        with pytest.raises(SetupError, match="exactly 4"):
            GAME.new_game(players, 1)
    assert GAME.view(GAME.new_game(4, 1), None)["players"] == 4


def test_1_2_forty_cards_four_suits_numbers_and_figures():
    assert len(DECK) == len(set(DECK)) == 40
    assert Counter(card[1] for card in DECK) == dict.fromkeys(SUITS, 10)
    assert sorted({VALUE[card] for card in DECK if card not in FIGURES}) == [1, 2, 3, 4, 5, 6, 7]
    assert {card[0] for card in FIGURES} == {"J", "N", "K"} and len(FIGURES) == 12


def test_1_3_card_codes():
    assert card_name("1d") == "asso di denari"
    assert card_name("7c") == "7 di coppe"
    assert card_name("Nb") == "cavallo di bastoni"
    assert card_name("Ks") == "re di spade"
    assert card_name("Jd") == "fante di denari"


def test_1_4_values_asso_low_and_figures_have_none():
    assert VALUE["1d"] == 1 and VALUE["7b"] == 7
    # Figures carry no value: they are never compared (see the play tests for the consequences).
    assert all(VALUE[card] == 0 for card in FIGURES)


def _table_orders(options, seeds=range(120)):
    return [tuple(GAME.new_game(4, seed, options).table) for seed in seeds]


def test_1_5_R35_individual_seating_is_drawn_from_the_seed():
    orders = _table_orders({})
    assert len(set(orders)) >= 20  # nearly all 24 orders show up
    assert all(sorted(order) == [0, 1, 2, 3] for order in orders)
    # Reproducible: the seed decides.
    assert GAME.new_game(4, 77).table == GAME.new_game(4, 77).table


def test_1_5_R29_R35_pairs_sit_opposite_and_the_pair_on_seats_1_and_3_is_drawn():
    orders = _table_orders({"mode": "pairs"})
    for order in orders:
        assert {order[0], order[2]} in ({0, 2}, {1, 3})  # partners opposite
    assert {frozenset((order[0], order[2])) for order in orders} == {frozenset({0, 2}), frozenset({1, 3})}


def test_1_6_R8_dealer_rotates_every_hand_through_the_whole_match():
    state = GAME.new_game(4, 5, {"match_end": "hands", "number_of_hands": 9})
    assert state.dealer == state.table[0]  # table seat 1 deals hand 1
    while not GAME.is_over(state):
        state, _ = GAME.apply(state, state.turn, GAME.default_move(state, state.turn))
    assert len(state.results) >= 9
    for result in state.results:
        assert result.dealer == state.table[(result.number - 1) % 4]


def test_1_7_deal_order_with_a_stacked_deck():
    deck = list(reversed(DECK))
    state = GAME.new_game(4, 3, {"deck": deck})
    assert state.table == [0, 1, 2, 3]  # a stacked deal fixes the seats too
    for k, card in enumerate(deck):
        # table seat ((dealer + k) mod 4) + 1, dealer = table seat 1: here engine seat (1 + k) % 4
        assert card in state.hands[(1 + k) % 4]
    assert [len(hand) for hand in state.hands] == [10, 10, 10, 10]


def test_1_7_stacked_deck_accepts_text_and_a_partial_deck():
    state = GAME.new_game(4, 3, {"deck": "KD ks, kc 1d"})
    assert "Kd" in state.hands[1] and "Ks" in state.hands[2] and "Kc" in state.hands[3] and "1d" in state.hands[0]
    assert sorted(card for hand in state.hands for card in hand) == sorted(DECK)


@pytest.mark.parametrize(("deck", "message"), [("Kd Kd", "twice"), ("Kd 8c", "not a card")])
def test_1_7_bad_stacked_deck_is_refused(deck, message):
    with pytest.raises(SetupError, match=message):
        GAME.new_game(4, 1, {"deck": deck})


def test_1_7_ten_cards_each_no_stock_and_a_fresh_shuffle_per_seed():
    hands = [GAME.new_game(4, seed).hands for seed in range(30)]
    for dealt in hands:
        assert [len(hand) for hand in dealt] == [10] * 4
        assert sorted(card for hand in dealt for card in hand) == sorted(DECK)
    assert len({str(dealt) for dealt in hands}) == 30


def test_1_8_the_player_after_the_dealer_leads_in_free():
    for seed in range(10):
        state = GAME.new_game(4, seed)
        assert state.phase == "FREE" and state.top is None
        assert state.turn == next_seat(state, state.dealer) == state.table[1]


def test_R7_seats_follow_the_table_order():
    state = position({1: "1d"}, turn=1)
    state.table = [2, 0, 3, 1]
    assert [next_seat(state, seat) for seat in (2, 0, 3, 1)] == [0, 3, 1, 2]
