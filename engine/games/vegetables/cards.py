"""The cards of Vege tables: four families numbered 1-20 and the Tractor jokers.

A card is identified everywhere by its code: family letter and number (``R7``, ``K20``) or ``T``
and a number for a Tractor (``T3``). The tables below answer every question the rules ask about a
code (family, number, sequence, slot, back colour) by dictionary look-up, which keeps the legality
checks fast.
"""

from __future__ import annotations

from engine.i18n import tr_ctx

FAMILIES: tuple[str, ...] = ("K", "G", "R", "Y")
FAMILY_NAMES: dict[str, str] = {"K": "Black", "G": "Green", "R": "Red", "Y": "Yellow"}


def family_name(family: str) -> str:
    """A family's name in the reader's language (the colour of its numbers: ``R`` -> "Red")."""
    # Translators: the four families of Vege tables, named by the colour of their numbers.
    names = {
        "K": tr_ctx("vegetables", "Black"),
        "G": tr_ctx("vegetables", "Green"),
        "R": tr_ctx("vegetables", "Red"),
        "Y": tr_ctx("vegetables", "Yellow"),
    }
    return names[family]


def tractor_name() -> str:
    """The joker's name, as a label ("Tractor")."""
    return tr_ctx("vegetables", "Tractor")

NUMBERS = range(1, 21)
SLOTS = 5  # base (1-4), then 5-8, 9-12, 13-16 and the closing 17-20
TRACTOR = "T"

# The Tractors of each configuration: the 4-player game has 8, the 3-player house variant drops
# two, the 5-player house variant adds the boxed extra; the 2-player game uses all ten of the box.
TRACTORS_OFFICIAL: tuple[str, ...] = tuple(f"T{n}" for n in range(1, 9))
TRACTORS_H3: tuple[str, ...] = TRACTORS_OFFICIAL[:6]
TRACTORS_H5: tuple[str, ...] = tuple(f"T{n}" for n in range(1, 10))
TRACTORS_TWO: tuple[str, ...] = tuple(f"T{n}" for n in range(1, 11))
ALL_TRACTORS = TRACTORS_TWO

NUMBERED: tuple[str, ...] = tuple(f"{family}{number}" for family in FAMILIES for number in NUMBERS)

FAMILY: dict[str, str] = {code: code[0] for code in NUMBERED}
NUMBER: dict[str, int] = {code: int(code[1:]) for code in NUMBERED}
# A numbered card belongs to the sequence named after its base: R11 -> R3 (3, 7, 11, 15, 19).
SEQUENCE: dict[str, str] = {code: f"{code[0]}{(NUMBER[code] - 1) % 4 + 1}" for code in NUMBERED}
SLOT: dict[str, int] = {code: (NUMBER[code] + 3) // 4 for code in NUMBERED}
# The card one slot higher in the same sequence (None for the closing cards 17-20).
FOLLOWING: dict[str, str | None] = {
    code: (f"{code[0]}{NUMBER[code] + 4}" if NUMBER[code] <= 16 else None) for code in NUMBERED
}
PRECEDING: dict[str, str | None] = {
    code: (f"{code[0]}{NUMBER[code] - 4}" if NUMBER[code] > 4 else None) for code in NUMBERED
}

# Sequences are named by their base card; the n-th slot of sequence c·b holds c·(b + 4(n-1)).
SEQUENCES: tuple[str, ...] = tuple(f"{family}{base}" for family in FAMILIES for base in range(1, 5))


def sequence_card(sequence: str, slot: int) -> str:
    """The numbered card that belongs in ``slot`` (1-5) of ``sequence`` (``R3``, 2 -> ``R7``)."""
    return f"{sequence[0]}{int(sequence[1:]) + 4 * (slot - 1)}"


def column_of(sequence: str) -> int:
    """0-based field column of a sequence: fixed by its base number."""
    return int(sequence[1:]) - 1


def is_tractor(code: str) -> bool:
    return code[0] == TRACTOR


def back_of(code: str) -> str:
    """The colour of a card's back, which splits the deck into the three dealing piles."""
    if is_tractor(code):
        return "green"
    number = NUMBER[code]
    if number <= 4:
        return "red"
    if number <= 12:
        return "white"
    return "green"


def sort_key(code: str) -> tuple[int, int]:
    """Family order K, G, R, Y then number; Tractors last."""
    if is_tractor(code):
        return (len(FAMILIES), int(code[1:]))
    return (FAMILIES.index(code[0]), NUMBER[code])


SORT_KEY: dict[str, tuple[int, int]] = {code: sort_key(code) for code in NUMBERED + ALL_TRACTORS}


def sorted_cards(codes: list[str]) -> list[str]:
    return sorted(codes, key=SORT_KEY.__getitem__)


def cards_in_play(families: tuple[str, ...] | list[str], tractors: tuple[str, ...]) -> list[str]:
    """Every card of a configuration: the numbered cards of its families plus its Tractors."""
    return [code for code in NUMBERED if code[0] in families] + list(tractors)
