"""Move notation: a card code (``7c``, ``Ks``), ``pass``, or ``kings <c1> <c2> <c3>``."""

from __future__ import annotations

import re

from engine.core import BadNotation

from .cards import normalize_card
from .rules import PASS, SINGLES, FiguresMove, Pass, Single, ThreeKings

CARD_HINT = "A card is its rank (1-7, J, N or K) then its suit (d, c, s or b), like 7c, Nb or Ks."
_PASS_WORDS = {"pass", "passo", "p"}
_KINGS_WORDS = {"kings", "king", "3kings", "threekings", "3k", "re", "trere"}
_SEPARATORS = re.compile(r"[\s,;+/]+")


def parse_card(text: str) -> str:
    card = normalize_card(text)
    if card is None:
        raise BadNotation(f"{text.strip()!r} is not a card. {CARD_HINT}")
    return card


def parse_move(text: str) -> FiguresMove:
    words = [word for word in _SEPARATORS.split(text.strip()) if word]
    if not words:
        raise BadNotation("Write a card (like 7c), pass, or kings <card> <card> <card>.")
    first = words[0].lower()
    if len(words) == 1 and first in _PASS_WORDS:
        return PASS
    # "three kings 5c 6s 7d" and "tre re ..." read like "kings 5c 6s 7d".
    if first in ("three", "tre") and len(words) > 1 and words[1].lower() in _KINGS_WORDS:
        words = words[1:]
        first = words[0].lower()
    if first in _KINGS_WORDS:
        cards = words[1:]
        if len(cards) != 3:
            raise BadNotation(
                f"Three kings discards exactly three cards, in order, e.g. kings 5c 6s 7d "
                f"({len(cards)} given)."
            )
        first_card, second_card, third_card = (parse_card(card) for card in cards)
        return ThreeKings((first_card, second_card, third_card))
    # A card may be written with a space inside it ("K s").
    joined = "".join(words)
    card = normalize_card(joined)
    if card is not None:
        return SINGLES[card]
    raise BadNotation(f"Cannot read {text.strip()!r}. {CARD_HINT} Or write pass, or kings <card> <card> <card>.")


def format_move(move: FiguresMove) -> str:
    if isinstance(move, Single):
        return move.card
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, ThreeKings):
        return "kings " + " ".join(move.cards)
    raise TypeError(f"not a Figures move: {move!r}")
