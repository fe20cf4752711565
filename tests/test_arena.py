"""engine.arena runs and reports (its strength figures are benchmarks in the README, not tests)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.arena import main, play_one


def test_a_small_arena_run_reports_every_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "orchard", "--players", "2", "--seats", "strong,greedy", "--games", "2",
                 "--iterations", "4", "--seed", "3"]) == 0  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and report["iterations"] == 4
    levels = report["levels"]
    assert set(levels) == {"strong", "greedy"}
    for level in levels.values():
        assert level["seats_played"] == 2  # the seats rotate: each level sat in both places
        assert 0.0 <= level["win_share"] <= 1.0
        assert level["mean_decision_ms"] is not None and level["p95_decision_ms"] is not None
    assert levels["strong"]["win_share"] + levels["greedy"]["win_share"] == pytest.approx(1.0)


def test_the_seats_rotate_and_a_game_is_reproducible_with_fixed_iterations() -> None:
    first = play_one("orchard", 2, ["strong", "greedy"], 5, 0, {"easy": False, "first_picker": "random"}, 4, None)
    rotated = play_one("orchard", 2, ["strong", "greedy"], 5, 1, {"easy": False, "first_picker": "random"}, 4, None)
    again = play_one("orchard", 2, ["strong", "greedy"], 5, 0, {"easy": False, "first_picker": "random"}, 4, None)
    assert first["levels"] == ["strong", "greedy"] and rotated["levels"] == ["greedy", "strong"]
    assert again["scores"] == first["scores"]


def test_the_log_of_a_run_summarises_to_the_same_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "games.jsonl"
    assert main(["--game", "orchard", "--players", "2", "--seats", "strong,greedy", "--games", "2",
                 "--iterations", "3", "--seed", "4", "--log", str(log)]) == 0  # fmt: skip
    played = json.loads(capsys.readouterr().out)
    assert main(["--summarise", str(log)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2
    assert summary["levels"] == played["levels"]  # a run cut short counts from its log alike
