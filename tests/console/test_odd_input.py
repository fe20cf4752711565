"""The local table with input no number reader expects: Unicode digits, very long numbers."""

from __future__ import annotations

import pytest

from engine.referee import RUNNING

from .helpers import run_console, stored_tables


@pytest.fixture
def database(tmp_path):
    return tmp_path / "local.sqlite3"


async def test_unicode_and_very_long_digits_are_refused_in_words(toy_game, database):
    flags = ["--game", "nim", "--database", str(database), "--name", "kim", "--ai", "random", "--seed", "1"]
    lines = ["²", "٣", "9" * 5000, "take 1", "quit"]
    code, out, reader = await run_console(flags, lines)
    assert code == 0
    assert "Traceback" not in out
    assert reader.prompts.count("Your move › ") == 5
    assert "Game #1 is saved" in out
    [(table, moves)] = await stored_tables(database)
    assert table.status == RUNNING and [move.move for move in moves[:1]] == ["take 1"]


async def test_the_start_screen_takes_only_plain_numbers(toy_game, database):
    code, out, _ = await run_console(["--database", str(database), "--name", "kim"], ["²", "quit"])
    assert code == 0
    assert "'²' is not on the list" in out


def test_list_numbers_are_plain_ascii_digits():
    from console.session import list_number

    assert list_number("12") == 12
    assert list_number("²") is None and list_number("٣") is None and list_number("9" * 5000) is None


async def test_a_very_long_player_name_still_plays(toy_game, database):
    flags = ["--game", "nim", "--database", str(database), "--name", "k" * 500, "--ai", "random", "--seed", "1"]
    code, out, _ = await run_console(flags, ["take 1", "quit"])
    assert code == 0 and "Game #1 is saved" in out
    [(table, moves)] = await stored_tables(database)
    assert len(table.seats[0].name) <= 32 and moves[0].move == "take 1"
