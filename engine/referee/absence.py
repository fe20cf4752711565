"""Absent players: who may skip a seat that ran out of time, when the referee skips it itself,
and which seats an AI plays (with ``referee_step``: the move the referee makes itself next).

A seat that ran out of time may be skipped by another person still playing their own seat (the
Skip button). When nobody is left to press it (one person with AI seats, or every other person
away already), the referee skips the seat itself, at the flag fall: recorded as a skip, so the
"away a further full bank" forfeit starts, and announced like one.

An AI plays a skipped seat only while some person still plays their own: then the game goes on
for them. When every person is away, the game waits instead, on the first skipped seat to act,
until its player comes back (by playing: their moves are offered as usual) or forfeits; from a
forfeit on, an AI plays the seat to the end. So a game with one person and AI seats ends by the
clock a full bank after its player ran out, and not a moment earlier.

The "you ran out" notice to a player in their quiet hours is held (``SeatClock.notice_at``) and
delivered when they end, whether or not the seat was skipped meanwhile.
"""

from __future__ import annotations

from typing import Any

from engine.core import Game
from engine.i18n import tr

from .clock import format_duration
from .model import Seat, Table
from .reports import Reminder, TableLinks


def skippers(table: Table, index: int) -> list[str]:
    """The users who may skip seat ``index`` once it ran out: the other people playing their own seats."""
    return [
        other.user_id
        for other in table.seats
        if other.user_id is not None and other.index != index and not other.plays_by_ai and not other.forfeited
    ]


def someone_present(table: Table) -> bool:
    """Whether a person still plays their own seat (not an AI seat, not skipped, not forfeited)."""
    return any(not seat.is_ai and not seat.absent and not seat.forfeited for seat in table.seats)


def ai_plays(table: Table, index: int) -> bool:
    """Whether the referee has an AI play this seat now: an AI seat, a forfeited seat, or a skipped
    seat while someone still plays (when every person is away, the game waits for them)."""
    seat = table.seats[index]
    if seat.is_ai or seat.forfeited:
        return True
    return seat.absent and someone_present(table)


# A move the referee makes itself: (seat, move, by_ai); the move is None until an AI chooses it.
Step = tuple[int, Any, bool]


def referee_step(game: Game[Any, Any], state: Any, table: Table) -> Step | None:
    """What the referee must play itself next, in the order it plays: the first seat to act that
    an AI plays (an AI seat, or a skipped one) or that has an automatic move; None when the game
    is over or a human must decide."""
    if game.is_over(state):
        return None
    for index in game.to_act(state):
        if ai_plays(table, index):
            return (index, None, True)
        automatic = game.automatic_move(state, index)
        if automatic is not None:
            return (index, automatic, False)
    return None


def must_skip(table: Table, seat: Seat) -> bool:
    """Whether the referee skips this seat itself: its flag fell, it still plays its own seat, and
    no other person may press Skip."""
    clock = seat.clock
    return (
        clock is not None
        and clock.running
        and clock.ran_out
        and not seat.plays_by_ai
        and not seat.forfeited
        and not skippers(table, seat.index)
    )


def due_at_once(table: Table, now: float) -> None:
    """Make every seat the referee must skip due ``now`` (in place): a skip, or a player's return
    that found the table waiting, can leave a seat that ran out with nobody to skip it."""
    for seat in table.seats:
        if must_skip(table, seat):
            seat.next_due_at = now


def skip_line(seat: Seat, table: Table, *, by_referee: bool, bank: float) -> str:
    """The public line announcing a skip (``table`` as it is after the skip)."""
    name = seat.name
    if seat.forfeited:
        return tr(
            "{name} ran out of time again and was skipped: {name} forfeits, and an AI plays the seat to the end.",
            name=name,
        )
    if someone_present(table):
        if by_referee:
            return tr(
                "{name} ran out of time and nobody else can skip the seat, so the referee skipped it: "
                "an AI plays for {name} until they come back.",
                name=name,
            )
        return tr("{name} ran out of time and was skipped: an AI plays for {name} until they come back.", name=name)
    bank_text = format_duration(bank)
    if by_referee:
        # Translators: "I'm back" is the label of a button.
        return tr(
            "{name} ran out of time and nobody else can skip the seat, so the referee skipped it: the game waits "
            "for {name} to come back (play a move, or press I'm back) for a further full bank ({bank}), then "
            "{name} forfeits.",
            name=name,
            bank=bank_text,
        )
    return tr(
        "{name} ran out of time and was skipped: the game waits for {name} to come back (play a move, or press "
        "I'm back) for a further full bank ({bank}), then {name} forfeits.",
        name=name,
        bank=bank_text,
    )


def take_held_notice(seat: Seat, links: TableLinks, rungs: int, now: float) -> Reminder | None:
    """The "you ran out" notice held back by quiet hours, once they ended (cleared from the seat's
    clock, in place: it goes once); None when nothing is held or it is not due yet. ``rungs``:
    the speed's number of reminder rungs (the notice counts as the one after them)."""
    clock = seat.clock
    if clock is None or clock.notice_at is None or clock.notice_at > now:
        return None
    held, clock.notice_at = clock.notice_at, None
    if seat.user_id is None or seat.forfeited:
        return None
    return Reminder.of(
        links,
        seat,
        remaining=0.0,
        deadline=held,
        rung=rungs + 1,
        final=True,
        ran_out=True,
        skipped=seat.absent,
    )
