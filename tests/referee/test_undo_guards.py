"""Undo's edges (issue 20): the clocks after a move is taken back, who must agree in a rated game
when a seat is away, and the moves the referee made itself (an AI stand-in, a forced move)."""

from __future__ import annotations

import pytest

from engine.referee import StaleVersion, UndoRefused
from engine.referee.clock import get_speed, remaining_at

from ..toy_game import Nim
from .helpers import HOUR, two_player_nim


@pytest.fixture
def nim_undoable(toy_game, monkeypatch):
    monkeypatch.setattr(Nim, "undoable", lambda self, before, seat, move, after: True)


async def clock_of(referee, table_id: int, seat: int, now: float) -> tuple[float, bool]:
    """Hours left on a seat's clock at ``now``, and whether it runs."""
    table = await referee.table(table_id)
    clock = table.seats[seat].clock
    return remaining_at(clock, now, get_speed(table.speed), None) / HOUR, clock.running


async def test_after_an_undo_the_clocks_stand_as_at_the_move(referee, clock, nim_undoable):
    # daily-2: a 36-hour bank, +12 hours a move. Bob spends 30 hours on a move (6 left, +12: 18).
    table_id = await two_player_nim(referee, tokens=20)
    await referee.play(table_id, "alice", "take 1")
    clock.advance(30 * HOUR)
    await referee.play(table_id, "bob", "take 1")
    clock.advance(1 * HOUR)
    await referee.play(table_id, "alice", "take 1")  # Alice: 35 left, +12, capped at 36
    await referee.undo(table_id, "alice")
    clock.advance(2 * HOUR)  # Bob thinks two hours before agreeing
    await referee.agree_to_undo(table_id, "bob", 3)
    # Alice goes on with the 35 hours she had when she moved: the move she took back earns no
    # increment. Bob's turn never happened: his clock stands at the 18 hours it had, neither
    # charged the two hours nor given an increment for a turn he did not play.
    assert await clock_of(referee, table_id, 0, clock.now) == (35.0, True)
    assert await clock_of(referee, table_id, 1, clock.now) == (18.0, False)
    clock.advance(1 * HOUR)
    assert await clock_of(referee, table_id, 0, clock.now) == (34.0, True)
    await referee.play(table_id, "alice", "take 2")  # her turn ends now, with its increment
    assert await clock_of(referee, table_id, 0, clock.now) == (36.0, False)
    assert await clock_of(referee, table_id, 1, clock.now) == (18.0, True)


async def three_player_nim(referee) -> int:
    table = await referee.create_table("nim", "alice", "Alice", options={"tokens": 30}, guild_id="g1", speed="daily-2")
    await referee.join(table.id, "bob", "Bob")
    await referee.join(table.id, "carol", "Carol")
    await referee.start(table.id, "alice", seed=42)
    return table.id


async def test_a_rated_undo_asks_the_people_present_not_a_seat_an_ai_plays_for_its_absent_player(
    referee, clock, nim_undoable
):
    table_id = await three_player_nim(referee)
    await referee.play(table_id, "alice", "take 1")
    await referee.play(table_id, "bob", "take 1")
    clock.advance(37 * HOUR)  # Carol's bank runs out: Alice skips her, and the AI plays her seat
    await referee.skip(table_id, "alice", 2)
    await referee.play(table_id, "alice", "take 1")
    asked = await referee.undo(table_id, "alice")
    # Carol cannot be asked (she is away and would hold the request until someone moves): Bob,
    # the one person present, decides. Carol may still refuse if she comes by.
    assert asked.waiting_for == [1]
    with pytest.raises(UndoRefused, match="Only the other players"):
        await referee.agree_to_undo(table_id, "alice", asked.request.version)
    done = await referee.agree_to_undo(table_id, "bob", asked.request.version)
    assert done.outbox is not None and await referee.to_act(table_id) == (0,)


async def test_an_absent_player_may_still_refuse(referee, clock, nim_undoable):
    table_id = await three_player_nim(referee)
    await referee.play(table_id, "alice", "take 1")
    await referee.play(table_id, "bob", "take 1")
    clock.advance(37 * HOUR)
    await referee.skip(table_id, "alice", 2)
    await referee.play(table_id, "alice", "take 1")
    tokens = (await referee.state(table_id)).tokens
    asked = await referee.undo(table_id, "alice")
    await referee.refuse_undo(table_id, "carol", asked.request.version)
    with pytest.raises(StaleVersion):
        await referee.agree_to_undo(table_id, "bob", asked.request.version)
    assert (await referee.state(table_id)).tokens == tokens


async def test_a_move_the_ai_made_for_an_absent_player_is_not_theirs_to_take_back(referee, clock, nim_undoable):
    table_id = await two_player_nim(referee, tokens=20)
    clock.advance(37 * HOUR)  # Alice runs out; Bob skips her and the AI moves for her at once
    await referee.skip(table_id, "bob", 0)
    assert [m.seat for m in await referee.store.move_log(table_id)] == [0]
    with pytest.raises(UndoRefused, match="An AI plays your seat"):
        await referee.undo(table_id, "alice")
    assert await referee.to_act(table_id) == (1,)


async def test_a_forced_move_the_referee_played_cannot_be_taken_back(referee, nim_undoable, monkeypatch):
    from ..toy_game import Take

    # Bob's move at 9 tokens is forced: the referee plays it for him, as for a lone legal move.
    monkeypatch.setattr(Nim, "automatic_move", lambda self, state, seat: Take(1) if state.tokens == 9 else None)
    table_id = await two_player_nim(referee, tokens=10, speed="untimed")
    await referee.play(table_id, "alice", "take 1")
    assert (await referee.state(table_id)).tokens == 8
    with pytest.raises(UndoRefused, match="forced"):
        await referee.undo(table_id, "bob")
    assert (await referee.state(table_id)).tokens == 8 and await referee.to_act(table_id) == (0,)
