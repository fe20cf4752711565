"""Figures: state and move types, the game's constants and the seats' table order.

Seats: the engine's seats (0-3) are the players in lobby order. Where they sit at the table is
drawn at setup and kept in ``FiguresState.table`` (table position -> seat); every "next player"
follows that table order. Pairs mode always partners seats 0 and 2 against seats 1 and 3, which
keeps partners opposite whatever the draw.
"""

from __future__ import annotations

import msgspec

from engine.core import Rng

from .cards import DECK, FIGURES, VALUE

PLAYERS = 4
HAND_SIZE = 10

# Phases. FREE, OPEN, BEAT and GIRO are what the player on turn faces; OVER means the match ended.
FREE = "FREE"
OPEN = "OPEN"
BEAT = "BEAT"
GIRO = "GIRO"
OVER = "OVER"

INDIVIDUAL = "individual"
PAIRS = "pairs"
BY_TARGET = "target"
BY_HANDS = "hands"

INDIVIDUAL_WINNER_POINTS = 10
INDIVIDUAL_PLACE_POINTS = (5, 3, 1)  # second, third and fourth place
PAIRS_BASE_POINTS = 5
PASSES_TO_CLEAR = 3
GIRO_TURNS = PLAYERS - 1

# ----- moves ------------------------------------------------------------------------------------


class Single(msgspec.Struct, frozen=True):
    """Discard one card."""

    card: str


class Pass(msgspec.Struct, frozen=True):
    """Discard nothing (only when no single is legal)."""


class ThreeKings(msgspec.Struct, frozen=True):
    """The three-kings privilege: three cards discarded in this order in one turn."""

    cards: tuple[str, str, str]


FiguresMove = Single | Pass | ThreeKings

PASS = Pass()
SINGLES: dict[str, Single] = {card: Single(card) for card in DECK}

# ----- what may be played -----------------------------------------------------------------------
# A "bar" summarises what the table demands: 0 means anything goes (FREE or OPEN), v in 1..6 means
# BEAT(v). Against bar v a card is playable when it is a figure or a number card above v.
ALLOWED_OVER_BAR: tuple[frozenset[str], ...] = tuple(
    frozenset(card for card in DECK if card in FIGURES or VALUE[card] > bar) for bar in range(7)
)
# The bar a card leaves behind it: a 1-6 must be beaten; a 7 or a figure leaves the table open.
BAR_AFTER: dict[str, int] = {card: (VALUE[card] if 1 <= VALUE[card] <= 6 else 0) for card in DECK}
NO_CARDS: frozenset[str] = frozenset()

# ----- state ------------------------------------------------------------------------------------


class Entry(msgspec.Struct, frozen=True, array_like=True):
    """One move of the current hand's public history: a card, ``pass`` or a three-kings play."""

    seat: int
    move: str
    clears: bool = False  # this move ended a giro or was the third pass, clearing the table


class HandResult(msgspec.Struct, kw_only=True):
    number: int
    dealer: int
    winner: int
    cards_left: list[int]  # per seat
    points: list[int]  # per seat; in pairs mode both partners show their pair's points
    history: list[Entry] = []  # the hand's public record, kept once the next hand is dealt (2.11)


class FiguresState(msgspec.Struct, kw_only=True):
    mode: str
    match_end: str
    target_score: int
    number_of_hands: int
    rng: Rng
    table: list[int]  # table position (0 = table seat 1) -> seat
    hand_number: int
    dealer: int
    hands: list[list[str]]  # per seat, kept in display order
    phase: str
    turn: int
    top: str | None = None
    owner: int | None = None
    passes: int = 0
    giro_starter: int | None = None
    giro_left: int = 0
    kings_used: list[int] = []
    history: list[Entry] = []
    totals: list[int] = []  # per seat; partners carry the same total
    results: list[HandResult] = []
    decks: list[list[str]] = []  # stacked decks (option decks) for the hands still to be dealt


# ----- seats ------------------------------------------------------------------------------------


def next_seat(state: FiguresState, seat: int) -> int:
    table = state.table
    return table[(table.index(seat) + 1) % PLAYERS]


def partner_of(state: FiguresState, seat: int) -> int:
    table = state.table
    return table[(table.index(seat) + 2) % PLAYERS]


def sides(state: FiguresState) -> list[list[int]]:
    """Who scores together: each seat alone, or the two pairs (the pair at table seats 1 and 3 first)."""
    if state.mode == PAIRS:
        table = state.table
        return [sorted((table[0], table[2])), sorted((table[1], table[3]))]
    return [[seat] for seat in range(PLAYERS)]
