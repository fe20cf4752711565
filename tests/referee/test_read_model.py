"""The read model: one seat's snapshot holds its own moves and private view, a spectator's none,
never the seed of a running game, and comes from one load of the table."""

from __future__ import annotations

import asyncio
import random

import pytest

from engine.games import get_game
from engine.referee import FINISHED, Referee, WrongStatus
from engine.referee.presentation import clock_line

from ..stores import open_test_store
from .helpers import MONDAY, ManualClock

pytestmark = pytest.mark.both_backends

PLAYERS = [("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol"), ("dan", "Dan")]


@pytest.fixture
async def referee(tmp_path):
    store = await open_test_store(tmp_path / "games.sqlite3")
    ref = Referee(store, clock=ManualClock(MONDAY), ai_rng=random.Random(5))
    yield ref
    await store.close()


async def vegetables(referee: Referee, speed: str = "daily-2") -> int:
    """A four-player game of hidden hands, started with a known seed."""
    table = await referee.create_table("vegetables", "alice", "Alice", guild_id="g1", speed=speed)
    for user, name in PLAYERS[1:]:
        await referee.join(table.id, user, name)
    await referee.start(table.id, "alice", seed=42)
    return table.id


async def test_a_seat_sees_exactly_its_moves_and_its_private_view(referee):
    table_id = await vegetables(referee)
    game = get_game("vegetables")
    state = await referee.state(table_id)
    privates = set()
    for index, (user, _) in enumerate(PLAYERS):
        snapshot = await referee.snapshot(table_id, user)
        assert snapshot.seat == index
        assert snapshot.private == game.render_private(game.view(state, index), (await referee.table(table_id)).names)
        privates.add(snapshot.private)
        expected = [
            game.format_move(move) for move in game.legal_moves(state, index)
        ] if index in game.may_act(state) else []
        assert snapshot.legal_moves == expected
        assert list(snapshot.moves) == await referee.described_moves(table_id, user)
        assert snapshot.to_act == tuple(game.to_act(state))
        assert snapshot.board == await referee.board_text(table_id)
        assert snapshot.seating == (None if game.seating(state) is None else tuple(game.seating(state)))
        assert not snapshot.is_over and snapshot.outcome is None
    assert len(privates) == len(PLAYERS)  # four hands, four different views
    assert [(await referee.snapshot(table_id, user)).moves != () for user, _ in PLAYERS].count(True) >= 1


async def test_a_spectator_sees_no_private_view_and_no_moves(referee):
    table_id = await vegetables(referee)
    for viewer in (None, "eve"):
        snapshot = await referee.snapshot(table_id, viewer)
        assert snapshot.seat is None
        assert snapshot.private is None
        assert snapshot.moves == () and snapshot.legal_moves == []
        assert snapshot.board == await referee.board_text(table_id)


async def test_the_snapshot_never_carries_the_seed_while_running(referee):
    table_id = await vegetables(referee)
    assert (await referee.state(table_id)) is not None
    for viewer in (None, "alice", "bob"):
        snapshot = await referee.snapshot(table_id, viewer)
        assert snapshot.table.seed is None
        assert snapshot.version == snapshot.table.version


async def test_clocks_and_the_clock_line_at_a_timed_table(referee):
    table_id = await vegetables(referee)
    snapshot = await referee.snapshot(table_id, "alice")
    assert [view.seat for view in snapshot.clocks] == [0, 1, 2, 3]
    assert snapshot.board.endswith("\n" + clock_line(snapshot.clocks))
    assert snapshot.clocks == tuple(await referee.clock_views(table_id))


async def test_one_load_of_the_table_under_its_lock(referee, monkeypatch):
    table_id = await vegetables(referee)
    referee.forget_cache()
    loads: list[int] = []
    table_reads: list[int] = []
    tables = referee._tables
    load, load_table = tables.load, referee.store.load_table

    async def counted_load(table_id: int):
        loads.append(table_id)
        return await load(table_id)

    async def counted_load_table(table_id: int):
        table_reads.append(table_id)
        return await load_table(table_id)

    monkeypatch.setattr(tables, "load", counted_load)
    monkeypatch.setattr(referee.store, "load_table", counted_load_table)
    await referee.snapshot(table_id, "alice")
    assert loads == [table_id] and table_reads == [table_id]


async def test_a_snapshot_waits_for_a_call_holding_the_table(referee):
    table_id = await vegetables(referee)
    async with referee._tables.lock(table_id):  # as a move in flight holds it
        task = asyncio.create_task(referee.snapshot(table_id, "alice"))
        done, _ = await asyncio.wait([task], timeout=0.5)
        assert not done
    assert (await task).seat == 0


async def test_a_finished_game_has_its_outcome_and_a_lobby_no_snapshot(referee, toy_game):
    table = await referee.create_table("nim", "alice", "Alice", options={"tokens": 1}, guild_id="g1")
    with pytest.raises(WrongStatus):
        await referee.snapshot(table.id, "alice")
    await referee.join(table.id, "bob", "Bob")
    await referee.start(table.id, "alice", seed=1)
    outbox = await referee.play(table.id, "alice", "take 1")
    assert outbox.table.status == FINISHED
    snapshot = await referee.snapshot(table.id, "alice")
    assert snapshot.is_over and snapshot.to_act == () and snapshot.moves == ()
    assert snapshot.outcome == await referee.outcome(table.id)
    assert snapshot.table.seed == 1  # the seed is no secret once the game is over


async def test_the_snapshot_hands_over_the_views_a_front_end_draws_from(referee):
    """A front end draws from the snapshot alone: the public view and the viewer's own seat view,
    of the same version as the texts (a spectator gets no seat view)."""
    table_id = await vegetables(referee)
    game = get_game("vegetables")
    state = await referee.state(table_id)
    names = (await referee.table(table_id)).names
    for index, (user, _) in enumerate(PLAYERS):
        snapshot = await referee.snapshot(table_id, user)
        assert snapshot.public_view == game.view(state, None)
        assert snapshot.seat_view == game.view(state, index)
        assert game.render_board(snapshot.public_view, names) in snapshot.board
        assert game.render_private(snapshot.seat_view, names) == snapshot.private
    spectator = await referee.snapshot(table_id, "eve")
    assert spectator.seat_view is None and spectator.public_view == game.view(state, None)
