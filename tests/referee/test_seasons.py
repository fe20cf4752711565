"""Seasons: the calendar, ladders per season over the same results, ratings carried or soft-reset,
rollover at the boundary (by the poll, by a result, across a restart and a downtime), and the
final standings owed until posted."""

from __future__ import annotations

import pytest

from engine.referee import Referee
from engine.referee.ratings import Rating, initial_rating
from engine.referee.seasons import (
    SeasonError,
    carried_rating,
    next_boundary,
    period_name,
    period_start,
)

from .helpers import DAY, HOUR, ManualClock, at, open_referee, two_player_nim

# The referee of tests/referee/conftest.py, with the toy game (nim) registered.
pytestmark = [pytest.mark.both_backends, pytest.mark.usefixtures("toy_game")]


async def nim_win(referee: Referee, winner: str, loser: str, *, guild_id: str = "g1") -> int:
    """A rated Nim game (one token: the first to move wins), an hour later than the last."""
    table_id = await two_player_nim(referee, tokens=1, first=winner, second=loser, guild_id=guild_id)
    outbox = await referee.play(table_id, winner, "take 1")
    assert outbox.finished
    referee.clock.advance(HOUR)  # type: ignore[attr-defined]
    return table_id


def names(page) -> list[tuple[str, int, int]]:
    return [(row.user_id, row.games, row.wins) for row in page.rows]


def test_the_calendar_is_utc_months_and_quarters():
    moment = at("2026-05-17 13:00")
    assert period_start("monthly", moment) == at("2026-05-01 00:00")
    assert next_boundary("monthly", moment) == at("2026-06-01 00:00")
    assert period_start("quarterly", moment) == at("2026-04-01 00:00")
    assert next_boundary("quarterly", at("2026-11-30 23:59")) == at("2027-01-01 00:00")
    assert next_boundary("monthly", at("2026-12-01 00:00")) == at("2027-01-01 00:00")
    assert period_name("monthly", moment) == "May 2026" and period_name("quarterly", moment) == "2026 Q2"


def test_a_soft_reset_moves_mu_halfway_to_the_default_and_raises_sigma():
    initial = initial_rating()
    strong = Rating(initial.mu + 10, initial.sigma / 4)
    soft = carried_rating(strong, "soft", initial)
    assert soft.mu == pytest.approx(initial.mu + 5)
    assert strong.sigma < soft.sigma < initial.sigma
    assert carried_rating(strong, "continue", initial) == strong


async def test_a_season_is_a_view_over_the_results_and_all_time_keeps_everything(referee: Referee):
    await nim_win(referee, "alice", "bob")  # before any season: all time only
    first = await referee.seasons.start("g1", "continue", "c1")
    assert (first.number, first.name, first.current) == (1, "Season 1", True)
    await nim_win(referee, "bob", "carol")
    second = await referee.seasons.start("g1", "continue")
    assert second.name == "Season 2" and second.channel_id == "c1"  # the channel stays
    await nim_win(referee, "carol", "alice")
    [now, then] = await referee.seasons.seasons("g1")
    assert (now.id, then.id) == (second.id, first.id) and then.ended_at is not None
    assert names(await referee.seasons.leaderboard(then, "nim")) == [("bob", 1, 1), ("carol", 1, 0)]
    assert names(await referee.seasons.leaderboard(now, "nim")) == [("carol", 1, 1), ("alice", 1, 0)]
    everyone = await referee.leaderboard("g1", "nim")
    assert sorted(names(everyone)) == [("alice", 2, 1), ("bob", 2, 1), ("carol", 2, 1)]
    # History and stats keep every season.
    assert len(await referee.history("g1")) == 3
    assert (await referee.seasons.find("g1", "season 1")) == then
    assert (await referee.seasons.find("g1", "2")) == now and await referee.seasons.find("g1", "all") is None
    with pytest.raises(SeasonError):
        await referee.seasons.find("g1", "Season 9")
    # Other servers have none.
    assert await referee.seasons.current("g2") is None


async def test_ratings_continue_or_soft_reset_as_the_admin_chose(referee: Referee):
    await referee.seasons.start("g1", "continue")
    for _ in range(3):
        await nim_win(referee, "alice", "bob")
    [alice_then] = [
        row
        for row in (await referee.seasons.leaderboard((await referee.seasons.seasons("g1"))[0], "nim")).rows
        if row.user_id == "alice"
    ]
    await referee.seasons.start("g1", "continue")
    table_id = await two_player_nim(referee, tokens=1, first="alice", second="bob")
    changes = (await referee.play(table_id, "alice", "take 1")).rating_changes
    alice = next(change for change in changes if change.user_id == "alice")
    assert alice.before == Rating(alice_then.mu, alice_then.sigma) and alice.games == 1
    assert alice.season == "Season 2"  # the game-over message shows the season's changes
    await referee.seasons.start("g1", "soft")
    table_id = await two_player_nim(referee, tokens=1, first="alice", second="bob")
    changes = (await referee.play(table_id, "alice", "take 1")).rating_changes
    soft = next(change for change in changes if change.user_id == "alice")
    assert soft.before == carried_rating(alice.after, "soft", initial_rating())
    assert soft.before.mu < alice.after.mu
    # After a soft reset, the next season continues from the reset season, not from all time.
    await referee.seasons.start("g1", "continue")
    table_id = await two_player_nim(referee, tokens=1, first="alice", second="bob")
    changes = (await referee.play(table_id, "alice", "take 1")).rating_changes
    assert next(change for change in changes if change.user_id == "alice").before == soft.after
    all_time = (await referee.rating_events(guild_id="g1", user_id="alice"))[-1]
    assert all_time.before != soft.after
    # The all-time pool never resets: a rebuild from the results gives the same seasons back.
    before = [names(await referee.seasons.leaderboard(s, "nim")) for s in await referee.seasons.seasons("g1")]
    mus = [
        [r.mu for r in (await referee.seasons.leaderboard(s, "nim")).rows]
        for s in await referee.seasons.seasons("g1")
    ]
    await referee.rebuild_ratings()
    assert before == [
        names(await referee.seasons.leaderboard(s, "nim")) for s in await referee.seasons.seasons("g1")
    ]
    assert mus == [
        [r.mu for r in (await referee.seasons.leaderboard(s, "nim")).rows]
        for s in await referee.seasons.seasons("g1")
    ]


async def test_monthly_seasons_roll_over_at_the_boundary_and_are_owed_their_standings(
    referee: Referee, clock: ManualClock
):
    clock.now = at("2026-03-30 12:00")
    season = await referee.seasons.schedule("g1", "monthly", "soft", "c9")
    assert season.name == "Season 1 (March 2026)" and season.ends_at == at("2026-04-01 00:00")
    await nim_win(referee, "alice", "bob")
    assert await referee.seasons.roll_over() == []  # not yet
    clock.now = at("2026-04-01 00:00") + 30
    # A result recorded before any poll noticed the boundary still counts in April.
    await nim_win(referee, "bob", "alice")
    [april, march] = await referee.seasons.seasons("g1")
    assert (march.ended_at, march.announced) == (at("2026-04-01 00:00"), False)
    assert april.name == "Season 2 (April 2026)" and april.started_at == at("2026-04-01 00:00")
    assert april.ends_at == at("2026-05-01 00:00") and april.carry == "soft" and april.channel_id == "c9"
    assert names(await referee.seasons.leaderboard(march, "nim")) == [("alice", 1, 1), ("bob", 1, 0)]
    assert names(await referee.seasons.leaderboard(april, "nim")) == [("bob", 1, 1), ("alice", 1, 0)]
    assert await referee.seasons.roll_over() == []  # already done, once
    assert [s.id for s in await referee.seasons.owed()] == [march.id]
    standings = await referee.seasons.standings(march)
    assert [board.game for board in standings.boards] == ["nim"]
    await referee.seasons.mark_announced(march.id)
    assert await referee.seasons.owed() == []


async def test_a_restart_and_a_downtime_across_boundaries_roll_over_once_at_the_right_one(
    tmp_path, clock: ManualClock, toy_game
):
    path = tmp_path / "down.sqlite3"
    clock.now = at("2026-01-20 10:00")
    referee = await open_referee(path, clock)
    await referee.seasons.schedule("g1", "quarterly", "continue", "c1")
    await nim_win(referee, "alice", "bob")
    await referee.store.close()
    # Down from January 20 to August 3: the Q1 boundary passed, and Q2's too.
    clock.now = at("2026-08-03 08:00")
    referee = await open_referee(path, clock)
    ended = await referee.seasons.roll_over()
    [now, first] = await referee.seasons.seasons("g1")
    assert ended == [first.id] and first.ended_at == at("2026-04-01 00:00")
    assert now.name == "Season 2 (2026 Q3)" and now.started_at == at("2026-07-01 00:00")
    assert now.ends_at == at("2026-10-01 00:00")
    assert await referee.seasons.roll_over() == []
    await referee.store.close()
    referee = await open_referee(path, clock)  # and again: nothing more to roll over
    assert await referee.seasons.roll_over() == []
    assert [s.id for s in await referee.seasons.owed()] == [first.id]
    assert names(await referee.seasons.leaderboard(first, "nim")) == [("alice", 1, 1), ("bob", 1, 0)]
    assert (await referee.seasons.leaderboard(now, "nim")).rows == []
    await referee.store.close()


async def test_going_back_to_manual_seasons_stops_the_rollover(referee: Referee, clock: ManualClock):
    clock.now = at("2026-03-30 12:00")
    await referee.seasons.schedule("g1", "monthly", "continue")
    manual = await referee.seasons.schedule("g1", "manual", "continue")
    assert manual.number == 1 and manual.ends_at is None
    clock.advance(40 * DAY)
    assert await referee.seasons.roll_over() == []
    with pytest.raises(SeasonError):
        await referee.seasons.schedule("g1", "weekly", "continue")
