"""Timekeeping: the seats' clocks as the turn passes, skipping and returning, the clock task's
due actions, quiet hours, and what front ends show of clocks (the Referee's methods of the same
names document them).

Clocks (see clock.py) live with the seats and are written in the same transaction as each move;
nothing is timed in memory. ``advance_turns`` brings every seat's waiting time, clock and due
time up to date on the copy of a table a move is about to store. A front end's clock task polls
``due_actions`` (reminders to send privately, seats that ran out, seats forfeited) and sleeps
until ``next_due_at``; the downtime credit at start-up is downtime.py's.

Absent players (see absence.py): when a seat has run out, another player of the table may
``skip`` it; from then on an AI plays it until its player comes back (``return_to_seat``, or
simply by playing), or, when every person is away, the game waits. A skipped seat is forfeited
when it is skipped a second time, when it stays away for a further full bank, or when the game
ends while it is still away.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

from engine.core import Game, GameError
from engine.games import get_game
from engine.i18n import tr

from . import absence
from . import clock as clocks
from .absence import Step, referee_step
from .audience import in_public
from .claims import CLOCK, Claims
from .clock import QuietHours, day_text, format_duration, get_speed
from .deadlines import credit_seat, forfeit_at, next_due
from .downtime import DowntimeCredit
from .model import (
    RUNNING,
    ForfeitedSeat,
    NotInGame,
    Outbox,
    QuietHoursError,
    SkipRefused,
    StaleVersion,
    Table,
)
from .reports import (
    DueActions,
    ForfeitNotice,
    Reminder,
    SeatClockView,
    TableLinks,
    TimeoutNotice,
    WaitingTurn,
)
from .tables import Loaded, Tables, copy_table

logger = logging.getLogger(__name__)

# Seconds before looking again at due tables that another process had claimed.
CLAIMED_ELSEWHERE_WAIT = 5.0


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
    speed = get_speed(table.speed)
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
    speed = get_speed(table.speed)
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
    table.needs_resume = referee_step(game, loaded.state, table) is not None
    await tables.save_seats(loaded, table)


class PlaysOn(Protocol):
    """What timekeeping needs of the turns room (turns.py, which imports this module): after a
    skip, a return or a forfeit, the referee plays the seats an AI now holds."""

    async def run_automatic(self, game: Game[Any, Any], loaded: Loaded, outbox: Outbox) -> None: ...

    def pending_step(self, game: Game[Any, Any], loaded: Loaded) -> Step | None: ...

    def finish_outbox(self, game: Game[Any, Any], loaded: Loaded, outbox: Outbox) -> None: ...


class Timekeeping:
    def __init__(self, tables: Tables, turns: PlaysOn, downtime: DowntimeCredit, claims: Claims) -> None:
        self.tables = tables
        self.turns = turns
        self.downtime = downtime
        self.claims = claims  # several processes may poll one store: each due table is acted on once

    async def skip(self, table_id: int, by_user: str, seat: int) -> Outbox:
        async with self.tables.lock(table_id):
            loaded = await self.tables.running(table_id)
            table = loaded.table
            game = get_game(table.game)
            speed = get_speed(table.speed)
            caller = table.seat_of(by_user)
            if caller is None or caller.is_ai:
                raise NotInGame(tr("Only the players of this game can skip a seat."))
            if caller.absent or caller.forfeited:
                raise SkipRefused(tr("An AI plays your seat at the moment; take your seat back first."))
            if not 0 <= seat < len(table.seats):
                raise SkipRefused(tr("There is no seat {number} at this table.", number=seat + 1))
            target = table.seats[seat]
            if target.index == caller.index:
                raise SkipRefused(tr("You cannot skip yourself."))
            if target.is_ai:
                raise SkipRefused(tr("{name} is an AI seat; it never runs out of time.", name=target.name))
            if target.absent:
                raise SkipRefused(tr("{name} was already skipped; an AI plays for them.", name=target.name))
            if not speed.timed or target.clock is None:
                raise SkipRefused(tr("This game is untimed, so nobody runs out of time; the host can cancel it."))
            now = self.tables.clock()
            hours = (await self.tables.quiet_hours_at(table, loaded)).get(seat)
            if not target.clock.running:
                raise SkipRefused(tr("It is not {name}'s turn.", name=target.name))
            away = clocks.away_until(hours, now)
            if away is not None:  # even a clock that ran out before: a vacation protects the seat
                raise SkipRefused(tr("{name} is on vacation until {day}.", name=target.name, day=day_text(away)))
            left = clocks.remaining_at(target.clock, now, speed, hours)
            if left > 0:
                raise SkipRefused(tr("{name} still has {time} on the clock.", name=target.name, time=format_duration(left)))
            return await self._skip_seat(game, loaded, seat, now)

    async def _skip_seat(
        self, game: Game[Any, Any], loaded: Loaded, seat: int, now: float, *, by_referee: bool = False
    ) -> Outbox:
        """Skip a seat whose time ran out (checked by the caller), store it, let the AI play."""
        table = loaded.table
        speed = get_speed(table.speed)
        hours = (await self.tables.quiet_hours_at(table, loaded)).get(seat)
        new_table = copy_table(table)
        skipped = new_table.seats[seat]
        assert skipped.clock is not None and speed.bank is not None
        skipped.clock = clocks.pause(skipped.clock, now, speed, hours)
        skipped.skips += 1
        skipped.absent_since = now
        skipped.waiting_since = None
        skipped.forfeited = skipped.skips >= 2
        skipped.next_due_at = next_due(skipped, speed, hours)
        absence.due_at_once(new_table, now)
        new_table.updated_at = now
        new_table.needs_resume = referee_step(game, loaded.state, new_table) is not None
        await self.tables.save_seats(loaded, new_table)
        outbox = Outbox(table=new_table, board_changed=True)
        if skipped.forfeited:
            outbox.forfeited = [seat]
        with in_public():
            outbox.public_log.append(absence.skip_line(skipped, new_table, by_referee=by_referee, bank=speed.bank))
        await self.turns.run_automatic(game, loaded, outbox)
        self.turns.finish_outbox(game, loaded, outbox)
        return outbox

    async def return_to_seat(self, table_id: int, user_id: str) -> Outbox:
        async with self.tables.lock(table_id):
            loaded = await self.tables.running(table_id)
            seat = loaded.table.seat_of(user_id)
            if seat is None:
                raise NotInGame(tr("You are not playing in this game."))
            if seat.forfeited:
                raise ForfeitedSeat(tr("You forfeited this game; an AI plays your seat to the end."))
            game = get_game(loaded.table.game)
            outbox = Outbox(table=loaded.table)
            if seat.absent:
                await return_seat(self.tables, game, loaded, seat.index)
                outbox.table = loaded.table
                outbox.board_changed = True
                with in_public():
                    outbox.public_log.append(tr("{name} is back and plays their own seat again.", name=seat.name))
                # Someone plays again: the AI takes the other absent seats a waiting game held.
                await self.turns.run_automatic(game, loaded, outbox)
            self.turns.finish_outbox(game, loaded, outbox)
            return outbox

    async def due_actions(self, now: float | None = None) -> DueActions:
        now = self.tables.clock() if now is None else now
        if not self.downtime.credited:
            await self.downtime.credit_downtime(now)
        else:
            await self.downtime.finish_downtime_credit()
            await self.tables.store.set_heartbeat(now)
        actions = DueActions(now=now)
        due = await self.tables.store.due_table_ids(now)
        # Another process sharing the store may be polling too: act only on the tables claimed,
        # as stored now (what the other did before this claim is not done again).
        claimed = await self.claims.take(CLOCK, due, now)
        try:
            for table_id in claimed:
                async with self.tables.lock(table_id):
                    try:
                        loaded = await self.tables.fresh(table_id)
                    except GameError:  # gone, or a game no longer installed: never stop the clock task
                        logger.warning("clocks of game #%s skipped: it cannot be loaded", table_id, exc_info=True)
                        continue
                    if loaded.table.status == RUNNING:
                        await self._due_at_table(loaded, now, actions)
        finally:
            await self.claims.give_back(CLOCK, claimed)
        actions.next_due_at = await self.tables.store.next_due_at()
        if len(claimed) < len(due) and actions.next_due_at is not None:
            # Tables another process holds stay due until it is done (or its claim expires): look
            # again a little later rather than at once.
            actions.next_due_at = max(actions.next_due_at, now + min(CLAIMED_ELSEWHERE_WAIT, self.claims.lease))
        return actions

    async def _due_at_table(self, loaded: Loaded, now: float, actions: DueActions) -> None:
        table = copy_table(loaded.table)
        speed = get_speed(table.speed)
        quiet = await self.tables.quiet_hours_at(table, loaded)
        links = links_of(table)
        found = DueActions(now=now)
        for seat in table.seats:
            if seat.next_due_at is None or seat.next_due_at > now:
                continue
            hours = quiet.get(seat.index)
            held = absence.take_held_notice(seat, links, len(speed.reminders), now)
            if held is not None:
                found.reminders.append(held)
            if seat.absent or seat.forfeited or seat.clock is None or not speed.timed:
                if seat.absent and not seat.forfeited and now >= forfeit_at(seat, speed, hours):
                    seat.forfeited = True
                    found.forfeits.append(
                        ForfeitNotice.of(links, seat)
                    )
                seat.next_due_at = next_due(seat, speed, hours)
                continue
            check = clocks.check(seat.clock, now, speed, hours)
            seat.clock.reminders_sent = check.rungs_sent
            flag = clocks.deadline(seat.clock, speed, hours)
            if check.ran_out:
                seat.clock.ran_out = True
                # Never woken up by it: in quiet hours the notice waits for them to end.
                seat.clock.notice_at = clocks.quiet_end(hours, now)
                found.timeouts.append(
                    TimeoutNotice.of(
                        links,
                        seat,
                        ran_out_at=flag if flag is not None else now,
                        can_skip=absence.skippers(table, seat.index),
                        tell_player=seat.clock.notice_at is None,
                    )
                )
            elif check.remind and seat.user_id is not None and flag is not None:
                found.reminders.append(
                    Reminder.of(
                        links,
                        seat,
                        remaining=max(0.0, clocks.remaining_at(seat.clock, now, speed, hours)),
                        deadline=flag,
                        rung=check.rungs_sent,
                        final=check.rungs_sent == len(speed.reminders),
                    )
                )
            seat.next_due_at = clocks.next_check(seat.clock, speed, hours) if check.ran_out else check.next_due
        try:
            await self.tables.save_seats(loaded, table)
        except StaleVersion:
            return  # another process moved: the next poll looks again at the fresh table
        actions.reminders.extend(found.reminders)
        actions.timeouts.extend(found.timeouts)
        actions.forfeits.extend(found.forfeits)
        # Seats nobody is left to skip are skipped by the referee itself, one at a time (a skip can
        # leave another seat that ran out with nobody to skip it).
        game = get_game(table.game)
        try:
            for index in range(len(table.seats)):
                if absence.must_skip(loaded.table, loaded.table.seats[index]):
                    for notice in found.timeouts:
                        notice.skipped = notice.skipped or notice.seat == index
                    actions.moves.append(await self._skip_seat(game, loaded, index, now, by_referee=True))
            if self.turns.pending_step(game, loaded) is not None:
                # A forfeit at a table that waited for its absent players, or a long run of the
                # referee's own moves that stopped to let go of the table: the AI plays on.
                outbox = Outbox(table=loaded.table)
                await self.turns.run_automatic(game, loaded, outbox)
                self.turns.finish_outbox(game, loaded, outbox)
                actions.moves.append(outbox)
        except StaleVersion:
            return  # another process moved: the next poll looks again

    async def turns_waiting(
        self,
        user_id: str,
        guild_id: str | None = None,
        *,
        guild_ids: Iterable[str] | None = None,
        now: float | None = None,
    ) -> list[WaitingTurn]:
        """The running games where ``user_id`` must act, oldest waiting first: in one server
        (``guild_id``), in several (``guild_ids``, e.g. the servers shared with the user), or in
        all of them (neither)."""
        now = self.tables.clock() if now is None else now
        wanted: tuple[str, ...] | None = None
        if guild_ids is not None:
            wanted = tuple(guild_ids)
        elif guild_id is not None:
            wanted = (guild_id,)
        rows = await self.tables.store.waiting_seats(user_id, wanted)
        hours = await self.tables.pauses_of_user(user_id)
        downtime = self.tables.downtime
        turns: list[WaitingTurn] = []
        for links, speed_name, seat in rows:
            speed = get_speed(speed_name)
            if downtime is not None and downtime.tables is not None and links.table_id in downtime.tables:
                # Read straight from the store: a table not credited yet is credited here, in memory.
                credit_seat(seat, speed, hours, downtime.since, downtime.until)
            turn = WaitingTurn(
                links=links, seat=seat.index, speed=speed_name, waiting_since=seat.waiting_since or 0.0
            )
            if speed.timed and seat.clock is not None and seat.clock.running:
                left = clocks.remaining_at(seat.clock, now, speed, hours)
                turn.remaining = max(0.0, left)
                turn.deadline = clocks.deadline(seat.clock, speed, hours)
                turn.ran_out = left <= 0
            turns.append(turn)
        return turns

    async def clock_views(self, table_id: int, now: float | None = None) -> list[SeatClockView]:
        loaded = await self.tables.started(table_id)
        return await clock_views_of(self.tables, loaded, now)

    async def quiet_hours(self, user_id: str) -> QuietHours | None:
        return await self.tables.store.get_quiet_hours(user_id)

    async def set_quiet_hours(
        self, user_id: str, time_zone: str, start_hour: int, end_hour: int
    ) -> QuietHours:
        try:
            quiet = QuietHours(time_zone=time_zone.strip(), start_hour=start_hour, end_hour=end_hour).check()
        except ValueError as error:
            raise QuietHoursError(str(error)) from None
        await self._change_quiet_hours(user_id, quiet)
        return quiet

    async def clear_quiet_hours(self, user_id: str) -> None:
        await self._change_quiet_hours(user_id, None)

    async def _change_quiet_hours(self, user_id: str, quiet: QuietHours | None) -> None:
        await self.change_pauses(user_id, lambda: self.tables.store.set_quiet_hours(user_id, quiet))

    async def change_pauses(self, user_id: str, change: Callable[[], Awaitable[None]]) -> None:
        """Change what pauses a player's clocks (quiet hours, a vacation) with ``change``: their
        running clocks are charged up to now under the old pauses, then go on under the new."""
        now = self.tables.clock()
        old = await self.tables.pauses_of_user(user_id)
        await change()
        new = await self.tables.pauses_of_user(user_id)
        for cached in self.tables.cache.values():
            if cached.table.seat_of(user_id) is not None:
                cached.quiet = None  # read again at its next move
        for listed in await self.tables.store.list_tables(statuses=(RUNNING,), user_id=user_id, limit=1_000_000):
            speed = get_speed(listed.speed)
            if not speed.timed:
                continue
            async with self.tables.lock(listed.id):
                loaded = await self.tables.load(listed.id)
                loaded.quiet = None  # under the lock: no move in flight keeps the old pauses
                seat = loaded.table.seat_of(user_id)
                if loaded.table.status != RUNNING or seat is None:
                    continue
                table = copy_table(loaded.table)
                mine = table.seats[seat.index]
                if mine.clock is not None and mine.clock.running:
                    mine.clock = clocks.settle(mine.clock, now, now, speed, old)
                mine.next_due_at = next_due(mine, speed, new)
                try:
                    await self.tables.save_seats(loaded, table)
                except StaleVersion:
                    continue


async def clock_views_of(tables: Tables, loaded: Loaded, now: float | None = None) -> list[SeatClockView]:
    """Every timed seat's clock at a loaded table (none at an untimed one): for the board and
    for a seat's snapshot (read_model.py), which has the table loaded already."""
    table = loaded.table
    speed = get_speed(table.speed)
    if not speed.timed:
        return []
    now = tables.clock() if now is None else now
    quiet = await tables.quiet_hours_at(table, loaded)
    views: list[SeatClockView] = []
    for seat in table.seats:
        if seat.clock is None:
            continue
        hours = quiet.get(seat.index)
        left = clocks.remaining_at(seat.clock, now, speed, hours)
        views.append(
            SeatClockView(
                seat=seat.index,
                name=seat.name,
                remaining=max(0.0, left),
                running=seat.clock.running and table.status == RUNNING,
                deadline=clocks.deadline(seat.clock, speed, hours) if table.status == RUNNING else None,
                ran_out=seat.clock.running and left <= 0,
                absent=seat.absent,
                forfeited=seat.forfeited,
                quiet=speed.quiet_pauses and clocks.is_quiet(clocks.nightly(hours), now),
                vacation_until=clocks.away_until(hours, now),
            )
        )
    return views


def links_of(table: Table) -> TableLinks:
    return TableLinks(
        table_id=table.id,
        game=table.game,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        thread_id=table.thread_id,
        message_id=table.message_id,
    )
