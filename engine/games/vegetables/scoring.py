"""Scoring of Vege tables, shared by the 3-5 player game (``rules``) and the 2-player game
(``duo.rules``): closing a sequence and completing a family (§6, R20), the cost of a pass with an
empty hand (§5), the start of a turn, and the end of the game with its closure points (§7).

Both states are read through small protocols, so one function serves both variants.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from engine.core import Event
from engine.i18n import tr, tr_n

from .cards import SLOTS, family_name, sorted_cards
from .events import seat_field
from .model import CLOSING_POINTS, CLOSURE_POINTS_PER_SEQUENCE, FAMILY_POINTS, MUST_PASS, OVER, PLAYING
from .words import all_of


class _Scorer(Protocol):
    """What the scoring changes of a player, at any number of players."""

    score: int


class _Table(Protocol):
    """What the scoring of a closure and of the end reads and writes of a game, shared by the
    4-player state and the 2-player ``DuoState`` (both are scored by the functions below)."""

    stacks: dict[str, list[str]]
    phase: str
    went_out: int | None

    @property
    def seats(self) -> Sequence[_Scorer]: ...  # read-only here: each state keeps its own player type


def closed_count(state: _Table) -> int:
    closed = 0
    for stack in state.stacks.values():  # a plain loop: every view asks
        if len(stack) == SLOTS:
            closed += 1
    return closed


def family_complete(state: _Table, family: str) -> bool:
    return all(len(state.stacks[f"{family}{base}"]) == SLOTS for base in range(1, 5))


def sequences_in_play(state: _Table) -> int:
    return len(state.stacks)


def score_closing(state: _Table, seat: int, sequence: str, events: list[Event]) -> None:
    """§6 and R20: +10 for the closure, then +30 when it completes the family."""
    player = state.seats[seat]
    player.score += CLOSING_POINTS
    events.append(
        Event(
            text=tr(
                "{player} closes sequence {sequence} (+{points}).",
                player=seat_field(seat), sequence=sequence, points=CLOSING_POINTS,
            ),  # fmt: skip
            actor=seat,
        )
    )
    family = sequence[0]
    if family_complete(state, family):
        player.score += FAMILY_POINTS
        events.append(
            Event(
                text=tr(
                    "{player} completes the {family} family (+{points}).",
                    player=seat_field(seat), family=family_name(family), points=FAMILY_POINTS,
                ),  # fmt: skip
                actor=seat,
            )
        )


class _Passer(Protocol):
    """What a pass changes of a player, at any number of players."""

    hand: list[str]
    exposed: list[str]
    score: int
    passes: int


def expose_or_pay(player: _Passer, seat: int, events: list[Event], penalty: int, empty: str) -> None:
    """A pass: the hidden hand goes face up, or, with an empty hand, the pass costs ``penalty``
    (``empty``, marked with N_ and worded by each variant, is the event that says so, with
    ``{player}`` and ``{penalty}``)."""
    player.passes += 1
    if player.hand:
        shown = " ".join(sorted_cards(player.hand))
        player.exposed.extend(player.hand)
        player.hand = []
        events.append(
            Event(
                text=tr("{player} cannot play and passes, exposing {cards}.", player=seat_field(seat), cards=shown),
                actor=seat,
            )
        )
    else:
        player.score -= penalty
        events.append(Event(text=tr(empty, player=seat_field(seat), penalty=penalty), actor=seat))


def finish(state: _Table, went_out: int | None, events: list[Event]) -> None:
    """GAME_OVER (§7): closure points to the player who went out, after the move's own points."""
    state.phase = OVER
    state.went_out = went_out
    if went_out is not None:
        open_sequences = sequences_in_play(state) - closed_count(state)
        points = CLOSURE_POINTS_PER_SEQUENCE * open_sequences
        state.seats[went_out].score += points
        events.append(
            Event(
                text=tr_n(
                    "{player} has no cards left and ends the game: {n} sequence not closed (+{points}).",
                    "{player} has no cards left and ends the game: {n} sequences not closed (+{points}).",
                    open_sequences, player=seat_field(went_out), points=points,
                ),  # fmt: skip
                actor=went_out,
            )
        )
    best = max(player.score for player in state.seats)
    winners = [seat_field(index) for index, player in enumerate(state.seats) if player.score == best]
    if len(winners) == 1:
        text = tr("Game over. {winners} wins with {score}.", winners=winners[0], score=best)
    else:
        text = tr("Game over. {winners} share the win with {score}.", winners=all_of(winners), score=best)
    events.append(Event(text=text))


class _TurnSeat(Protocol):
    """What the start of a turn reads and writes of a player."""

    score: int
    pending: list[str]


class _Turns(_Table, Protocol):
    """What the start of a turn reads and writes of a game, at any number of players."""

    turn: int
    plays: int

    @property
    def seats(self) -> Sequence[_TurnSeat]: ...


T = TypeVar("T", bound=_Turns)


def open_turn(
    state: T,
    events: list[Event],
    discard_dead: Callable[[T, int, str, list[Event], bool], None],
    is_out: Callable[[T, int], bool],
    has_play: Callable[[T, int], bool],
) -> None:
    """TURN_START (§4.4; 2-player §6.3): the dead cards asked for earlier are discarded, then the
    player who has nothing left ends the game, else the turn is PLAYING or MUST_PASS. The variant
    says how a dead card goes, when a player is out and when one has a play."""
    seat = state.turn
    player = state.seats[seat]
    for card in list(player.pending):  # a copy: a discard may touch what the player holds
        discard_dead(state, seat, card, events, True)
    player.pending = []
    state.plays = 0
    if is_out(state, seat):
        finish(state, seat, events)
        return
    state.phase = PLAYING if has_play(state, seat) else MUST_PASS


class _Rotation(_Turns, Protocol):
    """What passing the turn on reads and writes of a game, at any number of players."""

    players: int
    valve: int


R = TypeVar("R", bound=_Rotation)


def next_turn(state: R, events: list[Event], begin_turn: Callable[[R, list[Event]], None]) -> None:
    """The turn goes to the next seat (with two players, to the opponent), whose turn the variant's
    ``begin_turn`` opens. A turn with a play restarts the safety valve (§7; 2-player §9)."""
    if state.plays >= 1:
        state.valve = 0
    state.turn = (state.turn + 1) % state.players
    begin_turn(state, events)
