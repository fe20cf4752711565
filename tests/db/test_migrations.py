"""Migrations on databases written before them: games and results carry over."""

from __future__ import annotations

import sqlite3

from db import SqliteStore
from db.sqlite_store import MIGRATIONS
from engine.referee import Referee


def database_at_version_1(path) -> None:
    with sqlite3.connect(path) as connection:
        connection.executescript((MIGRATIONS / "0001_initial.sql").read_text() + "\nPRAGMA user_version = 1;")
        connection.executescript(
            """
            INSERT INTO games (id, game, host, status, seed, version, guild_id, created_at, updated_at)
                VALUES (1, 'nim', 'alice', 'finished', 3, 2, 'g1', 10, 20),
                       (2, 'nim', 'alice', 'running', 4, 1, 'g1', 30, 40);
            INSERT INTO seats (game_id, seat, name, user_id, ai_kind) VALUES
                (1, 0, 'Alice', 'alice', NULL), (1, 1, 'Ada (AI)', NULL, 'random'),
                (2, 0, 'Alice', 'alice', NULL), (2, 1, 'Bob', 'bob', NULL);
            INSERT INTO results (game_id, outcome, finished_at)
                VALUES (1, '{"scores":[0.0,1.0],"ranks":[2,1],"teams":null}', 20);
            """
        )


async def test_older_results_are_kept_with_their_seats_and_running_games_go_on(tmp_path, toy_game):
    path = tmp_path / "old.sqlite3"
    database_at_version_1(path)
    store = await SqliteStore.open(path)
    # The highest migration present, so that branches adding theirs merge in any order.
    assert await store.migrate() == max(int(path.name.split("_", 1)[0]) for path in MIGRATIONS.glob("*.sql"))
    # Games from before the announcement outbox were announced as they went: nothing is owed.
    assert await store.pending_announcements() == []
    [entry] = await store.history("g1")
    assert (entry.table_id, entry.game, entry.board, entry.rated, entry.speed) == (
        1,
        "nim",
        "with_ai",
        False,
        "untimed",
    )
    assert [(s.name, s.is_ai, s.score, s.rank) for s in entry.seats] == [
        ("Alice", False, 0.0, 2),
        ("Ada (AI)", True, 1.0, 1),
    ]
    running = await store.load_table(2)
    assert running.speed == "untimed" and running.seats[1].clock is None and running.seats[1].skips == 0
    stats = await store.player_stats("alice", "g1")
    assert [(g.game, g.games, g.wins) for g in stats.games] == [("nim", 1, 0)]
    await store.close()


async def test_running_games_from_before_0003_are_resumed_once_then_left_at_rest(tmp_path, toy_game):
    path = tmp_path / "old.sqlite3"
    database_at_version_1(path)
    state = toy_game.encode_state(toy_game.setup(2, 4, {"tokens": 5}))
    with sqlite3.connect(path) as connection:
        connection.executescript((MIGRATIONS / "0002_clocks_results_ratings.sql").read_text())
        connection.execute("PRAGMA user_version = 2")
        connection.execute("UPDATE games SET thread_id = 't2', state = ? WHERE id = 2", (state,))
    store = await SqliteStore.open(path)
    # Whether a move was pending was not stored then: the running game is looked at once.
    assert (await store.load_table(2)).needs_resume and not (await store.load_table(1)).needs_resume
    referee = Referee(store)
    assert await referee.tables_to_resume() == [2]
    outbox = await referee.resume(2)
    assert outbox.moves_applied == 0 and outbox.to_act == [0]
    assert await referee.tables_to_resume() == []
    referee.forget_cache()
    assert (await referee.table(2)).version == 1 and (await referee.state(2)).tokens == 5
    await store.close()
