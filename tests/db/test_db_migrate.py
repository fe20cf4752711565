"""``python -m db.migrate``: a SQLite database copied into PostgreSQL, verified, and copied again
safely."""

from __future__ import annotations

import sqlite3

import pytest

from db import SqliteStore
from db.migrate import main, migrate
from db.postgres.store import PostgresStore
from engine.referee import QuietHours, Referee
from tests.referee.helpers import HOUR, MONDAY, ManualClock, two_player_nim
from tests.stores import PostgresBackend

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("toy_game")]


@pytest.fixture
async def target(pg_server):
    backend = PostgresBackend(pg_server)
    # An empty database (not the migrated template): the copy must migrate it itself.
    url = await backend.database_for("migrate-target", empty=True)
    yield url
    await backend.drop_all()


async def a_played_sqlite_database(path) -> list[int]:
    """Finished, running, lobby and cancelled tables, ratings, a season with its ratings, a
    vacation, a forgotten player, settings and limits."""
    clock = ManualClock(MONDAY)
    import random

    referee = Referee(await SqliteStore.open(path), clock=clock, ai_rng=random.Random(2))
    await referee.seasons.start("g1", "continue", "c1")
    ids = []
    for index in range(4):  # finished and rated
        table_id = await two_player_nim(referee, tokens=5, first=f"p{index}", second="bob")
        await referee.play(table_id, f"p{index}", "take 2")
        await referee.play(table_id, "bob", "take 3")
        ids.append(table_id)
    running = await two_player_nim(referee, tokens=10, speed="daily-2")
    clock.advance(HOUR)
    await referee.play(running, "alice", "take 1")
    ids.append(running)
    lobby = await referee.create_table("nim", "carol", "Carol", guild_id="g1")
    cancelled = await referee.create_table("nim", "dave", "Dave", guild_id="g1")
    await referee.cancel(cancelled.id, "dave")
    ids += [lobby.id, cancelled.id]
    store = referee.store
    await store.set_user_flag("bob", "turn-dms", True)
    await store.set_quiet_hours("bob", QuietHours(time_zone="Europe/Rome", start_hour=23, end_hour=7))
    await store.set_guild_limit("g1", "tables_per_server", 40)
    await store.set_heartbeat(MONDAY + 5)
    await referee.start_vacation("alice", 2)
    await referee.forget_user("p3")
    await store.close()
    return ids


async def test_a_copy_holds_everything_replays_and_can_be_run_again(tmp_path, target):
    path = tmp_path / "referee.sqlite3"
    ids = await a_played_sqlite_database(path)
    report = await migrate(f"sqlite:///{path}", target, sample=10, seed=1)
    assert report.ok, report.problems
    assert report.counts["games"] == (7, 7) and report.counts["moves"] == (9, 9)
    assert report.counts["rating_events"] == (8, 8) and report.counts["guild_limits"] == (1, 1)
    assert report.replayed == 5  # the started games: four finished, one running

    lite, pg = await SqliteStore.open(path), await PostgresStore.open(target)
    try:
        for table_id in ids:
            assert await pg.load_table(table_id) == await lite.load_table(table_id)
            assert await pg.move_log(table_id) == await lite.move_log(table_id)
            assert await pg.load_state(table_id) == await lite.load_state(table_id)
            assert await pg.game_result(table_id) == await lite.game_result(table_id)
        assert await pg.ratings("g1", "nim") == await lite.ratings("g1", "nim")
        assert await pg.rating_events() == await lite.rating_events()
        assert await pg.leaderboard("g1", "nim") == await lite.leaderboard("g1", "nim")
        assert await pg.get_quiet_hours("bob") == await lite.get_quiet_hours("bob")
        assert await pg.get_user_flag("bob", "turn-dms") and await pg.get_heartbeat() == MONDAY + 5
        assert await pg.guild_limits("g1") == {"tables_per_server": 40}
        assert await pg.running_timed_seats() == await lite.running_timed_seats()
        [season] = await pg.seasons("g1")
        assert [season] == await lite.seasons("g1") and await pg.season_games(season.id) == ["nim"]
        assert await pg.season_leaderboard(season.id, "nim") == await lite.season_leaderboard(
            season.id, "nim"
        )
        assert await pg.vacations_of(["alice"]) == await lite.vacations_of(["alice"]) != {}
        # New tables continue after the copied ids.
        referee = Referee(pg, clock=ManualClock(MONDAY))
        fresh = await referee.create_table("nim", "erin", "Erin", guild_id="g1")
        assert fresh.id == max(ids) + 1
        await referee.cancel(fresh.id, "erin")
        await pg.purge_unstarted([fresh.id], MONDAY + 1e9, MONDAY + 1e9)

        # The bot went on with SQLite for a while: a second copy brings PostgreSQL up to date.
        referee = Referee(lite, clock=ManualClock(MONDAY + 2 * HOUR))
        await referee.play(ids[4], "bob", "take 1")
        moved_on = await lite.load_table(ids[4])
    finally:
        await lite.close()
        await pg.close()
    again = await migrate(str(path), target, sample=10, seed=2)
    assert again.ok, again.problems
    assert again.counts["moves"] == (10, 10) and again.counts["games"] == (7, 7)
    pg = await PostgresStore.open(target)
    assert len(await pg.move_log(ids[4])) == 2
    assert await pg.load_table(ids[4]) == moved_on  # its row and seats were updated, not skipped
    await pg.close()
    # And once more with nothing new: nothing changes.
    assert (await migrate(str(path), target, sample=0)).counts == again.counts
    # New seasons and forgotten players continue after the copied ones.
    pg = await PostgresStore.open(target)
    try:
        plan = await pg.season_plan("g1")
        assert plan is not None and (await pg.start_season(plan, MONDAY + HOUR)).number == 2
        assert [season.id for season in await pg.seasons("g1")] == [2, 1]
        assert await pg.new_former_player(MONDAY) == 2
    finally:
        await pg.close()


async def test_a_log_that_does_not_give_the_stored_position_is_reported(tmp_path, target, capsys):
    path = tmp_path / "referee.sqlite3"
    ids = await a_played_sqlite_database(path)
    with sqlite3.connect(path) as connection:  # the running game's log no longer matches its state
        connection.execute("UPDATE moves SET move = 'take 3' WHERE game_id = ?", (ids[4],))
    assert await main_async(["--from", f"sqlite:///{path}", "--to", target, "--sample", "10"]) == 1
    captured = capsys.readouterr()
    assert f"game #{ids[4]}: its log does not give its stored position" in captured.err
    assert "NOT verified" in captured.out


async def main_async(argv: list[str]) -> int:
    """``main`` runs its own event loop: from this test's loop, in a thread of its own."""
    import asyncio

    return await asyncio.to_thread(main, argv)
