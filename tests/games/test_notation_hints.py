"""Text that is no move gets a hint, in every game: ``parse_move`` raises BadNotation and its message,
shown to the player, says what to write instead (one table per game, one check for all)."""

from __future__ import annotations

import pytest

from engine.core import BadNotation, Game
from engine.games.figures import GAME as FIGURES
from engine.games.orchard import GAME as ORCHARD
from engine.games.vegetables import GAME as VEGETABLES

FIGURES_HINTS = [
    ("", "Write a card"),
    ("8c", "rank"),
    ("Kx", "suit"),
    ("play the king", "Cannot read"),
    ("kings Kd Kc", "exactly three cards"),
    ("kings Kd Kc Ks 1d", "exactly three cards"),
    ("kings Kd Kc 9s", "not a card"),
    ("kings K d K c", "exactly three cards"),
    ("5c 6s", "Cannot read"),
    ("5c 6s 7d 1d", "Cannot read"),
    ("!", "Write a card"),
]

ORCHARD_HINTS = [
    ("", "for example Gold-h2-s5 mono"),
    ("Gold-h2-s5", "Say which batch"),
    ("h2 s5 mono", "colour"),
    ("Gold h2 mono", "height and sweetness"),
    ("Purple-h2-s5 mono", "cannot read 'purple'"),
    ("Gold-h6-s5 mono", "height runs from 1 to 5"),
    ("Gold-h2-s0 mono", "sweetness runs from 1 to 5"),
    ("Gold Red 2 5 mono", "two colours"),
    ("Gold 2 5 mono bad", "two batches"),
    ("g25 mono", "Green or Gold"),
    ("Gold 2 5 9", "Too many numbers"),
    ("Gold h2 h3 s5 mono", "height twice"),
]

VEGETABLES_HINTS = [
    ("", "Moves:"),
    ("play", "Name the card"),
    ("play X7", "not a card"),
    ("play R21", "no card R21"),
    ("play R0", "no card R0"),
    ("play T3", "tractor T3 for R7 then R11"),
    ("T11", "no Tractor T11"),
    ("tractor T3 for R7 then R15", "After a Tractor for R7 comes R11"),
    ("tractor T3 for R20 then R24", "no card R24"),
    ("tractor T3 for R18 then R22", "no card R22"),
    ("tractor R3 for R7", "not a Tractor"),
    ("tractor T3 for T4", "stands for a numbered card"),
    ("tractor T3", "tractor T3 for R7 then R11"),
    ("discard", "Name the card to discard"),
    ("play K1 row", "row as a number"),
    ("hello there", "not a card"),
]


@pytest.mark.parametrize(
    ("game", "text", "hint"),
    [
        *[pytest.param(FIGURES, text, hint, id=f"figures-{text}") for text, hint in FIGURES_HINTS],
        *[pytest.param(ORCHARD, text, hint, id=f"orchard-{text}") for text, hint in ORCHARD_HINTS],
        *[pytest.param(VEGETABLES, text, hint, id=f"vegetables-{text}") for text, hint in VEGETABLES_HINTS],
    ],
)
def test_unreadable_text_gets_a_hint(game: Game, text: str, hint: str) -> None:
    with pytest.raises(BadNotation, match=hint):
        game.parse_move(text)
