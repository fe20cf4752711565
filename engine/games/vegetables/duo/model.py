"""Vege tables for two players, the 2-player game Board Game Arena offers: state and move types and
constants. The deal is in ``setup``; legal moves and carrying them out (turns, draws, releases,
scoring) in ``rules``.

The rules are docs/rules/vegetables-2p.md; its section numbers (§) and rulings (R) are cited where a
line exists because of them. What the 2-player game shares with the 4-player one (sequences, the
step of 4, closing and family points, the closure points) is done by the functions of the
parent package's ``rules``.

Where every card lives (§6.1):
- a player's Grounds row (face up), Hand (hidden), exposed cards (face up after a pass) or Tractor
  reserve (``tractors`` available, ``locked`` not yet released);
- a Silo column (``silos``, bottom to top, all face up) or a well (``wells``: W1, W2 face up, W3
  face down until ``revealed``), the last card of a pile being its top, the only free card;
- a stack on the board, or the discard pile.
Rows are fixed by family (K, G, R, Y: R5) and nobody names one; no cell holds a face-down card.
"""

from __future__ import annotations

import msgspec

from ..cards import (
    FOLLOWING,
)
from ..model import Move

TWO = "two"  # the ``variant`` of a 2-player state
MUST_DRAW = "must_draw"
GROUNDS = 8
HAND_DEAL = 12
MAY_DRAW_BELOW = 12  # §4.2: a draw brings the Hand to 8 or 12
MUST_DRAW_BELOW = 8
SILO_COLUMNS = 4
WELLS = ("W1", "W2", "W3")
TRACTORS_P1 = ("T1", "T2", "T3", "T4", "T5")
TRACTORS_P2 = ("T6", "T7", "T8", "T9", "T10")
RELEASE_AT = (4, 8)  # used Grounds at which two more Tractors become available (§5.1, R10)
VALVE_TURNS = 2  # §9: two turns in a row ending in a pass with no draw end the game
EMPTY_PASS_PENALTY = 50


# ----- moves of their own (§11); the others are the 4-player moves --------------------------------


class PlayGround(msgspec.Struct, frozen=True):
    """M1: play a Ground from the Grounds row and take the free Silo card ``take`` (§3.2)."""

    card: str
    take: str


class TractorGround(msgspec.Struct, frozen=True):
    """M3 as a base: a Tractor stands for the Ground ``replaced``, its next card follows, and the
    mover takes the free Silo card ``take``."""

    tractor: str
    replaced: str
    take: str

    @property
    def following(self) -> str | None:
        return FOLLOWING.get(self.replaced)


class Draw(msgspec.Struct, frozen=True):
    """A1: cards taken one at a time from the wells, in pick order. Each pick is a card (the free
    top of a well when taken) or a pile name W1-W3 (its free top then)."""

    picks: tuple[str, ...]


DuoMove = Move | PlayGround | TractorGround | Draw


# ----- state --------------------------------------------------------------------------------------


class DuoPlayer(msgspec.Struct, kw_only=True):
    grounds: list[str] = []  # face up, not yet played
    hand: list[str] = []  # hidden: the owner only
    exposed: list[str] = []  # face up after a pass, still the player's cards
    tractors: list[str] = []  # available (usable) Tractors of the reserve, in id order
    locked: list[str] = []  # not released yet (public)
    used_grounds: int = 0  # Grounds that left the row: played as a base, or discarded dead (R10)
    released: int = 0  # release steps done (0, 1, 2)
    score: int = 0
    passes: int = 0
    pending: list[str] = []  # dead cards asked to be discarded off turn (secret until applied)


class DuoState(msgspec.Struct, kw_only=True):
    players: int = 2
    variant: str = TWO
    silos: list[list[str]]  # S1-S4, bottom to top
    wells: list[list[str]]  # W1, W2, W3, bottom to top
    revealed: bool = False  # W3 face up (§4.1, R4)
    stacks: dict[str, list[str]]  # sequence -> cards in slot order
    seats: list[DuoPlayer]
    dead: list[str]  # announced in order; their holder is public too (R11)
    discard: list[str]
    turn: int
    phase: str  # PLAYING, MUST_PASS, MUST_DRAW or OVER
    plays: int = 0  # plays made in the current turn
    valve: int = 0  # consecutive turns ending in a pass with no draw (§9)
    went_out: int | None = None
