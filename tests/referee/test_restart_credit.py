"""Downtime credited after a restart without loading every game: noted at start-up, credited to a
table the first time it is loaded, and to all the others in one batch at the first clock poll.
Whatever the order, each table gets the downtime exactly once, and no clock runs out because the
bot was down."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import pytest

import db.rows as db_rows
import db.sqlite_store as sqlite_store
from engine.referee import Referee, SkipRefused, TimedSeat
from engine.referee.clock import get_speed

from .helpers import DAY, HOUR, MONDAY, ManualClock, at, open_referee, two_player_nim

pytestmark = pytest.mark.usefixtures("toy_game")
DAILY2 = get_speed("daily-2")  # 36 h bank, +12 h a move; reminders at half and a tenth left


async def crash_after(referee: Referee, clock: ManualClock, up: float, down: float, path) -> Referee:
    """The bot polls its clocks ``up`` seconds from now, dies, and starts again ``down`` seconds
    later on the same database (nothing credited yet)."""
    clock.advance(up)
    await referee.due_actions()  # the last heartbeat before the crash
    await referee.store.close()
    clock.advance(down)
    return await open_referee(path, clock)


async def one_table_after_an_outage(path, clock: ManualClock, down: float = 20 * HOUR) -> tuple[Referee, int]:
    """One timed game (alice-bob) on ``path``, then 10 hours up, ``down`` seconds down: the referee
    of the restarted bot, nothing credited yet, and the table id."""
    referee = await open_referee(path, clock)
    table_id = await two_player_nim(referee)
    return await crash_after(referee, clock, 10 * HOUR, down, path), table_id


def change_after_the_batch_reads(referee: Referee, change: Callable[[], Awaitable[object]]) -> None:
    """Make the deferred credit batch run ``change`` just after it reads the timed seats and before
    it writes them: a race with another move or another writer."""
    read = referee.store.running_timed_seats

    async def read_then_change() -> list[TimedSeat]:
        seats = await read()
        await change()
        return seats

    referee.store.running_timed_seats = read_then_change  # type: ignore[method-assign]


async def two_tables_after_an_outage(path, clock: ManualClock) -> tuple[Referee, tuple[int, int]]:
    """Two timed games (alice-bob, carol-dave) on ``path``, then 10 hours up, 20 hours down:
    the referee of the restarted bot, nothing credited yet, and the two table ids."""
    referee = await open_referee(path, clock)
    first = await two_player_nim(referee)
    second = await two_player_nim(referee, first="carol", second="dave")
    return await crash_after(referee, clock, 10 * HOUR, 20 * HOUR, path), (first, second)


async def stored_seat(path, table_id: int, seat: int):
    """A seat as it is on disk, read by a store of its own (no referee cache in between)."""
    store = await sqlite_store.SqliteStore.open(path)
    try:
        table = await store.load_table(table_id)
    finally:
        await store.close()
    assert table is not None
    return table.seats[seat]


async def test_deferred_credit_notes_the_outage_and_credits_a_table_when_first_loaded(tmp_path, clock):
    path = tmp_path / "restart.sqlite3"
    referee, (first, second) = await two_tables_after_an_outage(path, clock)
    restart = clock.now
    assert await referee.credit_downtime(defer=True) == 20 * HOUR
    # Nothing written yet: not the clocks, not the heartbeat.
    assert (await stored_seat(path, first, 0)).clock.running_since == MONDAY
    assert await referee.store.get_heartbeat() == MONDAY + 10 * HOUR
    # The first load credits the table, and stores it at once.
    clock.advance(HOUR)
    alice = (await referee.table(first)).seats[0]
    assert alice.clock.remaining == 26 * HOUR and alice.clock.running_since == restart
    assert (await stored_seat(path, first, 0)).clock == alice.clock
    assert alice.next_due_at == restart + 8 * HOUR  # half time: 18 h left
    # It moves; the batch then leaves it alone and credits the other table.
    clock.advance(HOUR)
    await referee.play(first, "alice", "take 1")
    moved = (await referee.table(first)).seats
    await referee.finish_downtime_credit()
    assert await referee.store.get_heartbeat() == restart
    referee.forget_cache()
    assert (await referee.table(first)).seats == moved
    assert moved[0].clock.remaining == 26 * HOUR - 2 * HOUR + 12 * HOUR
    carol = (await referee.table(second)).seats[0].clock
    assert carol.remaining == 26 * HOUR and carol.running_since == restart
    await referee.store.close()


async def test_the_batch_credits_many_tables_alike_with_quiet_hours(tmp_path, clock):
    path = tmp_path / "many.sqlite3"
    referee = await open_referee(path, clock)
    await referee.set_quiet_hours("p0", "Europe/Rome", 22, 10)  # a twelve-hour night
    clock.now = at("2024-03-04 10:00", "Europe/Rome")
    timed = [await two_player_nim(referee, first=f"p{n}", second=f"q{n}") for n in range(60)]
    untimed = await two_player_nim(referee, speed="untimed", first="x", second="y")
    # Last seen at midnight: p0 was charged the 12 waking hours up to 22:00, the others 14 hours.
    referee = await crash_after(referee, clock, 14 * HOUR, 18 * HOUR, path)
    restart = clock.now
    deferred = await referee.credit_downtime(defer=True)
    assert deferred == 18 * HOUR
    await referee.due_actions()  # the first poll runs the batch before anything else
    referee.forget_cache()
    for n, table_id in enumerate(timed):
        seats = (await referee.table(table_id)).seats
        assert seats[0].clock.running_since == restart
        assert seats[0].clock.remaining == DAILY2.bank - (12 * HOUR if n == 0 else 14 * HOUR)
        assert not seats[1].clock.running and seats[1].clock.remaining == DAILY2.bank
    assert (await referee.table(untimed)).seats[0].clock is None
    # The first poll stored the heartbeat: a second restart owes nothing more.
    clock.advance(60)
    assert await referee.credit_downtime() == 60
    assert (await referee.table(timed[1])).seats[0].clock.remaining == DAILY2.bank - 14 * HOUR
    await referee.store.close()


async def test_no_clock_runs_out_because_the_bot_was_down(tmp_path, clock):
    path = tmp_path / "long.sqlite3"
    referee = await open_referee(path, clock, seed=3)
    table_id = await two_player_nim(referee)
    other = await two_player_nim(referee, first="carol", second="dave")
    # Down for three days: far longer than the 36-hour bank.
    referee = await crash_after(referee, clock, HOUR, 3 * DAY, path)
    await referee.credit_downtime(defer=True)
    with pytest.raises(SkipRefused, match="still has 1d 11h"):
        await referee.skip(table_id, "bob", 0)  # the skip loads the table: credited first
    waiting = await referee.turns_waiting("carol")  # read from the store, not credited yet
    assert waiting[0].remaining == 35 * HOUR and not waiting[0].ran_out
    due = await referee.due_actions()
    assert due.timeouts == [] and due.forfeits == [] and due.reminders == []
    assert due.next_due_at == clock.now + 17 * HOUR
    clock.advance(35 * HOUR)
    assert sorted(t.user_id for t in (await referee.due_actions()).timeouts) == ["alice", "carol"]
    del other
    await referee.store.close()


async def test_a_skipped_seat_gets_the_downtime_before_it_forfeits(tmp_path, clock):
    path = tmp_path / "skipped.sqlite3"
    referee = await open_referee(path, clock, seed=3)
    lazy = await two_player_nim(referee, tokens=30)
    batch = await two_player_nim(referee, tokens=30, first="carol", second="dave")
    clock.advance(36 * HOUR)
    await referee.skip(lazy, "bob", 0)
    await referee.skip(batch, "dave", 0)
    skipped_at = clock.now
    # Forfeited a full bank after the skip; down 5 hours of it.
    referee = await crash_after(referee, clock, HOUR, 5 * HOUR, path)
    await referee.credit_downtime(defer=True)
    assert (await referee.table(lazy)).seats[0].absent_since == skipped_at + 5 * HOUR
    await referee.finish_downtime_credit()
    referee.forget_cache()
    for table_id in (lazy, batch):
        alice = (await referee.table(table_id)).seats[0]
        assert alice.absent_since == skipped_at + 5 * HOUR
        assert alice.next_due_at == skipped_at + 5 * HOUR + DAILY2.bank
    await referee.store.close()


async def test_tables_loaded_at_once_are_credited_once(tmp_path, clock):
    path = tmp_path / "together.sqlite3"
    referee, table_id = await one_table_after_an_outage(path, clock)
    await referee.credit_downtime(defer=True)
    await asyncio.gather(
        referee.table(table_id),
        referee.board_text(table_id),
        referee.legal_moves(table_id, "alice"),
        referee.clock_views(table_id),
        referee.finish_downtime_credit(),
    )
    referee.forget_cache()
    assert (await referee.table(table_id)).seats[0].clock.remaining == 26 * HOUR
    await referee.store.close()


async def test_a_table_that_moves_while_the_batch_runs_is_left_as_the_move_left_it(tmp_path, clock):
    path = tmp_path / "race.sqlite3"
    referee, (table_id, other) = await two_tables_after_an_outage(path, clock)
    await referee.credit_downtime(defer=True)
    # The table loads (credited), then moves, between the batch's read and its write.
    change_after_the_batch_reads(referee, lambda: referee.play(table_id, "alice", "take 1"))
    await referee.finish_downtime_credit()
    referee.forget_cache()
    seats = (await referee.table(table_id)).seats
    assert seats[0].clock.remaining == min(DAILY2.bank, 26 * HOUR + DAILY2.increment)
    assert seats[1].clock.running and seats[1].clock.remaining == DAILY2.bank
    assert (await referee.table(other)).seats[0].clock.remaining == 26 * HOUR
    await referee.store.close()


async def test_a_table_changed_by_another_writer_is_left_alone(tmp_path, clock, caplog):
    path = tmp_path / "other.sqlite3"
    referee, (table_id, other) = await two_tables_after_an_outage(path, clock)
    await referee.credit_downtime(defer=True)
    bump = "UPDATE games SET version = version + 1 WHERE id = ?"
    change_after_the_batch_reads(referee, lambda: referee.store._db.execute(bump, (table_id,)))
    with caplog.at_level(logging.WARNING):
        await referee.finish_downtime_credit()
    assert f"[{table_id}]" in caplog.text
    assert (await stored_seat(path, table_id, 0)).clock.running_since == MONDAY  # untouched
    assert (await stored_seat(path, other, 0)).clock.remaining == 26 * HOUR
    await referee.store.close()


async def test_a_crash_before_the_batch_credits_the_whole_outage_again(tmp_path, clock):
    path = tmp_path / "twice.sqlite3"
    referee, (lazy, later) = await two_tables_after_an_outage(path, clock)
    await referee.credit_downtime(defer=True)
    await referee.table(lazy)  # credited and stored; the batch never runs
    clock.advance(HOUR)
    await referee.store.close()
    clock.advance(2 * HOUR)
    referee = await open_referee(path, clock)
    # The heartbeat did not move: both outages and the hour between are given back (never less).
    assert await referee.credit_downtime() == 23 * HOUR
    assert (await referee.table(lazy)).seats[0].clock.remaining == 26 * HOUR
    assert (await referee.table(later)).seats[0].clock.remaining == 26 * HOUR
    await referee.store.close()


async def test_a_late_credit_reaches_tables_already_cached(tmp_path, clock):
    path = tmp_path / "late.sqlite3"
    referee, table_id = await one_table_after_an_outage(path, clock)
    await referee.table(table_id)  # loaded before any credit
    assert await referee.credit_downtime(defer=True) == 20 * HOUR
    assert (await referee.table(table_id)).seats[0].clock.remaining == 26 * HOUR
    await referee.finish_downtime_credit()
    referee.forget_cache()
    assert (await referee.table(table_id)).seats[0].clock.remaining == 26 * HOUR
    await referee.store.close()


async def test_store_writes_timed_seats_in_chunks_and_skips_tables_that_moved(tmp_path, clock, monkeypatch):
    monkeypatch.setattr(db_rows, "IN_LIST_LIMIT", 2)  # several IN lists, as with huge servers
    referee = await open_referee(tmp_path / "chunks.sqlite3", clock)
    store = referee.store
    ids = [await two_player_nim(referee, first=f"p{n}", second=f"q{n}") for n in range(5)]
    await referee.set_quiet_hours("p3", "Europe/Rome", 22, 7)
    seats = await store.running_timed_seats()
    assert [(s.table_id, s.seat.index) for s in seats] == [(table_id, 0) for table_id in ids]
    assert [s.quiet is not None for s in seats] == [False, False, False, True, False]
    assert await store.quiet_hours_of([f"p{n}" for n in range(5)]) == {"p3": seats[3].quiet}
    await referee.play(ids[1], "p1", "take 1")
    for timed in seats:
        timed.seat.next_due_at = 1.0
    assert await store.save_timed_seats(seats, heartbeat=5.0) == [ids[1]]
    assert await store.get_heartbeat() == 5.0
    referee.forget_cache()
    assert [(await referee.table(t)).seats[0].next_due_at for t in ids] == [1.0, None, 1.0, 1.0, 1.0]
    await store.close()


async def test_a_poll_during_start_up_waits_for_the_outage_to_be_noted(tmp_path, clock):
    path = tmp_path / "poll.sqlite3"
    referee, table_id = await one_table_after_an_outage(path, clock, down=5 * HOUR)  # nothing due at restart
    credited, due = await asyncio.gather(referee.credit_downtime(defer=True), referee.due_actions())
    assert credited == 5 * HOUR and due.timeouts == [] and due.next_due_at == clock.now + 8 * HOUR
    # The poll ran the batch before storing its heartbeat: the table is credited on disk.
    alice = (await stored_seat(path, table_id, 0)).clock
    assert alice.remaining == 26 * HOUR and alice.running_since == clock.now
    await referee.store.close()
