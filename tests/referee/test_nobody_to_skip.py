"""Clocks with nobody left to press Skip (one person with AI seats, or every other person away):
the referee skips the seat itself, the game waits a further full bank for its player (who is
offered their moves meanwhile), then ends by the clock; and the "you ran out" notice that falls
in a player's quiet hours waits for them to end instead of being dropped."""

from __future__ import annotations

import pytest

from engine.referee import FINISHED, RUNNING, Referee
from engine.referee.clock import get_speed

from .helpers import DAY, HOUR, at, open_referee, two_player_nim

pytestmark = [pytest.mark.usefixtures("toy_game"), pytest.mark.both_backends]
DAILY2 = get_speed("daily-2")  # 36 h bank, +12 h a move


async def alone_with_an_ai(referee: Referee, tokens: int = 30) -> int:
    table = await referee.create_table("nim", "alice", "Alice", options={"tokens": tokens}, speed="daily-2")
    await referee.add_ai(table.id, "alice", "random")
    await referee.start(table.id, "alice", seed=42)
    return table.id


async def test_a_person_alone_with_ai_seats_is_skipped_by_the_referee_and_the_game_ends_by_the_clock(
    referee, clock
):
    table_id = await alone_with_an_ai(referee)
    clock.advance(DAILY2.bank)
    due = await referee.due_actions()
    [timeout] = due.timeouts
    assert (timeout.user_id, timeout.can_skip, timeout.skipped) == ("alice", [], True)
    # Recorded as a skip and announced on the board like one; the game waits for her.
    [skipped] = due.moves
    assert skipped.public_log == [
        "Alice ran out of time and nobody else can skip the seat, so the referee skipped it: the game "
        "waits for Alice to come back (play a move, or press I'm back) for a further full bank "
        "(1d 12h), then Alice forfeits."
    ]
    assert skipped.moves_applied == 0 and skipped.to_act == [0] and skipped.board_changed
    alice = (await referee.table(table_id)).seats[0]
    assert alice.absent and alice.skips == 1 and alice.next_due_at == clock.now + DAILY2.bank
    clock.advance(DAILY2.bank - 1)
    assert (await referee.due_actions()).forfeits == []
    assert (await referee.table(table_id)).status == RUNNING
    clock.advance(1)
    due = await referee.due_actions()
    assert [(f.seat, f.user_id) for f in due.forfeits] == [(0, "alice")]
    # From the forfeit on, the AI plays her seat to the end: the game is over, Alice last.
    [ended] = due.moves
    assert ended.finished and ended.forfeited == [0] and ended.outcome.ranks == [2, 1]
    assert (await referee.table(table_id)).status == FINISHED
    assert ended.result is not None and ended.result.seats[0].forfeited
    clock.advance(30 * DAY)
    assert await referee.store.next_due_at() is None


async def test_a_skipped_player_the_game_waits_for_is_offered_their_moves_and_plays_one_to_come_back(
    referee, clock
):
    table_id = await alone_with_an_ai(referee)
    clock.advance(DAILY2.bank)
    await referee.due_actions()
    assert (await referee.table(table_id)).seats[0].absent
    assert await referee.legal_moves(table_id, "alice") == ["take 1", "take 2", "take 3"]
    clock.advance(HOUR)
    outbox = await referee.play(table_id, "alice", "take 2")
    # Her seat is hers again, the move counts, the AI answered, and she came back with one
    # increment in the bank (then earned one more with the move).
    assert outbox.moves_applied == 2 and outbox.to_act == [0]
    alice = outbox.table.seats[0]
    assert not alice.absent and alice.clock.running and alice.clock.remaining == 2 * DAILY2.increment


async def test_when_every_other_person_is_away_the_referee_skips_and_the_first_back_plays_on(referee, clock):
    table_id = await two_player_nim(referee, tokens=30)
    await referee.play(table_id, "alice", "take 1")
    clock.advance(30 * HOUR)
    await referee.play(table_id, "bob", "take 1")  # Bob keeps 6 hours, plus 12
    clock.advance(DAILY2.bank)
    await referee.skip(table_id, "bob", 0)  # the AI plays for Alice; Bob's turn
    clock.advance(18 * HOUR)
    due = await referee.due_actions()
    assert [(t.user_id, t.can_skip, t.skipped) for t in due.timeouts] == [("bob", [], True)]
    [waiting] = due.moves
    assert waiting.to_act == [1] and waiting.moves_applied == 0  # nobody plays: the game waits
    # Alice comes back: the AI now plays Bob's waiting seat, and it is her turn.
    outbox = await referee.return_to_seat(table_id, "alice")
    assert outbox.moves_applied == 1 and outbox.to_act == [0]
    assert outbox.public_log[0] == "Alice is back and plays their own seat again."


async def test_the_ran_out_notice_waits_for_the_end_of_quiet_hours(referee, clock):
    await referee.set_quiet_hours("alice", "Europe/Rome", 22, 10)
    clock.now = at("2024-03-04 10:00", "Europe/Rome")
    table_id = await two_player_nim(referee)
    clock.now = at("2024-03-06 22:00", "Europe/Rome")  # her 36 waking hours are up: at night
    due = await referee.due_actions()
    [timeout] = due.timeouts
    assert timeout.can_skip == ["bob"] and not timeout.tell_player and due.reminders == []
    assert due.next_due_at == at("2024-03-07 10:00", "Europe/Rome")
    await referee.skip(table_id, "bob", 0)  # skipped in the night: she hears both in the morning
    clock.now = at("2024-03-07 09:59", "Europe/Rome")
    assert (await referee.due_actions()).reminders == []
    clock.now = at("2024-03-07 10:00", "Europe/Rome")
    [notice] = (await referee.due_actions()).reminders
    assert (notice.user_id, notice.ran_out, notice.skipped) == ("alice", True, True)
    assert (await referee.due_actions()).reminders == []  # once


async def test_a_ran_out_notice_outside_quiet_hours_goes_at_once(referee, clock):
    await two_player_nim(referee)
    clock.advance(DAILY2.bank)
    [timeout] = (await referee.due_actions()).timeouts
    assert timeout.tell_player and not timeout.skipped


async def test_a_seat_left_with_nobody_to_skip_it_by_a_skip_is_skipped_at_the_next_poll(
    referee, clock, bids_game
):
    table = await referee.create_table("bids", "alice", "Alice", speed="daily-2")
    await referee.join(table.id, "bob", "Bob")
    await referee.start(table.id, "alice")
    clock.advance(DAILY2.bank)
    due = await referee.due_actions()
    assert sorted((t.user_id, t.can_skip) for t in due.timeouts) == [("alice", ["bob"]), ("bob", ["alice"])]
    await referee.skip(table.id, "bob", 0)  # Alice's AI bids; Bob, out of time, must still bid
    assert (await referee.table(table.id)).seats[1].next_due_at == clock.now
    due = await referee.due_actions()
    [skipped] = due.moves
    assert skipped.public_log[0].startswith("Bob ran out of time and nobody else can skip the seat")
    assert skipped.to_act == [1] and (await referee.table(table.id)).seats[1].absent


async def test_the_first_back_by_playing_gets_the_absent_seats_played_first_then_their_move(referee, clock):
    table_id = await two_player_nim(referee, tokens=30)
    await referee.play(table_id, "alice", "take 1")
    clock.advance(30 * HOUR)
    await referee.play(table_id, "bob", "take 1")
    clock.advance(DAILY2.bank)
    await referee.skip(table_id, "bob", 0)
    clock.advance(18 * HOUR)
    await referee.due_actions()  # Bob skipped by the referee: the game waits on his seat
    outbox = await referee.play(table_id, "alice", "take 1")  # the AI plays Bob first, then her move
    assert outbox.moves_applied == 3 and outbox.to_act == [0]
    assert not outbox.table.seats[0].absent and outbox.table.seats[1].absent


async def test_a_long_run_of_ai_moves_lets_go_of_the_table_and_the_clock_task_plays_on(tmp_path, clock):
    """Every person forfeited a long game (a Figures match of hundreds of hands): the AI seats play
    it out ``max_ai_moves`` at a time, never holding the table for the whole of it, and each poll
    of the clock task plays the next stretch until the game is over."""
    referee = await open_referee(tmp_path / "referee.sqlite3", clock, max_ai_moves=3)
    try:
        await _play_out_forfeited_game(referee, clock)
    finally:
        await referee.store.close()


async def _play_out_forfeited_game(referee: Referee, clock) -> None:
    table_id = await alone_with_an_ai(referee, tokens=40)
    clock.advance(DAILY2.bank)
    await referee.due_actions()  # skipped by the referee
    clock.advance(DAILY2.bank)
    due = await referee.due_actions()  # a further full bank: she forfeits, the AI plays on
    assert [forfeit.user_id for forfeit in due.forfeits] == ["alice"]
    stretches = [outbox.moves_applied for outbox in due.moves]
    while (await referee.table(table_id)).status == RUNNING:
        assert await referee.store.next_due_at() == clock.now  # the rest is due at once
        stretches += [outbox.moves_applied for outbox in (await referee.due_actions()).moves]
        assert len(stretches) < 40
    assert max(stretches) == 3 and len(stretches) > 2
    assert (await referee.table(table_id)).status == FINISHED
    assert await referee.store.next_due_at() is None
