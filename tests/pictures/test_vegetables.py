"""Vege tables pictures (3 to 5 players and the 2-player game): across whole games every card the
views show is drawn where the view puts it, sizes stay small, and references match."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.games import get_game

from .helpers import NAMES, check_size, compare_with_reference, drawn_positions, positions, state_after

GAME = get_game("vegetables")


def check_field(picture, view):
    tops = [cell["top"] for row in view["rows"] for cell in row["cells"] if cell["stack"]]
    stacks = [code for row in view["rows"] for cell in row["cells"] for code in cell["stack"]]
    assert picture.labels("card") == tops
    assert picture.labels("stack") == stacks
    closed = [cell["sequence"] for row in view["rows"] for cell in row["cells"] if cell["closed"]]
    assert picture.labels("closed") == closed
    assert len(closed) == view["closed"]
    assert picture.labels("score") == [f"{info['seat']}:{info['score']}" for info in view["seats"]]
    assert picture.labels("turn") == ([] if view["over"] else [str(view["turn"])])
    assert picture.labels("discard") == view["discard"]


def check_four(picture, view):
    check_field(picture, view)
    face_down = [f"{row['row']}.{cell['column']}" for row in view["rows"] for cell in row["cells"] if cell.get("face_down") and not cell["stack"]]
    assert picture.labels("face_down") == face_down
    assert picture.labels("farmland") == [code for info in view["seats"] for code in info["farmland"]]
    assert picture.labels("exposed") == [code for info in view["seats"] for code in info["exposed"]]
    assert picture.labels("hidden") == [f"{info['seat']}:{info['hidden']}" for info in view["seats"]]
    wells = [f"{info['seat']}:{'taken' if info['well_taken'] else info['well']}" for info in view["seats"]]
    assert picture.labels("well") == wells
    assert picture.labels("dead_card") == view["dead"]


def check_hand(picture, view, own_rows, extra=()):
    assert picture.labels("card") == sorted(view["hand"], key=lambda code: ("KGRYT".index(code[0]), int(code[1:])))
    own = view["seats"][view["seat"]]
    for kind in own_rows:
        assert picture.labels(kind) == own[kind]
    shown = set(view["hand"]).union(*(own[kind] for kind in (*own_rows, *extra)))
    pending, dead = set(view["pending"]), set(view["dead"])
    playable = [code for code in view["playable"] if code in shown and code not in pending and code not in dead]
    assert Counter(picture.labels("playable")) == Counter(playable)
    assert set(view["playable"]) <= shown  # every playable card is on the picture
    after = [code for code in view["playable_after_tractor"] if code not in pending and code not in dead]
    assert Counter(picture.labels("after_tractor")) == Counter(after)


@pytest.mark.parametrize("players, options", [(4, {}), (3, {"house_variant": True}), (5, {"house_variant": True})])
def test_field_seats_and_hands_across_a_game(players, options):
    for view, board, hands in drawn_positions(GAME, players, 11, options, every=9):
        check_four(board, view)
        for seat_view, hand in hands:
            check_hand(hand, seat_view, ["farmland", "exposed"])


def test_two_player_board_and_hands_across_a_game():
    names = NAMES[:2]
    for state in positions(GAME, 2, 12, {}, every=5):
        view = GAME.view(state, None)
        board = GAME.draw_board(view, names)
        check_size(board)
        check_field(board, view)
        assert board.labels("silo") == [code for silo in view["silos"] for code in silo["cards"]]
        assert board.labels("well_card") == [code for well in view["wells"] if well["face_up"] for code in well["cards"]]
        assert board.labels("well") == [f"{well['well']}:{well['count']}" for well in view["wells"] if not well["face_up"]]
        for kind in ("grounds", "exposed", "tractors", "locked"):
            assert board.labels(kind.rstrip("s") if kind == "tractors" else kind) == [code for info in view["seats"] for code in info[kind]]
        assert board.labels("hand_size") == [f"{info['seat']}:{info['hand_size']}" for info in view["seats"]]
        for seat in range(2):
            seat_view = GAME.view(state, seat)
            hand = GAME.draw_hand(seat_view, names)
            check_size(hand)
            own = seat_view["seats"][seat]
            check_hand(hand, seat_view, ["grounds", "exposed", "locked"], ["tractors"])
            assert hand.labels("tractor") == own["tractors"]


def test_reference_images():
    state = state_after(GAME, 4, 13, 45)
    compare_with_reference(GAME.draw_board(GAME.view(state, None), NAMES[:4]), "vegetables-board")
    compare_with_reference(GAME.draw_hand(GAME.view(state, GAME.to_act(state)[0]), NAMES[:4]), "vegetables-hand")
    duo = state_after(GAME, 2, 14, 30)
    compare_with_reference(GAME.draw_board(GAME.view(duo, None), NAMES[:2]), "vegetables-2p-board")
    compare_with_reference(GAME.draw_hand(GAME.view(duo, GAME.to_act(duo)[0]), NAMES[:2]), "vegetables-2p-hand")
