"""Three referee processes over one store play the same games at once (``pytest -m multiprocess``).

Plain Python processes (tests/multiprocess/worker.py: a Referee, no Discord), each polling the
clocks as the bot's clock task does, with a virtual time shared by all and running 200 times
faster than real time. The moves of one table go to different processes, some to all three at
once; one process is SIGKILLed in the middle (moves in flight, holding clock claims it never
gives back) and started again. Afterwards: no acknowledged move lost or duplicated, exactly one
of each set of simultaneous identical submissions accepted, every game replays from its move log
to its stored state, and every due clock action fired exactly once (the dead process's claims
taken over once expired).

Parametrised by a store URL: SQLite, and PostgreSQL (a database of the session's server,
tests/stores.py; marker ``postgres``); ``TEST_DATABASE_URL`` adds a server of your own.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.core import GameRecord, replay
from engine.games import get_game
from engine.referee import Referee
from tests.stores import PostgresBackend, run_aside

from .worker import open_store

pytestmark = pytest.mark.multiprocess

REPO = Path(__file__).resolve().parents[2]
SCALE = 200.0  # virtual seconds per real second
LEASE = 400.0  # virtual: 2 s of real time
ACTIVE, IDLE = 8, 3  # games played throughout; games nobody moves in (their clocks run out)
TIMEOUT = 60.0


class Worker:
    """One referee process, its answers and the clock actions it reported."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.process: asyncio.subprocess.Process | None = None
        self.answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.fired: list[tuple[Any, ...]] = []
        self.fired_at: dict[tuple[Any, ...], float] = {}
        self.errors: list[str] = []
        self.ready = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    async def start(self, url: str, base: float, t0: float) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.multiprocess.worker",
            url,
            self.name,
            str(base),
            str(t0),
            str(SCALE),
            str(LEASE),
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        self._reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self.ready.wait(), TIMEOUT)

    async def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        while line := await self.process.stdout.readline():
            message = json.loads(line)
            if "ready" in message:
                self.ready.set()
            elif "fired" in message:
                self.fired.append(tuple(message["fired"]))
                self.fired_at[tuple(message["fired"])] = message["at"]
            elif "poll_error" in message:
                self.errors.append(message["poll_error"])
            else:
                future = self.answers.pop(message["id"])
                future.set_result(message)

    def send(self, command: dict[str, Any]) -> asyncio.Future[dict[str, Any]]:
        assert self.process is not None and self.process.stdin is not None
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        command_id = len(self.answers) + sum(1 for _ in self.fired) + random.randrange(1 << 40)
        self.answers[command_id] = future
        self.process.stdin.write((json.dumps({**command, "id": command_id}) + "\n").encode())
        return future

    async def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        await self.process.wait()
        if self._reader is not None:
            await self._reader

    async def quit(self) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(b'{"op": "quit"}\n')
        await asyncio.wait_for(self.process.wait(), TIMEOUT)
        if self._reader is not None:
            await self._reader
        assert self.process.returncode == 0


def store_urls() -> list[Any]:
    urls: list[Any] = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
    if os.environ.get("TEST_DATABASE_URL"):
        urls.append(pytest.param(os.environ["TEST_DATABASE_URL"], marks=pytest.mark.postgres))
    return urls


@pytest.fixture(params=store_urls())
def store_url(request: pytest.FixtureRequest, tmp_path: Path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    elif request.param == "postgres":  # a fresh database on the session's server
        backend = PostgresBackend(request.getfixturevalue("pg_server"))
        yield run_aside(backend.database_for(str(tmp_path)))
        run_aside(backend.drop_all())
    else:
        yield str(request.param)


async def test_three_referee_processes_one_killed_lose_no_move_and_fire_each_clock_action_once(
    store_url: str, toy_game
) -> None:
    rng = random.Random(17)
    t0 = base = time.time()
    clock = lambda: base + (time.time() - t0) * SCALE  # noqa: E731 (the workers' very formula)
    store = await open_store(store_url)
    setup = Referee(store, clock=clock, shared=True, owner="setup")
    workers = [Worker("w0"), Worker("w1"), Worker("w2")]
    for worker in workers:
        await worker.start(store_url, base, t0)
    everyone = list(workers)
    # The idle games' clocks start now: their first reminder is due 300 virtual seconds on.
    idle = [await new_game(setup, n, "live-10") for n in range(IDLE)]
    acked: list[tuple[int, int, int, str]] = []  # (table, version after, seat, move)
    try:
        # w1 holds the idle tables' clocks, then dies with moves in flight, never giving them back.
        claimed_at = clock()  # the claims expire LEASE after the worker's own (later) clock reading
        claimed = await workers[1].send({"op": "claim", "tables": idle})
        assert claimed["claimed"] == idle
        active = [await new_game(setup, IDLE + n, "live-3") for n in range(ACTIVE)]
        in_flight = {table_id: workers[1].send(play_command(table_id, 0)) for table_id in active}
        await asyncio.sleep(0.03)
        await workers[1].kill()
        for table_id, future in in_flight.items():  # answered before the kill: acknowledged, durable
            if future.done() and future.result()["ok"]:
                acked.append((table_id, 1, 0, "take 1"))
        workers[1] = Worker("w1-again")  # a new owner: the old one's claims must expire
        await workers[1].start(store_url, base, t0)
        everyone.append(workers[1])
        for _ in range(8):
            await play_round(setup, workers, active, rng, acked)
        deadline = time.time() + TIMEOUT
        while not await idle_clocks_done(setup, idle):
            assert time.time() < deadline, "the idle tables' clock actions never all fired"
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.3)  # a few more polls everywhere: nothing may fire again
    finally:
        for worker in workers:
            if worker.process is not None and worker.process.returncode is None:
                await worker.quit()
    try:
        assert not [error for worker in everyone for error in worker.errors]
        await check_moves(store, idle + active, acked)
        # Each due clock action fired once in total, whichever process fired it.
        fired = [action for worker in everyone for action in worker.fired]
        twice = [action for action, times in Counter(fired).items() if times > 1]
        assert not twice, twice
        for table_id in idle:
            # P0 never moves: reminders at ½ and ⅕ of 10 minutes, then the flag. Both rungs may be
            # due at the first poll after the claims expire (a slow start): one reminder says both.
            seen = [(kind, key) for kind, table, seat, key in fired if table == table_id and seat == 0]
            assert [kind for kind, _ in seen].count("timeout") == 1, (table_id, seen)
            rungs = sorted(key.split("/")[1] for kind, key in seen if kind == "reminder")
            assert rungs in (["1", "2"], ["2"]), (table_id, seen)
        # The dead process's claims held until they expired, then the others took them over (and
        # gave them back): the first idle reminders were due before that, none fired before.
        first = min(at for worker in everyone for (_, table, _, _), at in worker.fired_at.items() if table in idle)
        # (Taken over at the next poll of a live process: 50 ms, 10 virtual seconds; allow 1 s.)
        assert claimed_at + LEASE <= first <= claimed_at + LEASE + SCALE, (claimed_at, first)
        assert await store.claim("clock", idle, "checker", clock(), clock() + 1) == idle
    finally:
        await store.close()


def play_command(table_id: int, version: int, take: int = 1) -> dict[str, Any]:
    user = "p0" if version % 2 == 0 else "p1"  # Nim: the two seats alternate from seat 0
    return {"op": "play", "table": table_id, "user": user, "move": f"take {take}", "expected": version}


async def play_round(
    setup: Referee, workers: list[Worker], tables: list[int], rng: random.Random, acked: list[Any]
) -> None:
    """One move at every table still running, each at a random process, a third of them sent to
    every process at once (a double click seen by three shards: exactly one is accepted)."""
    sent: list[tuple[int, int, dict[str, Any], list[asyncio.Future[dict[str, Any]]]]] = []
    for table_id in tables:
        table = await setup.fresh_table(table_id)
        if table.status != "running":
            continue
        command = play_command(table_id, table.version, take=rng.choice((1, 2)))
        targets = workers if rng.random() < 1 / 3 else [rng.choice(workers)]
        sent.append((table_id, table.version, command, [worker.send(command) for worker in targets]))
    for table_id, version, command, futures in sent:
        answers = await asyncio.wait_for(asyncio.gather(*futures), TIMEOUT)
        accepted = [answer for answer in answers if answer["ok"]]
        assert len(accepted) == 1, answers
        assert accepted[0]["version"] >= version + 1
        acked.append((table_id, version + 1, version % 2, command["move"]))


async def idle_clocks_done(setup: Referee, idle: list[int]) -> bool:
    for table_id in idle:
        seat = (await setup.fresh_table(table_id)).seats[0]
        if seat.clock is None or not seat.clock.ran_out:
            return False
    return True


async def new_game(referee: Referee, n: int, speed: str) -> int:
    table = await referee.create_table("nim", "p0", "P0", options={"tokens": 30}, guild_id=f"g{n}", speed=speed)
    await referee.join(table.id, "p1", "P1")
    await referee.start(table.id, "p0", seed=100 + n)
    return table.id


async def check_moves(store: Any, tables: list[int], acked: list[tuple[int, int, int, str]]) -> None:
    """Every acknowledged move is in its table's log at its place, once; every game replays from
    its log (seed, options, moves) to exactly the state stored."""
    game = get_game("nim")
    logs = {table_id: await store.move_log(table_id) for table_id in tables}
    for table_id, version, seat, move in acked:
        logged = logs[table_id][version - 1]
        assert (logged.seat, logged.move) == (seat, move), (table_id, version, logs[table_id])
    for table_id in tables:
        table = await store.load_table(table_id)
        assert len(logs[table_id]) == table.version  # one log entry per version: none twice, none lost
        record = GameRecord(
            game="nim", players=2, seed=table.seed or 0, options=table.options, moves=logs[table_id]
        )
        state = replay(game, record)[0]
        assert game.encode_state(state) == await store.load_state(table_id)
