"""Figures pictures: across whole games every card the views show is drawn, sizes stay small, and a
few positions match their reference images."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.games import get_game
from engine.games.figures.render import RECENT_MOVES_SHOWN

from .helpers import NAMES, check_size, compare_with_reference, positions, state_after

GAME = get_game("figures")


def shown_plays(view: dict) -> list[str]:
    """The cards of the plays the board shows (the last ones, or the finished hand's)."""
    history = view["history"] or view.get("previous_history") or []
    cards: list[str] = []
    for entry in history[-RECENT_MOVES_SHOWN:]:
        move = entry["move"]
        cards.extend(move.split()[1:] if move.startswith("kings") else [] if move == "pass" else [move])
    return cards


@pytest.mark.parametrize("seed, options", [(3, {}), (4, {"mode": "pairs", "match_end": "hands", "number_of_hands": 2})])
def test_every_card_seat_and_score_is_drawn_across_a_match(seed, options):
    names = NAMES[:4]
    for state in positions(GAME, 4, seed, options, every=7):
        view = GAME.view(state, None)
        board = GAME.draw_board(view, names)
        check_size(board)
        assert board.labels("card") == ([view["top"]] if view["top"] else [])
        assert Counter(board.labels("play")) == Counter(shown_plays(view))
        assert board.labels("seat") == [str(seat) for seat in view["table"]]
        assert board.labels("count") == [f"{seat}:{view['card_counts'][seat]}" for seat in view["table"]]
        assert board.labels("score") == [f"{seat}:{view['totals'][seat]}" for seat in view["table"]]
        assert board.labels("turn") == ([] if view["match_over"] else [str(view["turn"])])
        for seat in range(4):
            seat_view = GAME.view(state, seat)
            hand = GAME.draw_hand(seat_view, names)
            check_size(hand)
            assert hand.labels("card") == seat_view["hand"]
            on_turn = not seat_view["match_over"] and seat_view["turn"] == seat
            assert hand.labels("playable") == (seat_view["playable"] if on_turn else [])


def test_reference_images():
    state = state_after(GAME, 4, 5, 23)
    compare_with_reference(GAME.draw_board(GAME.view(state, None), NAMES[:4]), "figures-board")
    seat = GAME.to_act(state)[0]
    compare_with_reference(GAME.draw_hand(GAME.view(state, seat), NAMES[:4]), "figures-hand")
