"""Move notation: canonical forms, accepted variations, and hints for unreadable text."""

import pytest

from engine.games.vegetables import GAME
from engine.games.vegetables.model import Discard, Done, Pass, Play, TakeWell, UseTractor

CANONICAL = {
    "play R7": Play("R7"),
    "play K1 row 2": Play("K1", 2),
    "tractor T3 for R7 then R11": UseTractor("T3", "R7"),
    "tractor T3 for R2 then R6 row 1": UseTractor("T3", "R2", 1),
    "tractor T3 for K20": UseTractor("T3", "K20"),  # illegal, but it can be written (and refused)
    "discard T3": Discard("T3"),
    "discard K8": Discard("K8"),
    "well": TakeWell(),
    "done": Done(),
    "pass": Pass(),
}


@pytest.mark.parametrize(("text", "move"), CANONICAL.items())
def test_canonical_forms_round_trip(text, move):
    assert GAME.parse_move(text) == move
    assert GAME.format_move(move) == text


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("PLAY r7", Play("R7")),
        ("  play   K1   row 2 ", Play("K1", 2)),
        ("k1 row2", Play("K1", 2)),
        ("play k1 in row 2", Play("K1", 2)),
        ("R7", Play("R7")),
        ("r 7", Play("R7")),
        ("tractor t3 for r7", UseTractor("T3", "R7")),
        ("t3 for r7 then r11", UseTractor("T3", "R7")),
        ("Tractor T3 as R7 then R11", UseTractor("T3", "R7")),
        ("play T3 for R2 then R6 row 1", UseTractor("T3", "R2", 1)),
        ("tractor T3 for R2 row 1 then R6", UseTractor("T3", "R2", 1)),
        ("joker t1 for k8", UseTractor("T1", "K8")),
        ("Discard t3", Discard("T3")),
        ("drop K8", Discard("K8")),
        ("take the well", TakeWell()),
        ("Take Well", TakeWell()),
        ("I'm done", Done()),
        ("i\u2019m done", Done()),
        ("end turn", Done()),
        ("PASS", Pass()),
    ],
)
def test_variations_are_read(text, move):
    assert GAME.parse_move(text) == move


def test_the_help_text_lists_every_canonical_form():
    for text in CANONICAL:
        if text != "tractor T3 for K20":
            assert text in GAME.notation_help


def test_summary_is_concise():
    lines = GAME.summary.splitlines()
    assert 10 <= len(lines) <= 22


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("done.", Done()),
        ("I'm done!", Done()),
        ("pass.", Pass()),
        ("play R7.", Play("R7")),
        ("use T3 for R7 then R11", UseTractor("T3", "R7")),
        ("use t3 as r2 then r6 row 1", UseTractor("T3", "R2", 1)),
    ],
)
def test_closing_punctuation_and_use_are_read(text, move):
    assert GAME.parse_move(text) == move
