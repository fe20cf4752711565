"""Rules versions at their edges (issue 20): a changed rule that crashes instead of refusing, a
stored position the new code cannot read, a log with moves taken back, and thousands of changed
games: the start stops with a clear, bounded message and never a traceback."""

from __future__ import annotations

import sqlite3

import pytest

from engine.referee import RulesChanged
from tests.toy_game import Nim, Take

from .helpers import open_referee, two_player_nim
from .test_rules_versions import nim_after_two_moves


@pytest.fixture
def nim_undoable(toy_game, monkeypatch):
    monkeypatch.setattr(Nim, "undoable", lambda self, before, seat, move, after: True)


async def test_a_changed_rule_that_crashes_on_a_logged_move_stops_the_start_in_words(referee, toy_game, monkeypatch):
    table_id = await nim_after_two_moves(referee)
    monkeypatch.setattr(Nim, "rules_version", 2)

    def broken(self, state, seat, move):
        raise IndexError("list index out of range")  # the new code's own bug, met by an old game

    monkeypatch.setattr(Nim, "play", broken)
    with pytest.raises(RulesChanged) as refused:
        await referee.check_rules_versions()
    [change] = refused.value.changed
    assert change.table_id == table_id and "move 1" in change.why and "IndexError" in change.why


async def test_a_stored_position_the_new_code_cannot_read_stops_the_start_in_words(referee, toy_game, monkeypatch, tmp_path):
    table_id = await nim_after_two_moves(referee)
    monkeypatch.setattr(Nim, "rules_version", 2)

    def unreadable(self, data):
        raise KeyError("charm")  # a field the new state type expects and the old one lacks

    monkeypatch.setattr(Nim, "decode_state", unreadable)
    with pytest.raises(RulesChanged) as refused:
        await referee.check_rules_versions()
    assert [(c.table_id, c.why) for c in refused.value.changed] == [
        (table_id, "the stored position no longer reads (KeyError: 'charm')")
    ]


async def test_a_log_with_a_move_taken_back_replays_and_a_refused_move_is_named_by_its_place_in_the_log(
    referee, nim_undoable, monkeypatch
):
    table_id = await two_player_nim(referee, tokens=10, speed="untimed")
    await referee.play(table_id, "alice", "take 2")
    await referee.undo(table_id, "alice")
    await referee.play(table_id, "alice", "take 1")
    await referee.play(table_id, "bob", "take 3")  # the log: take 2, (undo), take 1, take 3
    monkeypatch.setattr(Nim, "rules_version", 2)
    assert (await referee.check_rules_versions()).replayed == 1
    monkeypatch.setattr(Nim, "legal_moves", lambda self, state, seat: [Take(n) for n in (1, 2)][: state.tokens])
    with pytest.raises(RulesChanged) as refused:
        await referee.check_rules_versions()
    [change] = refused.value.changed
    assert change.why.startswith("move 4 is refused now"), change.why  # the 4th entry of the log


async def test_thousands_of_changed_games_make_a_message_an_operator_can_read(tmp_path, clock, toy_game, monkeypatch):
    path = tmp_path / "many.sqlite3"
    referee = await open_referee(path, clock)
    first = await nim_after_two_moves(referee)
    await referee.store.close()
    with sqlite3.connect(path) as connection:  # 2,000 copies of the game, all running
        columns = [row[1] for row in connection.execute("PRAGMA table_info(games)") if row[1] != "id"]
        seat_columns = [row[1] for row in connection.execute("PRAGMA table_info(seats)")]
        move_columns = [row[1] for row in connection.execute("PRAGMA table_info(moves)")]
        for _ in range(2000):
            new = connection.execute(
                f"INSERT INTO games ({','.join(columns)}) SELECT {','.join(columns)} FROM games WHERE id = ?", (first,)
            ).lastrowid
            for table, names in (("seats", seat_columns), ("moves", move_columns)):
                picked = ",".join("?" if name == "game_id" else name for name in names)
                connection.execute(f"INSERT INTO {table} ({','.join(names)}) SELECT {picked} FROM {table} WHERE game_id = ?", (new, first))
    again = await open_referee(path, clock)
    try:
        monkeypatch.setattr(Nim, "rules_version", 2)
        monkeypatch.setattr(Nim, "legal_moves", lambda self, state, seat: [Take(n) for n in (1, 2)][: state.tokens])
        with pytest.raises(RulesChanged) as refused:
            await again.check_rules_versions()
        assert len(refused.value.changed) == 2001  # every one is known to the caller...
        message = str(refused.value)
        assert len(message) < 4000 and "and 1991 more" in message  # ...and the message stays short
    finally:
        await again.store.close()
