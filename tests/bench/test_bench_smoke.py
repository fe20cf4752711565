"""The benchmark entry point runs end to end on a tiny size and writes valid JSON.

Nothing here looks at a time or a rate: benchmarks measure, tests do not judge speed.
"""

from __future__ import annotations

import json
import sys

from bench.cli import main

TINY = [
    "--register", "nim=tests.toy_game",
    "--games", "nim",
    "--runs", "1",
    "--engine-seconds", "0.01",
    "--active", "4",
    "--moves", "10",
    "--arrival-seconds", "0.1",
    "--restart-games", "12",
    "--memory-games", "12",
    "--wal-seconds", "0.2",
    "--wal-settle-seconds", "0.1",
    "--wal-lobbies", "6",
    "--scaleout-seconds", "0.3",
    "--scaleout-runs", "2",
    "--ai-positions", "1",
    "--ai-stall-moves", "3",
]  # fmt: skip


def test_bench_runs_on_a_tiny_size_and_writes_json(toy_game, tmp_path, capsys):
    path = tmp_path / "results" / "bench.json"
    assert main([*TINY, "--json", str(path), "--workdir", str(tmp_path / "work")]) == 0

    results = json.loads(path.read_text())
    assert results["meta"]["games"] == ["nim"]
    assert set(results["engine"]["nim"]["by_players"]) == {"2", "3", "4"}  # every player count
    referee = results["referee"]["nim"]
    assert referee["players"] == 4 and referee["active_games"] == 4
    assert {"sequential", "open_loop", "saturation", "bare_sqlite3_commits_per_s"} <= set(referee)
    assert referee["sequential"]["errors"] == 0  # one move at a time never collides
    restart = results["restart"]
    assert restart["games_in_progress"] == 12 and restart["memory"]["nim"]["games"] == 12
    assert restart["disk"]["games"] == 12 and restart["restart"]["ready_s"] > 0
    assert "status" in results["discord"] or "per_game" in results["discord"]
    wal = results["wal"]["nim"]
    assert wal["moves"]["moves"] > 0 and wal["moves"]["errors"] == 0 and "db_mb" in wal["moves"]
    assert wal["lobbies"]["lobbies"] == 6 and wal["lobbies"]["cancelled"] == 3
    assert {"peak_wal_mb", "settled_wal_mb", "seconds_to_under_8mb"} <= set(wal["lobbies"])
    scaleout = results["scaleout"]["nim"]
    assert scaleout["sqlite_1"]["processes"] == 1 and scaleout["sqlite_1"]["errors"] == 0
    if "status" not in scaleout:  # PostgreSQL binaries found (the system's or the pinned wheel's)
        assert scaleout["postgres_2"]["processes"] == 2 and scaleout["postgres_2"]["errors"] == 0
        assert scaleout["postgres_1"]["moves"] > 0 and "ratio_two_to_one" in scaleout
        # Two rounds, each on fresh databases; the reported one is the lower middle round by the
        # ratio of two processes to one, and every round's ratios are kept beside it.
        rounds = scaleout["rounds"]
        assert len(rounds) == 2 and all(r["postgres_2_moves_per_s"] > 0 for r in rounds)
        assert scaleout["ratio_two_to_one"] == min(r["ratio_two_to_one"] for r in rounds)
        assert scaleout["postgres_2"]["durable_moves_per_s"] in [r["postgres_2_moves_per_s"] for r in rounds]
        if sys.platform == "linux":  # where the server's CPU went (bench/proc_cpu.py)
            assert scaleout["postgres_2"]["server_cpu_seconds"] > 0 and scaleout["postgres_2"]["machine_busy_cores"] > 0
    ai = results["ai"]["nim"]
    assert set(ai["decisions"]) >= {"easy", "normal", "strong", "pool_start_s"}
    assert ai["stall"]["pool"]["ai_moves"] >= 3 and ai["stall"]["thread"]["ticks"] > 0
    # The printed table names every section, and each target row says whether it is met.
    printed = capsys.readouterr().out
    for section in ("engine", "referee", "restart", "memory", "disk", "discord", "wal", "scaleout", "ai"):
        assert f"\n{section} " in printed
    assert any(row["target"] for row in results["table"])
    if "status" not in scaleout:
        assert "each round: 2 processes / 1" in printed


def test_the_picture_stall_figures_come_out_for_a_game_that_draws(toy_game, monkeypatch):
    from bench.picture_stall import measure
    from tests import picture_drawer

    assert measure([toy_game], 1, 3) == {"status": "no game draws pictures yet"}
    picture_drawer.drawing(monkeypatch, toy_game)
    figures = measure([toy_game], 1, 3)["per_game"]["nim"]
    assert figures["boards"] == 3 and figures["heartbeats"] > 0
    assert {"longest_stall_ms", "p99_stall_ms", "board_p95_ms", "hand_p95_ms", "largest_png_kb"} <= set(figures)
