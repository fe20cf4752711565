"""Figures move notation: card codes, pass and three kings; canonical output, forgiving input."""

from __future__ import annotations

import pytest

from engine.games.figures import GAME
from engine.games.figures.cards import DECK
from engine.games.figures.model import PASS, Single, ThreeKings


def test_every_single_round_trips():
    for card in DECK:
        move = Single(card)
        assert GAME.format_move(move) == card
        assert GAME.parse_move(card) == move


def test_pass_and_kings_round_trip():
    kings = ThreeKings(("5c", "Kd", "1s"))
    assert GAME.format_move(kings) == "kings 5c Kd 1s"
    assert GAME.parse_move("kings 5c Kd 1s") == kings
    assert GAME.format_move(PASS) == "pass" and GAME.parse_move("pass") == PASS


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("7C", "7c"),
        ("  ks ", "Ks"),
        ("K s", "Ks"),
        ("nb", "Nb"),
        ("Ad", "1d"),  # asso
        ("Fc", "Jc"),  # fante
        ("Cb", "Nb"),  # cavallo
        ("Rd", "Kd"),  # re
        ("PASS", "pass"),
        ("Passo", "pass"),
        ("KINGS 5C, kd ,1s", "kings 5c Kd 1s"),
        ("three kings 5c 6s 7d", "kings 5c 6s 7d"),
        ("tre re 5c 6s 7d", "kings 5c 6s 7d"),
        ("3 kings 5c 6s 7d", "kings 5c 6s 7d"),
        ("kings: 5c 6s 7d", "kings 5c 6s 7d"),
        ("kings K d K c 1 s", "kings Kd Kc 1s"),  # cards written with a space inside, as for a single
        ("5c 6s 7d", "kings 5c 6s 7d"),  # three cards can only be a three-kings play
        ("Passo!", "pass"),
        ("pass.", "pass"),
        ("Ks.", "Ks"),
    ],
)
def test_reasonable_variations_are_read(text, canonical):
    assert GAME.format_move(GAME.parse_move(text)) == canonical


def test_notation_help_names_every_kind_of_move():
    for example in ("7c", "pass", "kings 5c 6s 7d"):
        assert example in GAME.notation_help
        GAME.parse_move(example)
    assert 10 <= len(GAME.summary.splitlines()) <= 20


def test_summary_names_the_first_player_by_playing_order_not_by_side():
    """1.8: the seat after the dealer leads. At an Italian table play runs anticlockwise, so that
    seat is on the dealer's right; the summary must not name a side."""
    summary = GAME.summary.replace("\n", " ")
    assert "the seat after the dealer leads" in summary
    assert "dealer's left" not in summary and "dealer's right" not in summary
