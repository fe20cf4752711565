"""2. Referee throughput and latency on SQLite, with many games active at once.

Every measured move is one human move through ``Referee.play`` (tables have human seats u1..uN,
so each call is one durable commit, plus any forced moves the referee plays automatically), with
the move text chosen by a seeded generator among ``Referee.legal_moves``. Three ways of loading:

- sequential: one move after another across random active games: the service time of a move;
- open loop: moves arrive at random (Poisson) times at a fixed rate (50/s by default: Discord's
  global limit of 50 requests per second per bot), on idle games chosen at random; latency runs
  from the arrival to the durable answer, queueing included. This is the figure held against the
  p99 target: Discord users act independently of one another;
- saturation: every active game plays at once, each as fast as the referee answers; the durable
  move rate here is the most the design can do. Its latencies are reported but are queueing by
  construction (Little's law: 1,000 moves in flight / rate).

Beside each run, in the same process and on the same disk: bare single-row commits with the
store's pragmas (sqlite3 and aiosqlite; each commit synced to disk), and the ratio of the referee's
rate to them; and, for comparison, bare commits that do not wait for the disk.
"""

from __future__ import annotations

import asyncio
import collections
import random
import time
from pathlib import Path
from typing import Any

from db import SqliteStore
from engine.core import Game
from engine.referee import RUNNING, Outbox, Referee

from . import bare_sqlite
from .build import SPEED, build_games
from .config import Sizes, bench_players
from .stats import median, percentile, rounded


class Pool:
    """The active games (slots) and a reserve of games in progress that replace finished ones."""

    def __init__(self, referee: Referee, game: Game[Any, Any], players: int, active: list[int], spares: list[int]):
        self.referee = referee
        self.game = game
        self.players = players
        self.slots = list(active)
        self.spares = collections.deque(spares)
        self.busy: set[int] = set()
        self.finished = 0
        self.created_inline = 0

    async def replace(self, slot: int) -> None:
        self.finished += 1
        if self.spares:
            self.slots[slot] = self.spares.popleft()
            return
        # Out of reserve: open a new game through the referee (this time counts in the window).
        self.created_inline += 1
        referee = self.referee
        table = await referee.create_table(self.game.name, "host", "Host", host_takes_seat=False)
        await referee.set_speed(table.id, "host", SPEED)
        for index in range(self.players):
            await referee.join(table.id, f"u{index + 1}", f"U{index + 1}")
        await referee.start(table.id, "host", seed=random.randrange(2**32))
        self.slots[slot] = table.id


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.calls = 0
        self.errors: collections.Counter[str] = collections.Counter()
        self.error_samples: dict[str, str] = {}
        # Time the simulated players spent choosing their moves, on the same event loop: in
        # production the choice is made on the players' side, so it is taken out of the referee's rate.
        self.choosing_s = 0.0

    def error(self, error: BaseException) -> None:
        kind = type(error).__name__
        self.errors[kind] += 1
        self.error_samples.setdefault(kind, str(error)[:200])

    def summary(self, seconds: float) -> dict[str, Any]:
        referee_seconds = seconds - self.choosing_s
        return {
            "calls": self.calls,
            "moves": self.moves,
            "seconds": rounded(seconds, 4),
            "choosing_seconds": rounded(self.choosing_s, 4),
            "moves_per_s": rounded(self.moves / seconds if seconds else 0.0, 1),
            "referee_moves_per_s": rounded(self.moves / referee_seconds if referee_seconds > 0 else 0.0, 1),
            "p50_ms": rounded(1e3 * percentile(self.latencies, 0.50), 3),
            "p99_ms": rounded(1e3 * percentile(self.latencies, 0.99), 3),
            "max_ms": rounded(1e3 * max(self.latencies, default=float("nan")), 3),
            "errors": dict(self.errors),
            "error_samples": self.error_samples,
            "latencies": self.latencies,  # pooled over the runs by measure(), then dropped
        }


async def choose(pool: Pool, table_id: int, rng: random.Random) -> tuple[str, str]:
    """The user to act and a legal move for them in notation, as a player would type it (the
    engine's legal moves on the referee's cached state; only the chosen one is formatted)."""
    referee, game = pool.referee, pool.game
    state = await referee.state(table_id)
    table = await referee.table(table_id)
    seat = rng.choice(game.to_act(state))
    user = table.seats[seat].user_id
    assert user is not None
    return user, game.format_move(rng.choice(game.legal_moves(state, seat)))


async def move_in_slot(pool: Pool, slot: int, rng: random.Random, tally: Tally, since: float | None = None) -> None:
    pool.busy.add(slot)
    try:
        if (await pool.referee.table(pool.slots[slot])).status != RUNNING:
            await pool.replace(slot)  # a finished game whose replacement failed earlier
        table_id = pool.slots[slot]
        choosing = time.perf_counter()
        user, text = await choose(pool, table_id, rng)
        tally.choosing_s += time.perf_counter() - choosing
        started = time.perf_counter() if since is None else since
        outbox: Outbox = await pool.referee.play(table_id, user, text)
        tally.latencies.append(time.perf_counter() - started)
        tally.calls += 1
        tally.moves += outbox.moves_applied
        if outbox.finished:
            await pool.replace(slot)
    except Exception as error:  # counted and reported; the run goes on
        tally.error(error)
    finally:
        pool.busy.discard(slot)


async def sequential(pool: Pool, moves: int, rng: random.Random) -> dict[str, Any]:
    tally = Tally()
    started = time.perf_counter()
    cpu = time.process_time()
    for _ in range(moves):
        await move_in_slot(pool, rng.randrange(len(pool.slots)), rng, tally)
    cpu = time.process_time() - cpu
    result = tally.summary(time.perf_counter() - started)
    # CPU time of this process (both threads) per move: steadier than wall time on a busy machine.
    result["cpu_ms_per_move"] = rounded(1e3 * cpu / max(1, tally.moves), 4)
    return result


async def open_loop(pool: Pool, rate: float, seconds: float, rng: random.Random) -> dict[str, Any]:
    tally = Tally()
    tasks: list[asyncio.Task[None]] = []
    late = skipped = 0
    started = time.perf_counter()
    due = started
    while True:
        due += rng.expovariate(rate)
        if due - started > seconds:
            break
        wait = due - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        else:
            late += 1
        idle = [slot for slot in range(len(pool.slots)) if slot not in pool.busy]
        if not idle:
            skipped += 1
            continue
        slot = rng.choice(idle)
        pool.busy.add(slot)  # now, not when the task starts: a late arrival must not pick it too
        tasks.append(asyncio.create_task(move_in_slot(pool, slot, rng, tally, since=due)))
    await asyncio.gather(*tasks)
    result = tally.summary(time.perf_counter() - started)
    result.update(offered_per_s=rate, arrivals=len(tasks), late_arrivals=late, skipped_no_idle_game=skipped)
    return result


async def saturation(pool: Pool, moves: int, rng: random.Random) -> dict[str, Any]:
    tally = Tally()
    budget = [moves]

    async def driver(slot: int, driver_rng: random.Random) -> None:
        while budget[0] > 0:
            budget[0] -= 1
            await move_in_slot(pool, slot, driver_rng, tally)

    started = time.perf_counter()
    await asyncio.gather(*(driver(slot, random.Random(rng.random())) for slot in range(len(pool.slots))))
    result = tally.summary(time.perf_counter() - started)
    result["concurrency"] = len(pool.slots)
    return result


async def measure(game: Game[Any, Any], sizes: Sizes, workdir: Path, seed: int, mean_length: float) -> dict[str, Any]:
    players = bench_players(game)
    path = workdir / f"referee-{game.name}.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    store = await SqliteStore.open(path)
    try:
        # Finished games are replaced by games in progress built beforehand, so that opening games
        # does not weigh on the measured moves. A call may apply several moves (forced ones), and a
        # game starts anywhere in its course: plan for three times the expected number of ends.
        per_run = sizes.sequential_moves + sizes.arrival_rate * sizes.arrival_seconds + sizes.saturation_moves
        expected_finishes = sizes.referee_runs * per_run / max(1.0, mean_length / 2)
        spare_count = min(int(3 * expected_finishes) + 50, 30_000)
        build_started = time.perf_counter()
        active = await build_games(store, game, players, sizes.active_games, seed=seed, mean_length=mean_length)
        spares = await build_games(store, game, players, spare_count, seed=seed + 1, mean_length=mean_length)
        build_seconds = time.perf_counter() - build_started

        referee = Referee(store, ai_rng=random.Random(seed), cache_size=max(10_000, 2 * sizes.active_games))
        for built in active:  # a bot that has been running: the active games are cached
            await referee.table(built.table_id)
        pool = Pool(referee, game, players, [b.table_id for b in active], [b.table_id for b in spares])
        rng = random.Random(seed)
        runs: list[dict[str, Any]] = []
        for _ in range(sizes.referee_runs):
            run: dict[str, Any] = {}
            run["bare_sqlite3"] = bare_sqlite.sqlite3_commits(workdir / "bare.sqlite3", sizes.bare_commits)
            run["bare_sqlite3_no_sync"] = bare_sqlite.sqlite3_commits(
                workdir / "bare.sqlite3", sizes.bare_commits, synced=False
            )
            run["bare_aiosqlite"] = await bare_sqlite.aiosqlite_commits(workdir / "bare.sqlite3", sizes.bare_commits)
            run["bare_one_hop"] = await bare_sqlite.one_hop_commits(workdir / "bare.sqlite3", sizes.bare_commits)
            run["sequential"] = await sequential(pool, sizes.sequential_moves, rng)
            run["open_loop"] = await open_loop(pool, sizes.arrival_rate, sizes.arrival_seconds, rng)
            run["saturation"] = await saturation(pool, sizes.saturation_moves, rng)
            bare = run["bare_sqlite3"]["commits_per_s"]
            run["ratio_to_bare_sqlite3"] = run["saturation"]["referee_moves_per_s"] / bare
            run["ratio_to_bare_aiosqlite"] = (
                run["saturation"]["referee_moves_per_s"] / run["bare_aiosqlite"]["commits_per_s"]
            )
            run["ratio_to_bare_no_sync"] = (
                run["saturation"]["referee_moves_per_s"] / run["bare_sqlite3_no_sync"]["commits_per_s"]
            )
            runs.append(run)
    finally:
        await store.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)

    # Percentiles over every move of every run: a p99 of one short run is its third-worst move.
    pooled: dict[str, list[float]] = {}
    for run in runs:
        for section in ("sequential", "open_loop", "saturation"):
            pooled.setdefault(section, []).extend(run[section].pop("latencies"))

    def med(section: str, key: str, digits: int = 3) -> float:
        return rounded(median([run[section][key] for run in runs]), digits)

    def pct(section: str, fraction: float) -> float:
        return rounded(1e3 * percentile(pooled[section], fraction), 3)

    def errors(section: str) -> int:
        return sum(sum(run[section]["errors"].values()) for run in runs)

    return {
        "players": players,
        "active_games": sizes.active_games,
        "build_seconds": rounded(build_seconds, 2),
        "spares_built": spare_count,
        "games_finished": pool.finished,
        "games_created_inline": pool.created_inline,
        "sequential": {
            "moves_per_s": med("sequential", "moves_per_s", 1),
            "p50_ms": pct("sequential", 0.50),
            "p99_ms": pct("sequential", 0.99),
            "samples": len(pooled["sequential"]),
            "cpu_ms_per_move": med("sequential", "cpu_ms_per_move", 4),
            "errors": errors("sequential"),
        },
        "open_loop": {
            "offered_per_s": sizes.arrival_rate,
            "moves_per_s": med("open_loop", "moves_per_s", 1),
            "p50_ms": pct("open_loop", 0.50),
            "p99_ms": pct("open_loop", 0.99),
            "samples": len(pooled["open_loop"]),
            "errors": errors("open_loop"),
        },
        "saturation": {
            "concurrency": sizes.active_games,
            "moves_per_s": med("saturation", "moves_per_s", 1),
            "referee_moves_per_s": med("saturation", "referee_moves_per_s", 1),
            "p50_ms": pct("saturation", 0.50),
            "p99_ms": pct("saturation", 0.99),
            "samples": len(pooled["saturation"]),
            "errors": errors("saturation"),
        },
        "bare_sqlite3_commits_per_s": med("bare_sqlite3", "commits_per_s", 1),
        "bare_sqlite3_no_sync_commits_per_s": med("bare_sqlite3_no_sync", "commits_per_s", 1),
        "bare_aiosqlite_commits_per_s": med("bare_aiosqlite", "commits_per_s", 1),
        "bare_one_hop_commits_per_s": med("bare_one_hop", "commits_per_s", 1),
        "ratio_to_bare_sqlite3": rounded(median([run["ratio_to_bare_sqlite3"] for run in runs]), 4),
        "ratio_to_bare_aiosqlite": rounded(median([run["ratio_to_bare_aiosqlite"] for run in runs]), 4),
        "ratio_to_bare_no_sync": rounded(median([run["ratio_to_bare_no_sync"] for run in runs]), 4),
        "runs": runs,
    }
