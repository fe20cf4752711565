"""When each seat must next be looked at, and the time an outage gives back: pure functions of a
seat, its speed and its player's quiet hours (no store, no cache), shared by the table cache
(a table still owed downtime is credited when first loaded), the timekeeping and the batch
credit at start-up.

A seat is *due* (``Seat.next_due_at``, indexed by the store) when its clock needs a look: a
reminder, the flag fall, a held "you ran out" notice, or, for a skipped seat, the forfeit a further
full bank after it was skipped.
"""

from __future__ import annotations

import math

from . import clock as clocks
from .clock import Hours, Speed, get_speed, pauses_of
from .model import Seat, TimedSeat


def next_due(seat: Seat, speed: Speed, quiet: Hours) -> float | None:
    """When the clock task must look at this seat next (None: never, as things stand)."""
    if seat.forfeited or not speed.timed:
        return None
    if seat.absent:
        held = seat.clock.notice_at if seat.clock is not None else None
        return min(forfeit_at(seat, speed, quiet), held or math.inf)
    if seat.clock is None:
        return None
    return clocks.next_check(seat.clock, speed, quiet)


def forfeit_at(seat: Seat, speed: Speed, quiet: Hours) -> float:
    """A skipped seat that stays away a further full bank is forfeited."""
    assert seat.absent_since is not None and speed.bank is not None
    return clocks.time_after(seat.absent_since, speed.bank, quiet, speed.quiet_pauses)


def credit_seat(seat: Seat, speed: Speed, hours: Hours, since: float, until: float) -> bool:
    """Give one seat back the time between ``since`` and ``until`` (its clock, and the wait of
    a skipped seat before it forfeits), in place; True if anything stored changed."""
    before = (seat.clock, seat.absent_since, seat.next_due_at)
    if seat.clock is not None and seat.clock.running:
        seat.clock = clocks.settle(seat.clock, since, until, speed, hours)
    if seat.absent_since is not None and not seat.forfeited:
        seat.absent_since += max(0.0, until - max(seat.absent_since, since))
    seat.next_due_at = next_due(seat, speed, hours)
    return (seat.clock, seat.absent_since, seat.next_due_at) != before


def credit_timed_seats(seats: list[TimedSeat], since: float, until: float) -> list[TimedSeat]:
    """The seats whose clocks changed once credited the time between ``since`` and ``until``
    (pure: runs in a worker thread)."""
    return [
        timed
        for timed in seats
        if credit_seat(timed.seat, get_speed(timed.speed), pauses_of(timed.quiet, timed.vacation), since, until)
    ]
