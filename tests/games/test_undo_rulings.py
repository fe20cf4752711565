"""The undo rulings of each game (issue 20): which moves a player may take back. Only a move that
showed nothing hidden and drew nothing random qualifies; the referee adds "nobody acted since"."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.games import get_game
from engine.games.granja.rules import to_act as granja_to_act
from engine.games.vegetables.model import Play


def random_game_steps(name: str, players: int, seed: int, options: dict[str, Any] | None = None):
    """(before, seat, move, after) for every move of a random game, to its end."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new_game(players, seed, options or {})
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        move = rng.choice(game.legal_moves(state, seat))
        after, _ = game.apply(state, seat, move)
        yield state, seat, move, after
        state = after


def others_see_nothing_new(game, before, after, seat: int, players: int) -> bool:
    return all(game.secret_view(before, s) == game.secret_view(after, s) for s in range(players) if s != seat)


@pytest.mark.parametrize("seed", [1, 2])
def test_no_move_of_figures_can_be_taken_back(seed):
    game = get_game("figures")
    assert not any(game.undoable(*step) for step in random_game_steps("figures", 4, seed))


@pytest.mark.parametrize(("name", "players"), [("orchard", 2), ("orchard", 4), ("vegetables", 4), ("vegetables", 2), ("granja", 2)])
def test_a_move_taken_back_showed_nobody_anything_and_some_can_be(name, players):
    game = get_game(name)
    verdicts: Counter[bool] = Counter()
    for seed in (3, 4):
        for before, seat, move, after in random_game_steps(name, players, seed):
            undoable = game.undoable(before, seat, move, after)
            verdicts[undoable] += 1
            if undoable:
                assert others_see_nothing_new(game, before, after, seat, players), (name, game.format_move(move))
    assert verdicts[True] and verdicts[False], verdicts


def test_draft_cider_a_pick_that_draws_from_the_deck_cannot_be_taken_back():
    game = get_game("orchard")
    drew = kept = 0
    for before, seat, move, after in random_game_steps("orchard", 3, 5):
        if before.deck != after.deck:
            drew += 1
            assert not game.undoable(before, seat, move, after)
        else:
            kept += 1
            assert game.undoable(before, seat, move, after)
    assert drew and kept


@pytest.mark.parametrize("players", [4, 2])
def test_vege_tables_a_card_from_the_hand_cannot_be_taken_back(players):
    game = get_game("vegetables")
    from_hand = 0
    for before, seat, move, after in random_game_steps("vegetables", players, 6):
        if isinstance(move, Play) and move.card in before.seats[seat].hand:
            from_hand += 1
            assert not game.undoable(before, seat, move, after)
    assert from_hand


def test_la_granja_a_simultaneous_answer_cannot_be_taken_back():
    game = get_game("granja")
    simultaneous = 0
    for before, seat, move, after in random_game_steps("granja", 3, 7):
        if len(granja_to_act(before)) > 1:
            simultaneous += 1
            assert not game.undoable(before, seat, move, after)
    assert simultaneous
