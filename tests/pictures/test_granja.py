"""La Granja pictures: across whole games every farm's fields, barrows, helpers, extensions,
roofs, goods, silver and VP, the market, the buildings, the siesta track and the dice are drawn;
a seat's picture shows its hand with the playable cards marked."""

from __future__ import annotations

import pytest

from engine.games import get_game

from .helpers import NAMES, compare_with_reference, drawn_positions, state_after

GAME = get_game("granja")
GOODS = ("GR", "OL", "GP", "PG", "FD", "WN", "MT", "TG")


def check_board(picture, view):
    farms = view["farms"]
    assert picture.labels("score") == [f"{seat}:{farm['vp']}" for seat, farm in enumerate(farms)]
    assert picture.labels("silver") == [f"{seat}:{farm['silver']}" for seat, farm in enumerate(farms)]
    for kind, key, part in (("field", "fields", "card"), ("barrow", "barrows", "card"), ("helper", "helpers", "card"),
                            ("extension", "extensions", "card"), ("roof", "roofs", "id")):  # fmt: skip
        assert picture.labels(kind) == [f"{seat}:{item[part]}" for seat, farm in enumerate(farms) for item in farm[key]], kind
    goods = [f"{seat}:{code}:{farm['goods'][code]}" for seat, farm in enumerate(farms) for code in GOODS if farm["goods"][code] or code == "PG"]
    assert picture.labels("good") == goods
    assert picture.labels("hex") == [f"{cell['hex']}:{cell['value']}:{'' if cell['owner'] is None else cell['owner']}" for cell in view["market"]]
    assert picture.labels("building") == [str(building["number"]) for building in view["buildings"]]
    assert picture.labels("die") == [str(face) for face in view["dice"]]
    assert picture.labels("roof_offer") == view["roofs_offer"]
    siesta = [f"{space}:{seat}" for space in sorted(view["siesta_stacks"], key=int) for seat in view["siesta_stacks"][space]]
    assert picture.labels("siesta") == siesta
    assert picture.labels("order") == [str(seat) for seat in view["turn_order"]]
    assert picture.labels("turn") == [str(seat) for seat in range(view["players"]) if seat in view["to_act"]]


@pytest.mark.parametrize("players", [2, 4])
def test_farms_market_and_hands_across_a_game(players):
    marked = 0
    for view, board, hands in drawn_positions(GAME, players, 31, {}, every=23):
        check_board(board, view)
        for seat_view, hand in hands:
            assert hand.labels("card") == [card["card"] for card in seat_view["hand"]]
            playable = {option.split()[1] for option in seat_view["options"] if option.startswith("play ")}
            assert hand.labels("playable") == [card["card"] for card in seat_view["hand"] if card["card"] in playable]
            marked += len(playable)
    assert marked  # the positions include card plays


def test_reference_images():
    state = state_after(GAME, 3, 32, 120)
    compare_with_reference(GAME.draw_board(GAME.view(state, None), NAMES[:3]), "granja-board")
    compare_with_reference(GAME.draw_hand(GAME.view(state, GAME.to_act(state)[0]), NAMES[:3]), "granja-hand")
