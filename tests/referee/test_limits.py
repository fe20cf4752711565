"""What one player or server may have open at once, the purge of lobbies nobody started, and the
per-table lock map that must not grow with every id ever asked about."""

from __future__ import annotations

import asyncio
import gc
import random
import tracemalloc

import pytest

from engine.referee import FINISHED, LobbyError, Referee, TableNotFound, WrongStatus
from engine.referee.limits import DEFAULT_LIMITS, Limits

from ..stores import open_test_store, raw_sql
from .helpers import DAY

pytestmark = pytest.mark.both_backends


@pytest.fixture
async def referee(tmp_path, toy_game, clock):
    store = await open_test_store(tmp_path / "limits.sqlite3")
    ref = Referee(store, clock=clock, ai_rng=random.Random(3))
    yield ref
    await store.close()


async def lobby(referee: Referee, host: str, guild: str | None = "g1", **kwargs):
    return await referee.create_table(
        "nim", host, host.title(), options={"tokens": 1}, guild_id=guild, **kwargs
    )


# ----- limits -------------------------------------------------------------------------------------


async def test_one_player_may_host_five_lobbies_and_a_cancelled_one_frees_a_place(referee):
    tables = [await lobby(referee, "spammer") for _ in range(DEFAULT_LIMITS.lobbies_per_user)]
    with pytest.raises(LobbyError, match=r"You already host 5 lobbies not started yet, the limit \(5\)"):
        await lobby(referee, "spammer")
    # Another player, and the same player on another server, are not held back.
    await lobby(referee, "someone")
    await lobby(referee, "spammer", guild="g2")
    await referee.cancel(tables[0].id, "spammer")
    await lobby(referee, "spammer")
    # A started game is no longer a lobby.
    await referee.join(tables[1].id, "bob", "Bob")
    await referee.start(tables[1].id, "spammer", seed=1)
    await lobby(referee, "spammer")


async def test_requests_at_the_same_moment_cannot_all_take_the_last_places(referee):
    outcomes = await asyncio.gather(*(lobby(referee, "spammer") for _ in range(12)), return_exceptions=True)
    assert sum(not isinstance(outcome, Exception) for outcome in outcomes) == 5
    assert all(isinstance(outcome, LobbyError) for outcome in outcomes if isinstance(outcome, Exception))


async def test_a_server_limits_its_open_tables_and_a_manager_changes_it(referee):
    limits = await referee.admission.set_limit("g1", "tables_per_server", 3)
    assert limits.tables_per_server == 3 and limits.lobbies_per_user == DEFAULT_LIMITS.lobbies_per_user
    for host in ("a", "b", "c"):
        await lobby(referee, host)
    with pytest.raises(LobbyError, match=r"This server already has 3 open tables, its limit \(3\)"):
        await lobby(referee, "d")
    await lobby(referee, "d", guild="g2")  # other servers have their own
    await lobby(referee, "d", guild=None)  # outside any server there is no server limit
    await referee.admission.set_limit("g1", "tables_per_server", None)  # back to the default
    assert (await referee.admission.limits_for("g1")) == DEFAULT_LIMITS
    await lobby(referee, "d")


async def test_a_player_may_sit_at_a_limited_number_of_open_games(referee):
    await referee.admission.set_limit("g1", "games_per_user", 2)
    first, second, third = [await lobby(referee, host) for host in ("a", "b", "c")]
    await referee.join(first.id, "eve", "Eve")
    await referee.join(second.id, "eve", "Eve")
    with pytest.raises(LobbyError, match=r"You already have a seat at 2 open games, the limit \(2\)"):
        await referee.join(third.id, "eve", "Eve")
    assert [seat.user_id for seat in (await referee.table(third.id)).seats] == ["c"]  # no seat taken
    with pytest.raises(LobbyError, match="seat at 2 open games"):
        await lobby(referee, "eve")  # hosting takes a seat too
    await lobby(referee, "eve", host_takes_seat=False)  # a table of AI seats only does not
    # A finished game is history: it no longer counts.
    outbox = await referee.start(first.id, "a", seed=1)
    outbox = await referee.play(first.id, outbox.table.seats[outbox.to_act[0]].user_id, "take 1")
    assert outbox.table.status == FINISHED
    await referee.join(third.id, "eve", "Eve")


async def test_limits_a_server_cannot_set(referee):
    with pytest.raises(LobbyError, match="whole number from 1"):
        await referee.admission.set_limit("g1", "games_per_user", 0)
    with pytest.raises(LobbyError, match="There is no limit"):
        await referee.admission.set_limit("g1", "moves_per_day", 3)


async def test_tables_outside_any_server_keep_the_per_player_limits(tmp_path, toy_game, clock):
    store = await open_test_store(tmp_path / "local.sqlite3")
    referee = Referee(
        store, clock=clock, limits=Limits(lobbies_per_user=2, games_per_user=3, tables_per_server=1)
    )
    try:
        for host in ("a", "b", "c"):  # no server: no server limit
            await lobby(referee, host, guild=None)
        await lobby(referee, "a", guild=None)
        with pytest.raises(LobbyError, match="host 2 lobbies"):
            await lobby(referee, "a", guild=None)
    finally:
        await store.close()


# ----- purge --------------------------------------------------------------------------------------


async def seat_rows(referee: Referee) -> int:
    return (await raw_sql(referee.store, "SELECT COUNT(*) FROM seats"))[0][0]


async def test_lobbies_nobody_starts_are_purged_and_games_are_kept(referee, clock):
    cancelled = await lobby(referee, "a")
    await referee.join(cancelled.id, "bob", "Bob")
    await referee.cancel(cancelled.id, "a")
    idle = await lobby(referee, "b")
    started = await lobby(referee, "c")
    await referee.join(started.id, "dan", "Dan")
    await referee.start(started.id, "c", seed=1)
    await referee.cancel(started.id, "c")  # cancelled once started: it has a log, it is kept
    finished = await lobby(referee, "d")
    await referee.join(finished.id, "eve", "Eve")
    outbox = await referee.start(finished.id, "d", seed=1)
    await referee.play(finished.id, outbox.table.seats[outbox.to_act[0]].user_id, "take 1")
    seats = await seat_rows(referee)

    clock.advance(6 * DAY)
    assert await referee.purge_unstarted() == []
    clock.advance(2 * DAY)  # the cancelled lobby is a week old
    assert await referee.purge_unstarted() == [cancelled.id]
    assert await seat_rows(referee) == seats - 2  # its seats went with it
    with pytest.raises(TableNotFound):
        await referee.table(cancelled.id)
    kept = await lobby(referee, "b")  # a lobby used lately is kept
    clock.advance(23 * DAY)  # the idle lobby was last touched 31 days ago
    assert await referee.purge_unstarted() == [idle.id]
    assert (await referee.table(started.id)).seed == 1
    assert (await referee.table(finished.id)).status == FINISHED
    assert (await referee.table(kept.id)).status == "lobby"
    assert cancelled.id not in referee._tables.locks and idle.id not in referee._tables.locks


async def test_a_lobby_joined_while_the_purge_waits_is_kept(referee, clock):
    idle = await lobby(referee, "b")
    clock.advance(31 * DAY)
    async with referee._tables.lock(idle.id):
        purging = asyncio.create_task(referee.purge_unstarted())
        await asyncio.sleep(0.01)  # the purge has chosen it and waits for its lock
        table = await referee.table(idle.id)
        table.seats.append(type(table.seats[0])(index=1, name="Late", user_id="late"))
        await referee._lobby.save_lobby(table)
    assert await purging == []
    assert [seat.user_id for seat in (await referee.table(idle.id)).seats] == ["b", "late"]


async def test_a_join_refused_by_the_purge_says_the_lobby_is_gone(referee, clock):
    idle = await lobby(referee, "b")
    clock.advance(31 * DAY)
    await referee.purge_unstarted()
    with pytest.raises(TableNotFound):
        await referee.join(idle.id, "eve", "Eve")
    with pytest.raises((TableNotFound, WrongStatus)):
        await referee.start(idle.id, "b")


# ----- the lock map -------------------------------------------------------------------------------


@pytest.mark.sqlite_only  # the referee's locks, whatever the store: tracemalloc makes PostgreSQL's 5,500 reads slow
async def test_unknown_ids_leave_no_lock_behind(referee):
    async def ask(first: int, count: int) -> None:
        for table_id in range(first, first + count):
            with pytest.raises(TableNotFound):
                await referee.join(table_id, "eve", "Eve")

    await ask(2_000_000, 500)  # warm up: caches of statements and the like fill here
    tracemalloc.start()
    try:
        # Collected first: each refusal's traceback is a reference cycle, garbage that waits for
        # the collector's own timing (up to some 470 KB here) and would otherwise count as kept.
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        await ask(1_000_000, 5_000)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(referee._tables.locks) == 0
    assert grown < 250_000, grown  # 5,000 kept locks would be over 1 MB


async def test_evicted_tables_take_their_locks_with_them_unless_held(tmp_path, toy_game, clock):
    store = await open_test_store(tmp_path / "evict.sqlite3")
    referee = Referee(store, clock=clock, cache_size=5)
    try:
        tables = [await lobby(referee, f"host{n}", guild=f"g{n}") for n in range(20)]
        for table in tables:
            await referee.set_links(table.id, message_id="1")  # takes each table's lock
        assert len(referee._tables.locks) <= 5
        first = tables[0].id
        async with referee._tables.lock(first):
            for table in tables[1:]:  # evicts the first table while its lock is held
                await referee.set_links(table.id, message_id="2")
            assert first in referee._tables.locks
            waiting = asyncio.create_task(referee.set_links(first, message_id="3"))
            await asyncio.sleep(0.01)
            assert not waiting.done()  # the held lock still excludes
        await waiting  # it loaded the first table again: one of the five cached
        assert len(referee._tables.locks) <= 5
    finally:
        await store.close()
