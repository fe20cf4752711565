"""Figures in Italian, Brazilian Portuguese and Japanese: whole seeded matches, and every text of
the game read at every position (boards, hands, prompts, events, pictures, refusals provoked,
notation and setup errors, the rules and options), with no English left in them.

Card codes and move notation (``7c``, ``pass``, ``kings``) stay as written in every language, as
do the players' names and the Italian card words the community uses (fante, cavallo, re...).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core import BadNotation, SetupError
from engine.games.figures import GAME, setup
from engine.games.figures.cards import DECK
from engine.games.figures.model import PASS, SINGLES, FiguresState, ThreeKings
from engine.i18n import tr, use_language
from tests.games.figures.helpers import position
from tests.i18n import game_texts as shared
from tests.i18n.game_texts import LANGUAGES, assert_no_english, english_left, error

NAMES = ["Alice", "Bob", "Carol", "Dave"]
COMMUNITY_WORDS = ["asso", "fante", "cavallo", "re", "denari", "coppe", "spade", "bastoni", "giro di figure", "Passo"]
NOTATION = ["kings", "pass", "passo", "<card>"]
OPTION_WORDS = ["match_end", "target_score", "number_of_hands", "first_dealer", "individual", "pairs", "target", "hands", "decks", "deck"]
PLAYER_INPUT = ["zz", "Zz", "qwz vvk ppx", "7x", "Z"]  # what players wrote is quoted back as written
ALLOWED = {*NAMES, *DECK, *COMMUNITY_WORDS, *NOTATION, *OPTION_WORDS, *PLAYER_INPUT}
OPTION_SETS = [{}, {"mode": "pairs", "match_end": "hands", "number_of_hands": 3}, {"target_score": 12}]
BAD_INPUTS = ["", "7x", "kings 5c", "kings 5c 6s zz", "qwz vvk ppx", "three kings 1d 2d", "Z"]


def refusals(state: FiguresState) -> Iterator[str]:
    """Every refusal the position gives: each card as a single, a pass, three-kings plays, a seat
    out of turn and a move of another game."""
    for seat in (state.turn, (state.turn + 1) % 4):
        hand = state.hands[seat]
        moves: list[Any] = [SINGLES[card] for card in DECK]
        moves += [PASS, ThreeKings(tuple(hand[:3])) if len(hand) >= 3 else PASS, ThreeKings(("Kd", "Kd", "Kc")), "7c"]
        for move in moves:
            reason = GAME.why_illegal(state, seat, move)
            if reason:
                yield reason


def match_texts(seed: int, options: dict[str, Any], draw_every: int) -> Iterator[str]:
    """Play a seeded match with random moves in the current language; yield every text."""
    state = GAME.new_game(4, seed, options)
    return shared.random_game_texts(GAME, state, NAMES, random.Random(seed), refusals=refusals, draw_every=draw_every, hands_drawn=4)


def targeted_texts() -> Iterator[str]:
    """The refusals and errors a random match seldom reaches, provoked one by one."""
    kings = "Kd Kc Ks 5d 3c 7b 6s 5b"
    beat5 = position({1: kings, 2: "1c 2c"}, turn=1, phase="BEAT", top="5c", owner=4)
    for cards in [("5d", "6s", "7b"), ("3c", "6s", "7b"), ("6s", "5d", "7b"), ("6s", "3c", "7b"), ("Kd", "6s", "6s"),
                  ("Kd", "6s", "3c"), ("Kd", "5d", "5b"), ("Kd", "Kc", "Zz"), ("Kd", "Kc", "1d")]:
        yield GAME.why_illegal(beat5, 0, ThreeKings(cards)) or ""
    yield GAME.why_illegal(beat5, 0, ThreeKings(("Kd", "Kc")))  # type: ignore[arg-type]
    used = position({1: kings, 2: "1c"}, turn=1, kings_used=[1])
    yield GAME.why_illegal(used, 0, ThreeKings(("Kd", "Kc", "Ks"))) or ""
    few = position({1: "Kd Kc 5d 6d", 2: "1c"}, turn=1)
    yield GAME.why_illegal(few, 0, ThreeKings(("Kd", "Kc", "5d"))) or ""
    giro = position({1: "Kd 5d", 2: "Jc 4c", 3: "1b"}, turn=2, phase="GIRO", top="Kb", owner=1, giro_starter=1, giro_left=3)
    yield GAME.why_illegal(giro, 1, ThreeKings(("Jc", "4c", "Kd"))) or ""
    yield GAME.why_illegal(giro, 1, SINGLES["4c"]) or ""
    yield GAME.why_illegal(giro, 1, PASS) or ""
    no_figure = position({1: "Kd 5d", 2: "3c 4c", 3: "1b"}, turn=2, phase="GIRO", top="Kb", owner=1, giro_starter=1, giro_left=2)
    yield GAME.why_illegal(no_figure, 1, SINGLES["4c"]) or ""
    for beat in [position({1: "5d 2d", 2: "1c"}, turn=1, phase="BEAT", top="5c", owner=4),
                 position({1: "5d 6d", 2: "1c"}, turn=1, phase="BEAT", top="5c", owner=4),
                 position({1: "5d 6d", 2: "1c"}, turn=1, phase="OPEN", top="7c", owner=4),
                 position({1: "5d 6d", 2: "1c"}, turn=1)]:
        for move in [SINGLES["5d"], SINGLES["2d"], SINGLES["1c"], PASS]:
            yield GAME.why_illegal(beat, 0, move) or ""
        yield GAME.render_board(GAME.view(beat, None), NAMES)
        yield GAME.render_private(GAME.view(beat, 0), NAMES)
    yield GAME.render_private(GAME.view(used, 0), NAMES)  # kings already used: no kings hint
    yield GAME.render_private(GAME.view(position({1: kings, 2: "1c"}, turn=1), 0), NAMES)  # the kings hint
    yield GAME.render_private(GAME.view(position({1: "", 2: "1c"}, turn=2), 0), NAMES)  # an empty hand
    tie = position({1: "5d", 2: "1c"}, turn=1, passes=2, phase="BEAT", top="4c", owner=2, match_end="hands", number_of_hands=1, hand_number=2)
    yield GAME.render_board(GAME.view(tie, None), NAMES)
    for text in BAD_INPUTS:
        try:
            GAME.parse_move(text)
        except BadNotation as raised:
            yield str(raised)
    for attempt in [
        lambda: GAME.setup(3, 1, {}),
        lambda: setup.read_deck(["1d", "zz"]),
        lambda: setup.read_deck(["1d", "1d"]),
        lambda: setup.stacked_decks({"deck": ["1d"], "decks": [["1d"]]}),
        lambda: setup.stacked_decks({"decks": []}),
        lambda: setup.new_match(1, {"first_dealer": 9}),
    ]:
        yield error(attempt, SetupError)
    yield from (tr(text) for text in (GAME.title, GAME.summary, GAME.notation_help))
    yield from (tr(option.description) for option in GAME.options)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("options", OPTION_SETS)
def test_a_whole_match_reads_without_english(language: str, options: dict[str, Any], drawn: list[str]) -> None:
    with use_language(language):
        texts = list(match_texts(3, options, draw_every=40))
    texts += drawn
    assert len(texts) > 500 and drawn
    assert_no_english(texts, language, ALLOWED)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_and_error_reads_without_english(language: str, drawn: list[str]) -> None:
    with use_language(language):
        texts = [text for text in targeted_texts() if text]
    assert len(texts) > 40
    assert_no_english(texts, language, ALLOWED)


def test_the_detector_sees_english_left_in_a_board(drawn: list[str]) -> None:
    """The same match in English is all English to the detector: the checks above can fail."""
    texts = list(match_texts(3, {}, draw_every=1000))
    for language in LANGUAGES:
        assert english_left(texts, language, ALLOWED)
    with use_language("it"):
        assert not english_left(list(match_texts(3, {}, draw_every=1000)), "it", ALLOWED)


def test_english_is_the_source_and_stays_as_it_was() -> None:
    state = position({1: "5d 6d", 2: "1c"}, turn=1, phase="BEAT", top="5c", owner=4, passes=1)
    board = GAME.render_board(GAME.view(state, None), NAMES)
    assert "Seat  Player          Cards  Total" in board
    assert "Table: 5c (Dave) · BEAT 5 · passes 1" in board
    assert board.endswith("Alice to play. Beat the 5: a higher number card, or a figure to start a giro.")


def test_the_views_are_the_same_for_every_reader() -> None:
    state = position({1: "Kd Kc Ks 5d", 2: "1c"}, turn=1, phase="BEAT", top="4c", owner=4)
    shared.assert_views_alike_in_every_language(GAME, state, (None, 0, 1))
