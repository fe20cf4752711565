"""3. Restart with many games in progress, and 4. memory per cached game and size on disk.

One database holds ``restart_games`` timed games in progress, shared equally by the games measured
and cut at random points of a typical game, and a heartbeat a minute old (the bot was down for a
minute). Restart is timed from just before a child process starts (``python -m bench.ready``) to its
"ready" line, written once it has imported the bot's stack, opened the store, re-armed the clocks
(``Referee.credit_downtime(defer=True)``, as the bot does) and accepted one move in a random game in
progress; the child also reports the in-process part and the re-arming alone, and the first run also
times what follows in the background (the re-arm batch and the first due-clock poll, and the sweep
over the running games made in on_ready).
Memory is measured in other children (``python -m bench.memory``) that load games into the
referee's cache: all of them, then each game type's alone.
"""

from __future__ import annotations

import asyncio
import compileall
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from db import SqliteStore
from engine.core import Game

from .build import build_games
from .config import Sizes, bench_players
from .stats import median, rounded

ROOT = Path(__file__).resolve().parent.parent


def registered_arguments(extra: dict[str, str]) -> list[str]:
    return [argument for name, module in extra.items() for argument in ("--register", f"{name}={module}")]


def child(module: str, arguments: Sequence[str], timeout: float = 300.0) -> tuple[float, dict[str, Any]]:
    """Run ``python -m module``; returns the seconds from just before the process starts to its
    "ready" line (or to its end), and every JSON line it printed, merged."""
    with tempfile.TemporaryFile(mode="w+") as errors:
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", module, *arguments], cwd=ROOT, stdout=subprocess.PIPE, stderr=errors, text=True
        )
        assert process.stdout is not None
        lines: list[dict[str, Any]] = []
        until_ready = None
        for line in process.stdout:
            if not line.startswith("{"):
                continue  # not ours: a library printing
            lines.append(json.loads(line))
            if lines[-1].get("ready") and until_ready is None:
                until_ready = time.perf_counter() - started
        process.wait(timeout=timeout)
        if process.returncode != 0 or not lines:
            errors.seek(0)
            raise RuntimeError(f"python -m {module} failed ({process.returncode}): {errors.read().strip()[-2000:]}")
    elapsed = until_ready if until_ready is not None else time.perf_counter() - started
    merged: dict[str, Any] = {}
    for line in lines:
        merged.update(line)
    return elapsed, merged


def compile_sources() -> None:
    for name in ("bot.py", "config.py", "cogs", "db", "engine", "console"):
        source = ROOT / name
        if source.is_dir():
            compileall.compile_dir(source, quiet=1)
        elif source.is_file():
            compileall.compile_file(source, quiet=1)


def interpreter_floor(runs: int) -> float:
    """Time to start and stop a bare interpreter: the part of a restart no code of ours can cut."""
    times = []
    for _ in range(max(3, runs)):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - started)
    return median(times)


def disk_usage(path: Path) -> dict[str, Any]:
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    by_object = dict(connection.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall())
    games = connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    moves = connection.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    per_game = {
        name: {"games": count, "state_snapshot_bytes": rounded(state, 1), "moves_per_game": rounded(logged / count, 1)}
        for name, count, state, logged in connection.execute(
            "SELECT game, COUNT(*), AVG(LENGTH(state)),"
            " (SELECT COUNT(*) FROM moves m JOIN games h ON h.id = m.game_id WHERE h.game = g.game)"
            " FROM games g GROUP BY game"
        )
    }
    connection.close()
    moves_bytes = by_object.get("moves", 0)
    total = sum(by_object.values())
    return {
        "games": games,
        "moves": moves,
        "file_bytes": path.stat().st_size,
        "bytes_by_object": by_object,
        "bytes_per_game_without_moves": rounded((total - moves_bytes) / max(1, games), 1),
        "bytes_per_move": rounded(moves_bytes / max(1, moves), 1),
        "file_bytes_per_game": rounded(path.stat().st_size / max(1, games), 1),
        "per_game_type": per_game,
    }


async def _build(path: Path, plan: list[tuple[Game[Any, Any], int, int, int, float]]) -> dict[str, list[int]]:
    store = await SqliteStore.open(path)
    try:
        ids: dict[str, list[int]] = {}
        for game, players, count, seed, mean_length in plan:
            built = await build_games(store, game, players, count, seed=seed, mean_length=mean_length)
            ids[game.name] = [b.table_id for b in built]
        # The bot was last seen a minute ago: at start, every running clock gets that minute back.
        await store.set_heartbeat(time.time() - 60)
    finally:
        await store.close()
    return ids


def measure(
    games: list[Game[Any, Any]],
    sizes: Sizes,
    workdir: Path,
    seed: int,
    mean_lengths: dict[str, float],
    extra: dict[str, str],
) -> dict[str, Any]:
    path = workdir / "restart.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    share, left = divmod(sizes.restart_games, len(games))
    plan = [
        (game, bench_players(game), share + (1 if index < left else 0), seed + index, mean_lengths[game.name])
        for index, game in enumerate(games)
    ]
    started = time.perf_counter()
    ids = asyncio.run(_build(path, plan))
    build_seconds = time.perf_counter() - started
    disk = disk_usage(path)  # before the children add their moves
    registered = registered_arguments(extra)

    # A restart finds our sources compiled, as `make run` leaves them (an environment that sets
    # PYTHONDONTWRITEBYTECODE would otherwise compile them again at every start).
    compile_sources()
    rng = random.Random(seed)
    every = [table_id for name in ids for table_id in ids[name]]
    runs = []
    for run, table_id in enumerate(rng.sample(every, min(len(every), sizes.restart_runs))):
        arguments = ["--db", str(path), "--table", str(table_id), "--seed", str(seed + run), *registered]
        seconds, lines = child("bench.ready", [*arguments, *(["--sweep"] if run == 0 else [])])
        runs.append({"ready_s": seconds, **lines})
    memory: dict[str, Any] = {}
    for name in ["*", *ids]:
        count = min(sizes.memory_games, len(every) if name == "*" else len(ids[name]))
        _, memory[name] = child("bench.memory", ["--db", str(path), "--games", str(count), "--game", name, *registered])
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)

    def med(key: str, digits: int = 4) -> float:
        return rounded(median([run[key] for run in runs]), digits)

    return {
        "games_in_progress": len(every),
        "games_by_type": {name: len(found) for name, found in ids.items()},
        "players_by_type": {game.name: bench_players(game) for game in games},
        "build_seconds": rounded(build_seconds, 2),
        "restart": {
            "ready_s": med("ready_s"),
            "in_process_s": med("in_process_s"),
            "imports_s": med("imports_s"),
            "open_store_s": med("open_store_s"),
            "rearm_clocks_s": med("rearm_clocks_s"),
            "first_move_s": med("first_move_s"),
            "ready_without_rearm_s": rounded(median([run["ready_s"] - run["rearm_clocks_s"] for run in runs]), 4),
            "rearm_batch_s": rounded(runs[0].get("rearm_batch_s"), 4),
            "first_due_poll_s": rounded(runs[0].get("first_due_poll_s"), 4),
            "resume_sweep_s": rounded(runs[0].get("resume_sweep_s"), 4),
            "runs": runs,
        },
        "memory": {
            name: {
                "games": figures["games"],
                "bytes_per_game": rounded(figures["bytes_per_game"], 1),
                "state_json_bytes_per_game": rounded(figures["state_json_bytes_per_game"], 1),
                "rss_before_mb": rounded(figures["rss_before_mb"], 1),
                "rss_after_mb": rounded(figures["rss_after_mb"], 1),
                "load_games_per_s": rounded(figures["load_games_per_s"], 1),
            }
            for name, figures in memory.items()
        },
        "disk": disk,
    }
