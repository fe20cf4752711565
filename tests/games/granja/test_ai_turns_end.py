"""An AI seat's turn ends: La Granja's exchanges (buy, sell, upgrade) may be made any number of
times in a window, and a search that scored going round buy grain, upgrade it, sell the feed no
worse than ending its turn went round it for ever (engine/games/granja/knowledge.py, EXCHANGES)."""

from __future__ import annotations

import random

import pytest

from engine.arena import make_player
from engine.games import get_game
from engine.games.granja.ai import KIT
from engine.games.granja.knowledge import EXCHANGES

# Deals of arena runs that never ended: (players, levels by seat, deal, rotation).
NEVER_ENDED = [
    (2, ["normal", "greedy"], 20, 0),  # normal went buy GR, sell FD, upgrade GR from move ~300 on
    (4, ["greedy", "greedy", "greedy", "strong"], 7, 1),
]
MOVES_AT_MOST = 1_000  # these games end in 255 and 488 moves


@pytest.mark.parametrize(("players", "levels", "deal", "rotation"), NEVER_ENDED)
def test_search_seats_end_their_turns_and_the_game_ends(players: int, levels: list[str], deal: int, rotation: int) -> None:
    game = get_game("granja")
    seats = [make_player(game, level, None, None) for level in levels]
    rng = random.Random(deal * 7919 + rotation)  # the arena's dice for that game
    state = game.new_game(players, deal, {})
    for _ in range(MOVES_AT_MOST):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, seats[seat].choose(game, state, seat, rng))
    assert game.is_over(state)


def test_every_exchange_the_search_considers_raises_the_seats_worth() -> None:
    game = get_game("granja")
    state = game.new_game(2, 20, {})
    rng = random.Random(1)
    greedy = make_player(game, "greedy", None, None)
    seen = 0
    for _ in range(300):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        kept = KIT.without_idle_exchanges(game, state, seat, moves)
        assert kept and set(kept) <= set(moves)
        base = KIT.worth(state, seat)
        others = any(move.kind not in EXCHANGES for move in moves)  # (else all are kept)
        for move in kept:
            if move.kind in EXCHANGES and others:
                after = game.copy_state(state)
                game.play(after, seat, move)
                assert KIT.worth(after, seat) > base, move
                seen += 1
        state, _ = game.apply(state, seat, greedy.choose(game, state, seat, rng))
    assert seen > 0  # (the check ran)
