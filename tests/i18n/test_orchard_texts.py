"""Draft Cider in Italian, Brazilian Portuguese and Japanese: whole seeded games at every player
count, and every text of the game read at every position (boards, choices, prompts, events,
pictures, refusals provoked, notation and setup errors, the rules and options), with no English
left in them.

Card codes (``Gold-h2-s5``), batch ids (``mono``...) and what a player may type stay as written
in every language, as do the players' names.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core import BadNotation, SetupError
from engine.games.orchard import GAME, notation, setup
from engine.games.orchard.cards import BATCH_IDS, CODE
from engine.games.orchard.model import Place
from engine.i18n import tr, use_language
from tests.i18n import game_texts as shared
from tests.i18n.game_texts import LANGUAGES, assert_no_english, english_left, error

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
# What a player types, in every language: the colours of the codes, batch ids and names, fillers.
NOTATION = [
    *CODE, *BATCH_IDS, "Green", "Gold", "Red", "green", "gold", "gr", "go", "Go25", "gold h2 s5", "Gold 2 5",
    "green 5 5", "go25 in unlucky", "Red h4 s4 -> bad", "sweet couple", "constant height", "G", "h", "s", "in",
]
TITLE = ["Draft Cider"]  # the published game's name, kept in Italian and Portuguese
BAD_MOVES = ["qwz", "Gold h2 h3 mono", "Gold s2 s3 mono", "Gold h9 s1 mono", "Gold s1 h7", "Gold Red h1 s1 mono",
             "Gold h1 s1 mono bad", "g h1 s1 mono", "Gold h1 s1 qwz", "Gold 1 2 3 4 5", "h1 s1 mono", "Gold h1 mono",
             "Gold h1 s1"]
BAD_CARDS = ["qwz", "Gold 1 2 3", "Gold h1 h2", "Red s1 s2", "qwz 1 1", "Gold h1 qwz", "Gold h1"]
PLAYER_INPUT = [*BAD_MOVES, *BAD_CARDS]  # what players wrote is quoted back as written
OPTION_WORDS = ["deck"]  # an option's name, typed as it is
ALLOWED = {*NAMES, *NOTATION, *TITLE, *PLAYER_INPUT, *OPTION_WORDS}


def refusals(state: Any) -> Iterator[str]:
    """Every refusal of the position: each pool card in each batch, a card not in the pool, a
    ninth batch, no such card, a seat out of turn, a move of another game."""
    seats = GAME.to_act(state) or (0,)
    seat = seats[0]
    absent = next(card for card in range(len(CODE)) if card not in state.pool)
    moves: list[Any] = [Place(card, batch) for card in state.pool for batch in range(8)]
    moves += [Place(absent, 0), Place(state.pool[0] if state.pool else 0, 9), Place(99, 0), "Gold-h2-s5 mono"]
    for move in moves:
        reason = GAME.why_illegal(state, seat, move)
        if reason:
            yield reason
    if state.players > 1:
        yield GAME.why_illegal(state, (seat + 1) % state.players, Place(absent, 0)) or ""


def game_texts(players: int, seed: int, options: dict[str, Any], draw_every: int) -> Iterator[str]:
    """Play a seeded game with random moves in the current language; yield every text."""
    state = GAME.new_game(players, seed, options)
    return shared.random_game_texts(
        GAME, state, NAMES[:players], random.Random(seed), refusals=refusals, draw_every=draw_every, hands_drawn=2
    )


def errors_and_rules() -> Iterator[str]:
    for text in ["", *BAD_MOVES]:
        yield error(lambda text=text: GAME.parse_move(text), BadNotation)  # type: ignore[misc]
    for text in ["", *BAD_CARDS]:
        yield error(lambda text=text: notation.parse_card(text), BadNotation)  # type: ignore[misc]
    yield error(lambda: GAME.setup(2, 1, {"deck": ["qwz"]}), SetupError)
    yield error(lambda: setup.new_state(2, 1, easy=False, host_first=False, stacked=[3, 3]), SetupError)
    yield from (tr(text) for text in (GAME.title, GAME.summary, GAME.notation_help))
    yield from (tr(option.description) for option in GAME.options)


def check(texts: list[str], language: str) -> None:
    assert_no_english(texts, language, ALLOWED)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("players", "options"), [(1, {"easy": True}), (2, {}), (3, {"first_picker": "host"}), (6, {"easy": True})])
def test_a_whole_game_reads_without_english(language: str, players: int, options: dict[str, Any], drawn: list[str]) -> None:
    with use_language(language):
        texts = list(game_texts(players, 5, options, draw_every=7))
    assert len(texts) > 100 and drawn
    check(texts + drawn, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_of_many_games_and_every_error_reads_without_english(language: str) -> None:
    """More seeds and refusals of every batch rule (a random game meets each of them)."""
    with use_language(language):
        texts = [text for seed in range(6) for text in game_texts(2 + seed % 4, seed, {}, draw_every=10**6)]
        texts += list(errors_and_rules())
    reasons = " ".join(texts)
    for words in {"it": ["Monocromatico", "stessa piuma", "Albero", "fortepiano", "Coppia dolce", "costante"],
                  "pt_BR": ["monocromático", "uma pena", "Árvore", "Fortepiano", "casal doce", "constante"],
                  "ja": ["単色", "同類", "特別", "フォルテ", "甘いカップル", "一定"]}[language]:
        assert words in reasons  # each batch's refusal was met
    check(texts, language)


def test_the_detector_sees_english_left(drawn: list[str]) -> None:
    """The same game in English is all English to the detector: the checks above can fail."""
    texts = list(game_texts(2, 5, {}, draw_every=10**6)) + list(errors_and_rules())
    for language in LANGUAGES:
        assert english_left(texts, language, ALLOWED)


def test_english_is_the_source_and_stays_as_it_was() -> None:
    state = GAME.new_game(2, 5, {"easy": True})
    board = GAME.render_board(GAME.view(state, None), NAMES[:2])
    assert board.startswith("Draft Cider · round 1/4 · pick 1/6 · deck 69 · easy mode\nTo pick: ")
    assert "Pick a pool card and place it in one of your batches, e.g. " in board
    assert board.endswith("Cards: colour-h(height)-s(sweetness).")


def test_the_views_are_the_same_for_every_reader() -> None:
    shared.assert_views_alike_in_every_language(GAME, GAME.new_game(3, 4, {}), (None, 0, 1))


def test_the_plural_of_a_score_follows_its_size_not_its_sign() -> None:
    from engine.games.orchard.render import points_line

    with use_language("pt_BR"):
        assert [points_line("Ann", total) for total in (-12, -1, 1, 2)] == [
            "Ann: -12 pontos", "Ann: -1 ponto", "Ann: 1 ponto", "Ann: 2 pontos",
        ]
    with use_language("it"):
        assert points_line("Ann", -1) == "Ann: -1 punto"
