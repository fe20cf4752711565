"""Vege tables speaks the reader's language: whole seeded games of both variants (and a few built
positions) read in Italian, Brazilian Portuguese and Japanese leave no English word outside names
and notation, and every message of the game package is shown along the way.

The texts are gathered by tests/games/vegetables/texts.py: boards, private views, prompts,
examples, pictures' words, events, the refusals of probe moves at every position, notation and
set-up errors, and the game's descriptions.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from babel.messages.pofile import read_po

import engine.i18n.translate as translate
from engine.games.vegetables import GAME
from engine.i18n import use_language
from tests.games.vegetables.texts import NAMES, _picture_words, all_texts
from tools import messages

try:  # the project's detector, once it is on main
    from tests.i18n.english import english_fragments  # type: ignore[import-not-found]
except ImportError:  # a stand-in with its signature

    def english_fragments(text: str, language: str, allowed: set[str]) -> list[str]:
        """The words of ``text`` that are English words of the game's messages, outside
        ``allowed`` and the words the language spells the same; in Japanese, any Latin word."""
        found = []
        for word in _WORD.findall(text):
            folded = word.lower()
            if word in allowed or folded in allowed or len(word) == 1:
                continue
            if language == "ja" or (folded in _english_words() and folded not in _SHARED.get(language, set())):
                found.append(word)
        return found


# Latin words (accented letters included): in Japanese text the Latin ones are what is looked for.
_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+(?:['_][A-Za-z\u00c0-\u024f]+)*")
_CODE = re.compile(r"^(?:[KGRY]\d{1,2}|T\d{1,2}|[WSH]\d)$")

# Notation, option names and values, the names of the game and of Board Game Arena, the path of the
# 2-player rules, the players' names, and what the probes quote back ('xyz').
ALLOWED = {
    *NAMES, "play", "row", "tractor", "for", "then", "discard", "well", "done", "pass", "take", "draw",
    "expert_jokers", "house_variant", "true", "deck", "Expert", "Vege", "tables", "Board", "Game", "Arena",
    "docs", "rules", "vegetables", "md", "xyz",
}  # fmt: skip
# Words of the game's English messages that are words of the language too.
_SHARED = {
    "it": {"a", "e", "in", "base", "per", "silo", "silos"},
    "pt_BR": {"a", "as", "base", "bases", "do", "e", "no", "passes", "pts", "use", "silo", "silos"},
}
# Messages no position reaches: defensive texts for moves that an earlier check always refuses
# first (a card whose place is filled is dead or on the field; a dead card never fits after a
# Tractor; the last "not possible now"), a well or a set of wells that cannot be empty when read,
# and a stacked card of the family the 3-player deal removes (the removed family is never one the
# stacked deck names).
UNREACHED = {
    ("vegetables", "none"),
    ("vegetables", "nothing"),
    (None, "Deck option: {card} is out of the game (its family was removed)."),
    (None, "That Tractor move is not possible now."),
    (None, "The place of {card} in sequence {sequence} is already filled; it needs {needed} next."),
    (None, "{card} is already dead."),
    (None, "{card} is dead and cannot follow the Tractor."),
    (None, "{move} is not possible now."),
}
LANGUAGES = ("it", "pt_BR", "ja")


@cache
def _english_words() -> frozenset[str]:
    """Every word of the game's English messages."""
    words: set[str] = set()
    for message in _game_messages():
        for text in message[1]:
            words.update(word.lower() for word in _WORD.findall(re.sub(r"\{\w+\}", " ", text)))
    return frozenset(words)


@cache
def _game_messages() -> tuple[tuple[tuple[str | None, str], tuple[str, ...]], ...]:
    """The messages of the game package: (context, id) and its English forms."""
    with messages.TEMPLATE.open("rb") as source:
        template = read_po(source)
    found = []
    for message in template:
        if message.id and any("engine/games/vegetables/" in where for where, _ in message.locations):
            forms = tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)
            found.append(((message.context, forms[0]), forms))
    return tuple(found)


class _Recorder:
    """A language's catalogue that notes every message asked of it."""

    asked: set[tuple[str | None, str]] = set()

    def __init__(self, code: str) -> None:
        self.inner = _ORIGINAL(code)

    def gettext(self, message: str) -> str:
        self.asked.add((None, message))
        return self.inner.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self.asked.add((None, singular))
        return self.inner.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        self.asked.add((context, message))
        return self.inner.pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        self.asked.add((context, singular))
        return self.inner.npgettext(context, singular, plural, n)


_ORIGINAL = translate._translations


@pytest.fixture(scope="module")
def shown() -> dict[str, dict[str, str]]:
    """Each language's distinct texts (with where one was read) from the same games, the
    messages asked for meanwhile noted by ``_Recorder``."""
    texts: dict[str, dict[str, str]] = {}
    translate._translations = _Recorder  # type: ignore[assignment]
    try:
        for language in LANGUAGES:
            with use_language(language):
                texts[language] = {text: where for where, text in all_texts(seeds=(0, 1), pictures_every=15)}
    finally:
        translate._translations = _ORIGINAL
    return texts


def _allowed(text: str) -> set[str]:
    return ALLOWED | {word for word in _WORD.findall(text) if _CODE.match(word)}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_is_left_in_a_whole_game(shown: dict[str, dict[str, str]], language: str) -> None:
    problems = []
    for text, where in shown[language].items():
        fragments = english_fragments(text, language, _allowed(text))
        if fragments:
            problems.append(f"{where}: {fragments} in {text!r}")
    assert not problems, f"{len(problems)} texts with English words:\n" + "\n".join(problems[:15])


def test_every_message_of_the_game_is_shown(shown: dict[str, dict[str, str]]) -> None:
    """The texts gathered cover the game: each of its messages is asked for at least once (but the
    ones no position reaches, listed above with why)."""
    asked = _Recorder.asked
    wanted = {key for key, _ in _game_messages()}
    assert UNREACHED <= wanted, "a message listed as unreached is no longer a message of the game"
    missing = sorted(wanted - asked - UNREACHED, key=str)
    assert not missing, f"{len(missing)} messages never shown:\n" + "\n".join(map(str, missing))
    assert not UNREACHED & asked, f"now shown, take them off UNREACHED: {sorted(UNREACHED & asked, key=str)}"


def test_the_detector_finds_english() -> None:
    assert english_fragments("Turno: Ada - Gioca almeno una carta.", "it", {"Ada"}) == []
    assert "more" in english_fragments("Turno: Ada - play more cards.", "it", {"Ada", "play"})
    assert english_fragments("手番: Ada - play R7", "ja", {"Ada", "play", "R7"}) == []
    assert english_fragments("あなたの手番 hidden", "ja", set()) == ["hidden"]


@pytest.mark.parametrize("players", [4, 2])
def test_a_view_made_in_another_language_is_shown_in_the_readers(players: int) -> None:
    """Boards and hands are worded from the view when shown: a view made in English (a cached
    snapshot, a picture worker's) reads in Japanese to a Japanese reader, prompts included."""
    state = GAME.new_game(players, 3, {})
    player = GAME.ai_players()["greedy"]()
    rng = random.Random(3)
    for _ in range(12):
        seat = state.turn
        state, _ = GAME.apply(state, seat, GAME.automatic_move(state, seat) or player.choose(GAME, state, seat, rng))
    names = list(NAMES[:players])
    with use_language("en"):
        views = [GAME.view(state, None), *(GAME.view(state, seat) for seat in range(players))]
    with use_language("ja"):
        texts = [GAME.render_board(views[0], names), *(GAME.render_private(view, names) for view in views[1:])]
        texts += _picture_words(GAME.draw_board, views[0], names)
        for view in views[1:]:
            texts += _picture_words(GAME.draw_hand, view, names)
    problems = [(text, found) for text in texts if (found := english_fragments(text, "ja", _allowed(text)))]
    assert not problems, problems[:3]
