"""Shared by the tests that read a game's texts in every language: what is left in English (the
shared detector, and for Japanese any Latin word not allowed). The texts pictures draw are
caught by the ``drawn`` fixture (conftest.py)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from functools import cache

from engine.games import get_game
from tests.i18n.english import english_fragments

LANGUAGES = ("it", "pt_BR", "ja")
_LATIN = re.compile(r"[A-Za-z]{2,}")


def _latin_left(text: str, allowed: frozenset[str]) -> list[str]:
    """Japanese is written without Latin letters: any word in them is English left behind,
    unless it is allowed (a name, a card code, notation, what the player typed)."""
    return [word for word in _LATIN.findall(text) if word.lower() not in allowed]


def english_left(texts: Iterable[str], language: str, allowed: Iterable[str]) -> dict[str, list[str]]:
    """Each text with English left in it, and the words found."""
    allowed = set(allowed)
    allowed_words = frozenset(word.lower() for item in allowed for word in _LATIN.findall(item))
    found = {}
    for text in set(texts):
        fragments = english_fragments(text, language, allowed)
        if language == "ja":
            fragments += _latin_left(text, allowed_words)
        if fragments:
            found[text] = fragments
    return found


def assert_no_english(texts: Iterable[str], language: str, allowed: Iterable[str]) -> None:
    left = english_left([text for text in texts if text], language, allowed)
    assert not left, "\n".join(f"{fragments}: {text!r}" for text, fragments in list(left.items())[:10])


@cache
def notation_words(game_name: str, players: int, seed: int = 3) -> frozenset[str]:
    """Words of a game's move notation (the same in every language), from every legal move of a
    few seeded random games."""
    game = get_game(game_name)
    words: set[str] = set()
    rng = random.Random(seed)
    for deal in range(3):
        state = game.setup(players, seed + deal, game.resolve_options(players, {}))
        for _ in range(2_000):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            moves = game.legal_moves(state, seat)
            for move in moves:
                words.update(re.findall(r"[A-Za-z]+", game.format_move(move)))
            state, _ = game.apply(state, seat, rng.choice(moves))
    return frozenset(words)
