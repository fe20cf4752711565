"""The local table refuses to resume games its rules would change, and takes moves back (issue 20)."""

from __future__ import annotations

import pytest

from console.app import RULES_CHANGED_EXIT_CODE
from engine.referee import RUNNING
from tests.toy_game import Nim, Take

from .helpers import run_console, stored_tables


async def test_changed_rules_stop_the_local_table_and_name_the_game(toy_game, tmp_path, monkeypatch: pytest.MonkeyPatch):
    database = tmp_path / "local.sqlite3"
    flags = ["--game", "nim", "--database", str(database), "--name", "kim", "--ai", "random"]
    await run_console([*flags, "--option", "tokens=20", "--seed", "3"], ["take 3", "quit"])
    [(table, _)] = await stored_tables(database)
    assert table.status == RUNNING

    # A new release: version 2, where the logged "take 3" is no longer a legal move.
    monkeypatch.setattr(Nim, "rules_version", 2)
    monkeypatch.setattr(Nim, "legal_moves", lambda self, state, seat: [Take(n) for n in (1, 2)][: state.tokens])
    code, out, _ = await run_console(["--resume", "--database", str(database), "--name", "kim"], every_move="1")
    assert code == RULES_CHANGED_EXIT_CODE
    assert f"table {table.id} (nim, rules v1 -> v2): move 1 is refused now" in out.replace("\n", " ")
    [(after, moves)] = await stored_tables(database)
    assert after.version == table.version and len(moves) == table.version  # nothing was played


async def test_undo_at_the_local_table_takes_back_or_says_why_not(toy_game, tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(Nim, "undoable", lambda self, before, seat, move, after: True)
    database = tmp_path / "local.sqlite3"
    flags = ["--game", "nim", "--database", str(database), "--name", "kim", "--ai", "random", "--seed", "3"]
    # The AI answers every move at once: by the next prompt, it moved last.
    code, out, _ = await run_console([*flags, "--option", "tokens=20"], ["take 1", "undo", "quit"])
    assert code == 0 and "Only your own last move can be taken back" in out.replace("\n", " ")
    [(table, moves)] = await stored_tables(database)
    assert [m.move for m in moves] == ["take 1", moves[1].move]  # nothing was taken back
