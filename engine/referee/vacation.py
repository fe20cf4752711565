"""Vacations: a player stops every clock of theirs for some days, within a yearly allowance.

``/settings vacation days:N`` (``Referee.start_vacation``) stops the player's clocks in every
timed game from now until N days later: their bank does not run down, no reminder is sent, they
cannot run out of time nor be skipped, and a skipped seat of theirs does not move towards its
forfeit. Untimed games have no clocks and are not touched. ``end_vacation`` ends it early; the
days not begun are given back to the allowance.

How: a vacation is one more pause of the player's clocks beside their quiet hours (clock.py's
``Pauses``): every clock function already skips pauses when it computes the time used, the
deadline, the reminders and the forfeit, so a vacation needs no timer of its own. Its start and
its early end go through the timekeeping's ``change_pauses`` (running clocks charged up to now
under the old pauses, then re-armed under the new), exactly as a change of quiet hours does.
It is stored (``VacationStore``), so it outlives a restart, and the downtime credit after an
outage skips it like any other pause (the outage is not charged twice, nor the vacation).
A running clock restarts at the start of each vacation, so only the latest vacation can still
pause it: that one is all the clocks read.

The allowance: ``days_per_year`` (30 by default, the ``VACATION_DAYS_PER_YEAR`` setting) days
over any 365 days, counted by the days begun of the vacations taken in the last 365 days.

    status = await referee.start_vacation("alice", 7)   # status.until, status.days_left
    await referee.end_vacation("alice")                  # back early
"""

from __future__ import annotations

import math

import msgspec

from engine.core import GameError
from engine.i18n import tr, tr_n

from .clock import DAY, Vacation
from .tables import Tables
from .timekeeping import Timekeeping

DEFAULT_DAYS_PER_YEAR = 30
YEAR = 365 * DAY


class VacationRefused(GameError):
    """A vacation that cannot start or end (no days left, one already under way, none to end)."""


class VacationStatus(msgspec.Struct, frozen=True, kw_only=True):
    """A player's vacation now and what is left of their allowance."""

    vacation: Vacation | None  # under way now; None when not on vacation
    days_left: int  # days of the allowance not yet taken over the last 365 days
    days_per_year: int

    @property
    def until(self) -> float | None:
        return None if self.vacation is None else self.vacation.until


def days_taken(vacation: Vacation) -> int:
    """Every day begun counts (a vacation ended after an hour costs one day)."""
    return math.ceil((vacation.until - vacation.started_at) / DAY - 1e-9)


class Vacations:
    def __init__(self, tables: Tables, timekeeping: Timekeeping, days_per_year: int) -> None:
        self.tables = tables
        self.timekeeping = timekeeping
        self.days_per_year = days_per_year

    async def status(self, user_id: str) -> VacationStatus:
        now = self.tables.clock()
        taken = await self.tables.store.vacations_since(user_id, now - YEAR)
        current = next((vacation for vacation in taken if vacation.covers(now)), None)
        used = sum(days_taken(vacation) for vacation in taken)
        return VacationStatus(
            vacation=current, days_left=max(0, self.days_per_year - used), days_per_year=self.days_per_year
        )

    async def start(self, user_id: str, days: int) -> VacationStatus:
        if days < 1:
            raise VacationRefused(tr("A vacation lasts at least one day."))
        status = await self.status(user_id)
        if status.vacation is not None:
            raise VacationRefused(
                tr("You are already on vacation; end it with `/settings vacation-off` before taking another.")
            )
        if days > status.days_left:
            raise VacationRefused(
                tr_n(
                    "You have {n} vacation day left of {per_year} a year; ask for fewer days.",
                    "You have {n} vacation days left of {per_year} a year; ask for fewer days.",
                    status.days_left,
                    per_year=self.days_per_year,
                )
            )
        now = self.tables.clock()
        vacation = Vacation(started_at=now, until=now + days * DAY)
        await self.timekeeping.change_pauses(
            user_id, lambda: self.tables.store.save_vacation(user_id, vacation)
        )
        return await self.status(user_id)

    async def end(self, user_id: str) -> VacationStatus:
        status = await self.status(user_id)
        if status.vacation is None:
            raise VacationRefused(tr("You are not on vacation."))
        ended = msgspec.structs.replace(status.vacation, until=self.tables.clock())
        await self.timekeeping.change_pauses(user_id, lambda: self.tables.store.save_vacation(user_id, ended))
        return await self.status(user_id)
