"""La Granja's levels differ by how much they search: normal weighs the greedy seat's three
favourite moves on a small budget, strong its five on many more playouts (engine/games/granja/ai.py;
the arena figures that set them are in the README)."""

from __future__ import annotations

from engine.arena import make_player
from engine.core.search import SearchPlayer
from engine.games import get_game
from engine.games.granja.ai import KIT, NORMAL_KIT
from tests.games.greedy_positions import positions


def test_normal_searches_the_greedy_seats_three_favourites_and_strong_its_five() -> None:
    game = get_game("granja")
    normal = make_player(game, "normal", None, None)
    strong = make_player(game, "strong", None, None)
    assert isinstance(normal, SearchPlayer) and isinstance(strong, SearchPlayer)
    assert normal.kit is NORMAL_KIT and strong.kit is KIT
    assert normal.iterations < strong.iterations
    wide = 0
    for state, seat in positions(game, 4, {}, seed=3, every=1):
        moves = game.legal_moves(state, seat)
        few = NORMAL_KIT.candidates(game, state, seat, moves)
        many = KIT.candidates(game, state, seat, moves)
        assert len(few) <= 3 and set(few) <= set(many)
        if len(many) > 3:  # strong weighs more: normal keeps the greedy seat's best three of them
            ranked = sorted(many, key=lambda move: -KIT.greedy.move_value(game, state, seat, move, 0))
            assert few == ranked[:3]
            wide += 1
    assert wide > 20  # (decisions with more moves than normal weighs were seen)
