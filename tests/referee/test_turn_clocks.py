"""Turn clocks through the referee: reminders, running out, skips and AI takeover, forfeits,
quiet hours, downtime credited after a restart, and the turns waiting for a player."""

from __future__ import annotations

import pytest

from engine.core import NotYourTurn, SetupError
from engine.referee import (
    RUNNING,
    ForfeitedSeat,
    NotInGame,
    QuietHoursError,
    Referee,
    SkipRefused,
)
from engine.referee.clock import get_speed

from .helpers import DAY, HOUR, MONDAY, at, open_referee, two_player_nim

pytestmark = [pytest.mark.usefixtures("toy_game"), pytest.mark.both_backends]
DAILY2 = get_speed("daily-2")  # 36 h bank, +12 h a move; reminders at half and a tenth left


async def seat_clock(referee: Referee, table_id: int, seat: int):
    return (await referee.table(table_id)).seats[seat].clock


async def test_speed_is_chosen_at_creation_and_checked(referee):
    with pytest.raises(SetupError, match="Unknown speed"):
        await referee.create_table("nim", "alice", "Alice", speed="bullet")
    table = await referee.create_table("nim", "alice", "Alice")
    assert table.speed == "untimed"
    table = await referee.set_speed(table.id, "alice", "daily-4")
    assert (await referee.table(table.id)).speed == "daily-4"
    referee.forget_cache()
    assert (await referee.table(table.id)).speed == "daily-4"


async def test_untimed_tables_have_no_clocks(referee, clock):
    table_id = await two_player_nim(referee, speed="untimed")
    table = await referee.table(table_id)
    assert all(seat.clock is None and seat.next_due_at is None for seat in table.seats)
    assert "Clocks" not in await referee.board_text(table_id)
    clock.advance(30 * DAY)
    assert (await referee.due_actions()).timeouts == []
    with pytest.raises(SkipRefused, match="untimed"):
        await referee.skip(table_id, "bob", 0)


async def test_clock_runs_for_the_seat_to_act_and_is_stored_with_every_move(tmp_path, referee, clock):
    table_id = await two_player_nim(referee)
    alice = await seat_clock(referee, table_id, 0)
    assert alice.running_since == MONDAY and alice.remaining == DAILY2.bank
    assert not (await seat_clock(referee, table_id, 1)).running
    clock.advance(30 * HOUR)
    assert "Clocks: Alice 6h 00m (to move) · Bob 1d 12h" in await referee.board_text(table_id)
    await referee.play(table_id, "alice", "take 1")
    # 6 hours left, plus 12; Bob's clock started with the move, in the same transaction.
    referee.forget_cache()
    table = await referee.table(table_id)
    assert table.seats[0].clock.remaining == 18 * HOUR and not table.seats[0].clock.running
    assert table.seats[1].clock.running_since == clock.now and table.seats[1].waiting_since == clock.now
    assert table.seats[0].waiting_since is None


async def test_reminders_go_to_the_player_once_per_rung_then_the_flag_falls(referee, clock):
    table_id = await two_player_nim(referee)
    await referee.set_links(table_id, thread_id="t1", message_id="m1")
    assert (await referee.due_actions()).reminders == []
    clock.advance(18 * HOUR)  # half of 36 hours
    due = await referee.due_actions()
    assert [(r.user_id, r.rung, r.final) for r in due.reminders] == [("alice", 1, False)]
    reminder = due.reminders[0]
    assert reminder.remaining == 18 * HOUR and reminder.deadline == MONDAY + 36 * HOUR
    assert (reminder.links.thread_id, reminder.links.message_id, reminder.links.guild_id) == (
        "t1",
        "m1",
        "g1",
    )
    assert due.next_due_at == MONDAY + 32.4 * HOUR
    assert (await referee.due_actions()).reminders == []  # never twice
    clock.advance(15 * HOUR)
    assert [(r.rung, r.final) for r in (await referee.due_actions()).reminders] == [(2, True)]
    clock.advance(3 * HOUR)
    due = await referee.due_actions()
    assert due.reminders == []
    assert [(t.seat, t.user_id, t.can_skip, t.ran_out_at) for t in due.timeouts] == [
        (0, "alice", ["bob"], MONDAY + 36 * HOUR)
    ]
    assert (await referee.due_actions()).timeouts == []  # told once
    assert "Alice out of time" in await referee.board_text(table_id)


async def test_a_player_who_ran_out_may_still_play_until_skipped(referee, clock):
    table_id = await two_player_nim(referee)
    clock.advance(40 * HOUR)
    await referee.due_actions()
    await referee.play(table_id, "alice", "take 1")
    assert (await seat_clock(referee, table_id, 0)).remaining == DAILY2.increment


async def test_skip_is_refused_until_the_time_is_up_and_only_other_players_may_skip(referee, clock):
    table_id = await two_player_nim(referee)
    clock.advance(10 * HOUR)
    with pytest.raises(SkipRefused, match="still has 1d 2h"):
        await referee.skip(table_id, "bob", 0)
    with pytest.raises(SkipRefused, match="not Bob's turn"):
        await referee.skip(table_id, "alice", 1)
    clock.advance(30 * HOUR)
    with pytest.raises(NotInGame):
        await referee.skip(table_id, "carol", 0)
    with pytest.raises(SkipRefused, match="yourself"):
        await referee.skip(table_id, "alice", 0)
    with pytest.raises(SkipRefused, match="no seat 5"):
        await referee.skip(table_id, "bob", 4)
    assert (await referee.table(table_id)).version == 0


async def test_skipped_seat_is_played_by_an_ai_until_its_player_comes_back_by_playing(referee, clock):
    table_id = await two_player_nim(referee, tokens=30)
    clock.advance(36 * HOUR)
    outbox = await referee.skip(table_id, "bob", 0)
    # The AI played Alice's move at once; it is Bob's turn.
    assert outbox.moves_applied == 1 and outbox.to_act == [1]
    assert "Alice ran out of time and was skipped" in outbox.public_log[0]
    alice = outbox.table.seats[0]
    assert alice.absent and alice.skips == 1 and alice.ai_played and not alice.is_ai
    assert alice.next_due_at == clock.now + DAILY2.bank  # forfeited if away a further full bank
    outbox = await referee.play(table_id, "bob", "take 1")
    assert outbox.moves_applied == 2  # the AI answered for Alice
    assert [t.links.table_id for t in await referee.turns_waiting("alice")] == []
    # Alice comes back by playing: her seat is hers again, though it is not her turn.
    clock.advance(HOUR)
    with pytest.raises(NotYourTurn, match="Welcome back"):
        await referee.play(table_id, "alice", "take 1")
    referee.forget_cache()
    alice = (await referee.table(table_id)).seats[0]
    assert not alice.absent and alice.clock.remaining == DAILY2.increment
    outbox = await referee.play(table_id, "bob", "take 1")
    assert outbox.moves_applied == 1 and outbox.to_act == [0]
    assert (await seat_clock(referee, table_id, 0)).running


async def test_return_to_seat_is_a_button_that_can_be_pressed_twice(referee, clock):
    table_id = await two_player_nim(referee, tokens=30)
    clock.advance(36 * HOUR)
    await referee.skip(table_id, "bob", 0)
    outbox = await referee.return_to_seat(table_id, "alice")
    assert outbox.public_log == ["Alice is back and plays their own seat again."]
    assert not outbox.table.seats[0].absent
    again = await referee.return_to_seat(table_id, "alice")
    assert again.public_log == [] and not again.board_changed


async def test_a_second_skip_forfeits(referee, clock):
    table_id = await two_player_nim(referee, tokens=30)
    clock.advance(36 * HOUR)
    await referee.skip(table_id, "bob", 0)
    await referee.return_to_seat(table_id, "alice")
    await referee.play(table_id, "bob", "take 1")
    clock.advance(DAILY2.increment)  # the bank she came back with
    outbox = await referee.skip(table_id, "bob", 0)
    assert outbox.forfeited == [0] and "forfeits" in outbox.public_log[0]
    seat = outbox.table.seats[0]
    assert seat.forfeited and seat.skips == 2
    with pytest.raises(ForfeitedSeat):
        await referee.play(table_id, "alice", "take 1")
    with pytest.raises(ForfeitedSeat):
        await referee.return_to_seat(table_id, "alice")


async def test_a_seat_away_for_a_further_full_bank_is_forfeited_and_ranked_last(referee, clock):
    table_id = await two_player_nim(referee, tokens=7)
    clock.advance(36 * HOUR)
    await referee.skip(table_id, "bob", 0)  # the AI took 1 to 3 for Alice
    clock.advance(DAILY2.bank - 1)
    assert (await referee.due_actions()).forfeits == []
    clock.advance(1)
    due = await referee.due_actions()
    assert [(f.seat, f.user_id) for f in due.forfeits] == [(0, "alice")]
    assert (await referee.due_actions()).forfeits == []
    # Bob plays on against the AI; whoever takes the last token, Alice is ranked last.
    outbox = None
    while (await referee.table(table_id)).status == RUNNING:
        outbox = await referee.play(table_id, "bob", "take 1")
    assert outbox.finished and outbox.outcome.ranks == [2, 1] and outbox.forfeited == [0]
    result = outbox.result
    assert result.forfeits == 1 and result.ai_played and result.rated
    alice = result.seats[0]
    assert alice.forfeited and alice.ai_played and alice.rank == 2
    assert await referee.outcome(table_id) == outbox.outcome
    assert await referee.result(table_id) == result
    # Nothing is due at a finished table, and nobody waits there.
    table = await referee.table(table_id)
    assert all(seat.next_due_at is None and seat.waiting_since is None for seat in table.seats)
    assert all(not seat.clock.running for seat in table.seats)
    assert await referee.store.next_due_at() is None and await referee.turns_waiting("bob") == []


async def test_a_skipped_seat_still_away_at_the_end_forfeits(referee, clock):
    table_id = await two_player_nim(referee, tokens=2)
    clock.advance(36 * HOUR)
    outbox = await referee.skip(table_id, "bob", 0)  # the AI takes 1 or 2 for Alice
    if not outbox.finished:
        outbox = await referee.play(table_id, "bob", "take 1")
    assert outbox.finished and outbox.forfeited == [0]
    assert "Alice never came back and forfeits." in outbox.public_log
    assert outbox.outcome.ranks == [2, 1]
    assert outbox.result.seats[0].game_rank in (1, 2) and outbox.result.seats[0].rank == 2


async def test_simultaneous_phase_runs_several_clocks_at_once(referee, clock, bids_game):
    table = await referee.create_table("bids", "alice", "Alice", guild_id="g1", speed="daily-2")
    await referee.join(table.id, "bob", "Bob")
    await referee.join(table.id, "carol", "Carol")
    await referee.start(table.id, "alice")
    clock.advance(HOUR)
    await referee.play(table.id, "bob", "bid 2")
    table = await referee.table(table.id)
    assert [seat.clock.running for seat in table.seats] == [True, False, True]
    assert table.seats[1].clock.remaining == DAILY2.bank  # capped
    views = await referee.clock_views(table.id)
    assert [(v.name, v.remaining, v.running) for v in views] == [
        ("Alice", 35 * HOUR, True),
        ("Bob", 36 * HOUR, False),
        ("Carol", 35 * HOUR, True),
    ]
    clock.advance(35 * HOUR)
    due = await referee.due_actions()
    timeouts = sorted((t.user_id, sorted(t.can_skip)) for t in due.timeouts)
    assert timeouts == [("alice", ["bob", "carol"]), ("carol", ["alice", "bob"])]
    outbox = await referee.skip(table.id, "bob", 0)
    assert outbox.moves_applied == 1  # Alice's AI bid; Carol must still bid
    assert outbox.to_act == [2]


async def test_quiet_hours_pause_daily_clocks_and_hold_reminders(referee, clock):
    with pytest.raises(QuietHoursError, match="time zone"):
        await referee.set_quiet_hours("alice", "Atlantis/Capital", 23, 7)
    quiet = await referee.set_quiet_hours("alice", "Europe/Rome", 22, 10)  # a twelve-hour night
    assert await referee.quiet_hours("alice") == quiet
    clock.now = at("2024-03-04 10:00", "Europe/Rome")
    table_id = await two_player_nim(referee)
    # 36 clock hours at 12 waking hours a day: the flag falls three days later, in the evening.
    flag = at("2024-03-06 22:00", "Europe/Rome")
    waiting = await referee.turns_waiting("alice")
    assert waiting[0].deadline == flag
    # Half time (18 clock hours) comes at 16:00 the next day; the poll comes late, at night.
    clock.now = at("2024-03-05 15:59", "Europe/Rome")
    assert (await referee.due_actions()).reminders == []
    clock.now = at("2024-03-05 22:00", "Europe/Rome")
    assert (await referee.due_actions()).reminders == []  # quiet: held until morning
    assert "(quiet hours)" in await referee.board_text(table_id)
    assert (await referee.turns_waiting("alice"))[0].remaining == 12 * HOUR  # not running at night
    clock.now = at("2024-03-06 09:59", "Europe/Rome")
    assert (await referee.due_actions()).reminders == []
    clock.now = at("2024-03-06 10:00", "Europe/Rome")
    assert [(r.rung, r.remaining) for r in (await referee.due_actions()).reminders] == [(1, 12 * HOUR)]
    # Quiet hours dropped mid-turn: the time used so far stays charged, the rest runs day and night.
    clock.now = at("2024-03-06 12:00", "Europe/Rome")
    await referee.clear_quiet_hours("alice")
    assert await referee.quiet_hours("alice") is None
    assert (await referee.turns_waiting("alice"))[0].deadline == clock.now + 10 * HOUR


async def test_downtime_found_at_start_up_is_credited_to_every_running_clock(tmp_path, clock, toy_game):
    path = tmp_path / "restart.sqlite3"
    referee = await open_referee(path, clock)
    table_id = await two_player_nim(referee)
    untimed_id = await two_player_nim(referee, speed="untimed", first="carol", second="dave")
    clock.advance(10 * HOUR)
    await referee.due_actions()  # the heartbeat of the last poll before the crash
    await referee.store.close()

    clock.advance(20 * HOUR)  # the bot is down: without credit Alice would be 6 hours from the flag
    referee = await open_referee(path, clock)
    assert await referee.credit_downtime() == 20 * HOUR
    alice = await seat_clock(referee, table_id, 0)
    assert alice.remaining == 26 * HOUR and alice.running_since == clock.now
    waiting = await referee.turns_waiting("alice")
    assert waiting[0].remaining == 26 * HOUR and waiting[0].deadline == clock.now + 26 * HOUR
    # Timers come back from SQLite: the half-time reminder is due 8 hours after the restart.
    due = await referee.due_actions()
    assert due.reminders == [] and due.next_due_at == clock.now + 8 * HOUR
    clock.advance(8 * HOUR)
    assert [r.user_id for r in (await referee.due_actions()).reminders] == ["alice"]
    assert (await referee.table(untimed_id)).seats[0].clock is None
    await referee.store.close()


async def test_the_first_poll_after_a_restart_credits_downtime_by_itself(tmp_path, clock, toy_game):
    path = tmp_path / "restart.sqlite3"
    referee = await open_referee(path, clock)
    table_id = await two_player_nim(referee, speed="live-3")
    clock.advance(60)
    await referee.due_actions()
    await referee.store.close()
    clock.advance(3 * HOUR)
    referee = await open_referee(path, clock)
    due = await referee.due_actions()
    assert due.timeouts == [] and due.reminders == []
    assert due.next_due_at == clock.now + 30  # 120 s left of 180: half time in 30 s
    assert due.wait_seconds() == 30 and due.wait_seconds(limit=10) == 10
    assert (await referee.turns_waiting("alice"))[0].remaining == 120
    await referee.store.close()
    del table_id


async def test_turns_waiting_lists_oldest_first_with_links_per_server(referee, clock):
    first = await two_player_nim(referee, guild_id="g1")
    clock.advance(HOUR)
    second = await two_player_nim(referee, guild_id="g2", first="bob", second="alice")
    clock.advance(HOUR)
    third = await two_player_nim(referee, guild_id="g1", speed="untimed")
    await referee.set_links(third, thread_id="t3", message_id="m3")
    clock.advance(HOUR)
    await referee.play(second, "bob", "take 1")  # now Alice must act there too, since just now
    turns = await referee.turns_waiting("alice")
    assert [t.links.table_id for t in turns] == [first, third, second]
    assert turns[1].remaining is None and turns[1].links.thread_id == "t3"
    assert turns[0].remaining == 33 * HOUR
    assert [t.links.table_id for t in await referee.turns_waiting("alice", "g1")] == [first, third]
    assert [t.links.table_id for t in await referee.turns_waiting("alice", guild_ids=["g2"])] == [second]
    assert await referee.turns_waiting("bob") == []
    await referee.cancel(first, "alice")
    assert [t.links.table_id for t in await referee.turns_waiting("alice")] == [third, second]


async def test_a_table_that_cannot_be_loaded_does_not_stop_the_clock_task(
    referee, clock, bids_game, monkeypatch
):
    broken = await referee.create_table("bids", "carol", "Carol", speed="daily-2")
    await referee.join(broken.id, "dave", "Dave")
    await referee.start(broken.id, "carol")
    table_id = await two_player_nim(referee)
    from engine.games import REGISTRY, get_game

    monkeypatch.delitem(REGISTRY, "bids")  # the game was uninstalled
    get_game.cache_clear()
    referee.forget_cache()
    clock.advance(40 * HOUR)
    due = await referee.due_actions()
    assert [t.links.table_id for t in due.timeouts] == [table_id]


async def test_quiet_hours_set_mid_game_reach_the_clock_of_the_next_turn(referee, clock):
    """A table keeps its players' quiet hours between moves; a change must not be missed."""
    from engine.referee import clock as clocks

    table_id = await two_player_nim(referee, tokens=30)
    await referee.play(table_id, "alice", "take 1")  # the quiet hours of both are now cached
    await referee.play(table_id, "bob", "take 1")
    quiet = await referee.set_quiet_hours("bob", "Europe/Rome", 22, 10)
    clock.advance(HOUR)
    await referee.play(table_id, "alice", "take 1")  # Bob's turn starts under his new hours
    bob = (await referee.table(table_id)).seats[1]
    assert bob.clock is not None and bob.clock.running
    assert bob.next_due_at == clocks.next_check(bob.clock, DAILY2, quiet)
    assert bob.next_due_at != clocks.next_check(bob.clock, DAILY2, None)
