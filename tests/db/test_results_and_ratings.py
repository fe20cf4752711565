"""Results and ratings on SQLite: written with the last move or not at all, leaderboards with
ties and pages, high-score boards, stats, history with exportable records, rebuilds."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from db import results as result_queries
from engine.core import replay
from engine.games import get_game
from engine.referee import RUNNING, Referee, is_stacked
from engine.referee.ratings import RatedSeat, replay_ratings
from tests.referee.helpers import HOUR, MONDAY, ManualClock, open_referee, two_player_nim
from tests.stores import raw_sql

pytestmark = pytest.mark.both_backends

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(MONDAY)


@pytest.fixture
async def referee(tmp_path, clock, toy_game, bids_game):
    ref = await open_referee(tmp_path / "scores.sqlite3", clock)
    yield ref
    await ref.store.close()


async def nim_win(
    referee: Referee, winner: str, loser: str, *, guild_id: str | None = "g1", speed: str = "daily-2"
) -> int:
    """A rated Nim game (one token: the first to move wins)."""
    table_id = await two_player_nim(
        referee, tokens=1, first=winner, second=loser, guild_id=guild_id, speed=speed
    )
    outbox = await referee.play(table_id, winner, "take 1")
    assert outbox.finished
    referee.clock.advance(HOUR)
    return table_id


async def bids(
    referee: Referee,
    players: list[str],
    amounts: list[int],
    *,
    guild_id: str | None = "g1",
    speed: str = "daily-2",
    pairs: bool = False,
    ai: int = 0,
    stacked: bool = False,
):
    table = await referee.create_table(
        "bids",
        players[0],
        players[0].title(),
        options={"rounds": 1, "pairs": pairs, **({"deck": ["b1", "b2"]} if stacked else {})},
        guild_id=guild_id,
        speed=speed,
    )
    for player in players[1:]:
        await referee.join(table.id, player, player.title())
    for _ in range(ai):
        await referee.add_ai(table.id, players[0], "random")
    outbox = await referee.start(table.id, players[0])
    for player, amount in zip(players, amounts, strict=True):
        outbox = await referee.play(table.id, player, f"bid {amount}")
    assert outbox.finished
    referee.clock.advance(HOUR)
    return outbox


def read_only(path) -> sqlite3.Connection:
    """Another connection, as another process would see the file."""
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


@pytest.mark.sqlite_only
async def test_the_last_move_stores_result_seats_and_ratings_together(referee, tmp_path):
    outbox = await bids(referee, ["alice", "bob", "carol"], [3, 3, 1])
    result = outbox.result
    assert result.rated and result.board == "rated" and not result.ai_played and result.forfeits == 0
    assert [(s.user_id, s.score, s.rank) for s in result.seats] == [
        ("alice", 3, 1),
        ("bob", 3, 1),
        ("carol", 1, 3),
    ]
    changes = {c.user_id: c for c in outbox.rating_changes}
    assert changes["alice"].after == changes["bob"].after  # a tie
    assert changes["alice"].after.mu > changes["alice"].before.mu > changes["carol"].after.mu
    assert changes["alice"].games == 1 and changes["alice"].provisional
    with read_only(tmp_path / "scores.sqlite3") as other:
        table_id = result.table_id
        assert other.execute("SELECT status FROM games WHERE id = ?", (table_id,)).fetchone() == ("finished",)
        assert other.execute(
            "SELECT rated, board FROM results WHERE game_id = ?", (table_id,)
        ).fetchone() == (1, "rated")
        assert other.execute(
            "SELECT COUNT(*) FROM result_seats WHERE game_id = ?", (table_id,)
        ).fetchone() == (3,)
        assert other.execute(
            "SELECT COUNT(*) FROM rating_events WHERE game_id = ?", (table_id,)
        ).fetchone() == (3,)
        assert other.execute("SELECT COUNT(*) FROM ratings").fetchone() == (3,)
    assert await referee.result(table_id) == result


async def test_a_failure_during_the_rating_update_leaves_no_trace_of_the_last_move(
    referee, tmp_path, monkeypatch
):
    table_id = await two_player_nim(referee, tokens=4)
    await referee.play(table_id, "alice", "take 1")

    def broken(*args, **kwargs):
        raise RuntimeError("disk full while rating")

    monkeypatch.setattr(result_queries, "_apply_ratings", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        await referee.play(table_id, "bob", "take 3")
    table = await referee.table(table_id)
    assert table.status == RUNNING and table.version == 1  # the cache did not move either
    assert (await referee.state(table_id)).tokens == 3  # nor its state, changed in place by the move
    store = referee.store  # what another connection sees
    assert await raw_sql(store, "SELECT status, version FROM games WHERE id = ?", table_id) == [("running", 1)]
    assert await raw_sql(store, "SELECT COUNT(*) FROM moves WHERE game_id = ?", table_id) == [(1,)]
    for name in ("results", "result_seats", "rating_events"):
        assert await raw_sql(store, f"SELECT COUNT(*) FROM {name}") == [(0,)]
    monkeypatch.undo()
    outbox = await referee.play(table_id, "bob", "take 3")
    assert outbox.finished and len(outbox.rating_changes) == 2


CRASH_SCRIPT = textwrap.dedent(
    """
    import asyncio, os, random, sys
    from db import SqliteStore, results
    from engine.games import REGISTRY
    from engine.referee import Referee

    REGISTRY["nim"] = "tests.toy_game"

    def crash(*args, **kwargs):
        os._exit(3)  # the process dies between writing the result and rating it

    async def main():
        store = await SqliteStore.open(sys.argv[1])
        referee = Referee(store, ai_rng=random.Random(1))
        table = await referee.create_table("nim", "alice", "Alice", options={"tokens": 1}, speed="daily-2")
        await referee.join(table.id, "bob", "Bob")
        await referee.start(table.id, "alice", seed=1)
        results._apply_ratings = crash
        await referee.play(table.id, "alice", "take 1")

    asyncio.run(main())
    """
)


def test_a_crash_between_the_last_move_and_the_ratings_cannot_be_observed(tmp_path):
    path = tmp_path / "crash.sqlite3"
    done = subprocess.run(
        [sys.executable, "-c", CRASH_SCRIPT, str(path)], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 3, done.stderr
    with sqlite3.connect(path) as after_restart:  # recovery of the interrupted transaction
        assert after_restart.execute("SELECT status, version FROM games").fetchall() == [("running", 0)]
        for name in ("moves", "results", "result_seats", "rating_events", "ratings"):
            assert after_restart.execute(f"SELECT COUNT(*) FROM {name}").fetchone() == (0,)


async def test_leaderboard_orders_by_rating_with_shared_positions_and_pages(referee):
    await nim_win(referee, "alice", "bob")
    await nim_win(referee, "carol", "dave")
    page = await referee.leaderboard("g1", "nim")
    assert page.total == 4
    assert [(r.position, r.user_id, r.games, r.wins) for r in page.rows] == [
        (1, "alice", 1, 1),
        (1, "carol", 1, 1),
        (3, "bob", 1, 0),
        (3, "dave", 1, 0),
    ]
    assert page.rows[0].rating == page.rows[0].mu - 3 * page.rows[0].sigma
    assert all(row.provisional for row in page.rows)
    assert page.rows[0].best_score == 1.0 and page.rows[2].best_score == 0.0
    await nim_win(referee, "alice", "carol")
    page = await referee.leaderboard("g1", "nim")
    assert [(r.position, r.user_id) for r in page.rows] == [
        (1, "alice"),
        (2, "carol"),
        (3, "bob"),
        (3, "dave"),
    ]
    # Positions are computed over the whole board, so a tie spans pages.
    page = await referee.leaderboard("g1", "nim", offset=1, limit=2)
    assert [(r.position, r.user_id) for r in page.rows] == [(2, "carol"), (3, "bob")]
    assert (page.total, page.offset, page.limit) == (4, 1, 2)
    page = await referee.leaderboard("g1", "nim", offset=3, limit=2)
    assert [(r.position, r.user_id) for r in page.rows] == [(3, "dave")]
    first = (await referee.leaderboard("g1", "nim", limit=1)).rows[0]
    assert (first.position, first.user_id, first.games, first.wins) == (1, "alice", 2, 2)
    for _ in range(3):
        await nim_win(referee, "alice", "bob")
    alice = (await referee.leaderboard("g1", "nim", limit=1)).rows[0]
    assert alice.games == 5 and not alice.provisional


async def test_only_rated_games_reach_the_leaderboard_and_pools_are_per_server_and_game(referee):
    await nim_win(referee, "alice", "bob", speed="untimed")  # friendly
    await bids(referee, ["alice"], [3], speed="daily-2")  # solo
    await bids(referee, ["alice", "bob"], [3, 0], ai=1)  # with an AI seat
    assert (await referee.leaderboard("g1", "nim")).rows == []
    assert (await referee.leaderboard("g1", "bids")).rows == []
    await nim_win(referee, "alice", "bob", guild_id="g2")
    await nim_win(referee, "bob", "alice", guild_id=None)  # outside any server
    assert [r.user_id for r in (await referee.leaderboard("g2", "nim")).rows] == ["alice", "bob"]
    assert [r.user_id for r in (await referee.leaderboard(None, "nim")).rows] == ["bob", "alice"]
    assert (await referee.leaderboard("g1", "nim")).rows == []


async def test_high_score_boards_for_solo_games_and_games_with_ai(referee):
    await bids(referee, ["alice"], [2])
    await bids(referee, ["bob"], [3])
    await bids(referee, ["carol"], [2])
    await bids(referee, ["dave", "erin"], [1, 3], ai=1)
    solo = await referee.high_scores("g1", "bids", "solo")
    assert [(h.position, h.user_id, h.score) for h in solo] == [
        (1, "bob", 3.0),
        (2, "alice", 2.0),
        (2, "carol", 2.0),
    ]
    with_ai = await referee.high_scores("g1", "bids", "with_ai")
    assert [(h.user_id, h.score) for h in with_ai] == [("erin", 3.0), ("dave", 1.0)]  # never the AI seat
    assert await referee.high_scores("g2", "bids", "solo") == []
    with pytest.raises(ValueError):
        await referee.high_scores("g1", "bids", "rated")


async def test_a_stacked_deal_is_never_rated_nor_ranked(referee):
    """A deal stacked with ``deck`` (tests, the local table, the simulator) proves nothing: no
    rating, no leaderboard, no high-score board, whatever the front end and the seats."""
    rated = await bids(referee, ["alice", "bob"], [3, 0], stacked=True)
    solo = await bids(referee, ["carol"], [3], stacked=True)
    with_ai = await bids(referee, ["dave"], [3], ai=1, stacked=True)
    for outbox in (rated, solo, with_ai):
        assert not outbox.result.rated and outbox.result.board == "stacked"
    assert rated.rating_changes == []
    assert (await referee.leaderboard("g1", "bids")).rows == []
    assert await referee.high_scores("g1", "bids", "solo") == []
    assert await referee.high_scores("g1", "bids", "with_ai") == []
    # The same games dealt by the referee count as usual.
    await bids(referee, ["alice", "bob"], [3, 0])
    await bids(referee, ["carol"], [3])
    assert [row.user_id for row in (await referee.leaderboard("g1", "bids")).rows] == ["alice", "bob"]
    assert [h.user_id for h in await referee.high_scores("g1", "bids", "solo")] == ["carol"]


def test_is_stacked_looks_for_every_stacking_option():
    assert is_stacked({"deck": ["1d"]}) and is_stacked({"decks": [["1d"], ["2c"]]}) and is_stacked({"first_dealer": 2})
    assert not is_stacked({}) and not is_stacked({"rounds": 3}) and not is_stacked({"deck": []})


async def test_player_stats_per_game_with_rating_and_recent_results(referee):
    await nim_win(referee, "alice", "bob")
    await nim_win(referee, "bob", "alice")
    await nim_win(referee, "alice", "bob", speed="untimed")
    last = await bids(referee, ["alice", "bob"], [1, 2], guild_id="g2")
    stats = await referee.player_stats("alice", "g1")
    assert [(g.game, g.games, g.wins, g.average_score, g.best_score) for g in stats.games] == [
        ("nim", 3, 2, 2 / 3, 1.0)
    ]
    nim = stats.games[0]
    assert nim.rated_games == 2 and nim.provisional and nim.rating == nim.mu - 3 * nim.sigma
    assert [(r.rank, r.rated, r.board) for r in stats.recent] == [
        (1, False, "friendly"),
        (2, True, "rated"),
        (1, True, "rated"),
    ]
    assert (
        stats.recent[0].rating_change is None
        and stats.recent[1].rating_change < 0 < stats.recent[2].rating_change
    )
    everywhere = await referee.player_stats("alice", recent=1)
    assert [(g.game, g.games, g.rating) for g in everywhere.games] == [("nim", 3, None), ("bids", 1, None)]
    assert [r.table_id for r in everywhere.recent] == [last.result.table_id]


async def test_a_one_seat_game_counts_no_win(referee):
    """A game alone has no winner (Draft Cider solo, rules doc §5.1, R33): it is a score, not a win."""
    await bids(referee, ["alice"], [3])
    await bids(referee, ["alice"], [1])
    await bids(referee, ["alice", "bob"], [3, 0])
    [bids_stats] = (await referee.player_stats("alice", "g1")).games
    assert (bids_stats.games, bids_stats.wins, bids_stats.best_score) == (3, 1, 3.0)
    assert [(r.rank, r.players) for r in (await referee.player_stats("alice", "g1")).recent] == [
        (1, 2),
        (1, 1),
        (1, 1),
    ]


async def test_history_lists_latest_games_first_and_each_replays_from_its_record(referee):
    first = await nim_win(referee, "alice", "bob")
    outbox = await bids(referee, ["alice", "bob", "carol", "dave"], [3, 0, 1, 2], pairs=True)
    await nim_win(referee, "erin", "frank", guild_id="g2")
    history = await referee.history("g1")
    assert [entry.table_id for entry in history] == [outbox.result.table_id, first]
    pairs = history[0]
    assert [seat.team for seat in pairs.seats] == [0, 1, 0, 1]
    assert pairs.outcome.ranks == [1, 3, 1, 3] and pairs.outcome.teams == [[0, 2], [1, 3]]
    assert [entry.game for entry in await referee.history("g1", game="nim")] == ["nim"]
    assert len(await referee.history()) == 3
    assert len(await referee.history("g1", limit=1, offset=1)) == 1
    for entry in history:
        record = await referee.record(entry.table_id)
        game = get_game(record.game)
        state, _ = replay(game, record)
        assert game.outcome(state).scores == entry.outcome.scores


async def test_pairs_are_rated_as_teams(referee):
    outbox = await bids(referee, ["alice", "bob", "carol", "dave"], [3, 0, 1, 2], pairs=True)
    after = {c.user_id: c.after for c in outbox.rating_changes}
    # Alice and Carol won together: both go up by the same amount from the same start.
    assert after["alice"] == after["carol"] and after["bob"] == after["dave"]
    assert after["alice"].mu > after["bob"].mu


async def test_rebuilding_ratings_from_history_equals_the_incremental_ratings(referee):
    rng = random.Random(7)
    players = ["alice", "bob", "carol", "dave", "erin"]
    for index in range(24):
        guild = "g1" if index % 3 else "g2"
        if index % 5 == 0:
            seated = rng.sample(players, 4)
            await bids(referee, seated, [rng.randrange(4) for _ in seated], guild_id=guild, pairs=True)
        elif index % 2:
            seated = rng.sample(players, rng.randrange(2, 5))
            await bids(referee, seated, [rng.randrange(4) for _ in seated], guild_id=guild)
        else:
            await nim_win(referee, *rng.sample(players, 2), guild_id=guild)
    store = referee.store
    pools = [(guild, game) for guild in ("g1", "g2") for game in ("nim", "bids")]
    incremental = {pool: await store.ratings(*pool) for pool in pools}
    events = await store.rating_events()
    assert len(events) > 50

    # The latest event of each player is their current rating.
    latest = {(e.guild_id, e.game, e.user_id): (e.after, e.games) for e in events}
    for (guild, game), ratings in incremental.items():
        for user, (rating, games, _) in ratings.items():
            assert latest[(guild, game, user)] == (rating, games)

    # Replaying the stored results through the model, with the store's rebuild or by hand.
    history = list(reversed(await referee.history(limit=1000)))
    by_hand = replay_ratings(
        ((r.guild_id, r.game), [RatedSeat(user_id=s.user_id, rank=s.rank, team=s.team) for s in r.seats])
        for r in history
        if r.rated
    )
    for (guild, game), ratings in incremental.items():
        for user, (rating, _, _) in ratings.items():
            assert by_hand[((guild, game), user)] == rating
    assert await referee.rebuild_ratings() == sum(1 for r in history if r.rated)
    assert {pool: await store.ratings(*pool) for pool in pools} == incremental
    assert await store.rating_events() == events
