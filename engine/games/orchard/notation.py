"""Text notation of cards and moves.

A card's canonical code is ``Gold-h2-s5`` (colour, height, sweetness); a move is a card code and a
batch id: ``Gold-h2-s5 mono``. Reading is forgiving: any case, any separators, ``h``/``s`` prefixes
or bare numbers (height first), short colours (``gr``, ``go``, ``r``), the compact form the board
once used (``Go25``, still read as an alias), batch names or numbers 1 to 8, and filler words
such as ``in`` or ``->``.
"""

from __future__ import annotations

import re

from engine.core import BadNotation
from engine.core.text import quote
from engine.i18n import tr

from .cards import (
    BATCH_IDS,
    CODE,
    CONST,
    FEATHER,
    FORTE,
    GOLD,
    GREEN,
    MONO,
    RED,
    SPECIAL,
    SWEET,
    UNLUCKY,
    make_card,
)
from .model import Place

EXAMPLE = "Gold-h2-s5 mono"
BATCH_LIST = ", ".join(BATCH_IDS)

COLOUR_WORDS: dict[str, int] = {
    "green": GREEN, "gree": GREEN, "gre": GREEN, "gr": GREEN, "gn": GREEN,
    "gold": GOLD, "gol": GOLD, "go": GOLD, "gd": GOLD,
    "red": RED, "re": RED, "r": RED, "rd": RED,
}  # fmt: skip
BATCH_WORDS: dict[str, int] = {batch_id: batch for batch, batch_id in enumerate(BATCH_IDS)} | {
    "monochrome": MONO, "monochromatic": MONO,
    "feathers": FEATHER,
    "tree": SPECIAL,
    "fortepiano": FORTE, "piano": FORTE,
    "couple": SWEET,
    "constant": CONST,
    "unluck": UNLUCKY,
}  # fmt: skip
# Words of the long batch names and linking words that carry no meaning of their own.
FILLER = {"in", "into", "to", "on", "onto", "batch", "apples", "apple", "of", "a", "the", "colour", "color", "height"}
HEIGHT_PREFIXES = {"h", "height", "ht"}
SWEETNESS_PREFIXES = {"s", "sweetness", "sw"}

_TOKEN = re.compile(r"[a-z]+|\d+")


def format_card(card: int) -> str:
    return CODE[card]


def format_move(move: Place) -> str:
    return f"{CODE[move.card]} {BATCH_IDS[move.batch]}"


def parse_card(text: str) -> int:
    """Read one card code; raises BadNotation with a hint."""
    card, batch = _read(text, want_batch=False)
    return card


def parse_move(text: str) -> Place:
    card, batch = _read(text, want_batch=True)
    assert batch is not None
    return Place(card, batch)


def _write(want_batch: bool) -> str:
    """What to write instead, as a whole sentence."""
    if want_batch:
        return tr("Write a pool card and a batch, for example {example}.", example=EXAMPLE)
    return tr("Write a card, for example {example}.", example="Gold-h2-s5")


def _given_twice(text: str, slot: str, want_batch: bool) -> str:
    quoted = quote(text)
    if slot == "height":
        if want_batch:
            return tr("{text} gives the height twice; write a pool card and a batch, for example {example}.", text=quoted, example=EXAMPLE)
        return tr("{text} gives the height twice; write a card, for example {example}.", text=quoted, example="Gold-h2-s5")
    if want_batch:
        return tr("{text} gives the sweetness twice; write a pool card and a batch, for example {example}.", text=quoted, example=EXAMPLE)
    return tr("{text} gives the sweetness twice; write a card, for example {example}.", text=quoted, example="Gold-h2-s5")


def _read(text: str, *, want_batch: bool) -> tuple[int, int | None]:
    example = EXAMPLE if want_batch else "Gold-h2-s5"
    tokens = _TOKEN.findall(str(text).lower())
    if not tokens:
        raise BadNotation(_write(want_batch))
    colour: int | None = None
    values: dict[str, int] = {}  # "height", "sweetness"
    batch: int | None = None
    bare: list[str] = []  # numbers without an h or s prefix, in order
    index = 0

    def put(slot: str, value: int) -> None:
        if slot in values:
            raise BadNotation(_given_twice(text, slot, want_batch))
        if not 1 <= value <= 5:
            if slot == "height":
                raise BadNotation(tr("A height runs from 1 to 5, not {value}.", value=value))
            raise BadNotation(tr("A sweetness runs from 1 to 5, not {value}.", value=value))
        values[slot] = value

    while index < len(tokens):
        token = tokens[index]
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        index += 1
        if token.isdigit():
            bare.append(token)  # read once the h/s-prefixed values are known
        elif following.isdigit() and token in HEIGHT_PREFIXES:
            put("height", int(tokens[index]))
            index += 1
        elif following.isdigit() and token in SWEETNESS_PREFIXES:
            put("sweetness", int(tokens[index]))
            index += 1
        elif token in COLOUR_WORDS:
            if colour is not None and colour != COLOUR_WORDS[token]:
                raise BadNotation(tr("{text} names two colours; a card is Green, Gold or Red.", text=quote(text)))
            colour = COLOUR_WORDS[token]
        elif want_batch and token in BATCH_WORDS:
            if batch is not None and batch != BATCH_WORDS[token]:
                raise BadNotation(tr("{text} names two batches; choose one of {batches}.", text=quote(text), batches=BATCH_LIST))
            batch = BATCH_WORDS[token]
        elif token in FILLER:
            continue
        elif token == "g":
            raise BadNotation(tr("G could be Green or Gold; write gr or go (or the full colour)."))
        else:
            if want_batch:
                raise BadNotation(
                    tr(
                        "I cannot read {token} in {text}; write a pool card and a batch, for example {example}. "
                        "Batches: {batches}.",
                        token=quote(token),
                        text=quote(text),
                        example=example,
                        batches=BATCH_LIST,
                    )
                )
            raise BadNotation(
                tr(
                    "I cannot read {token} in {text}; write a card, for example {example}.",
                    token=quote(token),
                    text=quote(text),
                    example=example,
                )
            )
    for position, token in enumerate(bare):
        if position == 0 and len(token) == 2 and not values:
            # The compact form the board once showed: height digit then sweetness digit (Go25).
            put("height", int(token[0]))
            put("sweetness", int(token[1]))
        elif "height" not in values:
            put("height", int(token))
        elif "sweetness" not in values:
            put("sweetness", int(token))
        elif want_batch and batch is None and 1 <= int(token) <= 8:
            batch = int(token) - 1
        else:
            if want_batch:
                raise BadNotation(
                    tr("Too many numbers in {text}; write a pool card and a batch, for example {example}.", text=quote(text), example=example)
                )
            raise BadNotation(tr("Too many numbers in {text}; write a card, for example {example}.", text=quote(text), example=example))
    if colour is None:
        raise BadNotation(tr("Name the card's colour (Green, Gold or Red), for example {example}.", example=example))
    if "height" not in values or "sweetness" not in values:
        raise BadNotation(tr("Give the card's height and sweetness, for example {example}.", example=example))
    if want_batch and batch is None:
        raise BadNotation(tr("Say which batch the card goes in ({batches}), for example {example}.", batches=BATCH_LIST, example=example))
    return make_card(colour, values["height"], values["sweetness"]), batch
