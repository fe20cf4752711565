"""The pictures section of the benchmark runs on a tiny size, reports every figure beside its
target, and skips a game that draws nothing. No time is judged here."""

from __future__ import annotations

import json

from bench.cli import main


def test_pictures_section_on_a_tiny_size(tmp_path, capsys):
    path = tmp_path / "bench.json"
    assert main(["--games", "figures", "--sections", "pictures", "--picture-positions", "3", "--json", str(path)]) == 0
    figures = json.loads(path.read_text())["pictures"]["figures"]
    assert figures["positions"] == 3 and figures["players"] == 4
    for key in ("board_p95_ms", "hand_p95_ms", "board_cpu_p95_ms", "board_png_max_kb", "hand_png_max_kb", "apply_p50_ms"):
        assert figures[key] > 0, key
    printed = capsys.readouterr().out
    assert "p95 draw the public board" in printed and "largest hand PNG" in printed and "< 300" in printed


def test_a_game_without_pictures_is_skipped(toy_game, tmp_path):
    path = tmp_path / "bench.json"
    assert main(["--register", "nim=tests.toy_game", "--games", "nim", "--sections", "pictures", "--json", str(path)]) == 0
    assert json.loads(path.read_text())["pictures"]["nim"] == {"skipped": "draws no pictures"}
