"""Many games moving at the same moment on one store: every move lands, none is refused."""

from __future__ import annotations

import asyncio
import random

from db import SqliteStore
from engine.referee import Referee


async def test_moves_of_many_games_commit_concurrently(tmp_path, toy_game):
    store = await SqliteStore.open(tmp_path / "busy.sqlite3")
    referee = Referee(store, ai_rng=random.Random(1))
    table_ids = []
    for index in range(30):
        table = await referee.create_table("nim", f"a{index}", "A", options={"tokens": 40})
        await referee.join(table.id, f"b{index}", "B")
        await referee.start(table.id, f"a{index}", seed=index)
        table_ids.append(table.id)

    async def one_round(user_prefix: str) -> list[object]:
        calls = [referee.play(table_id, f"{user_prefix}{index}", "take 1") for index, table_id in enumerate(table_ids)]
        return await asyncio.gather(*calls, return_exceptions=True)

    for prefix in ("a", "b", "a", "b"):
        outcomes = await one_round(prefix)
        failures = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
        assert not failures, failures[:3]
    # Every move is durable: a fresh store sees four moves in every game.
    await store.close()
    reopened = await SqliteStore.open(tmp_path / "busy.sqlite3")
    for table_id in table_ids:
        assert len(await reopened.move_log(table_id)) == 4
    await reopened.close()
