"""bot.py as a real process refuses to start when its rules would change a game in progress
(issue 20, rules versions), and says which game and what to do, without a traceback."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

from db import SqliteStore
from engine.referee import Referee

from .fake_discord import TOKEN, FakeDiscord
from .test_process import TIMEOUT, launch


async def running_figures_game(database: Path) -> int:
    """A Figures game with moves in its log, as an earlier release left it."""
    database.parent.mkdir(parents=True, exist_ok=True)
    store = await SqliteStore.open(database)
    try:
        referee = Referee(store, ai_rng=random.Random(3))
        table = await referee.create_table("figures", "alice", "Alice", guild_id="1", ai_seats=["random"] * 3)
        await referee.start(table.id, "alice", seed=11)
        if not await store.move_log(table.id):
            await referee.play(table.id, "alice", (await referee.legal_moves(table.id, "alice"))[0])
        return table.id
    finally:
        await store.close()


def as_if_started_on_other_rules(database: Path, table_id: int) -> None:
    """What a changed rule looks like from the database: the game started on rules version 0,
    and its logged moves no longer lead to its stored position (the last one is gone)."""
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE games SET rules_version = 0 WHERE id = ?", (table_id,))
        connection.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND n = (SELECT MAX(n) FROM moves WHERE game_id = ?1)", (table_id,)
        )


async def start_and_wait(stand_in: FakeDiscord, tmp_path: Path, database: Path) -> tuple[int | None, str]:
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH={database}\nLOG_LEVEL=INFO\n")
    process = await launch(stand_in, tmp_path)
    stdout, stderr = await asyncio.wait_for(process.communicate(), TIMEOUT)
    return process.returncode, stdout.decode() + stderr.decode()


async def test_a_release_that_would_change_a_running_game_does_not_start(stand_in: FakeDiscord, tmp_path: Path) -> None:
    database = tmp_path / "referee.sqlite3"
    table_id = await running_figures_game(database)
    as_if_started_on_other_rules(database, table_id)
    code, output = await start_and_wait(stand_in, tmp_path, database)
    assert code == 3, output
    assert "Traceback" not in output
    assert f"table {table_id} (figures, rules v0 -> v1): the position after its moves differs" in output
    assert "Run the previous release until they end" in output
    assert not stand_in.identified.is_set()  # it never went online to play the game on other rules
