"""``python -m bench``: measure every registered game, print a table against the targets, write JSON.

    python -m bench                 # full sizes (1,000 active games, 10,000 at restart); 8 to 12 minutes
    python -m bench --quick         # small sizes, 2 to 3 minutes
    python -m bench --games figures --sections engine,referee --json /tmp/figures.json
    python -m bench --register nim=tests.toy_game --games nim --quick   # the toy game of the tests
    python -m bench --quick --sections wal --games granja       # the WAL under sustained writes
    python -m bench --quick --sections ai                       # AI decision times and loop stalls
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import datetime
import json
import math
import os
import platform
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.referee.gc_policy import tune_garbage_collector, tune_thread_switching

from . import ai, discord_calls, engine_speed, picture_stall, pictures, referee_load, restart, scaleout, wal
from .config import TARGETS, Sizes, bench_players, register, selected_games
from .stats import rounded

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JSON = ROOT / "bench" / "results" / "latest.json"
SECTIONS = ("engine", "referee", "restart", "discord", "wal", "pictures", "stalls", "scaleout", "ai")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes for a fast look")
    parser.add_argument("--json", default=str(DEFAULT_JSON), metavar="PATH", help="where to write the results")
    parser.add_argument("--games", help="comma list of games (default: every registered game)")
    parser.add_argument("--sections", default=",".join(SECTIONS), help=f"comma list among {', '.join(SECTIONS)}")
    parser.add_argument(
        "--register", action="append", default=[], metavar="NAME=MODULE", help="add a game to the registry for this run"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", help="folder for the databases (default: a temporary folder in bench/results)")
    sizes = parser.add_argument_group("sizes (override --quick or the full defaults)")
    sizes.add_argument("--runs", type=int, help="runs of every measurement (medians are reported)")
    sizes.add_argument("--engine-seconds", type=float)
    sizes.add_argument("--active", type=int, help="games active at once in the referee figures")
    sizes.add_argument("--moves", type=int, help="moves per run, sequential and at saturation")
    sizes.add_argument("--arrival-rate", type=float, help="moves per second offered in the open-loop run")
    sizes.add_argument("--arrival-seconds", type=float)
    sizes.add_argument("--restart-games", type=int, help="games in progress in the database at restart")
    sizes.add_argument("--memory-games", type=int)
    sizes.add_argument("--wal-seconds", type=float, help="seconds of sustained moves in the wal section")
    sizes.add_argument("--wal-settle-seconds", type=float, help="quiet seconds after each wal load")
    sizes.add_argument("--wal-lobbies", type=int, help="lobbies opened in the wal section (half cancelled)")
    sizes.add_argument("--ai-positions", type=int, help="positions each AI level decides per game (ai section)")
    sizes.add_argument("--ai-stall-moves", type=int, help="AI moves played while the loop's stalls are measured")
    sizes.add_argument("--picture-positions", type=int, help="positions drawn per game in the pictures section")
    sizes.add_argument("--scaleout-seconds", type=float, help="seconds each scale-out configuration plays")
    sizes.add_argument("--scaleout-runs", type=int, help="rounds of the scale-out set-ups (the median round is reported)")
    return parser.parse_args(argv)


def sizes_from(args: argparse.Namespace) -> Sizes:
    sizes = Sizes.quick() if args.quick else Sizes()
    if args.runs is not None:
        sizes.engine_runs = sizes.referee_runs = sizes.restart_runs = sizes.scaleout_runs = args.runs
    overrides = {
        "engine_seconds": args.engine_seconds,
        "active_games": args.active,
        "sequential_moves": args.moves,
        "saturation_moves": args.moves,
        "arrival_rate": args.arrival_rate,
        "arrival_seconds": args.arrival_seconds,
        "restart_games": args.restart_games,
        "memory_games": args.memory_games,
        "wal_seconds": args.wal_seconds,
        "wal_settle_seconds": args.wal_settle_seconds,
        "wal_lobbies": args.wal_lobbies,
        "ai_positions": args.ai_positions,
        "ai_stall_moves": args.ai_stall_moves,
        "picture_positions": args.picture_positions,
        "scaleout_seconds": args.scaleout_seconds,
        "scaleout_runs": args.scaleout_runs,
    }
    for name, value in overrides.items():
        if value is not None:
            setattr(sizes, name, value)
    if args.moves is not None:
        sizes.bare_commits = max(args.moves, 1)
    return sizes


def git_commit() -> str | None:
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


# ----- the table ------------------------------------------------------------------------------


class Row(dict):
    pass


def row(section: str, game: str, metric: str, value: Any, unit: str = "", target_key: str | None = None, note: str = "") -> Row:
    target = TARGETS.get(target_key) if target_key else None
    met: bool | None = None
    target_text = ""
    if target is not None and isinstance(value, int | float) and not math.isnan(value):
        kind, limit, _ = target
        met = value < limit if kind == "max" else value >= limit
        if "error" in note:
            met = False  # a figure over refused or failed moves meets nothing
        target_text = f"{'<' if kind == 'max' else '>='} {limit:g}"
    elif target is not None:
        kind, limit, _ = target
        target_text = f"{'<' if kind == 'max' else '>='} {limit:g}"
    return Row(section=section, game=game, metric=metric, value=value, unit=unit, target=target_text, met=met, note=note)


def show(value: Any) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        if abs(value) >= 10:
            return f"{value:.1f}"
        return f"{value:.3g}" if abs(value) >= 0.01 else f"{value:.2g}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def print_table(rows: list[Row], out: Any = None) -> None:
    out = out or sys.stdout
    headers = ("section", "game", "figure", "measured", "target", "met")
    lines = []
    for r in rows:
        measured = "-" if r["value"] is None else f"{show(r['value'])} {r['unit']}".strip()
        met = "" if r["met"] is None else ("yes" if r["met"] else "NO")
        if r["note"]:
            met = f"{met} ({r['note']})".strip()
        lines.append((r["section"], r["game"], r["metric"], measured, r["target"], met))
    widths = [max(len(h), *(len(line[i]) for line in lines)) if lines else len(h) for i, h in enumerate(headers)]
    def fmt(cells):  # noqa: E306
        return "  ".join(cell.ljust(widths[i]) if i != 3 else cell.rjust(widths[i]) for i, cell in enumerate(cells)).rstrip()

    print(fmt(headers), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for line in lines:
        print(fmt(line), file=out)


def rows_for(results: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    for name, engine in results.get("engine", {}).items():
        for players, figures in engine["by_players"].items():
            who = f"{name} {players}p"
            rows.append(row("engine", who, "random games/s, in memory", figures["games_per_s"], "games/s"))
            rows.append(row("engine", who, "moves/s, in memory", figures["moves_per_s"], "moves/s"))
            rows.append(row("engine", who, "moves per game", figures["moves_per_game"]))
        parts = engine.get("breakdown")
        if parts:
            who = f"{name} {parts['players']}p"
            rows.append(row("engine", who, "apply one move", parts["apply_us"], "us"))
            rows.append(row("engine", who, "encode / decode the state (JSON)", f"{show(parts['encode_state_us'])} / {show(parts['decode_state_us'])}", "us"))
            rows.append(row("engine", who, "one seat's private view and text", parts["private_view_and_text_us"], "us"))
            rows.append(row("engine", who, "public view and board text", parts["public_view_and_board_us"], "us"))
    for name, figures in results.get("referee", {}).items():
        who = f"{name} {figures['players']}p"
        active = figures["active_games"]
        open_loop, seq, sat = figures["open_loop"], figures["sequential"], figures["saturation"]
        errors = open_loop["errors"] + seq["errors"] + sat["errors"]
        note = f"{errors} errors" if errors else ""
        rate = f"{open_loop['offered_per_s']:g}/s"
        rows.append(row("referee", who, f"p50 per move, {active} active, arrivals {rate}", open_loop["p50_ms"], "ms"))
        rows.append(row("referee", who, f"p99 per move, {active} active, arrivals {rate} ({open_loop['samples']:,} moves)", open_loop["p99_ms"], "ms", "p99_ms", note))
        rows.append(row("referee", who, "p50 / p99 one move at a time", f"{show(seq['p50_ms'])} / {show(seq['p99_ms'])}", "ms"))
        rows.append(row("referee", who, "CPU per move, one at a time", seq["cpu_ms_per_move"], "ms"))
        rows.append(row("referee", who, f"durable moves/s, all {active} at once (referee)", sat["referee_moves_per_s"], "moves/s", "durable_moves_per_s", note))
        rows.append(row("referee", who, "  with the simulated players' choosing", sat["moves_per_s"], "moves/s"))
        rows.append(row("referee", who, "p50 / p99 at saturation (queueing)", f"{show(sat['p50_ms'])} / {show(sat['p99_ms'])}", "ms"))
        rows.append(row("referee", who, "bare 1-row commits/s, sqlite3 (synced, as the store)", figures["bare_sqlite3_commits_per_s"], "commits/s"))
        rows.append(row("referee", who, "bare 1-row commits/s, aiosqlite", figures["bare_aiosqlite_commits_per_s"], "commits/s"))
        rows.append(row("referee", who, "bare 1-row commits/s, one thread hop", figures["bare_one_hop_commits_per_s"], "commits/s"))
        rows.append(row("referee", who, "ratio referee / bare sqlite3", figures["ratio_to_bare_sqlite3"], "", "ratio_to_bare", note))
        rows.append(row("referee", who, "ratio referee / bare aiosqlite", figures["ratio_to_bare_aiosqlite"]))
        if "bare_sqlite3_no_sync_commits_per_s" in figures:
            rows.append(row("referee", who, "bare 1-row commits/s, sqlite3 not waiting for the disk", figures["bare_sqlite3_no_sync_commits_per_s"], "commits/s"))
            rows.append(row("referee", who, "ratio referee / bare commits not waiting for the disk", figures["ratio_to_bare_no_sync"]))
    restarted = results.get("restart")
    if restarted:
        r, d = restarted["restart"], restarted["disk"]
        by_type = restarted["players_by_type"]
        who = "all games" if len(by_type) > 1 else "".join(f"{name} {players}p" for name, players in by_type.items())
        count = restarted["games_in_progress"]
        rows.append(row("restart", who, f"process start to first move, {count:,} in progress", r["ready_s"], "s", "restart_ready_s"))
        rows.append(row("restart", who, "  in process", r["in_process_s"], "s"))
        rows.append(row("restart", who, "  imports / open store / re-arm clocks / first move",
                        " / ".join(show(r[key]) for key in ("imports_s", "open_store_s", "rearm_clocks_s", "first_move_s")), "s"))
        rows.append(row("restart", who, "re-arm clocks before ready (credit_downtime(defer=True))", r["rearm_clocks_s"], "s"))
        rows.append(row("restart", who, "  ready if clocks were re-armed after", r["ready_without_rearm_s"], "s"))
        rows.append(row("restart", who, f"then: re-arm batch of {count:,} games / first due-clock poll / on_ready sweep",
                        " / ".join(show(r.get(key)) for key in ("rearm_batch_s", "first_due_poll_s", "resume_sweep_s")), "s"))
        if results.get("interpreter_floor_s") is not None:
            rows.append(row("restart", "-", "bare interpreter start (python -c pass)", results["interpreter_floor_s"], "s"))
        for name, m in restarted["memory"].items():
            label = who if name == "*" else f"{name} {restarted['players_by_type'][name]}p"
            rows.append(row("memory", label, f"RSS per cached game ({m['games']:,} cached)", rounded(m["bytes_per_game"] / 1024, 2), "KB", "memory_per_game_kb"))
        rows.append(row("disk", who, "per game (rows, seats, snapshot, indexes)", d["bytes_per_game_without_moves"], "bytes"))
        rows.append(row("disk", who, "per move (move log)", d["bytes_per_move"], "bytes"))
        for name, figures in d["per_game_type"].items():
            rows.append(row("disk", name, "state snapshot / moves logged per game in progress",
                            f"{show(figures['state_snapshot_bytes'])} bytes / {show(figures['moves_per_game'])}"))
    for name, figures in results.get("wal", {}).items():
        who = f"{name} {figures['players']}p"
        for load, label in (("moves", "moves"), ("lobbies", "lobbies opened, half cancelled")):
            f = figures[load]
            rate = f"{show(f['moves_per_s'])} moves/s" if load == "moves" else f"{show(f['writes_per_s'])} writes/s"
            note = f"{f['errors']} errors" if f.get("errors") else ""
            rows.append(row("wal", who, f"{label}: {show(f['seconds'])} s at {rate}, database {show(f['db_mb'])} MB", None))
            rows.append(row("wal", who, "  peak WAL", f["peak_wal_mb"], "MB", "wal_peak_mb", note))
            rows.append(row("wal", who, "  WAL at the end of the quiet time", f["settled_wal_mb"], "MB", "wal_settled_mb"))
            rows.append(row("wal", who, "  seconds from the load's end to a WAL under 8 MB", f["seconds_to_under_8mb"], "s"))
    for name, figures in results.get("ai", {}).items():
        who = f"{name} {figures['players']}p"
        decisions = figures["decisions"]
        rows.append(row("ai", who, "thinking pool: start to first answer", decisions["pool_start_s"], "s"))
        for level in ai.LEVELS:
            d = decisions[level]
            budget = f"budget {d['budget_cpu_ms']:g} ms" if d["budget_cpu_ms"] else "no budget"
            playouts = f", {show(d['mean_playouts'])} playouts" if d["mean_playouts"] else ""
            rows.append(row("ai", who, f"{level} ({d['kind']}, {d['where']}) CPU per move mean / p95 / max",
                            " / ".join(show(d[key]) for key in ("mean_cpu_ms", "p95_cpu_ms", "max_cpu_ms")), "ms",
                            note=f"{budget}{playouts}"))
            rows.append(row("ai", who, f"  {level} wall per move mean / p95", f"{show(d['mean_wall_ms'])} / {show(d['p95_wall_ms'])}", "ms"))
        for where, stall in figures["stall"].items():
            label = "worker processes (the bot's)" if where == "pool" else "a thread (comparison)"
            target = "ai_stall_ms" if where == "pool" else None
            rows.append(row("ai", who, f"longest loop stall, strong seats thinking in {label} ({stall['ai_moves']} AI moves)",
                            stall["max_stall_ms"], "ms", target))
            rows.append(row("ai", who, "  p99 / mean loop stall", f"{show(stall['p99_stall_ms'])} / {show(stall['mean_stall_ms'])}", "ms"))
    for name, figures in results.get("pictures", {}).items():
        if "skipped" in figures:
            rows.append(row("pictures", name, "pictures", None, note=figures["skipped"]))
            continue
        who = f"{name} {figures['players']}p"
        count = figures["positions"]
        rows.append(row("pictures", who, f"p95 draw the public board ({count} positions)", figures["board_p95_ms"], "ms", "picture_p95_ms"))
        rows.append(row("pictures", who, "p95 draw a private hand", figures["hand_p95_ms"], "ms", "picture_p95_ms"))
        rows.append(row("pictures", who, "p95 CPU time, board / hand", f"{show(figures['board_cpu_p95_ms'])} / {show(figures['hand_cpu_p95_ms'])}", "ms"))
        rows.append(row("pictures", who, "p50 / max board, p50 / max hand",
                        f"{show(figures['board_p50_ms'])} / {show(figures['board_max_ms'])}, {show(figures['hand_p50_ms'])} / {show(figures['hand_max_ms'])}", "ms"))
        rows.append(row("pictures", who, "largest board PNG", figures["board_png_max_kb"], "KB", "picture_kb"))
        rows.append(row("pictures", who, "largest hand PNG", figures["hand_png_max_kb"], "KB", "picture_kb"))
        rows.append(row("pictures", who, "beside: engine apply per move, p50 (same positions)", figures["apply_p50_ms"], "ms"))
        referee = results.get("referee", {}).get(name)
        if referee:
            rows.append(row("pictures", who, "beside: referee p50 per move, one at a time (this run)", referee["sequential"]["p50_ms"], "ms"))
    rows.extend(scaleout.rows(results.get("scaleout", {}), row, show))
    discord = results.get("discord")
    if discord:
        for name, modes in discord.get("per_game", {}).items():
            for mode, figures in modes.items():
                how = "/play" if mode == "play" else "DM controls"
                if "error" in figures:
                    rows.append(row("discord", name, f"REST calls per move besides the response ({how})", None, note="failed: see JSON"))
                    continue
                who = f"{name} {figures['players']}p"
                note = "" if figures["finished"] else "game not finished"
                rows.append(row("discord", who, f"REST calls per move besides the response ({how})",
                                figures["calls_per_move"], "", "rest_calls_per_move", note))
                routes = ", ".join(f"{kind}: {rounded(count / max(1, figures['accepted_moves']), 2)}" for kind, count in figures["routes"].items())
                rows.append(row("discord", who, f"  per move, by route ({how})", None, note=routes))
        if "per_game" not in discord:
            rows.append(row("discord", "-", "REST calls per move besides the response", None, "", "rest_calls_per_move", discord["status"]))
    stalls = results.get("stalls")
    if stalls:
        for name, f in stalls.get("per_game", {}).items():
            who = f"{name} {f['players']}p"
            rows.append(row("stalls", who, f"longest event-loop stall, {f['boards']} boards and hands drawn in the worker", f["longest_stall_ms"], "ms", "picture_stall_ms"))
            rows.append(row("stalls", who, "  p99 event-loop stall while drawing", f["p99_stall_ms"], "ms"))
            rows.append(row("stalls", who, "  beside: longest stall if drawn on the loop itself", f["longest_stall_drawing_on_the_loop_ms"], "ms"))
            rows.append(row("stalls", who, "  beside: longest / p99 stall with nothing drawn (the machine)", f"{show(f['longest_stall_nothing_drawn_ms'])} / {show(f['p99_stall_nothing_drawn_ms'])}", "ms"))
        if "per_game" not in stalls:
            rows.append(row("stalls", "-", "longest event-loop stall while drawing", None, "", "picture_stall_ms", stalls["status"]))
    return rows


# ----- the run --------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    # The garbage collector and thread switching set as the bot process sets them (bot.main), for
    # figures that match.
    tune_garbage_collector()
    tune_thread_switching()
    extra = register(args.register)
    sizes = sizes_from(args)
    sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        raise SystemExit(f"unknown section {unknown[0]!r}; choose among {', '.join(SECTIONS)}")
    games = selected_games([g.strip() for g in args.games.split(",")] if args.games else None)
    json_path = Path(args.json)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    if args.workdir:
        workdir = Path(args.workdir)
        workdir.mkdir(parents=True, exist_ok=True)
        cleanup = False
    else:
        (ROOT / "bench" / "results").mkdir(parents=True, exist_ok=True)
        workdir = Path(tempfile.mkdtemp(prefix="work-", dir=ROOT / "bench" / "results"))
        cleanup = True

    started = time.perf_counter()
    results: dict[str, Any] = {
        "meta": {
            "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "commit": git_commit(),
            "python": sys.version.split()[0],
            "sqlite": sqlite3.sqlite_version,
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "argv": list(argv if argv is not None else sys.argv[1:]),
            "sizes": dataclasses.asdict(sizes),
            "games": [game.name for game in games],
            "players_for_referee_restart_memory": {game.name: bench_players(game) for game in games},
            "workdir": str(workdir),
            # Other work on the machine inflates wall times: keep the load beside the figures.
            "load_average_at_start": list(os.getloadavg()),
        }
    }
    if not games:
        print("No game is registered (engine/games/__init__.py REGISTRY is empty): nothing to measure per game.")

    def progress(text: str) -> None:
        print(f"[{time.perf_counter() - started:7.1f}s] {text}", file=sys.stderr, flush=True)

    try:
        engine_results: dict[str, Any] = {}
        for index, game in enumerate(games):
            if any(section in sections for section in ("engine", "referee", "restart", "wal", "scaleout")):
                progress(f"engine speed: {game.name}")
                engine_results[game.name] = engine_speed.measure(game, sizes)
            mean_length = engine_speed.mean_length(engine_results.get(game.name, {}), bench_players(game))
            seed = args.seed * 1000 + index
            if "referee" in sections:
                progress(f"referee: {game.name} ({sizes.active_games:,} active games)")
                results.setdefault("referee", {})[game.name] = asyncio.run(
                    referee_load.measure(game, sizes, workdir, seed, mean_length)
                )
        if "engine" in sections:
            results["engine"] = engine_results
        if "restart" in sections and games:
            progress(f"restart, memory and disk ({sizes.restart_games:,} games in progress)")
            mean_lengths = {
                game.name: engine_speed.mean_length(engine_results.get(game.name, {}), bench_players(game)) for game in games
            }
            results["restart"] = restart.measure(games, sizes, workdir, args.seed * 1000, mean_lengths, extra)
            results["interpreter_floor_s"] = rounded(restart.interpreter_floor(sizes.restart_runs), 4)
        if "wal" in sections and games:
            # One game: the load is the same kind for all (the one with the largest state is the worst).
            game = games[0]
            progress(f"wal: {game.name} ({sizes.wal_seconds:g} s of moves, {sizes.wal_lobbies:,} lobbies)")
            mean_length = engine_speed.mean_length(engine_results.get(game.name, {}), bench_players(game))
            results["wal"] = {game.name: asyncio.run(wal.measure(game, sizes, workdir, args.seed * 1000, mean_length))}
        if "pictures" in sections:
            for index, game in enumerate(games):
                progress(f"pictures: {game.name}")
                results.setdefault("pictures", {})[game.name] = pictures.measure(game, sizes, args.seed * 1000 + index)
        if "scaleout" in sections and games:
            # One game, as for the WAL: the store's share of a move is alike for all.
            game = games[0]
            progress(
                f"scaleout: {game.name} (SQLite, then 1 and 2 processes on PostgreSQL, {sizes.scaleout_seconds:g} s each;"
                f" {sizes.scaleout_runs} round(s))"
            )
            mean_length = engine_speed.mean_length(engine_results.get(game.name, {}), bench_players(game))
            results["scaleout"] = {
                game.name: scaleout.measure(game, sizes, workdir, args.seed * 1000 + 7, mean_length, extra)
            }
        if "stalls" in sections:
            progress("stalls: the event loop while pictures are drawn")
            results["stalls"] = picture_stall.measure(games, args.seed, sizes.picture_positions)
        if "discord" in sections:
            progress("discord calls")
            results["discord"] = discord_calls.measure(
                {game.name: bench_players(game) for game in games}, extra, args.seed, sizes.discord_max_moves
            )
        if "ai" in sections and games:
            progress(f"ai: decision times and loop stalls ({sizes.ai_positions} positions, {sizes.ai_stall_moves} AI moves)")
            results["ai"] = ai.measure(games, sizes, workdir, args.seed * 1000, {game.name: bench_players(game) for game in games})
    finally:
        if cleanup:
            shutil.rmtree(workdir, ignore_errors=True)

    results["meta"]["seconds"] = rounded(time.perf_counter() - started, 1)
    results["meta"]["load_average_at_end"] = list(os.getloadavg())
    rows = rows_for(results)
    results["table"] = rows
    print_table(rows)
    json_path.write_text(json.dumps(results, indent=2, default=str) + "\n")
    load = ", ".join(f"{x:.1f}" for x in results["meta"]["load_average_at_start"])
    print(f"\nResults: {json_path} ({results['meta']['seconds']} s; load average at start {load} on {os.cpu_count()} CPUs)")
    return 0
