"""Every registered game's ``parse_move`` on arbitrary input: a move that formats back to itself,
or the game's refusal (BadNotation) with a short message; never any other exception."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import BadNotation, Game
from engine.core.text import MAX_MOVE_CHARS
from engine.games import REGISTRY, get_game

GAMES = sorted(REGISTRY)
LONGEST_REFUSAL = 600  # characters: far below Discord's 2,000, whatever was typed


def sample_moves(game: Game[Any, Any], count: int = 60) -> list[str]:
    """Legal moves in notation from the first turns of a few seeded games: the words each game
    reads, for the fuzzer to recombine."""
    moves: list[str] = []
    rng = random.Random(1)
    for seed in range(3):
        players = max(game.min_players, min(game.max_players, 4))
        state = game.new_game(players, seed, {})
        for _ in range(count // 3):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            move = rng.choice(game.legal_moves(state, seat))
            moves.append(game.format_move(move))
            state, _ = game.apply(state, seat, move)
    return moves


WORDS = {name: sorted({word for move in sample_moves(get_game(name)) for word in move.split()}) for name in GAMES}


def move_texts(name: str) -> st.SearchStrategy[Any]:
    words = st.sampled_from(WORDS[name])
    separators = st.sampled_from([" ", ",", "  ", "\t", "-", "@", "."])
    recombined = st.lists(st.one_of(words, st.text(max_size=4)), min_size=0, max_size=6).flatmap(
        lambda parts: separators.map(lambda separator: separator.join(parts))
    )
    return st.one_of(
        st.text(max_size=MAX_MOVE_CHARS + 20),
        recombined,
        st.text(alphabet=st.characters(codec="utf-8"), min_size=MAX_MOVE_CHARS - 5, max_size=MAX_MOVE_CHARS + 5),
        st.none(),
        st.integers(),
        st.floats(),
        st.binary(max_size=20),
        st.lists(st.text(max_size=5), max_size=3),
    )


def check_parse(game: Game[Any, Any], text: Any) -> None:
    try:
        move = game.parse_move(text)
    except BadNotation as refusal:
        assert 0 < len(str(refusal)) <= LONGEST_REFUSAL
        return
    # Accepted: its canonical notation reads back as the same move.
    assert game.parse_move(game.format_move(move)) == move


@pytest.mark.parametrize("name", GAMES)
def test_parse_move_refuses_anything_unreadable_in_words(name: str) -> None:
    game = get_game(name)

    @given(move_texts(name))
    def run(text: Any) -> None:
        check_parse(game, text)

    run()
