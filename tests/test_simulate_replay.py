"""The simulator and the replay tool, on the toy game (each real game runs them in its own tests)."""

from __future__ import annotations

import asyncio
import json
import random

import msgspec

from db import SqliteStore
from engine import replay as replay_tool
from engine import simulate
from engine.core import GameRecord, RecordedMove
from engine.referee import Referee


def run_json(main, argv, capsys) -> tuple[int, dict]:
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def test_simulator_plays_games_in_memory(toy_game, capsys):
    code, summary = run_json(
        simulate.main, ["--game", "nim", "--players", "3", "--games", "20", "--option", "tokens=15"], capsys
    )
    assert code == 0
    assert summary["completed"] == 20 and summary["errors"] == 0
    assert summary["players"] == 3 and len(summary["mean_scores"]) == 3
    # Exactly one winner per game, so the mean scores add up to one.
    assert abs(sum(summary["mean_scores"]) - 1) < 1e-9
    assert summary["moves"] >= 20 * 5  # at least 15 tokens / 3 per move


def test_simulator_through_the_referee_and_sqlite(toy_game, capsys, tmp_path):
    path = tmp_path / "sim.sqlite3"
    code, summary = run_json(
        simulate.main, ["--game", "nim", "--games", "5", "--store", str(path), "--ai", "random"], capsys
    )
    assert code == 0 and summary["completed"] == 5

    async def count_finished() -> int:
        store = await SqliteStore.open(path)
        tables = await store.list_tables(statuses=("finished",))
        await store.close()
        return len(tables)

    assert asyncio.run(count_finished()) == 5


def test_simulator_rejects_bad_options(toy_game):
    try:
        simulate.main(["--game", "nim", "--option", "tokens"])
    except SystemExit as error:
        assert "NAME=VALUE" in str(error)
    else:
        raise AssertionError("a malformed option was accepted")


def write_record(tmp_path, record: GameRecord):
    path = tmp_path / "record.json"
    path.write_bytes(msgspec.json.encode(record))
    return str(path)


def test_replay_reports_final_scores(toy_game, capsys, tmp_path):
    record = GameRecord(
        game="nim",
        players=2,
        seed=3,
        options={"tokens": 4},
        moves=[RecordedMove(0, "take 3"), RecordedMove(1, "take 1")],
    )
    code, report = run_json(replay_tool.main, [write_record(tmp_path, record)], capsys)
    assert code == 0
    assert report["over"] is True and report["scores"] == [0.0, 1.0]
    assert "charm" not in json.dumps(report["public_view"])


def test_replay_names_the_first_illegal_move(toy_game, capsys, tmp_path):
    record = GameRecord(
        game="nim", players=2, seed=3, options={}, moves=[RecordedMove(0, "take 3"), RecordedMove(0, "take 1")]
    )
    code, report = run_json(replay_tool.main, [write_record(tmp_path, record)], capsys)
    assert code == 1
    assert report["failed_at"] == 1 and "not your turn" in report["reason"].lower()


def test_exported_record_replays_to_the_referee_state(toy_game, tmp_path):
    async def play_and_export():
        store = await SqliteStore.open(tmp_path / "g.sqlite3")
        referee = Referee(store, ai_rng=random.Random(1))
        table = await referee.create_table("nim", "alice", "Alice", options={"tokens": 12})
        await referee.add_ai(table.id, "alice", "random")
        await referee.start(table.id, "alice", seed=9)
        while (await referee.table(table.id)).status == "running":
            await referee.play(table.id, "alice", "take 1")
        record, state = await referee.record(table.id), await referee.state(table.id)
        await store.close()
        return record, state

    record, state = asyncio.run(play_and_export())
    from engine.core import replay

    replayed, _ = replay(toy_game, msgspec.json.decode(msgspec.json.encode(record), type=GameRecord))
    assert replayed == state


def test_simulator_defaults_to_a_player_count_the_game_accepts(capsys):
    # Vege tables lists 2 to 5 players; 2 has no options and 3 needs the house variant.
    code, summary = run_json(simulate.main, ["--game", "vegetables", "--games", "1"], capsys)
    assert code == 0 and summary["players"] == 2
    code, summary = run_json(
        simulate.main, ["--game", "vegetables", "--games", "1", "--option", "house_variant=true"], capsys
    )
    assert code == 0 and summary["players"] == 3
