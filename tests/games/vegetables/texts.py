"""Every text Vege tables shows a player, gathered from whole seeded games (both variants): boards,
private views with their examples, pictures' words, events, the refusals of a set of probe moves
at every position, notation errors, set-up errors and the game's own descriptions.

The language tests (tests/i18n/test_vegetables_language.py) read them in each language; written in
English they must not change (test_english_texts_are_unchanged compares them with a digest).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine.core import BadNotation, SetupError, format_event
from engine.games.vegetables import GAME
from engine.games.vegetables.model import Play, UseTractor

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed")

CONFIGS: tuple[tuple[int, dict[str, Any]], ...] = (
    (4, {}),
    (4, {"expert_jokers": True}),
    (3, {"house_variant": True}),
    (5, {"house_variant": True}),
    (2, {}),
)

# Moves tried by every seat at every position: each legal one is skipped, each other one refused.
PROBES = (
    "pass", "done", "well", "play K1", "play K1 row 9", "play K1 row 1", "play K2 row 4", "play R7",
    "play R7 row 1", "play G5", "play Y20", "play K17", "tractor T1 for R7 then R11",
    "tractor T1 for K1 then K5", "tractor T1 for K1 then K5 row 3", "tractor T1 for R5 then R9 row 2",
    "tractor T6 for G10 then G14", "tractor T9 for Y3 then Y7", "tractor T2 for R18", "discard T1",
    "discard T6", "discard T9", "discard T10", "discard K8", "discard R3", "draw W1", "draw W3 W3",
    "draw W1 W1 W2 W2 W1", "draw K13", "play R3 take G17", "play R2 take G13",
    "tractor T1 for R2 then R6 take G17", "tractor T6 for R2 then R6 take G17",
    "tractor T1 for R6 then R10 take G17",
)  # fmt: skip
# Moves no reader writes, refused all the same (a front end may hand any move over).
ODD_MOVES = (Play("T1"), UseTractor("K3", "R7"), UseTractor("T1", "T2"))

# Texts no move reader accepts, and those only the 2-player reader refuses.
BAD_NOTATION = (
    "", "xyz", "play Z9", "play T11", "play K21", "play K1 row", "discard", "tractor T3", "tractor R3 for R7",
    "tractor T3 for T4", "tractor T3 for R17 then R21", "tractor T3 for R7 then R15", "play", "play T3",
    "tractor T3 for R20 then R24", "tractor T3 for R19 then R23", "draw", "play R3 take", "play R3 take T1",
    "play R3 row 1 take G17", "well take G17", "play R3 take G17 G18", "draw W4", "draw X1", 12,
)  # fmt: skip

SETUPS: tuple[tuple[int, dict[str, Any]], ...] = (
    (1, {}),
    (6, {}),
    (2, {"expert_jokers": True}),
    (2, {"expert_jokers": True, "house_variant": True}),
    (3, {"expert_jokers": True}),
    (5, {"expert_jokers": True, "house_variant": True}),
    (3, {}),
    (5, {}),
    (3, {"house_variant": True, "deck": ["G1", "R1", "Y1"]}),
    (3, {"house_variant": True, "deck": ["T8"]}),
    (4, {"deck": ["T9"]}),
    (4, {"deck": ["Q1"]}),
    (4, {"deck": ["K1", "K1"]}),
    (2, {"deck": ["T1"]}),
    (2, {"deck": ["K1", "K1"]}),
)


def _picture_words(draw: Any, *args: Any) -> list[str]:
    """Every text a drawing writes: its lines (Canvas.write) and the bands of its cards."""
    from engine.games.vegetables import draw as draw_module
    from engine.pictures import canvas

    written: list[str] = []
    original_write = canvas.Canvas.write
    original_card = draw_module.labelled_card

    def write(self: Any, x: float, y: float, text: str, *rest: Any, **keywords: Any) -> None:
        written.append(text)
        original_write(self, x, y, text, *rest, **keywords)

    def card(main: str, band: str, *rest: Any) -> Any:
        written.append(band)
        return original_card(main, band, *rest)

    canvas.Canvas.write = write  # type: ignore[method-assign]
    draw_module.labelled_card = card  # type: ignore[assignment]
    try:
        draw(*args)
    finally:
        canvas.Canvas.write = original_write  # type: ignore[method-assign]
        draw_module.labelled_card = original_card  # type: ignore[assignment]
    return written


def descriptions() -> Iterator[tuple[str, str]]:
    yield "title", GAME.title
    yield "summary", GAME.summary
    yield "notation_help", GAME.notation_help
    yield "players_note", GAME.players_note
    for option in GAME.options:
        yield f"option {option.name}", option.description


def setup_errors() -> Iterator[tuple[str, str]]:
    for players, options in SETUPS:
        try:
            GAME.new_game(players, 1, options)
        except SetupError as error:
            yield f"setup {players} {options}", str(error)


def notation_errors() -> Iterator[tuple[str, str]]:
    for text in BAD_NOTATION:
        try:
            GAME.parse_move(text)  # type: ignore[arg-type]
        except BadNotation as error:
            yield f"notation {text!r}", str(error)


def game_texts(players: int, options: dict[str, Any], seed: int, *, pictures_every: int = 0) -> Iterator[tuple[str, str]]:
    """The texts of one whole game between greedy seats (random ones for odd seeds)."""
    kind = "greedy" if seed % 2 == 0 else "random"
    ai = GAME.ai_players()[kind]()
    rng = random.Random(seed)
    state = GAME.new_game(players, seed, options)
    names = list(NAMES[:players])
    probes = [GAME.parse_move(text) for text in PROBES] + list(ODD_MOVES)
    step = 0
    while True:
        public = GAME.view(state, None)
        yield "board", GAME.render_board(public, names)
        if pictures_every and step % pictures_every == 0:
            for text in _picture_words(GAME.draw_board, public, names):
                yield "board picture", text
        for seat in range(players):
            private = GAME.view(state, seat)
            yield "private", GAME.render_private(private, names)
            if pictures_every and step % pictures_every == 0:
                for text in _picture_words(GAME.draw_hand, private, names):
                    yield "hand picture", text
            if GAME.is_over(state):
                continue
            for move in probes:
                reason = GAME.why_illegal(state, seat, move)
                if reason is not None:
                    yield f"refusal {GAME.format_move(move)}", reason
        if GAME.is_over(state):
            return
        seat = GAME.to_act(state)[0]
        move = GAME.automatic_move(state, seat) or ai.choose(GAME, state, seat, rng)
        state, events = GAME.apply(state, seat, move)
        for event in events:
            yield "event", format_event(event.text, names)
        step += 1


def all_texts(seeds: tuple[int, ...] = (0, 1), pictures_every: int = 0) -> Iterator[tuple[str, str]]:
    yield from descriptions()
    yield from setup_errors()
    yield from notation_errors()
    for players, options in CONFIGS:
        for seed in seeds:
            yield from game_texts(players, options, seed, pictures_every=pictures_every)
