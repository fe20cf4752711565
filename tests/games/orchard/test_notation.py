"""Move and card notation: canonical forms, round trips, accepted variations and helpful errors."""

from __future__ import annotations

import pytest

from engine.core import BadNotation
from engine.games.orchard import GAME, Place
from engine.games.orchard.cards import ALL_CARDS, BATCH_IDS, CODE, COLOUR, COLOURS, HEIGHT, SWEETNESS
from engine.games.orchard.notation import format_card, parse_card

from .support import card


def test_card_codes_follow_the_spec_shape():
    assert format_card(card("Gold h2 s5")) == "Gold-h2-s5"
    assert CODE[0] == "Green-h1-s1" and CODE[74] == "Red-h5-s5"


@pytest.mark.parametrize("code", CODE)
def test_every_card_code_round_trips(code):
    assert CODE[parse_card(code)] == code


def test_every_move_round_trips():
    for c in ALL_CARDS:
        for batch in range(8):
            move = Place(c, batch)
            assert GAME.parse_move(GAME.format_move(move)) == move


def test_move_canonical_form():
    assert GAME.format_move(Place(card("Gold h2 s5"), 0)) == "Gold-h2-s5 mono"
    assert GAME.format_move(Place(card("Red h1 s1"), 7)) == "Red-h1-s1 bad"


@pytest.mark.parametrize(
    "text",
    [
        "Gold-h2-s5 mono",
        "gold-h2-s5 MONO",
        "  Gold h2 s5   mono ",
        "Gold 2 5 mono",
        "Gold-2-5 mono",
        "go25 mono",
        "Go2/5 mono",
        "Gold s5 h2 mono",
        "mono Gold-h2-s5",
        "Gold h2 s5 -> mono",
        "Gold-h2-s5 in monochrome",
        "gold height 2 sweetness 5 into the mono batch",
        "Gold h2 s5 1",
        "Gold 2 5 1",
        "Gold 5 h2 mono",  # a bare number fills whichever value the prefixes left open
        "Gold s5 2 mono",
        "Gold 5 h2 1",
    ],
)
def test_parse_accepts_variations(text):
    assert GAME.parse_move(text) == Place(card("Gold h2 s5"), 0)


@pytest.mark.parametrize(
    ("text", "batch_id"),
    [
        ("Red-h1-s3 apples of a feather", "feather"),
        ("Red-h1-s3 special colour tree", "special"),
        ("Red-h1-s3 tree", "special"),
        ("Red-h1-s3 Unlucky", "unlucky"),
        ("Red-h1-s3 fortepiano height", "forte"),
        ("Red-h1-s3 sweet couple", "sweet"),
        ("Red-h1-s3 constant height", "const"),
        ("Red-h1-s3 bad batch", "bad"),
        ("Red-h1-s3 8", "bad"),
        ("r13 5", "forte"),
        ("gr 1 3 sweet", "sweet"),
    ],
)
def test_parse_accepts_batch_names_and_numbers(text, batch_id):
    parsed = GAME.parse_move(text)
    assert BATCH_IDS[parsed.batch] == batch_id
    assert parsed.card in (card("Red h1 s3"), card("Green h1 s3"))


@pytest.mark.parametrize("card_id", ALL_CARDS)
def test_the_old_compact_form_still_reads_as_an_alias(card_id):
    # The board used to write cards as Go25; moves typed that way are still understood.
    compact = f"{COLOURS[COLOUR[card_id]][:2]}{HEIGHT[card_id]}{SWEETNESS[card_id]}"
    assert parse_card(compact) == card_id
    assert GAME.parse_move(f"{compact} mono") == Place(card_id, 0)


def test_parse_card_refuses_a_batch():
    with pytest.raises(BadNotation):
        parse_card("Gold-h2-s5 mono")


def test_notation_help_examples_parse():
    for example in ("Gold-h2-s5 mono", "Red-h1-s3 const", "green 5 5 special", "go25 in unlucky", "Red h4 s4 -> bad"):
        assert example.split()[0].lower() in GAME.notation_help.lower()
        GAME.parse_move(example)
