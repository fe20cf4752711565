"""The local table as a user scripts it: a real ``python -m console`` process fed through a pipe."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.games import REGISTRY
from engine.referee import FINISHED, RUNNING

from .helpers import stored_tables

REPO = Path(__file__).resolve().parents[2]
# The test-only Nim is registered by this launcher, which then runs the console's main().
NIM_CONSOLE = [sys.executable, "-m", "tests.console.nim_console"]
CONSOLE = [sys.executable, "-m", "console"]


def english_env(**extra: str) -> dict[str, str]:
    """The environment of a console process: the terminal's language is the test's to choose
    (English unless ``extra`` sets LANG), whatever the machine running the tests speaks."""
    unset = ("DISCORD_TOKEN", "COLUMNS", "LANGUAGE", "LC_ALL", "LC_MESSAGES")
    return {key: value for key, value in os.environ.items() if key not in unset} | {"LANG": "C.UTF-8"} | extra


def run_piped(
    command: list[str], stdin: str, *flags: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = env if env is not None else english_env()
    return subprocess.run(
        [*command, *flags],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
    )


def nim_flags(database: Path, *extra: str) -> list[str]:
    return ["--game", "nim", "--ai", "random", "--name", "kim", "--database", str(database), *extra]


async def test_a_piped_game_runs_to_the_final_scores(tmp_path):
    database = tmp_path / "pipe.sqlite3"
    done = run_piped(NIM_CONSOLE, "1\n" * 40, *nim_flags(database, "--players", "2", "--seed", "5"))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "Your move › 1\n" in done.stdout  # piped answers are echoed after their prompt
    assert "Final scores" in done.stdout
    [(table, _)] = await stored_tables(database)
    assert table.status == FINISHED


async def test_bad_input_then_quit_then_resume_in_a_new_process(tmp_path):
    database = tmp_path / "pipe.sqlite3"
    first = run_piped(
        NIM_CONSOLE, "grab 2\ntake 2\nquit\n", *nim_flags(database, "--option", "tokens=15", "--seed", "9")
    )
    assert first.returncode == 0, first.stderr
    assert "✗ Write `take N` with N from 1 to 3." in first.stdout
    assert "Game #1 is saved" in first.stdout
    [(table, before)] = await stored_tables(database)
    assert table.status == RUNNING and before[0].move == "take 2"

    # A new process on the same file: the start screen offers the game; it goes on from there.
    second = run_piped(NIM_CONSOLE, "r\ntake 1\n", "--database", str(database), "--name", "kim")
    assert second.returncode == 0, second.stderr
    assert f"Nim · game #1 · move {len(before)}" in second.stdout
    [(table, after)] = await stored_tables(database)
    assert after[: len(before)] == before
    assert (after[len(before)].seat, after[len(before)].move) == (0, "take 1")
    # The input ran out (Ctrl-D): one line says the game is kept, and nothing crashed.
    assert second.stdout.rstrip().splitlines()[-1] == (
        f"Game #1 is saved in {database}; start the local table again to resume it."
    )
    assert "Traceback" not in second.stderr


def test_empty_input_is_a_quiet_exit(tmp_path):
    done = run_piped(NIM_CONSOLE, "", "--database", str(tmp_path / "empty.sqlite3"), "--name", "kim")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.rstrip().endswith("Bye.")


async def test_ctrl_c_at_the_prompt_saves_and_says_so(tmp_path):
    database = tmp_path / "sigint.sqlite3"
    process = subprocess.Popen(
        [*NIM_CONSOLE, *nim_flags(database, "--seed", "4")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=english_env(),
    )
    try:
        assert process.stdout is not None
        for line in process.stdout:  # wait for the moves panel: the prompt comes right after it
            if "type a number or a move" in line:
                break
        time.sleep(0.3)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert out.strip().splitlines()[-1].startswith("Interrupted. Game #1 is saved in")
    assert "Traceback" not in err
    [(table, _)] = await stored_tables(database)
    assert table.status == RUNNING


@pytest.mark.skipif("figures" not in REGISTRY, reason="figures is not registered yet")
async def test_a_full_figures_game_against_three_ai_seats(tmp_path):
    database = tmp_path / "figures.sqlite3"
    # Always the first legal move; more lines than any match needs (the rest is never read).
    done = run_piped(
        CONSOLE,
        "1\n" * 3000,
        "--game",
        "figures",
        "--seed",
        "11",
        "--database",
        str(database),
        "--name",
        "kim",
    )
    assert done.returncode == 0, done.stderr
    # In play order, as the board numbers them: seed 11 seats the lobby in reverse.
    assert (
        "Players: 1. Carla (AI) [normal], 2. Bruno (AI) [normal], 3. Ada (AI) [normal], 4. kim (you)"
        in done.stdout
    )
    assert "Final scores" in done.stdout
    results = done.stdout[done.stdout.index("Final scores") :]
    for name in ("kim (you)", "Ada (AI)", "Bruno (AI)", "Carla (AI)"):
        assert name in results
    [(table, moves)] = await stored_tables(database)
    assert table.status == FINISHED and len(table.seats) == 4
    assert any(move.seat == 0 for move in moves)


def test_the_terminal_language_speaks_at_the_local_table(tmp_path):
    # LANG chooses the language of a real process (here Italian), --lang overrides it (Japanese).
    italian = run_piped(CONSOLE, "", "--database", str(tmp_path / "it.sqlite3"), env=english_env(LANG="it_IT.UTF-8"))
    assert italian.returncode == 0, italian.stderr
    assert "Il tavolo locale" in italian.stdout and italian.stdout.rstrip().endswith("Ciao.")
    japanese = run_piped(
        CONSOLE, "", "--database", str(tmp_path / "ja.sqlite3"), "--lang", "ja", env=english_env(LANG="it_IT.UTF-8")
    )
    assert "ローカル卓" in japanese.stdout and japanese.stdout.rstrip().endswith("さようなら。")
    refused = run_piped(CONSOLE, "", "--lang", "xx", "--database", str(tmp_path / "xx.sqlite3"))
    assert refused.returncode == 2 and "--lang takes one of en, it, pt_BR, ja, not 'xx'" in refused.stderr
