"""The Italian 40-card deck as Figures uses it: codes, values and display order.

A card is its two-character code: rank then suit. Ranks 1-7 are number cards; J (fante),
N (cavallo) and K (re) are figures. Suits: d (denari), c (coppe), s (spade), b (bastoni).
"""

from __future__ import annotations

SUITS = "dcsb"
NUMBER_RANKS = "1234567"
FIGURE_RANKS = "JNK"
RANKS = NUMBER_RANKS + FIGURE_RANKS

# A fresh deck in a fixed order (the shuffle works on a copy of it).
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
CARD_SET = frozenset(DECK)

# Value of a number card (1-7). Figures get 0: they are never compared with anything.
VALUE: dict[str, int] = {card: (int(card[0]) if card[0] in NUMBER_RANKS else 0) for card in DECK}
FIGURES = frozenset(card for card in DECK if card[0] in FIGURE_RANKS)
KINGS = frozenset(card for card in DECK if card[0] == "K")

SUIT_NAMES = {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"}
RANK_NAMES = {
    "1": "asso", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7",
    "J": "fante", "N": "cavallo", "K": "re",
}

# Sort key for showing a hand: number cards low to high, then fante, cavallo, re; suits in deck order.
SORT_KEY: dict[str, int] = {card: RANKS.index(card[0]) * 4 + SUITS.index(card[1]) for card in DECK}


def is_figure(card: str) -> bool:
    return card in FIGURES


def card_name(card: str) -> str:
    """The Italian name, e.g. ``cavallo di bastoni``."""
    return f"{RANK_NAMES[card[0]]} di {SUIT_NAMES[card[1]]}"


def sorted_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=SORT_KEY.__getitem__)


# Accepted spellings of a rank, besides the canonical one: asso as A, and the Italian initials
# F (fante), C (cavallo) and R (re) for people who think in Italian.
_RANK_ALIASES = {"A": "1", "F": "J", "C": "N", "R": "K", "Q": "N"}


def normalize_card(text: str) -> str | None:
    """The canonical code for a card written loosely (``kd``, ``K d``, ``Fc``), or None."""
    compact = "".join(text.split())
    if len(compact) != 2:
        return None
    rank = compact[0].upper()
    rank = _RANK_ALIASES.get(rank, rank)
    suit = compact[1].lower()
    code = rank + suit
    return code if code in CARD_SET else None
