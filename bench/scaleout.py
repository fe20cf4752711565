"""7. Scale-out: durable moves/s and p99 of 1 process on SQLite, 1 process on PostgreSQL and 2
processes on one PostgreSQL, in the same run, on the same machine.

Each configuration plays the same number of active games at once (``--active``), every game
playing as fast as its process answers (the saturation load of the referee figures) for
``scaleout_seconds``; with two processes, each holds half of the games, as two shard processes of
one bot hold the servers of their shards. Every process is a child of its own
(``python -m bench.scaleout_worker``): it opens the store, caches its games, and all start
together. PostgreSQL is a server of our own in a temporary directory (db/postgres/local_server.py:
the system's binaries, else the pinned wheel's), with its durable defaults: every commit waits for
the disk, as the SQLite store's ``synchronous=FULL`` does. Durable moves/s counts moves acknowledged
by the referee (committed) over the wall time; p99 is over every move of the configuration's
processes (queueing included, by construction of a saturation load).

Targets (issue 17): 1 process on PostgreSQL at least half of SQLite's rate; 2 processes at least
1.5 times one. The server's own CPU counts against the machine's cores: on 2 cores, two referee
processes and PostgreSQL share them."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg

from db import open_store
from db.postgres.local_server import LocalServer, find_binaries
from engine.core import Game

from .build import build_games
from .config import Sizes, bench_players
from .proc_cpu import CpuWindow, server_pid
from .stats import median as median_of
from .stats import percentile, rounded

ROOT = Path(__file__).resolve().parent.parent
# Every process plays this long (at most a quarter of the measured time) before the measured
# window (bench/scaleout_worker.py): the pool's connections opened, the server's types read, the
# statements prepared, as in a running bot.
WARMUP_SECONDS = 1.0


async def _build(store: Any, game: Game[Any, Any], players: int, active: int, spares: int, seed: int, mean_length: float) -> tuple[list[int], list[int]]:
    built = await build_games(store, game, players, active, seed=seed, mean_length=mean_length)
    reserve = await build_games(store, game, players, spares, seed=seed + 1, mean_length=mean_length)
    return [b.table_id for b in built], [b.table_id for b in reserve]


def _run_processes(specs: list[dict[str, Any]], workdir: Path, server: int | None = None) -> dict[str, Any]:
    """Start one worker per spec, start them together once all are ready, and pool their figures;
    with the CPU time of the database server (``server``: its process id) and how busy the
    machine's cores were, from the start to the last answer."""
    children = []
    for index, spec in enumerate(specs):
        path = workdir / f"scaleout-{index}.json"
        path.write_text(json.dumps(spec))
        children.append(
            subprocess.Popen(
                [sys.executable, "-m", "bench.scaleout_worker", str(path)],
                cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
        )
    try:
        for child in children:
            assert child.stdout is not None
            line = child.stdout.readline()
            if not line or not json.loads(line).get("ready"):
                raise RuntimeError(f"a scale-out worker did not start: {line!r}")
        with CpuWindow(server) as window:
            for child in children:
                assert child.stdin is not None
                child.stdin.write("go\n")
                child.stdin.flush()
            outputs = [json.loads(child.communicate(timeout=600)[0].strip().splitlines()[-1]) for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    latencies = [latency for output in outputs for latency in output.pop("latencies")]
    seconds = max(output["seconds"] for output in outputs)
    moves = sum(output["moves"] for output in outputs)
    # CPU per durable move, the server's share included: at most cores / that many moves a second
    # on this machine, however the work is spread over processes (the bound two processes meet).
    cpu = sum(output["cpu_seconds"] for output in outputs) + (window.tree_seconds or 0.0)
    cpu_per_move = cpu / moves if moves else 0.0
    return {
        "processes": len(specs),
        "moves": moves,
        "seconds": rounded(seconds, 3),
        "durable_moves_per_s": rounded(moves / seconds if seconds else 0.0, 1),
        "referee_moves_per_s": rounded(sum(output["referee_moves_per_s"] for output in outputs), 1),
        "p50_ms": rounded(1e3 * percentile(latencies, 0.50), 3),
        "p99_ms": rounded(1e3 * percentile(latencies, 0.99), 3),
        "errors": sum(sum(output["errors"].values()) for output in outputs),
        "error_samples": {k: v for output in outputs for k, v in output["error_samples"].items()},
        "cpu_seconds": [output["cpu_seconds"] for output in outputs],
        "server_cpu_seconds": None if window.tree_seconds is None else rounded(window.tree_seconds, 2),
        "machine_busy_cores": None if window.busy_cores is None else rounded(window.busy_cores, 2),
        "cpu_ms_per_move": rounded(1e3 * cpu_per_move, 4),
        "cores_ceiling_moves_per_s": rounded((os.cpu_count() or 1) / cpu_per_move if cpu_per_move else 0.0, 1),
        "per_process": outputs,
    }


def _specs(store: str, game: Game[Any, Any], players: int, active: list[int], spares: list[int], processes: int, sizes: Sizes, seed: int, extra: dict[str, str]) -> list[dict[str, Any]]:
    return [
        {
            "store": store,
            "game": game.name,
            "players": players,
            "active": active[index::processes],
            "spares": spares[index::processes],
            "seconds": sizes.scaleout_seconds,
            "warmup_seconds": min(WARMUP_SECONDS, sizes.scaleout_seconds / 4),
            "seed": seed + index,
            "register": extra,
            "shared": processes > 1,
        }
        for index in range(processes)
    ]


async def _administer(server: LocalServer, statement: str) -> None:
    """One statement on the server's own database (creating or dropping one of the bench's)."""
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(statement)
    finally:
        await admin.close()


async def _postgres_database(server: LocalServer, name: str) -> str:
    await _administer(server, f"CREATE DATABASE {name}")
    return server.url(name)


def measure(game: Game[Any, Any], sizes: Sizes, workdir: Path, seed: int, mean_length: float, extra: dict[str, str]) -> dict[str, Any]:
    """``sizes.scaleout_runs`` rounds of the three set-ups, one after the other in each round, each
    round on databases built afresh from the same seed. On this VM one run's rates move by a third
    from the next (with nothing else running), so a single ratio of two of them says little: each
    ratio is taken within one round, and the median round is reported, with every round's ratios."""
    players = bench_players(game)
    results: dict[str, Any] = {"players": players, "active_games": sizes.active_games, "seconds": sizes.scaleout_seconds}
    bin_dir = find_binaries()
    if bin_dir is None:
        results["sqlite_1"] = _sqlite_round(game, sizes, workdir, seed, mean_length, extra)
        results["status"] = "no PostgreSQL binaries (install requirements.txt): PostgreSQL not measured"
        return results
    server = LocalServer(bin_dir, durable=True).start()
    results["postgres_binaries"] = str(bin_dir)
    rounds: list[dict[str, Any]] = []
    try:
        for index in range(max(1, sizes.scaleout_runs)):
            found: dict[str, Any] = {"sqlite_1": _sqlite_round(game, sizes, workdir, seed, mean_length, extra)}
            for processes in (1, 2):
                found[f"postgres_{processes}"] = _postgres_round(
                    server, f"scaleout_{index}_{processes}", processes, game, sizes, workdir, seed, mean_length, extra
                )
            rounds.append(found)
    finally:
        server.stop()
    for found in rounds:
        sqlite_rate = found["sqlite_1"]["durable_moves_per_s"]
        one, two = found["postgres_1"]["durable_moves_per_s"], found["postgres_2"]["durable_moves_per_s"]
        found["ratio_postgres_to_sqlite"] = rounded(one / sqlite_rate if sqlite_rate else 0.0, 3)
        found["ratio_two_to_one"] = rounded(two / one if one else 0.0, 3)
    # The median round by the ratio of two processes to one (the lower middle one of an even
    # number): its set-ups' figures are shown, each from that one round.
    median = sorted(rounds, key=lambda found: found["ratio_two_to_one"])[(len(rounds) - 1) // 2]
    results.update(median)
    results["ratio_postgres_to_sqlite"] = rounded(median_of([found["ratio_postgres_to_sqlite"] for found in rounds]), 3)
    results["rounds"] = [
        {key: found[key] for key in ("ratio_two_to_one", "ratio_postgres_to_sqlite")}
        | {f"{key}_moves_per_s": found[key]["durable_moves_per_s"] for key in ("sqlite_1", "postgres_1", "postgres_2")}
        for found in rounds
    ]
    results["load_average"] = list(os.getloadavg())
    return results


def _sqlite_round(game: Game[Any, Any], sizes: Sizes, workdir: Path, seed: int, mean_length: float, extra: dict[str, str]) -> dict[str, Any]:
    path = workdir / "scaleout.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return _play_round(str(path), 1, game, sizes, workdir, seed, mean_length, extra, None)


def _postgres_round(
    server: LocalServer, name: str, processes: int, game: Game[Any, Any], sizes: Sizes, workdir: Path,
    seed: int, mean_length: float, extra: dict[str, str],
) -> dict[str, Any]:  # fmt: skip
    url = asyncio.run(_postgres_database(server, name))
    try:
        return _play_round(url, processes, game, sizes, workdir, seed, mean_length, extra, server_pid(server.data))
    finally:
        # Gone before the next set-up plays: the server's autovacuum would otherwise clean this
        # one's dead rows (a row version for every move) in the middle of the next one's window.
        asyncio.run(_administer(server, f"DROP DATABASE IF EXISTS {name}"))


def _play_round(
    store: str, processes: int, game: Game[Any, Any], sizes: Sizes, workdir: Path, seed: int,
    mean_length: float, extra: dict[str, str], server: int | None,
) -> dict[str, Any]:  # fmt: skip
    """One set-up: its games built on the empty ``store`` (a SQLite path or a PostgreSQL URL),
    then played by ``processes`` workers (``server``: the database server's process id)."""
    players = bench_players(game)

    async def build() -> tuple[list[int], list[int]]:
        opened = await open_store(store)
        try:
            return await _build(opened, game, players, sizes.active_games, _spares(sizes), seed, mean_length)
        finally:
            await opened.close()

    ids, reserve = asyncio.run(build())
    return _run_processes(_specs(store, game, players, ids, reserve, processes, sizes, seed, extra), workdir, server)


def _spares(sizes: Sizes) -> int:
    # Enough games in reserve that finished games are replaced without opening new ones.
    return max(50, 2 * sizes.active_games)


def rows(results: dict[str, Any], row: Any, show: Any) -> list[Any]:
    """The figures' rows in the bench table (``row`` and ``show`` are bench/cli.py's)."""
    found = []
    for name, figures in results.items():
        who = f"{name} {figures['players']}p"
        active = figures["active_games"]
        labels = (("sqlite_1", "1 process, SQLite"), ("postgres_1", "1 process, PostgreSQL"), ("postgres_2", "2 processes, PostgreSQL"))
        for key, label in labels:
            if key not in figures:
                continue
            f = figures[key]
            note = f"{f['errors']} errors" if f["errors"] else ""
            found.append(row("scaleout", who, f"{label}: durable moves/s, {active} games at once", f["durable_moves_per_s"], "moves/s", note=note))
            found.append(row("scaleout", who, f"{label}: p50 / p99 (queueing)", f"{show(f['p50_ms'])} / {show(f['p99_ms'])}", "ms"))
            if f.get("machine_busy_cores") is not None:
                cpu = " + ".join(f"{seconds:.2f}" for seconds in f["cpu_seconds"])
                server = "" if f.get("server_cpu_seconds") is None else f", server {f['server_cpu_seconds']:.2f}"
                found.append(row("scaleout", who, f"{label}: CPU s of each process{', server' if server else ''}; busy cores", f"{cpu}{server}; {f['machine_busy_cores']:.2f}", ""))
                found.append(row("scaleout", who, f"{label}: CPU per move (all of it); the cores' ceiling at that", f"{f['cpu_ms_per_move']:.3f} ms; {f['cores_ceiling_moves_per_s']:,.0f} moves/s", ""))
        if "ratio_postgres_to_sqlite" in figures:
            rounds = figures.get("rounds", [])
            of = f", median of {len(rounds)} rounds" if len(rounds) > 1 else ""
            found.append(row("scaleout", who, f"PostgreSQL 1 process / SQLite{of}", figures["ratio_postgres_to_sqlite"], "", "scaleout_postgres_to_sqlite"))
            found.append(row("scaleout", who, f"PostgreSQL 2 processes / 1 process{of}", figures["ratio_two_to_one"], "", "scaleout_two_to_one"))
            if len(rounds) > 1:
                every = "; ".join(f"{r['ratio_two_to_one']:.2f} ({r['ratio_postgres_to_sqlite']:.2f})" for r in rounds)
                found.append(row("scaleout", who, "each round: 2 processes / 1 (1 process / SQLite)", every, ""))
        if "status" in figures:
            found.append(row("scaleout", who, figures["status"], None))
    return found


__all__ = ["measure", "rows"]
