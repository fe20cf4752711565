"""State and move types of Vege tables for 3 to 5 players, and the game's constants.

The rules are docs/rules/vegetables.md; where every card lives is told in
``rules``.
"""

from __future__ import annotations

import msgspec

from engine.core import Rng

from .cards import FOLLOWING

PLAYING, MUST_PASS, OVER = "playing", "must_pass", "over"
OFFICIAL, H3, H5 = "official", "h3", "h5"
COLUMNS = 4
CLOSING_POINTS = 10
FAMILY_POINTS = 30
WELL_POINTS_PER_PLAYER = 10
CLOSURE_POINTS_PER_SEQUENCE = 10
EMPTY_PASS_PENALTY = 50


# ----- moves ------------------------------------------------------------------------------------


class Play(msgspec.Struct, frozen=True):
    """Play a live card: a Farmland from the row (M1) or a sequence card 5-20 (M2).

    ``row`` (1-based, as people count field rows) is named only for the first base of a family
    while more than one row is still free; otherwise the row is determined and left out.
    """

    card: str
    row: int | None = None


class UseTractor(msgspec.Struct, frozen=True):
    """M3: a Tractor stands for ``replaced`` (1-16) and its next card follows at once."""

    tractor: str
    replaced: str
    row: int | None = None  # as for Play, when the Tractor is the first base of a family

    @property
    def following(self) -> str | None:
        return FOLLOWING.get(self.replaced)


class Discard(msgspec.Struct, frozen=True):
    """Discard a Tractor (M4, the turn's play, ends the turn) or a dead card (A3)."""

    card: str


class TakeWell(msgspec.Struct, frozen=True):
    """A1: collect the well (after a play, with fewer hidden cards than the threshold)."""


class Done(msgspec.Struct, frozen=True):
    """A2: end the turn after at least one play (collects the well instead when eligible)."""


class Pass(msgspec.Struct, frozen=True):
    """A4: only when no play is possible at all."""


Move = Play | UseTractor | Discard | TakeWell | Done | Pass


# ----- state ------------------------------------------------------------------------------------


class PlayerState(msgspec.Struct, kw_only=True):
    farmland: list[str] = []  # face up, not yet played
    hand: list[str] = []  # hidden: the owner only
    exposed: list[str] = []  # face up after a pass, still the player's cards
    well: list[str] = []  # face down, seen by nobody until collected
    well_taken: bool = False
    score: int = 0
    passes: int = 0
    pending: list[str] = []  # dead cards asked to be discarded off turn; they leave at the next turn


class VegetablesState(msgspec.Struct, kw_only=True):
    players: int
    variant: str  # OFFICIAL, H3 or H5
    expert_jokers: bool
    families: list[str]  # the families in play, in K, G, R, Y order
    removed_family: str | None  # H3 only
    well_threshold: int  # the hidden count must be below this to take the well
    rows: list[str]  # family of each field row, "" while unassigned
    cells: list[str]  # face-down card of each cell (row * 4 + column), "" once taken
    stacks: dict[str, list[str]]  # sequence -> cards in slot order
    seats: list[PlayerState]
    dead: list[str]  # announced in order; identities are public, holders are not
    discard: list[str]
    removed: list[str]  # cards out of the game (H3)
    deal_start: int  # the seat dealt first (rotated at random in H5, see setup)
    turn: int
    phase: str
    plays: int = 0  # plays made in the current turn
    valve: int = 0  # consecutive turns ending in a pass that collected no well (§7)
    went_out: int | None = None
    rng: Rng
