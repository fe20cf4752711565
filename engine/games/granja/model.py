"""The plain data of a Granja game: state, farms, pending choices and moves.

Everything here is a msgspec Struct, so a state survives JSON unchanged and copies cheaply.
The behaviour lives in ``rules.py`` and the modules it builds on; this module says what is stored
and how it reads (with the market's geometry and the small helpers that write the log).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from engine.core import Event, Rng

from . import terms
from .cards import CARDS
from .config import (
    CONFIG,
    EXTENSION_ICONS,
    HEX_DIRECTIONS,
    MARKET,
)

# Phases that wait for moves (automatic steps run inside the move that completes the step before).
F1_PLAY = "F1"  # secret, simultaneous card plays
F3_PROMPT = "F3"  # simultaneous private harvest prompt (Greengrocer, Flexible field)
F4_ROOFS = "F4"
R2_PICK = "R2"
R3_PICK = "R3"
R4_SHARED = "R4"
T1_DONKEY = "T1"  # secret, simultaneous
T4_DELIVER = "T4"
T5_EXTRA = "T5"
END_WINDOW = "END"
OVER = "OVER"

SEQUENTIAL_PHASES = (F4_ROOFS, R2_PICK, R3_PICK, R4_SHARED, T4_DELIVER, T5_EXTRA, END_WINDOW)
PICK_PHASES = (R2_PICK, R3_PICK)  # each seat takes a die of its own in turn order (1.10)
DICE_PHASES = (*PICK_PHASES, R4_SHARED)  # then the last die is shared
POSITIONS = ("field", "barrow", "helper", "ext")


# The icons each card shows when it is played as an extension.
ICONS_BY_CARD: dict[str, frozenset[str]] = {card_id: EXTENSION_ICONS[card.extension] for card_id, card in CARDS.items()}


class Move(msgspec.Struct, frozen=True):
    """Every decision is one ``kind`` and a few text arguments; see notation.py for the words."""

    kind: str
    args: tuple[str, ...] = ()


class Field(msgspec.Struct):
    card: str
    crop: bool = False  # holds its printed crop


class Barrow(msgspec.Struct):
    card: str
    covered: list[bool]  # one flag per printed symbol


class Helper(msgspec.Struct):
    card: str
    used: bool = False  # usage marker of a once-per-round helper


class Roof(msgspec.Struct):
    id: str
    used: bool = False  # face down for good


class Farm(msgspec.Struct, kw_only=True):
    silver: int
    vp: int
    goods: dict[str, int]  # stores GR OL GP FD WN MT, pigsty PG, trade-good space TG
    fields: list[Field] = []
    barrows: list[Barrow] = []
    helpers: list[Helper] = []
    extensions: list[str] = []
    roofs: list[Roof] = []
    buildings: list[int] = []  # building markers, in the order gained
    hand: list[str] = []  # private
    donkeys: list[str] = []  # the donkey marker revealed in each finished T1, by round
    sold: bool = False  # has sold something this round (Haggler, H15, watches the first sale)

    # ----- values derived from the extensions (1.2) -----

    def icon_count(self, icon: str) -> int:
        # A plain loop over a card -> icons table: every farm view asks this three times.
        count = 0
        for card in self.extensions:
            if icon in ICONS_BY_CARD[card]:
                count += 1
        return count

    @property
    def hand_limit(self) -> int:
        return CONFIG.base_hand_limit + len(self.extensions)

    @property
    def extra_delivery_limit(self) -> int:
        return CONFIG.base_extra_deliveries + self.icon_count("delivery")

    @property
    def income(self) -> int:
        return CONFIG.base_income + self.icon_count("income")

    @property
    def pig_capacity(self) -> int:
        return CONFIG.pigsty_size * (CONFIG.base_pigsties + self.icon_count("pigsty"))

    @property
    def free_pig_spaces(self) -> int:
        return max(0, self.pig_capacity - self.goods["PG"])

    # ----- helpers -----

    def helpers_of(self, kind: str) -> list[Helper]:
        return [helper for helper in self.helpers if CARDS[helper.card].helper == kind]

    def unused_helper(self, kind: str) -> Helper | None:
        return next((helper for helper in self.helpers_of(kind) if not helper.used), None)

    def passive(self, kind: str) -> set[str]:
        """Parameters of a passive helper type on the farm; copies with equal parameters count once."""
        return {CARDS[helper.card].param for helper in self.helpers_of(kind)}

    def has(self, kind: str) -> bool:
        for helper in self.helpers:  # a loop that stops at the first: move lists ask this often
            if CARDS[helper.card].helper == kind:
                return True
        return False

    # ----- fields -----

    def field_crop(self, crop: str) -> Field | None:
        """The first field of this crop holding its crop (all such fields are alike)."""
        for field in self.fields:  # a plain loop: move lists ask this for every crop source
            if field.crop and CARDS[field.card].field == crop:
                return field
        return None

    def empty_fields(self, crop: str | None = None) -> list[Field]:
        return [
            field for field in self.fields if not field.crop and (crop is None or CARDS[field.card].field == crop)
        ]


class CardPlay(msgspec.Struct, frozen=True):
    """One card play: the card, its position, the card it replaces and the extension payment."""

    card: str
    position: str
    discard: str = ""
    payment: tuple[str, ...] = ()


class SeatChoice(msgspec.Struct, kw_only=True):
    """A seat's answers in the simultaneous steps; shown only to that seat until revealed."""

    plays: list[CardPlay] = []  # F1 commitment
    donkey: str = ""  # T1 marker
    push: int = 0  # T1: Siesta push helpers declared
    resource: str = ""  # F3: Greengrocer resource
    flex: list[str] = []  # F3: Flexible field declarations "GR>OL"
    waiting: bool = False  # must still answer the current simultaneous step (F3, T1)


class Task(msgspec.Struct, kw_only=True):
    """A choice that arose while resolving something; the seat answers it before anything else.

    kind: play, discard, pay, upgrade, deliver, gain, market, die (see effects.task_moves).
    """

    kind: str
    items: list[str] = []
    count: int = 0
    optional: bool = False
    secret: bool = False  # part of a hidden F1 commitment: recorded, not carried out


class BuildingState(msgspec.Struct, kw_only=True):
    rows: list[list[bool]]  # per seat: covered symbols of its delivery row
    finishers: list[int] = []  # seats with a marker on the ownership hex, first finisher first
    hex_vp: bool = True  # the first finisher's VP token is still there
    order_marker: int = 0  # 1..3 while blocked, 0 when open


class GranjaState(msgspec.Struct, kw_only=True):
    players: int
    round: int
    phase: str
    order: list[int]  # seats in turn order (turn-order marker 1 first)
    turn: int  # index of the active seat in the current sequential phase's order
    acted: bool  # the active seat has finished its turn's action (remaining tasks aside)
    budget: int  # T4 deliveries left / T5 extra deliveries left for the active seat
    farms: list[Farm]
    choices: list[SeatChoice]
    tasks: list[list[Task]]  # per seat, a stack: the last task is answered first
    deck: list[str]
    discard: list[str]
    roofs_future: list[list[str]]  # kept roofs of each round, hidden until their round
    roofs_offer: list[str]  # face-up roofs of the current round, not yet bought
    buildings: list[BuildingState]
    market: list[int]  # owner seat per hex (index = hex number - 1), -1 when empty
    siesta_space: list[int]
    siesta_stamp: list[int]  # larger = higher in the stack on its space
    siesta_clock: int
    dice: list[int]
    start_player: int
    rng: Rng
    # R2-R4: the active seat has taken (R2, R3) or used (R4) its die. Its window stays open until
    # ``done``, so a helper or card the die brought can be used in the same step (1.12.3, 3.1, 3.4).
    die_used: bool = False


Events = list[Event]

# A MessagePack round trip is a deep copy of plain msgspec data; the encoder and decoders are
# made once (the search copies a state some hundred thousand times a game, and a ready decoder
# copies in about two thirds of the time ``msgspec.msgpack.decode(..., type=...)`` takes).
_ENCODER = msgspec.msgpack.Encoder()
_STATE_DECODER = msgspec.msgpack.Decoder(GranjaState)
_FARM_DECODER = msgspec.msgpack.Decoder(Farm)


def copy_state(state: GranjaState) -> GranjaState:
    """A deep copy: nothing the rules change in place is shared."""
    return _STATE_DECODER.decode(_ENCODER.encode(state))


def state_copier(state: GranjaState) -> Callable[[], GranjaState]:
    """Deep copies of ``state`` as it is now, encoded once: for trying several moves on one state."""
    data = _ENCODER.encode(state)
    return lambda: _STATE_DECODER.decode(data)


def copy_farm(farm: Farm) -> Farm:
    return _FARM_DECODER.decode(_ENCODER.encode(farm))

DONE = Move("done")
PASS = Move("pass")
BACK = Move("back")

# ----- small utilities ------------------------------------------------------------------------------


def say(events: Events, text: str, actor: int | None = None, visible_to: Sequence[int] | None = None) -> None:
    events.append(Event(text=text, actor=actor, visible_to=None if visible_to is None else tuple(visible_to)))


def p(seat: int) -> str:
    return f"{{p{seat}}}"


def good_name(token: str) -> str:
    """A good in a sentence, in the reader's language (``GR@field``: "grain from a field")."""
    return terms.good_name(token)


HEXES_FOR_FOUR = len(MARKET)
HEXES_FOR_FEWER = sum(1 for spec in MARKET if not spec.four_players_only)


def hexes_in_play(players: int) -> int:
    """The outer hexes come last in the map and exist only with four players (Ruling 15)."""
    return HEXES_FOR_FOUR if players >= 4 else HEXES_FOR_FEWER


HEX_INDEX = {(spec.q, spec.r): index for index, spec in enumerate(MARKET)}
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        HEX_INDEX[spec.q + dq, spec.r + dr] for dq, dr in HEX_DIRECTIONS if (spec.q + dq, spec.r + dr) in HEX_INDEX
    )
    for spec in MARKET
)


def neighbours(state: GranjaState, hex_index: int) -> list[int]:
    limit = hexes_in_play(state.players)
    return [other for other in NEIGHBOURS[hex_index] if other < limit]


def hex_id(index: int) -> str:
    return MARKET[index].id


def roof_round(roof_id: str) -> int:
    return CONFIG.roofs[roof_id][0]
