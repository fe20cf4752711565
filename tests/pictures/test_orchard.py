"""Draft Cider pictures: across whole games the pool, every batch's cards and scores and every
seat's total are drawn; a seat's picture shows each pool card with all its legal placements."""

from __future__ import annotations

import pytest

from engine.games import get_game
from engine.games.orchard.cards import BATCH_IDS

from .helpers import NAMES, check_size, compare_with_reference, positions, state_after

GAME = get_game("orchard")


@pytest.mark.parametrize("players", [1, 3, 6])
def test_pool_batches_and_scores_across_a_game(players):
    names = NAMES[:players]
    for state in positions(GAME, players, 21, {}, every=4):
        view = GAME.view(state, None)
        board = GAME.draw_board(view, names)
        check_size(board)
        assert board.labels("pool") == ([] if view["over"] else view["pool"])
        cards = [f"{seat}:{batch}:{code}" for seat, orchard in enumerate(view["orchards"]) for batch in BATCH_IDS for code in orchard["batches"][batch]]
        assert board.labels("batch_card") == cards
        scores = [f"{seat}:{batch}:{orchard['scores'][batch]}" for seat, orchard in enumerate(view["orchards"]) for batch in BATCH_IDS]
        assert board.labels("batch_score") == scores
        assert board.labels("score") == [f"{seat}:{total}" for seat, total in enumerate(view["scores"])]
        assert board.labels("turn") == ([] if view["turn"] is None else [str(view["turn"])])
        seat = view["turn"] if view["turn"] is not None else 0
        seat_view = GAME.view(state, seat)
        hand = GAME.draw_hand(seat_view, names)
        check_size(hand)
        placements = seat_view["placements"]
        assert hand.labels("card") == list(placements)
        assert hand.labels("placement") == [f"{code}:{batch}:{gain}" for code, gains in placements.items() for batch, gain in gains.items()]
        assert hand.labels("playable") == ([code for code, gains in placements.items() if gains] if seat_view["your_turn"] else [])


def test_reference_images():
    state = state_after(GAME, 4, 22, 20)
    compare_with_reference(GAME.draw_board(GAME.view(state, None), NAMES[:4]), "orchard-board")
    compare_with_reference(GAME.draw_hand(GAME.view(state, GAME.to_act(state)[0]), NAMES[:4]), "orchard-hand")
