"""Two referees over one SQLite file, as two bot processes (shards) would run: each due clock
action fires once in total, a dead process's claims are taken over once they expire, and a move
reaching a process whose cached table is stale is judged on the stored table, never refused for
it."""

from __future__ import annotations

import asyncio
import random

import pytest

from engine.core import NotYourTurn
from engine.referee import Referee, StaleVersion
from engine.referee.claims import ANNOUNCE, CLOCK
from engine.referee.clock import get_speed

from ..stores import open_test_store
from .helpers import HOUR, ManualClock, two_player_nim

pytestmark = pytest.mark.both_backends

DAILY2 = get_speed("daily-2")
LEASE = 30.0


async def _process(path, clock: ManualClock, name: str) -> Referee:
    """One "process": its own store (connections, writer thread or pool) and referee on the shared
    database (the same SQLite file, or the same PostgreSQL database)."""
    store = await open_test_store(path)
    return Referee(store, clock=clock, ai_rng=random.Random(1), shared=True, owner=name, lease=LEASE)


@pytest.fixture
async def pair(tmp_path, clock: ManualClock, toy_game):
    path = tmp_path / "shared.sqlite3"
    first, second = await _process(path, clock, "one"), await _process(path, clock, "two")
    yield first, second
    await first.store.close()
    await second.store.close()


async def test_each_due_clock_action_fires_once_across_two_processes(pair, clock):
    first, second = pair
    tables = [await two_player_nim(first, first=f"p{n}", second=f"q{n}") for n in range(6)]
    for referee in pair:  # both have every table cached, as processes that served them would
        for table_id in tables:
            await referee.table(table_id)
    fired: list[tuple[str, int, str]] = []
    for hours in (18, 15, 3):  # the first reminder, the final one, the flag fall (daily-2: 36 h)
        clock.advance(hours * HOUR)
        for _ in range(3):  # polling together, and again: nothing fires a second time
            for due in await asyncio.gather(first.due_actions(), second.due_actions()):
                fired += [("remind", r.links.table_id, r.user_id) for r in due.reminders]
                fired += [("timeout", t.links.table_id, t.user_id or "") for t in due.timeouts]
    expected = [
        (kind, table_id, f"p{n}") for kind in ("remind", "remind", "timeout") for n, table_id in enumerate(tables)
    ]
    assert sorted(fired) == sorted(expected)
    # The stored clocks agree: both rungs sent, the flag fell once.
    for table_id in tables:
        seat = (await second.fresh_table(table_id)).seats[0]
        assert seat.clock is not None and seat.clock.reminders_sent == 2 and seat.clock.ran_out


async def test_a_dead_process_claims_are_taken_over_once_they_expire(pair, clock):
    first, second = pair
    tables = [await two_player_nim(first, first=f"p{n}", second=f"q{n}") for n in range(3)]
    clock.advance(18 * HOUR)
    # The first process claims the due tables, then dies before acting (never gives them back).
    assert await first.claims.take(CLOCK, tables) == tables
    due = await second.due_actions()
    assert due.reminders == []
    # Not polled in a tight loop meanwhile, and looked at again within the lease.
    assert clock.now < due.next_due_at <= clock.now + LEASE
    clock.advance(LEASE - 1)
    assert (await second.due_actions()).reminders == []
    clock.advance(1)  # the lease ran out
    due = await second.due_actions()
    assert sorted(r.links.table_id for r in due.reminders) == tables
    assert (await first.due_actions()).reminders == []  # back to life: nothing left to fire


async def test_claims_are_one_owner_at_a_time_renewable_and_given_back(pair, clock):
    first, second = pair
    assert await first.claims.take(ANNOUNCE, [1, 2]) == [1, 2]
    assert await second.claims.take(ANNOUNCE, [2, 3]) == [3]
    assert await second.claims.take(CLOCK, [2]) == [2]  # another kind of work: its own claims
    clock.advance(LEASE / 2)
    assert await first.claims.take(ANNOUNCE, [2]) == [2]  # its own: renewed for a full lease
    clock.advance(LEASE / 2 + 1)
    assert await second.claims.take(ANNOUNCE, [1, 2]) == [1]  # 1 expired, 2 was renewed
    await first.claims.give_back(ANNOUNCE, [2])
    await first.claims.give_back(ANNOUNCE, [1])  # another's claim is never given back by this one
    assert await second.claims.take(ANNOUNCE, [1, 2]) == [1, 2]



async def test_claims_and_give_backs_made_together_go_to_the_store_together(pair):
    """Every published move claims its table's announcement and gives it back: made together
    (a process under load), they cost the store one claim and one release, not one of each per
    move, and each caller still gets exactly its own answer."""
    first, second = pair
    assert await second.claims.take(ANNOUNCE, [3, 7]) == [3, 7]  # held by the other process
    calls: list[tuple[str, list[int]]] = []
    claim, release = first.store.claim, first.store.release

    async def counted_claim(kind, table_ids, owner, now, until):
        calls.append(("claim", list(table_ids)))
        return await claim(kind, table_ids, owner, now, until)

    async def counted_release(kind, table_ids, owner):
        calls.append(("release", list(table_ids)))
        await release(kind, table_ids, owner)

    first.store.claim, first.store.release = counted_claim, counted_release  # type: ignore[method-assign]
    tables = list(range(1, 21))
    got = await asyncio.gather(*(first.claims.take(ANNOUNCE, [table_id]) for table_id in tables))
    assert got == [[] if table_id in (3, 7) else [table_id] for table_id in tables]
    assert len(calls) <= 2, calls  # the first alone, the others together
    calls.clear()
    await asyncio.gather(*(first.claims.give_back(ANNOUNCE, [table_id]) for table_id in tables))
    assert [kind for kind, _ in calls] in (["release"], ["release", "release"]), calls
    # Given back indeed (and the other's claims left alone): the other process takes the rest.
    assert await second.claims.take(ANNOUNCE, tables) == tables
    # In one batch, a give-back and a claim of the same table (two tasks of one process): the
    # claimer holds it afterwards, whatever their order.
    await first.claims.take(ANNOUNCE, [30])
    await asyncio.gather(
        first.claims.take(ANNOUNCE, [31]),  # on its way alone: the next two wait together
        first.claims.take(ANNOUNCE, [30]),
        first.claims.give_back(ANNOUNCE, [30]),
    )
    assert await second.claims.take(ANNOUNCE, [30]) == []

async def test_a_move_on_a_stale_cached_table_is_judged_on_the_stored_one(pair):
    first, second = pair
    table_id = await two_player_nim(first)
    assert (await second.table(table_id)).version == 0  # cached by the second process
    await first.play(table_id, "alice", "take 1")
    # Bob's move reaches the second process, whose copy still has Alice to move: accepted.
    outbox = await second.play(table_id, "bob", "take 2")
    assert outbox.table.version == 2
    # A click on the board the first process posted (version 2) at the first process, stale too.
    await first.play(table_id, "alice", "take 1", expected_version=2)
    assert [move.move for move in await first.store.move_log(table_id)] == ["take 1", "take 2", "take 1"]


async def test_racing_moves_at_two_processes_one_accepted_the_other_judged_again(pair):
    first, second = pair
    for _ in range(5):
        table_id = await two_player_nim(first)
        await second.table(table_id)
        answers = await asyncio.gather(
            first.play(table_id, "alice", "take 1"),
            second.play(table_id, "alice", "take 2"),
            return_exceptions=True,
        )
        # One is durable; the other, judged again on the stored table, is not Alice's turn any
        # more: never "the game changed, try again" for a cache that was merely stale.
        accepted = [answer for answer in answers if not isinstance(answer, BaseException)]
        refused = [answer for answer in answers if isinstance(answer, BaseException)]
        assert len(accepted) == 1 and len(refused) == 1, answers
        assert isinstance(refused[0], NotYourTurn) and not isinstance(refused[0], StaleVersion)
        assert len(await first.store.move_log(table_id)) == 1


async def test_downtime_is_credited_only_for_an_outage_of_every_process_and_once(pair, clock):
    first, second = pair
    table_id = await two_player_nim(first)
    clock.advance(HOUR)
    await first.heartbeat()
    left = (await first.clock_views(table_id))[0].remaining
    # The second process restarts while the first runs: the heartbeat is a poll old, nothing was down.
    clock.advance(30)
    assert await second.credit_downtime() == 0.0
    assert (await second.clock_views(table_id))[0].remaining == left - 30
    # Every process down for an hour, then both start at once: one of them credits the outage.
    await first.heartbeat()
    clock.advance(HOUR)
    credited = await asyncio.gather(first.credit_downtime(), second.credit_downtime())
    assert sorted(credited) == [0.0, HOUR]
    for referee in pair:
        await referee.finish_downtime_credit()
        referee.forget_cache()
        # The hour never counted, and was given back once (not twice).
        assert (await referee.clock_views(table_id))[0].remaining == left - 30
