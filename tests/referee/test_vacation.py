"""Vacations (engine/referee/vacation.py): a player's clocks stop in every timed game for the days
asked (no time used, no reminder, no timeout), within a yearly allowance; shown on the board;
ended early with the days not begun given back; kept across restarts, where the downtime credit
skips the vacation like any other pause."""

from __future__ import annotations

import pytest

from engine.referee import SkipRefused, VacationRefused
from engine.referee.clock import Vacation, get_speed, time_after, time_used

from .helpers import DAY, HOUR, MONDAY, ManualClock, open_referee, two_player_nim

pytestmark = [pytest.mark.usefixtures("toy_game"), pytest.mark.both_backends]
DAILY2 = get_speed("daily-2")  # 36 h bank, +12 h a move; reminders at half and a tenth left
LIVE3 = get_speed("live-3")


def alice_clock(table):
    return table.seats[0].clock


def test_a_vacation_is_one_more_pause_of_the_clock_at_every_timed_speed():
    away = Vacation(started_at=MONDAY + HOUR, until=MONDAY + 3 * HOUR)
    from engine.referee.clock import Pauses

    pauses = Pauses(vacation=away)
    assert time_used(MONDAY, MONDAY + 4 * HOUR, pauses, DAILY2.quiet_pauses) == 2 * HOUR
    assert time_used(MONDAY, MONDAY + 4 * HOUR, pauses, LIVE3.quiet_pauses) == 2 * HOUR  # live too
    assert time_after(MONDAY, 2 * HOUR, pauses, False) == MONDAY + 4 * HOUR
    assert time_after(MONDAY, 30 * 60, pauses, False) == MONDAY + 30 * 60  # before it begins


async def test_the_clocks_stop_for_the_vacation_and_nothing_is_due_meanwhile(referee, clock):
    table_id = await two_player_nim(referee)  # alice to move, 36 h in her bank
    untimed = await two_player_nim(referee, speed="untimed", first="alice", second="carol")
    clock.advance(10 * HOUR)
    status = await referee.start_vacation("alice", 3)
    assert status.until == MONDAY + 10 * HOUR + 3 * DAY and status.days_left == 27
    # The board tells the other players.
    snapshot = await referee.snapshot(table_id, "bob")
    assert "Clocks: Alice 1d 2h (on vacation until 7 Mar) · Bob 1d 12h" in snapshot.board
    [view] = [view for view in snapshot.clocks if view.name == "Alice"]
    assert view.vacation_until == status.until
    assert "vacation" not in (await referee.snapshot(untimed)).board  # untimed: nothing to show
    # Three days pass: no reminder, no timeout, nothing used of her bank.
    for _ in range(6):
        clock.advance(12 * HOUR)
        due = await referee.due_actions()
        assert not due.reminders and not due.timeouts
    [view] = [view for view in await referee.clock_views(table_id) if view.name == "Alice"]
    assert view.remaining == 26 * HOUR and view.vacation_until is None
    # Back: her clock runs again; the first reminder (18 h left) comes 8 hours later.
    clock.advance(8 * HOUR - 1)
    assert not (await referee.due_actions()).reminders
    clock.advance(1)
    [reminder] = (await referee.due_actions()).reminders
    assert reminder.user_id == "alice"


async def test_vacation_off_gives_back_the_days_not_begun_and_the_allowance_is_kept(referee, clock):
    table_id = await two_player_nim(referee)
    with pytest.raises(VacationRefused, match="30 vacation day"):
        await referee.start_vacation("alice", 31)
    await referee.start_vacation("alice", 20)
    with pytest.raises(VacationRefused, match="already on vacation"):
        await referee.start_vacation("alice", 1)
    clock.advance(DAY + HOUR)
    status = await referee.end_vacation("alice")
    assert status.vacation is None and status.days_left == 28  # two days begun
    with pytest.raises(VacationRefused, match="not on vacation"):
        await referee.end_vacation("alice")
    # From now on her clock runs: an hour later, an hour is gone.
    clock.advance(HOUR)
    table = await referee.table(table_id)
    [view] = [view for view in await referee.clock_views(table_id) if view.name == "Alice"]
    assert view.remaining == 35 * HOUR and alice_clock(table).running
    with pytest.raises(VacationRefused, match="28 vacation day"):
        await referee.start_vacation("alice", 29)
    # A year after, the days are back.
    clock.advance(365 * DAY)
    assert (await referee.vacation("alice")).days_left == 30


async def test_a_vacation_survives_a_restart_and_the_downtime_credit_skips_it(tmp_path, clock):
    for deferred in (True, False):
        path = tmp_path / f"vacation-{deferred}.sqlite3"
        clock = ManualClock(MONDAY)
        referee = await open_referee(path, clock)
        table_id = await two_player_nim(referee)
        clock.advance(10 * HOUR)
        await referee.start_vacation("alice", 1)
        clock.advance(2 * HOUR)
        await referee.due_actions()  # the last heartbeat before the crash
        await referee.store.close()
        clock.advance(30 * HOUR)  # down 30 hours: the vacation ended meanwhile
        referee = await open_referee(path, clock)
        await referee.credit_downtime(defer=deferred)
        if deferred:
            await referee.finish_downtime_credit()  # the batch, from the store's rows
        # Only the 10 hours before the vacation are charged: not the vacation, not the outage.
        [view] = [view for view in await referee.clock_views(table_id) if view.name == "Alice"]
        assert view.remaining == 26 * HOUR
        assert (await referee.vacation("alice")).days_left == 29
        await referee.store.close()


async def test_a_player_on_vacation_cannot_be_skipped_even_after_running_out(referee, clock):
    table_id = await two_player_nim(referee, speed="live-3")
    clock.advance(4 * 60)  # alice ran out
    await referee.due_actions()
    await referee.start_vacation("alice", 1)
    with pytest.raises(SkipRefused, match="Alice is on vacation until 5 Mar"):
        await referee.skip(table_id, "bob", 0)
    await referee.end_vacation("alice")
    await referee.skip(table_id, "bob", 0)  # back, and still out of time
