"""Many games moving at the same moment on one store: every move lands, none is refused."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading

import pytest

from engine.core import RecordedMove
from engine.referee import Referee
from engine.referee.model import VersionConflict
from tests.stores import open_test_store

pytestmark = pytest.mark.both_backends


def pragma(connection: sqlite3.Connection, name: str) -> object:
    return connection.execute(f"PRAGMA {name}").fetchone()[0]


async def two_player_tables(referee: Referee, count: int) -> list[int]:
    """``count`` started Nim tables, players a<i> (to move) and b<i>."""
    table_ids = []
    for index in range(count):
        table = await referee.create_table("nim", f"a{index}", "A", options={"tokens": 40})
        await referee.join(table.id, f"b{index}", "B")
        await referee.start(table.id, f"a{index}", seed=index)
        table_ids.append(table.id)
    return table_ids


async def test_moves_of_many_games_commit_concurrently(tmp_path, toy_game):
    store = await open_test_store(tmp_path / "busy.sqlite3")
    referee = Referee(store, ai_rng=random.Random(1))
    table_ids = await two_player_tables(referee, 30)

    async def one_round(user_prefix: str) -> list[object]:
        calls = [referee.play(table_id, f"{user_prefix}{index}", "take 1") for index, table_id in enumerate(table_ids)]
        return await asyncio.gather(*calls, return_exceptions=True)

    for prefix in ("a", "b", "a", "b"):
        outcomes = await one_round(prefix)
        failures = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
        assert not failures, failures[:3]
    # Every move is durable: a fresh store sees four moves in every game.
    await store.close()
    reopened = await open_test_store(tmp_path / "busy.sqlite3")
    for table_id in table_ids:
        assert len(await reopened.move_log(table_id)) == 4
    await reopened.close()


@pytest.mark.sqlite_only
async def test_moves_arriving_together_share_transactions(tmp_path, toy_game, monkeypatch):
    """Group commit: moves that arrive while a transaction is being written go together in the
    next one, so forty simultaneous moves take far fewer than forty transactions."""
    import db.writer as writer

    groups: list[int] = []
    write_group = writer._write_group

    def counting(connection, works):
        groups.append(len(works))
        return write_group(connection, works)

    monkeypatch.setattr(writer, "_write_group", counting)
    store = await open_test_store(tmp_path / "group.sqlite3")
    referee = Referee(store, ai_rng=random.Random(2))
    table_ids = await two_player_tables(referee, 40)
    groups.clear()
    outcomes = await asyncio.gather(
        *(referee.play(table_id, f"a{index}", "take 2") for index, table_id in enumerate(table_ids))
    )
    assert all(outbox.moves_applied == 1 for outbox in outcomes)
    assert sum(groups) == 40
    assert len(groups) < 40 and max(groups) > 1
    await store.close()
    reopened = await open_test_store(tmp_path / "group.sqlite3")
    for table_id in table_ids:
        assert [move.move for move in await reopened.move_log(table_id)] == ["take 2"]
    await reopened.close()


@pytest.mark.sqlite_only
async def test_a_stale_move_in_a_group_fails_alone(tmp_path, toy_game, monkeypatch):
    """A group's moves first go together; when one is on a stale version, the transaction starts
    again and each move runs in its own savepoint: the stale one is refused and undone, while the
    moves beside it in the same transaction are committed."""
    import db.tables as table_queries

    attempts: list[tuple[int, bool]] = []
    write_together = table_queries._write_moves_together

    def spy(connection, works):
        written = write_together(connection, works)
        attempts.append((len(works), written))
        return written

    monkeypatch.setattr(table_queries, "_write_moves_together", spy)
    store = await open_test_store(tmp_path / "stale.sqlite3")
    referee = Referee(store, ai_rng=random.Random(3))
    tables = [await referee.table(table_id) for table_id in await two_player_tables(referee, 3)]
    state = await store.load_state(tables[0].id)
    assert state is not None

    def one_move(table, version):
        return store.commit_moves(table, version, [RecordedMove(0, "take 1")], state)

    gate = threading.Event()
    store._writer._queue_in_writer_thread(gate.wait)  # the thread waits until all three are queued
    moving = asyncio.gather(
        one_move(tables[0], tables[0].version),
        one_move(tables[1], tables[1].version - 1),  # stale: another process moved first
        one_move(tables[2], tables[2].version),
        return_exceptions=True,
    )
    await asyncio.sleep(0.05)
    gate.set()
    outcomes = await moving
    assert outcomes[0] == [] and outcomes[2] == []
    assert isinstance(outcomes[1], VersionConflict)
    assert attempts == [(3, False)]
    assert [len(await store.move_log(table.id)) for table in tables] == [1, 0, 1]
    await store.close()


@pytest.mark.sqlite_only
async def test_checkpoints_run_off_the_move_path(tmp_path):
    """No commit checkpoints (SQLite's automatic checkpoint is off); a background thread copies
    the WAL, and stops when the store closes (the writer restarts the WAL between groups only
    past a size: tests/db/test_wal.py)."""
    store = await open_test_store(tmp_path / "ckpt.sqlite3")
    assert await store._writer.call(pragma, "wal_autocheckpoint") == 0  # the connection that commits
    assert any(thread.name == "sqlite-checkpoints" for thread in threading.enumerate())
    stop = store._writer._stop_checkpoints
    await store.close()
    assert stop is not None and stop.is_set()



@pytest.mark.sqlite_only
async def test_every_commit_waits_for_the_disk(tmp_path):
    """An accepted move must survive a host crash, not only a crash of the bot: the store's
    connection syncs the log at every commit (synchronous=FULL, 2), and stays in WAL mode."""
    store = await open_test_store(tmp_path / "durable.sqlite3")
    # The group writer's own connection is the one that commits.
    assert await store._writer.call(pragma, "synchronous") == 2
    assert await store._writer.call(pragma, "journal_mode") == "wal"
    await store.close()


@pytest.mark.sqlite_only
async def test_moves_written_together_store_what_moves_written_one_by_one_store(tmp_path, toy_game, monkeypatch):
    """Moves of a group go to disk in a few multi-row statements; the rows they leave are those
    that writing each move on its own leaves (game rows with their snapshots, seats, moves)."""
    import db.tables as table_queries

    together: list[int] = []
    write_together = table_queries._write_moves_together

    def counting(connection, works):
        written = write_together(connection, works)
        together.append(len(works) if written else 0)
        return written

    monkeypatch.setattr(table_queries, "_write_moves_together", counting)

    async def play(path, at_once: bool) -> None:
        store = await open_test_store(path)
        referee = Referee(store, clock=lambda: 1_000.0, ai_rng=random.Random(4))
        table_ids = await two_player_tables(referee, 25)
        for prefix, take in (("a", "take 1"), ("b", "take 3"), ("a", "take 2")):
            calls = [referee.play(table_id, f"{prefix}{index}", take) for index, table_id in enumerate(table_ids)]
            if at_once:
                await asyncio.gather(*calls)
            else:
                for call in calls:
                    await call
        await store.close()

    def rows(path) -> list[list[tuple]]:
        with sqlite3.connect(path) as connection:
            return [
                connection.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall()
                for name in ("games", "seats", "moves")
            ]

    await play(tmp_path / "one-by-one.sqlite3", at_once=False)
    assert sum(together) == 0
    await play(tmp_path / "together.sqlite3", at_once=True)
    assert max(together) > 1  # the multi-row statements were used
    assert rows(tmp_path / "together.sqlite3") == rows(tmp_path / "one-by-one.sqlite3")


async def test_other_writes_go_through_the_groups_beside_moves(tmp_path, toy_game):
    """Lobby writes, settings and heartbeats share the group transactions with moves (one queue,
    one transaction at a time): a burst of all of them at once lands whole, and a failing one
    (a stale lobby save) is refused alone."""
    from engine.referee.clock import QuietHours

    store = await open_test_store(tmp_path / "mixed.sqlite3")
    referee = Referee(store, ai_rng=random.Random(5))
    table_ids = await two_player_tables(referee, 10)
    lobby = await referee.create_table("nim", "host", "Host")
    stale = await referee.table(lobby.id)
    stale.version -= 1
    outcomes = await asyncio.gather(
        *(referee.play(table_id, f"a{index}", "take 1") for index, table_id in enumerate(table_ids)),
        store.set_quiet_hours("a1", QuietHours(time_zone="Europe/Rome", start_hour=23, end_hour=7)),
        store.set_user_flag("a2", "turn-dms", True),
        store.set_heartbeat(123.0),
        referee.create_table("nim", "other", "Other"),
        store.save_table(stale, stale.version),
        return_exceptions=True,
    )
    assert isinstance(outcomes[-1], VersionConflict)
    assert not [outcome for outcome in outcomes[:-1] if isinstance(outcome, BaseException)]
    await store.close()
    reopened = await open_test_store(tmp_path / "mixed.sqlite3")
    assert [len(await reopened.move_log(table_id)) for table_id in table_ids] == [1] * len(table_ids)
    assert (await reopened.get_quiet_hours("a1")).start_hour == 23
    assert await reopened.get_user_flag("a2", "turn-dms")
    assert await reopened.get_heartbeat() == 123.0
    assert (await reopened.load_table(outcomes[-2].id)).host == "other"
    await reopened.close()


@pytest.mark.sqlite_only
async def test_a_write_after_the_store_closed_is_refused_at_once(tmp_path):
    store = await open_test_store(tmp_path / "closed.sqlite3")
    await store.set_heartbeat(1.0)
    await store.close()
    try:
        await asyncio.wait_for(store.set_heartbeat(2.0), timeout=5)
    except ValueError as error:
        assert "closed" in str(error)
    else:
        raise AssertionError("a closed store accepted a write")
