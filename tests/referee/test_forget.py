"""Forgetting a player (engine/referee/forget.py): nothing of their id or name is left in any
column of any table, while the other players' games, results, ratings and histories stay right."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from db import forget as forget_rows
from db.postgres.store import PostgresStore
from engine.referee import Referee
from engine.referee.model import StaleCache, WrongStatus

from .helpers import HOUR, ManualClock, open_referee, two_player_nim

# The referee of tests/referee/conftest.py, with the toy game (nim) registered.
pytestmark = [pytest.mark.both_backends, pytest.mark.usefixtures("toy_game")]


def sqlite_tables_and_rows(path: str | Path) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """Every table of a SQLite file with its column names and all its rows."""
    found: dict[str, tuple[list[str], list[tuple[Any, ...]]]] = {}
    with sqlite3.connect(path) as connection:
        for (table,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            cursor = connection.execute(f'SELECT * FROM "{table}"')
            found[table] = ([column[0] for column in cursor.description], cursor.fetchall())
    return found


async def tables_and_rows(store: Any) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """Every table of the store's database (SQLite's sqlite_master, or PostgreSQL's schema) with
    its column names and all its rows."""
    if not isinstance(store, PostgresStore):
        return sqlite_tables_and_rows(store.path)
    found: dict[str, tuple[list[str], list[tuple[Any, ...]]]] = {}
    async with store._pool.acquire() as connection:
        names = await connection.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        for (table,) in names:
            columns = await connection.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
                " AND table_name = $1 ORDER BY ordinal_position",
                table,
            )
            rows = await connection.fetch(f'SELECT * FROM "{table}"')
            found[table] = ([column[0] for column in columns], [tuple(row) for row in rows])
    return found


def traces_in(tables: dict[str, tuple[list[str], list[tuple[Any, ...]]]], *needles: str) -> list[str]:
    """Every (table.column = value) of ``tables`` holding one of ``needles`` (any case): every
    table, every column of every row, text and blobs (state snapshots, JSON)."""
    found = []
    assert {"games", "seats", "moves", "results", "result_seats", "ratings", "user_settings"} <= set(tables)
    for table, (columns, rows) in tables.items():
        for row in rows:
            for column, value in zip(columns, row, strict=True):
                if isinstance(value, bytes):
                    text = value.decode("latin-1")
                else:
                    text = str(value)
                if any(needle.lower() in text.lower() for needle in needles):
                    found.append(f"{table}.{column} = {text[:80]!r}")
    return found


def file_traces(path: str | Path, *needles: str) -> list[str]:
    """``traces`` of a SQLite file."""
    return traces_in(sqlite_tables_and_rows(path), *needles)


async def traces(store: Any, *needles: str) -> list[str]:
    """``needles``' traces in the store's database, on either backend."""
    return traces_in(await tables_and_rows(store), *needles)


async def finished_game(referee: Referee, winner: str, loser: str) -> int:
    table_id = await two_player_nim(referee, tokens=1, first=winner, second=loser)
    assert (await referee.play(table_id, winner, "take 1")).finished
    referee.clock.advance(HOUR)  # type: ignore[attr-defined]
    return table_id


async def test_forget_me_leaves_no_trace_and_keeps_everyone_elses_games_right(
    referee: Referee, clock: ManualClock
) -> None:
    await referee.seasons.start("g1", "soft", "c1")
    won = await finished_game(referee, "alice", "bob")
    lost = await finished_game(referee, "carol", "alice")
    await finished_game(referee, "bob", "carol")
    board_before = [
        (row.position, row.user_id, row.games, row.wins)
        for row in (await referee.leaderboard("g1", "nim")).rows
    ]
    await referee.set_quiet_hours("alice", "Europe/Rome", 23, 7)
    await referee.start_vacation("alice", 3)  # the vacations table holds her id too
    await referee.user_settings.set_turn_dms("alice", True)
    await referee.user_settings.set_dms_closed("alice", True)
    assert await referee.user_settings.dms_closed("alice")
    # A game in progress with two others, Alice to act; a game against an AI only.
    running = await referee.create_table("nim", "alice", "Alice", options={"tokens": 9}, guild_id="g1")
    await referee.join(running.id, "bob", "Bob")
    await referee.join(running.id, "carol", "Carol")
    await referee.start(running.id, "alice", seed=3)
    alone = await referee.create_table("nim", "alice", "Alice", guild_id="g1", ai_seats=["random"])
    await referee.start(alone.id, "alice", seed=3)
    # Lobbies: hers with Bob, hers alone, Bob's with her.
    shared = await referee.create_table("nim", "alice", "Alice", guild_id="g1")
    await referee.join(shared.id, "bob", "Bob")
    solo = await referee.create_table("nim", "alice", "Alice", guild_id="g1")
    bobs = await referee.create_table("nim", "bob", "Bob", guild_id="g1")
    await referee.join(bobs.id, "alice", "Alice")
    assert await traces(referee.store, "alice")  # the scan finds her before

    report = await referee.forget_user("alice")

    assert report.name == "Former player #1"
    assert sorted(report.lobbies_left) == [shared.id, bobs.id] and report.lobbies_cancelled == [solo.id]
    assert report.games_forfeited == [running.id] and report.games_cancelled == [alone.id]
    assert await traces(referee.store, "alice") == []
    # The lobbies: Bob hosts the shared one, the lone one is cancelled, Bob's goes on without her.
    assert (await referee.table(shared.id)).host == "bob"
    assert [seat.user_id for seat in (await referee.table(shared.id)).seats] == ["bob"]
    assert (await referee.table(solo.id)).status == "abandoned"
    assert [seat.user_id for seat in (await referee.table(bobs.id)).seats] == ["bob"]
    # The running game goes on: her seat forfeited, played by the AI (it was her turn).
    [outbox] = report.outboxes
    assert outbox.moves_applied >= 1 and outbox.forfeited == [0]
    game = await referee.table(running.id)
    assert game.seats[0].name == "Former player #1" and game.seats[0].forfeited
    assert (await referee.to_act(running.id)) != (0,)
    assert (await referee.table(alone.id)).status == "abandoned"
    # Finished games keep their results under the one anonymous name; rankings stay right.
    for table_id in (won, lost):
        result = await referee.result(table_id)
        assert "Former player #1" in [seat.name for seat in result.seats]
        table = await referee.table(table_id)  # as the referee's cache has it too
        assert "Former player #1" in table.names and "alice" not in [seat.user_id for seat in table.seats]
    assert [(row.position, row.games, row.wins) for row in (await referee.leaderboard("g1", "nim")).rows] == [
        (position, games, wins) for position, _user, games, wins in board_before
    ]
    names = [row.name for row in (await referee.leaderboard("g1", "nim")).rows]
    assert "Former player #1" in names and {"Bob", "Carol"} <= set(names)
    season = await referee.seasons.current("g1")
    assert "Former player #1" in [row.name for row in (await referee.seasons.leaderboard(season, "nim")).rows]
    assert (await referee.player_stats("bob", "g1")).games[0].games == 2
    assert await referee.quiet_hours("alice") is None
    assert not await referee.user_settings.dms_closed("alice")  # nor kept in memory
    # A rebuild from the results gives the same ratings: the stand-in is one consistent player.
    before = (await referee.leaderboard("g1", "nim")).rows
    await referee.rebuild_ratings()
    assert (await referee.leaderboard("g1", "nim")).rows == before
    # Someone forgotten later gets a number of their own.
    assert (await referee.forget_user("carol")).name == "Former player #2"
    assert await traces(referee.store, "carol") == []


async def test_lobbies_hosted_without_a_seat_are_handed_on_or_cancelled(referee: Referee) -> None:
    empty = await referee.create_table("nim", "alice", "Alice", guild_id="g1", host_takes_seat=False)
    joined = await referee.create_table("nim", "alice", "Alice", guild_id="g1", host_takes_seat=False)
    await referee.join(joined.id, "bob", "Bob")
    await referee.forget_user("alice")
    assert (await referee.table(empty.id)).status == "abandoned"
    handed = await referee.table(joined.id)
    assert (handed.status, handed.host) == ("lobby", "bob")
    assert await traces(referee.store, "alice") == []



async def test_a_lobby_handed_on_is_seen_changed_by_another_process(tmp_path, clock: ManualClock) -> None:
    """Forgetting a player rewrites the lobbies they host as any write does, raising the table's
    revision: another process's cached copy (host: the forgotten player) can no longer be
    written over it, handing the lobby back to them or reopening a cancelled one; the write is
    refused as stale, and tried again on the lobby as stored."""
    first = await open_referee(tmp_path / "forget.sqlite3", clock, shared=True)
    second = await open_referee(tmp_path / "forget.sqlite3", clock, seed=6, shared=True)
    empty = await first.create_table("nim", "alice", "Alice", guild_id="g1", host_takes_seat=False)
    joined = await first.create_table("nim", "alice", "Alice", guild_id="g1", host_takes_seat=False)
    await first.join(joined.id, "bob", "Bob")
    for table_id in (empty.id, joined.id):
        await second.table(table_id)  # cached by the other process: hosted by Alice
    await first.forget_user("alice")
    for table_id in (empty.id, joined.id):
        with pytest.raises(StaleCache):  # its copy is stale: the write must fail, not land
            await second.join(table_id, "carol", "Carol")
    with pytest.raises(WrongStatus):  # as stored: cancelled
        await second.join(empty.id, "carol", "Carol")
    handed = await second.join(joined.id, "carol", "Carol")
    assert handed.host == "bob" and [seat.user_id for seat in handed.seats] == ["bob", "carol"]
    assert (await first.store.load_table(empty.id)).status == "abandoned"  # type: ignore[union-attr]
    assert await traces(first.store, "alice") == []
    await first.store.close()
    await second.store.close()

# Columns whose name sounds personal but never hold a player: the counter of AUTOINCREMENT, a
# server limit's name, a season's name, and a claim's owner (a bot process's id, "<pid>-<random>",
# from engine/referee/claims.py's process_owner: never a user id).
NOT_PERSONAL = {
    ("sqlite_sequence", "name"),
    ("guild_limits", "name"),
    ("seasons", "name"),
    ("claims", "owner"),
}
PERSONAL = re.compile(r"user|host|name|player|voter|by_|_by$|member|owner")


async def test_every_column_that_may_name_a_player_is_deleted_or_rewritten(referee: Referee) -> None:
    """A guard for new tables (a vacation, a vote, a rematch...): a column that sounds like it
    holds a user id or a name must be in db/forget.py's lists, or the forget would leave it."""
    covered = {(table, column) for table, column in forget_rows.PLAYER_ROWS}
    for table, column, name in forget_rows.PLAYER_COLUMNS:
        covered.add((table, column))
        if name is not None:
            covered.add((table, name))
    personal = {
        (table, column)
        for table, (columns, _) in (await tables_and_rows(referee.store)).items()
        for column in columns
        if PERSONAL.search(column)
    }
    assert personal - NOT_PERSONAL - covered == set()
    assert covered <= personal  # the lists name real columns
