"""Timekeeping: the seats' clocks as the turn passes, skipping and returning, the clock task's
due actions, quiet hours, and what front ends show of clocks.

Clocks (see clock.py) live with the seats and are written in the same transaction as each move;
nothing is timed in memory. ``advance_turns`` brings every seat's waiting time, clock and due
time up to date on the copy of a table a move is about to store.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core import Game

from . import absence
from . import clock as clocks
from .deadlines import next_due
from .model import RUNNING, Table
from .tables import Loaded, Tables, copy_table


async def advance_turns(
    tables: Tables,
    table: Table,
    before: Iterable[int],
    after: Iterable[int],
    now: float,
    loaded: Loaded | None = None,
) -> None:
    """Bring every seat's waiting time and clock up to date once the seats to act went from
    ``before`` to ``after`` (on ``table``, a copy about to be stored; ``loaded``: its cache
    entry, whose quiet hours are reused)."""
    before, after = set(before), set(after)
    speed = clocks.get_speed(table.speed)
    quiet = await tables.quiet_hours_at(table, loaded) if speed.timed else {}
    running = table.status == RUNNING
    for seat in table.seats:
        acting = running and seat.index in after
        if not acting:
            seat.waiting_since = None
        elif seat.index not in before or seat.waiting_since is None:
            seat.waiting_since = now
        if seat.clock is not None:
            hours = quiet.get(seat.index)
            if not running or seat.absent:
                seat.clock = clocks.pause(seat.clock, now, speed, hours)
            elif not acting:
                seat.clock = clocks.end_turn(seat.clock, now, speed, hours)
            elif not seat.clock.running:
                seat.clock = clocks.start_turn(seat.clock, now)
        seat.next_due_at = next_due(seat, speed, quiet.get(seat.index)) if running else None
    if running and speed.timed:
        absence.due_at_once(table, now)


async def return_seat(tables: Tables, game: Game[Any, Any], loaded: Loaded, index: int) -> None:
    """A skipped seat is its player's again (they came back, or played): stored at once."""
    table = copy_table(loaded.table)
    now = tables.clock()
    speed = clocks.get_speed(table.speed)
    seat = table.seats[index]
    seat.absent_since = None
    if seat.clock is not None and speed.bank is not None:
        # Back with at least one increment in the bank, so a returning player is not out at once.
        remaining = min(speed.bank, max(seat.clock.remaining, speed.increment))
        seat.clock = clocks.SeatClock(remaining=remaining)
    table.updated_at = now
    acting = game.to_act(loaded.state)
    # Only this seat "enters": its clock starts if it must act now (rare: the AI answers at once).
    await advance_turns(tables, table, [other for other in acting if other != index], acting, now)
    table.needs_resume = absence.referee_step(game, loaded.state, table) is not None
    await tables.save_seats(loaded, table)
