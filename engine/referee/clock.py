"""Turn clocks: speed presets, quiet hours and the pure arithmetic of each seat's time bank.

Nothing here reads the real time: every function takes ``now`` (seconds since the epoch), so
tests drive clocks by hand and the referee re-arms everything from stored values after a restart.

A seat's clock is a bank of seconds. It runs while the seat is among those that must act (in a
simultaneous phase several clocks run at once), and stops when the seat leaves that set; it then
gains the speed's increment, capped at the starting bank. A turn made of several moves (the seat
stays to act) earns one increment, so nobody can farm time with small moves. For speeds whose
``quiet_pauses`` is set (the daily ones), the clock does not run during the player's quiet hours.

The bank is stored "as of" the instant the clock last started (``running_since``), so the time
left at any moment is computed, never counted down in memory.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock_time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import msgspec

from engine.core.text import quote
from engine.i18n import N_, SOURCE, day, duration, language, tr

MINUTE = 60.0
HOUR = 60 * MINUTE
DAY = 24 * HOUR


class Speed(msgspec.Struct, frozen=True, kw_only=True):
    """A speed preset chosen when a table is created."""

    name: str  # the key used in commands and stored with the table: "daily-2"
    label: str  # shown to people, marked for the catalogue: show it as ``tr(speed.label)``
    bank: float | None  # seconds in each seat's bank at the start, also its cap; None: untimed
    increment: float = 0.0  # seconds added when a seat's turn ends
    rated: bool = False  # whether games at this speed can change ratings
    quiet_pauses: bool = False  # whether a player's quiet hours stop their clock
    # Remind a seat when this fraction of the time it had at the start of its turn is left,
    # largest first ("half time", then "near the end").
    reminders: tuple[float, ...] = ()

    @property
    def timed(self) -> bool:
        return self.bank is not None


def _live(minutes: int, label: str, reminders: tuple[float, ...]) -> Speed:
    """ "Minutes per move": an increment equal to the bank refills it after every turn."""
    return Speed(
        name=f"live-{minutes}",
        label=label,
        bank=minutes * MINUTE,
        increment=minutes * MINUTE,
        rated=True,
        reminders=reminders,
    )


def _daily(name: str, label: str, bank: float, increment: float) -> Speed:
    """A daily speed: rated, paused by the player's quiet hours, reminders at half and a tenth left."""
    return Speed(
        name=name,
        label=label,
        bank=bank,
        increment=increment,
        rated=True,
        quiet_pauses=True,
        reminders=(0.5, 0.1),
    )


UNTIMED = "untimed"

SPEEDS: dict[str, Speed] = {
    speed.name: speed
    for speed in (
        # Translators: the speeds are choices of a slash command: at most 100 characters each.
        Speed(name=UNTIMED, label=N_("Untimed: for friends, unrated"), bank=None),
        _live(3, N_("Live: 3 minutes a move"), reminders=(0.5,)),
        _live(10, N_("Live: 10 minutes a move"), reminders=(0.5, 0.2)),
        # Daily speeds: playing at the advertised pace keeps the bank full; being away for a
        # while eats into it, and it fills again with the increments.
        _daily("daily-1", N_("Daily: about 1 move a day (3-day bank, +1 day a move)"), bank=3 * DAY, increment=DAY),
        _daily(
            "daily-2",
            N_("Daily: about 2 moves a day (36-hour bank, +12 hours a move)"),
            bank=36 * HOUR,
            increment=12 * HOUR,
        ),
        _daily(
            "daily-4",
            N_("Daily: about 4 moves a day (18-hour bank, +6 hours a move)"),
            bank=18 * HOUR,
            increment=6 * HOUR,
        ),
    )
}

# The referee's default keeps callers that know nothing of clocks (the local table, the simulator,
# benchmarks) exactly as they were; a server front end should offer RECOMMENDED_SPEED instead.
DEFAULT_SPEED = UNTIMED
RECOMMENDED_SPEED = "daily-2"


class UnknownSpeed(ValueError):
    pass


def get_speed(name: str) -> Speed:
    speed = SPEEDS.get(name.strip().lower())
    if speed is None:
        raise UnknownSpeed(tr("Unknown speed {name}. Speeds: {speeds}.", name=quote(name), speeds=", ".join(SPEEDS)))
    return speed


# ----- quiet hours ----------------------------------------------------------------------------


class QuietHours(msgspec.Struct, frozen=True, kw_only=True):
    """A player's nightly quiet hours, in their own time zone.

    From ``start_hour`` to ``end_hour`` local time (whole hours, 0-23); a window may cross
    midnight (23 to 7). No reminder is sent during it, and daily clocks do not run.
    """

    time_zone: str  # an IANA name: "Europe/Rome"
    start_hour: int
    end_hour: int

    def check(self) -> QuietHours:
        """Raise ValueError (with a message for the player) unless the settings make sense."""
        try:
            ZoneInfo(self.time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(unknown_zone(self.time_zone)) from None
        for hour in (self.start_hour, self.end_hour):
            if not 0 <= hour <= 23:
                raise ValueError(whole_hours())
        if self.start_hour == self.end_hour:
            raise ValueError(tr("Quiet hours must start and end at different hours."))
        return self


def unknown_zone(value: object) -> str:
    return tr("Unknown time zone {zone}; write it like Europe/Rome.", zone=quote(value))


def whole_hours() -> str:
    return tr("Quiet hours start and end at a whole hour from 0 to 23.")


def _windows_from(quiet: QuietHours, start: float) -> Iterator[tuple[float, float]]:
    """Quiet windows as (begin, end) epoch seconds, in order, endlessly, from the one that may
    contain ``start`` (it begins the local day before). DST shifts are handled by the time zone."""
    zone = ZoneInfo(quiet.time_zone)
    day: date = datetime.fromtimestamp(start, zone).date() - timedelta(days=1)
    crosses_midnight = quiet.end_hour < quiet.start_hour
    while True:
        begin = datetime.combine(day, clock_time(quiet.start_hour), zone).timestamp()
        end_day = day + timedelta(days=1) if crosses_midnight else day
        end = datetime.combine(end_day, clock_time(quiet.end_hour), zone).timestamp()
        yield begin, end
        day += timedelta(days=1)


class Vacation(msgspec.Struct, frozen=True, kw_only=True):
    """A player's vacation (vacation.py): none of their clocks runs from ``started_at`` to ``until``."""

    started_at: float
    until: float

    def covers(self, at: float) -> bool:
        return self.started_at <= at < self.until


class Pauses(msgspec.Struct, frozen=True, kw_only=True):
    """Everything that stops one player's clocks: their nightly quiet hours (at the speeds whose
    ``quiet_pauses`` is set) and their latest vacation (at every timed speed). Where the clock
    functions take a player's ``quiet``, they take this as well."""

    quiet: QuietHours | None = None
    vacation: Vacation | None = None


# A player's pauses as the clock functions take them: quiet hours alone (or None) keep the
# simple path; Pauses when the player has taken a vacation.
Hours = QuietHours | Pauses | None


def pauses_of(quiet: QuietHours | None, vacation: Vacation | None) -> Hours:
    return quiet if vacation is None else Pauses(quiet=quiet, vacation=vacation)


def nightly(hours: Hours) -> QuietHours | None:
    """The quiet hours among a player's pauses."""
    return hours.quiet if isinstance(hours, Pauses) else hours


def away_until(hours: Hours, at: float) -> float | None:
    """When the vacation under way at ``at`` ends, or None when the player is not on vacation."""
    vacation = hours.vacation if isinstance(hours, Pauses) else None
    return vacation.until if vacation is not None and vacation.covers(at) else None


def _windows(hours: Hours, start: float, nights: bool) -> Iterator[tuple[float, float]]:
    """The player's pauses as (begin, end) epoch seconds, in order, never overlapping, from the
    one that may contain ``start``: the quiet windows (when ``nights``) merged with the vacation.
    Endless with quiet hours; otherwise it ends after the vacation."""
    quiet = nightly(hours)
    vacation = hours.vacation if isinstance(hours, Pauses) else None
    nightly_windows: Iterator[tuple[float, float]] = (
        _windows_from(quiet, start) if quiet is not None and nights else iter(())
    )
    away = [(vacation.started_at, vacation.until)] if vacation is not None and vacation.until > start else []
    current: tuple[float, float] | None = None
    for begin, end in heapq.merge(nightly_windows, away):
        if current is not None and begin <= current[1]:
            current = (current[0], max(current[1], end))
            continue
        if current is not None:
            yield current
        current = (begin, end)
    if current is not None:
        yield current


def is_quiet(quiet: Hours, at: float) -> bool:
    """In quiet hours or on vacation: no reminder now."""
    return quiet_end(quiet, at) is not None


def quiet_end(quiet: Hours, at: float) -> float | None:
    """When the quiet window (or vacation) containing ``at`` ends, or None if ``at`` is in none."""
    if quiet is None:
        return None
    for begin, end in _windows(quiet, at, nights=True):
        if begin > at:
            return None
        if at < end:
            return end
    return None


def quiet_overlap(quiet: Hours, start: float, end: float, nights: bool = True) -> float:
    """Seconds of pauses between ``start`` and ``end`` (quiet hours only when ``nights``)."""
    if quiet is None or end <= start:
        return 0.0
    total = 0.0
    for begin, finish in _windows(quiet, start, nights):
        if begin >= end:
            break
        total += max(0.0, min(finish, end) - max(begin, start))
    return total


def time_used(start: float, end: float, quiet: Hours, pauses: bool) -> float:
    """Clock time consumed between two instants (quiet hours excluded when they pause it, a
    vacation always)."""
    if end <= start:
        return 0.0
    if quiet is None or (not pauses and not isinstance(quiet, Pauses)):
        return end - start
    return (end - start) - quiet_overlap(quiet, start, end, nights=pauses)


def time_after(start: float, budget: float, quiet: Hours, pauses: bool) -> float:
    """The instant at which a clock started at ``start`` has consumed ``budget`` seconds."""
    if budget <= 0:
        return start
    if quiet is None or (not pauses and not isinstance(quiet, Pauses)):
        return start + budget
    at, left = start, budget
    for begin, end in _windows(quiet, start, nights=pauses):
        if end <= at:
            continue
        if begin > at:
            if begin - at >= left:
                return at + left
            left -= begin - at
        at = end
    return at + left  # after the last pause (no quiet hours: the vacation was the last)


# ----- a seat's clock -------------------------------------------------------------------------


class SeatClock(msgspec.Struct, kw_only=True):
    """One seat's bank. ``remaining`` is as of ``running_since`` while running, else as of now."""

    remaining: float
    running_since: float | None = None  # None: stopped (not this seat's turn, or the AI plays it)
    turn_budget: float = 0.0  # the bank when this turn began; reminders are fractions of it
    reminders_sent: int = 0  # rungs of the reminder ladder already sent (or passed) this turn
    ran_out: bool = False  # the flag fell this turn and the other players were told
    # The "you ran out" notice held back by the player's quiet hours: due then (None: nothing held).
    notice_at: float | None = None
    # What was left when the last turn ended, before its increment: an undo of the move that
    # ended it (engine/referee/undo.py) resumes from here. None once the clock runs again.
    left_at_end: float | None = None

    @property
    def running(self) -> bool:
        return self.running_since is not None


def new_clock(speed: Speed) -> SeatClock:
    assert speed.bank is not None, "untimed tables have no clocks"
    return SeatClock(remaining=speed.bank)


def start_turn(clock: SeatClock, now: float) -> SeatClock:
    """The seat must act from ``now`` on."""
    return SeatClock(remaining=clock.remaining, running_since=now, turn_budget=clock.remaining)


def remaining_at(clock: SeatClock, now: float, speed: Speed, quiet: Hours) -> float:
    """Seconds left in the bank at ``now`` (negative once the flag has fallen)."""
    if clock.running_since is None:
        return clock.remaining
    return clock.remaining - time_used(clock.running_since, now, quiet, speed.quiet_pauses)


def end_turn(clock: SeatClock, now: float, speed: Speed, quiet: Hours) -> SeatClock:
    """The seat has finished its turn at ``now``: stop the clock, add the increment, cap it.

    A seat that played after running out (nobody skipped it) starts again from zero plus the
    increment: late play is allowed, and earns no more than one increment.
    """
    if clock.running_since is None:
        return clock
    assert speed.bank is not None
    left = max(0.0, remaining_at(clock, now, speed, quiet))
    return SeatClock(remaining=min(speed.bank, left + speed.increment), left_at_end=left)


def resume_taken_back(clock: SeatClock, now: float) -> SeatClock:
    """The move that ended this seat's turn is taken back: its clock runs again from ``now`` with
    what it had left at that move, without the increment the move earned (a move and its undo
    must not buy time) and without the wait for the others' consent."""
    left = clock.remaining if clock.left_at_end is None else clock.left_at_end
    return SeatClock(remaining=left, running_since=now, turn_budget=left)


def stop_taken_back(clock: SeatClock) -> SeatClock:
    """The move that started this seat's turn is taken back: the turn never happened, so the
    clock stops at what it had when the turn began, neither charged nor given an increment."""
    if clock.running_since is None:
        return clock
    return SeatClock(remaining=clock.turn_budget, notice_at=clock.notice_at)


def pause(clock: SeatClock, now: float, speed: Speed, quiet: Hours) -> SeatClock:
    """Stop without an increment (the seat was skipped, or the game ended). A notice held back by
    quiet hours is kept: a skipped player still hears that they ran out, in the morning."""
    if clock.running_since is None:
        return clock
    return SeatClock(remaining=max(0.0, remaining_at(clock, now, speed, quiet)), notice_at=clock.notice_at)


def settle(
    clock: SeatClock, counted_until: float, now: float, speed: Speed, quiet: Hours
) -> SeatClock:
    """Credit back the time between ``counted_until`` and ``now`` (the bot was down).

    The time used up to ``counted_until`` is charged, the clock restarts at ``now``; the turn's
    budget and the reminders already sent are kept, so the ladder goes on where it was. A clock
    that started at or after ``now`` has no downtime to give back and is returned as it is (moving
    its start back to ``now`` would charge time the seat never had).
    """
    if clock.running_since is None or clock.running_since >= now:
        return clock
    charged_until = min(max(clock.running_since, counted_until), now)
    used = time_used(clock.running_since, charged_until, quiet, speed.quiet_pauses)
    return msgspec.structs.replace(clock, remaining=clock.remaining - used, running_since=now)


def deadline(clock: SeatClock, speed: Speed, quiet: Hours) -> float | None:
    """When the flag falls, if the clock runs and nothing changes."""
    if clock.running_since is None:
        return None
    return time_after(clock.running_since, clock.remaining, quiet, speed.quiet_pauses)


def reminder_times(clock: SeatClock, speed: Speed, quiet: Hours) -> list[float | None]:
    """When each rung of the ladder is due this turn; None for a rung that falls at or after the
    deadline (never sent). Rungs never fall in quiet hours: they wait for the end of them."""
    if clock.running_since is None:
        return [None for _ in speed.reminders]
    flag = deadline(clock, speed, quiet)
    assert flag is not None
    times: list[float | None] = []
    for fraction in speed.reminders:
        spend = clock.remaining - clock.turn_budget * fraction
        at = time_after(clock.running_since, spend, quiet, speed.quiet_pauses)
        at = quiet_end(quiet, at) or at
        times.append(at if at < flag else None)
    return times


def next_check(clock: SeatClock, speed: Speed, quiet: Hours) -> float | None:
    """When this clock next needs looking at (a reminder not yet sent, the flag, a notice held
    back by quiet hours), or None."""
    if clock.running_since is None or clock.ran_out:
        return clock.notice_at
    flag = deadline(clock, speed, quiet)
    assert flag is not None
    times = reminder_times(clock, speed, quiet)
    pending = [at for rung, at in enumerate(times) if at is not None and rung >= clock.reminders_sent]
    return min([flag, *pending])


class ClockCheck(msgspec.Struct, frozen=True, kw_only=True):
    """What is due for one running clock at ``now``."""

    remind: bool = False  # send one reminder now (the latest rung reached)
    rungs_sent: int = 0  # the new value of reminders_sent
    ran_out: bool = False  # the flag has fallen and the other players have not been told yet
    next_due: float | None = None  # when to look again (strictly after now), None: nothing to do


def check(clock: SeatClock, now: float, speed: Speed, quiet: Hours) -> ClockCheck:
    """Reminders and flag fall for a running clock, at ``now``. Pure: the caller stores the
    result (``rungs_sent``, ``ran_out``) so that nothing is sent twice."""
    if clock.running_since is None or clock.ran_out:
        return ClockCheck(rungs_sent=clock.reminders_sent, next_due=clock.notice_at)
    flag = deadline(clock, speed, quiet)
    assert flag is not None
    if now >= flag:
        return ClockCheck(rungs_sent=len(speed.reminders), ran_out=True)
    times = reminder_times(clock, speed, quiet)
    sent = clock.reminders_sent
    reached = [rung for rung, at in enumerate(times) if at is not None and at <= now and rung >= sent]
    remind = False
    if reached:
        if is_quiet(quiet, now):  # a rung computed before quiet hours were set: wait for morning
            return ClockCheck(rungs_sent=sent, next_due=min(flag, quiet_end(quiet, now) or flag))
        # Several rungs reached at once (a long outage, a late poll): one message is enough.
        sent, remind = reached[-1] + 1, True
    upcoming = [at for rung, at in enumerate(times) if at is not None and rung >= sent and at > now]
    next_due = min([flag, *upcoming])
    return ClockCheck(remind=remind, rungs_sent=sent, next_due=next_due)


def format_duration(seconds: float) -> str:
    """A short duration in the reader's language: "2d 3h", "5h 07m", "4m 05s", "12s" in English
    (the form players know from the boards), Babel's short units in the others ("2 h 5 min",
    "2 時間 5 分"); never negative."""
    seconds = max(0, math.ceil(seconds))
    if language() != SOURCE:
        return duration(seconds)
    days, rest = divmod(seconds, int(DAY))
    hours, rest = divmod(rest, int(HOUR))
    minutes, secs = divmod(rest, int(MINUTE))
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


def day_text(at: float) -> str:
    """A day in words, in UTC (the referee knows no reader's time zone): "12 Dec" in English,
    the reader's language's own form in the others ("12 dic", "12月12日")."""
    if language() != SOURCE:
        return day(at)
    when = datetime.fromtimestamp(at, UTC)
    return f"{when.day} {when.strftime('%b')}"
