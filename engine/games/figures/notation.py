"""Move notation: a card code (``7c``, ``Ks``), ``pass``, or ``kings <c1> <c2> <c3>``."""

from __future__ import annotations

import re

from engine.core import BadNotation
from engine.core.text import quote
from engine.i18n import tr, tr_n

from .cards import normalize_card
from .model import PASS, SINGLES, FiguresMove, Pass, Single, ThreeKings

_PASS_WORDS = {"pass", "passo", "p"}
_KINGS_WORDS = {"kings", "king", "3kings", "threekings", "3k", "re", "trere"}
_KINGS_PREFIXES = {"three", "tre", "3"}
_SEPARATORS = re.compile(r"[\s,;:+/]+")
_TRAILING_PUNCTUATION = ".!"


def parse_card(text: str) -> str:
    card = normalize_card(text)
    if card is None:
        raise BadNotation(
            tr(
                "{text} is not a card. A card is its rank (1-7, J, N or K) then its suit (d, c, s or b), like 7c, Nb or Ks.",
                text=quote(text.strip()),
            )
        )
    return card


def _three_cards(words: list[str]) -> list[str] | None:
    """The words as three card codes, also when cards are written with a space inside ("K d")."""
    if len(words) != 3:
        joined = "".join(words)
        if len(joined) != 6:
            return None
        words = [joined[index : index + 2] for index in (0, 2, 4)]
    cards = [card for card in (normalize_card(word) for word in words) if card is not None]
    return cards if len(cards) == 3 else None


def parse_move(text: str) -> FiguresMove:
    cleaned = text.strip().rstrip(_TRAILING_PUNCTUATION)
    words = [word for word in _SEPARATORS.split(cleaned) if word]
    if not words:
        raise BadNotation(tr("Write a card (like 7c), pass, or kings <card> <card> <card>."))
    first = words[0].lower()
    if len(words) == 1 and first in _PASS_WORDS:
        return PASS
    # "three kings 5c 6s 7d", "3 kings ..." and "tre re ..." read like "kings 5c 6s 7d".
    if first in _KINGS_PREFIXES and len(words) > 1 and words[1].lower() in _KINGS_WORDS:
        words = words[1:]
        first = words[0].lower()
    if first in _KINGS_WORDS:
        given = words[1:]
        cards = _three_cards(given)
        if cards is None:
            if len(given) == 3:  # three words, one of them not a card: say which
                cards = [parse_card(word) for word in given]
            else:
                raise BadNotation(
                    tr_n(
                        "Three kings discards exactly three cards, in order, e.g. kings 5c 6s 7d ({n} given).",
                        "Three kings discards exactly three cards, in order, e.g. kings 5c 6s 7d ({n} given).",
                        len(given),
                    )
                )
        return ThreeKings((cards[0], cards[1], cards[2]))
    # A card may be written with a space inside it ("K s").
    card = normalize_card("".join(words))
    if card is not None:
        return SINGLES[card]
    # Three cards and nothing else can only mean a three-kings play.
    if len(words) == 3:
        cards = _three_cards(words)
        if cards is not None:
            return ThreeKings((cards[0], cards[1], cards[2]))
    raise BadNotation(
        tr(
            "Cannot read {text}. A card is its rank (1-7, J, N or K) then its suit (d, c, s or b), like 7c, "
            "Nb or Ks. Or write pass, or kings <card> <card> <card>.",
            text=quote(text.strip()),
        )
    )


def format_move(move: FiguresMove) -> str:
    if isinstance(move, Single):
        return move.card
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, ThreeKings):
        return "kings " + " ".join(move.cards)
    raise TypeError(f"not a Figures move: {move!r}")
