"""State and move types of Draft Cider (registry name ``orchard``).

Everything is public except the order of the undrawn deck.
"""

from __future__ import annotations

import msgspec

from engine.core import Rng

from .cards import (
    ALL_CARDS,
    BATCHES,
)

Batches = list[list[int]]  # one player's orchard: eight batches, each in placement order


class Place(msgspec.Struct, frozen=True):
    """The only kind of move: take ``card`` from the pool and append it to ``batch`` (0..7)."""

    card: int
    batch: int


# Every possible move, made once: a Place is frozen, so lists of legal moves (built for every view's
# prompt) can share them instead of allocating a fresh one per card and batch.
PLACES: tuple[tuple[Place, ...], ...] = tuple(tuple(Place(card, batch) for batch in BATCHES) for card in ALL_CARDS)


class OrchardState(msgspec.Struct, kw_only=True):
    players: int
    easy: bool
    first_picker: int  # the seat that picks first in round 1; later rounds pass it on
    current_round: int  # 1-based; stays on the last round once the game is over
    picks_made: int  # picks already made in the current round
    pool: list[int]  # face-up cards, kept sorted (colour, height, sweetness)
    deck: list[int]  # undrawn cards, top first; never shown to anyone
    orchards: list[Batches]  # per seat, eight batches
    rng: Rng
