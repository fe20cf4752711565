"""Several referees (as several bot processes would be) over one database: the database is the
only truth. A referee whose cached table is behind reloads it and judges the move again; one move
submitted many times at once, through every referee, is accepted once; results of several games
landing at once leave the ratings as a replay of the results would."""

from __future__ import annotations

import asyncio
import random

import pytest

from engine.core import GameError, NotYourTurn, RecordedMove
from engine.referee import Referee
from engine.referee.model import VersionConflict
from tests.referee.helpers import MONDAY, ManualClock, open_referee, two_player_nim
from tests.stores import open_test_store

pytestmark = [pytest.mark.usefixtures("toy_game"), pytest.mark.both_backends]


async def referees(path, count: int) -> list[Referee]:
    clock = ManualClock(MONDAY)
    return [await open_referee(path, clock, seed=index, shared=True) for index in range(count)]


async def close(*opened: Referee) -> None:
    for referee in opened:
        await referee.store.close()


async def test_a_stale_copy_is_reloaded_and_the_move_judged_again(tmp_path):
    first, second = await referees(tmp_path / "shared.sqlite3", 2)
    table_id = await two_player_nim(first, tokens=10)
    start = (await second.table(table_id)).version  # the second process caches it: Alice to move
    await first.play(table_id, "alice", "take 1")  # the first moves it on: now Bob
    # Bob's move reaches the second process, whose copy still says Alice: it reloads and accepts.
    outbox = await second.play(table_id, "bob", "take 2")
    assert outbox.moves_applied == 1 and outbox.table.version == start + 2
    # The first process, now behind, accepts Alice after reloading: it is her turn again.
    await first.play(table_id, "alice", "take 3")
    # The second one's copy says Alice may move: its commit fails, it reloads, and refuses.
    with pytest.raises(NotYourTurn):
        await second.play(table_id, "alice", "take 1")
    assert [move.move for move in await first.store.move_log(table_id)] == ["take 1", "take 2", "take 3"]
    await close(first, second)


async def test_a_failed_compare_and_swap_judges_the_move_again_on_the_stored_game(tmp_path):
    """The copy looked current when the move was judged, but another process committed first:
    the commit's version check fails, and the move is judged again on the reloaded table."""
    first, second = await referees(tmp_path / "cas.sqlite3", 2)
    table_id = await two_player_nim(first, tokens=10)
    start = (await second.table(table_id)).version
    commit = second.store.commit_moves

    async def overtaken(*args, **kwargs):
        # Just before this commit, the first process plays Alice's move (the same one).
        second.store.commit_moves = commit  # once
        await first.play(table_id, "alice", "take 1")
        return await commit(*args, **kwargs)

    second.store.commit_moves = overtaken
    with pytest.raises(NotYourTurn):  # judged again: Alice has already moved
        await second.play(table_id, "alice", "take 1")
    assert len(await second.store.move_log(table_id)) == 1
    outbox = await second.play(table_id, "bob", "take 1")  # and the second process is current again
    assert outbox.table.version == start + 2
    await close(first, second)


async def test_a_process_whose_copy_is_current_reads_nothing_before_a_move_or_a_refusal_alone(tmp_path):
    """The games of a process's shards are moved by it alone nearly always: a move judged on its
    cached copy costs no read of the table (the commit's compare-and-swap catches a stale copy);
    only a refused move is checked against the table as stored, once."""
    first, second = await referees(tmp_path / "reads.sqlite3", 2)
    table_id = await two_player_nim(first, tokens=30)
    reads: list[int] = []
    load = first.store.load_table

    async def counted(table_id: int):
        reads.append(table_id)
        return await load(table_id)

    first.store.load_table = counted
    for _ in range(3):
        await first.play(table_id, "alice", "take 1")
        await first.play(table_id, "bob", "take 1")
    assert reads == []
    with pytest.raises(NotYourTurn):  # the copy is current: refused after one read
        await first.play(table_id, "bob", "take 1")
    assert reads == [table_id]
    await second.play(table_id, "alice", "take 1")  # another process moves: the copy is stale
    reads.clear()
    outbox = await first.play(table_id, "bob", "take 2")  # refused on the copy, accepted as stored
    assert outbox.moves_applied == 1 and len(reads) == 1
    assert len(await second.store.move_log(table_id)) == 8
    await close(first, second)


async def test_one_of_a_hundred_simultaneous_submissions_through_three_referees_is_accepted(tmp_path):
    opened = await referees(tmp_path / "hundred.sqlite3", 3)
    table_id = await two_player_nim(opened[0], tokens=10)
    for referee in opened:
        await referee.table(table_id)  # every process has the table cached
    results = await asyncio.gather(
        *(opened[index % 3].play(table_id, "alice", "take 2") for index in range(100)), return_exceptions=True
    )
    accepted = [result for result in results if not isinstance(result, BaseException)]
    refused = [result for result in results if isinstance(result, BaseException)]
    assert len(accepted) == 1 and all(isinstance(error, GameError) for error in refused), refused[:3]
    assert [move.move for move in await opened[1].store.move_log(table_id)] == ["take 2"]
    await close(*opened)


async def test_results_landing_at_once_through_several_referees_rate_as_a_replay_would(tmp_path):
    path = tmp_path / "ratings.sqlite3"
    opened = await referees(path, 3)
    rng = random.Random(3)
    players = ["alice", "bob", "carol", "dave"]
    tables = []
    for _ in range(12):
        first, second = rng.sample(players, 2)
        tables.append((await two_player_nim(opened[0], tokens=3, first=first, second=second), first))
    # Every game ends with one move, all at once, spread over the three processes.
    await asyncio.gather(
        *(opened[index % 3].play(table_id, first, "take 3") for index, (table_id, first) in enumerate(tables))
    )
    store = opened[0].store
    incremental = await store.ratings("g1", "nim")
    assert sum(games for _, games, _ in incremental.values()) == 24
    assert sum(wins for _, _, wins in incremental.values()) == 12
    events = await store.rating_events(guild_id="g1", game="nim")
    assert len(events) == 24
    # No lost update: each event starts where the player's previous one ended.
    last: dict[str, object] = {}
    for event in events:
        if event.user_id in last:
            assert event.before == last[event.user_id]
        last[event.user_id] = event.after
    # And replaying the results in their recorded order gives the same ratings.
    assert await store.rebuild_ratings() == 12
    assert await store.ratings("g1", "nim") == incremental
    await close(*opened)


async def test_reopening_finds_every_move_of_every_referee(tmp_path):
    path = tmp_path / "reopen.sqlite3"
    first, second = await referees(path, 2)
    table_id = await two_player_nim(first, tokens=10)
    await first.play(table_id, "alice", "take 1")
    await second.play(table_id, "bob", "take 1")
    await close(first, second)
    store = await open_test_store(path)
    assert len(await store.move_log(table_id)) == 2
    await store.close()


@pytest.mark.postgres_only
async def test_postgresql_moves_arriving_together_share_statements_and_a_stale_one_fails_alone(tmp_path, monkeypatch):
    """Group commit on PostgreSQL (db/postgres/batch.py): forty simultaneous moves of forty games
    go in far fewer statements; a move on a stale version inside a group is refused alone."""
    from db.postgres import batch

    groups: list[int] = []
    send = batch.GroupCommitter._send

    async def counting(self, group):
        groups.append(len(group))
        return await send(self, group)

    monkeypatch.setattr(batch.GroupCommitter, "_send", counting)
    (referee,) = await referees(tmp_path / "group.sqlite3", 1)
    table_ids = [await two_player_nim(referee, first=f"a{n}", second=f"b{n}") for n in range(40)]
    groups.clear()
    outcomes = await asyncio.gather(*(referee.play(table_id, f"a{n}", "take 2") for n, table_id in enumerate(table_ids)))
    assert all(outbox.moves_applied == 1 for outbox in outcomes)
    assert sum(groups) == 40 and len(groups) < 20 and max(groups) > 1
    for table_id in table_ids:
        assert [move.move for move in await referee.store.move_log(table_id)] == ["take 2"]

    store = referee.store
    tables = [await store.load_table(table_id) for table_id in table_ids[:3]]
    state = await store.load_state(tables[0].id)
    groups.clear()
    moved = await asyncio.gather(
        *(
            store.commit_moves(table, table.version - (index == 1), [RecordedMove(1, "take 1")], state)
            for index, table in enumerate(tables)
        ),
        return_exceptions=True,
    )
    assert moved[0] == [] and moved[2] == [] and isinstance(moved[1], VersionConflict)
    assert groups and max(groups) > 1  # the stale one was in a group with the others
    assert [len(await store.move_log(table.id)) for table in tables] == [2, 1, 2]
    await close(referee)
