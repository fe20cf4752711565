"""Shared by the tests that read a game's texts in every language: what is left in English (the
shared detector, and for Japanese any Latin word not allowed). The texts pictures draw are
caught by the ``drawn`` fixture (conftest.py)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any

from engine.games import get_game
from engine.i18n import use_language
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
def error(attempt: Callable[[], object], kind: type[Exception]) -> str:
    """The text of the error ``attempt`` raises (it must raise one of ``kind``)."""
    try:
        attempt()
    except kind as raised:
        return str(raised)
    raise AssertionError("no error")


def random_game_texts(
    game: Any,
    state: Any,
    names: list[str],
    rng: random.Random,
    *,
    refusals: Callable[[Any], Iterable[str]],
    draw_every: int,
    hands_drawn: int,
) -> Iterator[str]:
    """Play ``state`` to its end, the first seat to act making a random legal move, in the current
    language; yield every text: the board, each private view and the position's ``refusals`` at
    each step, and the events. Every ``draw_every`` steps and at the end the board and the first
    ``hands_drawn`` hands are drawn (the ``drawn`` fixture reads them)."""
    step = 0
    while True:
        view = game.view(state, None)
        seat_views = [game.view(state, seat) for seat in range(len(names))]
        yield game.render_board(view, names)
        yield from (game.render_private(seat_view, names) for seat_view in seat_views)
        yield from refusals(state)
        if step % draw_every == 0 or game.is_over(state):
            game.draw_board(view, names)
            for seat_view in seat_views[:hands_drawn]:
                game.draw_hand(seat_view, names)
        if game.is_over(state):
            return
        seat = game.to_act(state)[0]
        state, events = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        yield from (event.text for event in events)
        step += 1


def assert_views_alike_in_every_language(game: Any, state: Any, seats: Iterable[int | None]) -> None:
    """Views are fingerprinted and shared between readers: no text in them follows the language
    (the boards and pictures made from them do)."""
    seats = list(seats)
    english = [game.view(state, seat) for seat in seats]
    for language in LANGUAGES:
        with use_language(language):
            assert [game.view(state, seat) for seat in seats] == english
