"""6. Disk under sustained writes: how large SQLite's write-ahead log grows, and how fast it shrinks.

Two loads on one SQLite file through the referee, with a thread sampling the size of the WAL file
every 50 ms (a thread: the event loop is busy with the load and would sample late):

- moves: every active game plays at once, as fast as the referee answers, for ``--wal-seconds``
  (games that end are replaced by new ones opened through the referee); then nothing, for
  ``wal_settle_seconds``;
- lobbies, on a database of their own: ``wal_lobbies`` lobbies opened one after another (each by
  another user, outside any server), half of them cancelled; then nothing again.

Reported per load: the peak WAL size, the WAL size at the end of the quiet time and how long after
the load it first went under 8 MB, beside the database file's size and the rate of the load. The
store must keep the WAL bounded whatever the rate (it grew without end before: checkpoints never
caught up with a writer that never paused).
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from db import SqliteStore
from engine.core import Game
from engine.referee import Referee
from engine.referee.limits import UNLIMITED

from .build import build_games
from .config import Sizes, bench_players
from .referee_load import Pool, Tally, move_in_slot
from .stats import rounded

MB = 1024 * 1024
SETTLED_BYTES = 8 * MB  # the WAL must come back under this once the load stops


class WalSampler:
    """Samples the WAL file's size from a thread until stopped; keeps (seconds, bytes) pairs."""

    def __init__(self, path: Path, every: float = 0.05) -> None:
        self.wal = Path(f"{path}-wal")
        self.every = every
        self.samples: list[tuple[float, int]] = []
        self.started = time.perf_counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wal-sampler", daemon=True)

    def size(self) -> int:
        try:
            return os.stat(self.wal).st_size
        except FileNotFoundError:
            return 0

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append((time.perf_counter() - self.started, self.size()))
            self._stop.wait(self.every)

    def __enter__(self) -> WalSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def summary(self, load_ended: float) -> dict[str, Any]:
        """Peak over everything sampled; the size at the end; seconds after ``load_ended`` (a
        perf_counter time) until the WAL was first under SETTLED_BYTES and stayed there."""
        end = load_ended - self.started
        under_since: float | None = None
        for at, size in self.samples:
            if at < end:
                continue
            if size < SETTLED_BYTES:
                under_since = at if under_since is None else under_since
            else:
                under_since = None
        return {
            "peak_wal_mb": rounded(max((size for _, size in self.samples), default=0) / MB, 2),
            "settled_wal_mb": rounded(self.size() / MB, 2),
            "seconds_to_under_8mb": None if under_since is None else rounded(max(0.0, under_since - end), 2),
        }


class Window:
    """One measured stretch of load: when it started, and, once over, how long it took and the
    WAL's summary (with ``seconds`` in it)."""

    started = 0.0
    seconds = 0.0
    result: dict[str, Any]


@asynccontextmanager
async def _sampled(path: Path, settle_seconds: float) -> AsyncIterator[Window]:
    """Sample the WAL over the body's load and ``settle_seconds`` after it."""
    window = Window()
    with WalSampler(path) as sampler:
        window.started = time.perf_counter()
        yield window
        ended = time.perf_counter()
        await asyncio.sleep(settle_seconds)
    window.seconds = ended - window.started
    window.result = sampler.summary(ended)
    window.result.update(seconds=rounded(window.seconds, 2))


def _db_mb(path: Path) -> float:
    return rounded(os.stat(path).st_size / MB, 2)


async def _moves(
    referee: Referee,
    game: Game[Any, Any],
    players: int,
    active: list[int],
    sizes: Sizes,
    path: Path,
    seed: int,
) -> dict[str, Any]:
    pool = Pool(referee, game, players, active, [])
    tally = Tally()
    deadline = [0.0]

    async def driver(slot: int, rng: random.Random) -> None:
        while time.perf_counter() < deadline[0]:
            await move_in_slot(pool, slot, rng, tally)

    rng = random.Random(seed)
    async with _sampled(path, sizes.wal_settle_seconds) as window:
        deadline[0] = window.started + sizes.wal_seconds
        await asyncio.gather(*(driver(slot, random.Random(rng.random())) for slot in range(len(active))))
    result, seconds = window.result, window.seconds
    result.update(
        moves=tally.moves,
        moves_per_s=rounded(tally.moves / seconds if seconds else 0.0, 1),
        games_opened=pool.created_inline,
        errors=sum(tally.errors.values()),
        db_mb=_db_mb(path),
    )
    return result


async def _lobbies(game: Game[Any, Any], sizes: Sizes, path: Path) -> dict[str, Any]:
    """On a database of its own: lobbies opened one after another, each by another player (one
    transaction each, as people open them), then every other one cancelled."""
    _fresh(path)
    store = await SqliteStore.open(path)
    try:
        referee = Referee(store, limits=UNLIMITED)
        async with _sampled(path, sizes.wal_settle_seconds) as window:
            tables = [
                await referee.create_table(game.name, f"host{n}", f"Host {n}")
                for n in range(sizes.wal_lobbies)
            ]
            for table in tables[::2]:
                await referee.cancel(table.id, table.host)
        result, seconds = window.result, window.seconds
        result.update(
            lobbies=len(tables),
            cancelled=len(tables[::2]),
            writes_per_s=rounded((len(tables) + len(tables[::2])) / seconds if seconds else 0.0, 1),
            db_mb=_db_mb(path),
        )
        return result
    finally:
        await store.close()
        _fresh(path)


def _fresh(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


async def measure(
    game: Game[Any, Any], sizes: Sizes, workdir: Path, seed: int, mean_length: float
) -> dict[str, Any]:
    players = bench_players(game)
    path = workdir / f"wal-{game.name}.sqlite3"
    _fresh(path)
    store = await SqliteStore.open(path)
    try:
        active = await build_games(
            store, game, players, sizes.active_games, seed=seed, mean_length=mean_length
        )
        # A synthetic load, not people: u1..uN sit at every game, more than a person may.
        referee = Referee(store, ai_rng=random.Random(seed), limits=UNLIMITED)
        for built in active:
            await referee.table(built.table_id)
        moves = await _moves(referee, game, players, [b.table_id for b in active], sizes, path, seed)
    finally:
        await store.close()
        _fresh(path)
    lobbies = await _lobbies(game, sizes, workdir / f"wal-lobbies-{game.name}.sqlite3")
    return {"players": players, "active_games": sizes.active_games, "moves": moves, "lobbies": lobbies}
