"""Three referee processes on one PostgreSQL play the same games at once, as the shard processes
of one bot do: every move of a game is sent to two processes at the same moment (a move from a
server's thread and the same from a DM reach different processes), one process is SIGKILLed in
the middle and started again. Afterwards no acknowledged move is lost or stored twice, exactly one
of each pair was accepted, and every game replays from its log to its stored position."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from db.postgres.store import PostgresStore
from engine.core import GameRecord, replay
from engine.games import get_game
from engine.referee import FINISHED, Referee
from tests.referee.helpers import MONDAY, ManualClock
from tests.stores import PostgresBackend

ROOT = Path(__file__).resolve().parents[2]
GAMES = 12
TOKENS = 20
PLAYERS = ("alice", "bob")

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("toy_game")]


class Process:
    """One ``tests.processes.referee_process``; its answers matched to the requests by id."""

    def __init__(self, url: str, seed: int, loop: asyncio.AbstractEventLoop) -> None:
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "tests.processes.referee_process", url, str(seed)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.loop = loop
        self.ready = asyncio.Event()
        self.waiting: dict[int, asyncio.Future[dict[str, Any] | None]] = {}
        self.answered = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            if line.endswith("\n"):
                self.loop.call_soon_threadsafe(self._answer, json.loads(line))
        self.loop.call_soon_threadsafe(self._died)

    def _answer(self, reply: dict[str, Any]) -> None:
        if reply.get("ready"):
            self.ready.set()
        elif (future := self.waiting.pop(reply["id"], None)) is not None and not future.done():
            self.answered += 1
            future.set_result(reply)

    def _died(self) -> None:
        for future in self.waiting.values():
            if not future.done():
                future.set_result(None)  # no answer: never acknowledged
        self.waiting.clear()

    async def send(self, request: dict[str, Any]) -> dict[str, Any] | None:
        future: asyncio.Future[dict[str, Any] | None] = self.loop.create_future()
        self.waiting[request["id"]] = future
        try:
            assert self.popen.stdin is not None
            self.popen.stdin.write(json.dumps(request) + "\n")
            self.popen.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            self.waiting.pop(request["id"], None)
            return None
        return await future

    def kill(self) -> None:
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(timeout=30)

    def stop(self) -> None:
        if self.popen.poll() is None:
            assert self.popen.stdin is not None
            self.popen.stdin.close()
            try:
                self.popen.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
async def database(pg_server):
    backend = PostgresBackend(pg_server)
    yield await backend.database_for("processes")
    await backend.drop_all()


async def test_three_processes_play_the_same_games_and_one_is_killed(database):
    loop = asyncio.get_running_loop()
    store = await PostgresStore.open(database)
    referee = Referee(store, clock=ManualClock(MONDAY))
    table_ids, started_at = [], {}
    for index in range(GAMES):
        table = await referee.create_table(
            "nim", "alice", "Alice", options={"tokens": TOKENS}, guild_id="g1", speed="daily-2"
        )
        await referee.join(table.id, "bob", "Bob")
        started_at[table.id] = (await referee.start(table.id, "alice", seed=index)).table.version
        table_ids.append(table.id)
    processes = [Process(database, seed, loop) for seed in range(3)]
    for process in processes:
        await asyncio.wait_for(process.ready.wait(), timeout=60)
    rng = random.Random(11)
    acknowledged: dict[int, list[str]] = {table_id: [] for table_id in table_ids}
    unacknowledged_but_stored: list[int] = []
    pairs = [0]
    ids = iter(range(10**9))

    async def drive(table_id: int) -> None:
        tokens, turn = TOKENS, 0
        while tokens:
            move = f"take {rng.randint(1, min(3, tokens))}"
            request = {"table": table_id, "user": PLAYERS[turn], "move": move}
            first, second = rng.sample(processes, 2)
            replies = await asyncio.gather(
                first.send({**request, "id": next(ids)}), second.send({**request, "id": next(ids)})
            )
            pairs[0] += 1
            accepted = [reply for reply in replies if reply is not None and reply["ok"]]
            assert len(accepted) <= 1, replies  # never both: the second is judged again and refused
            if accepted:
                acknowledged[table_id].append(move)
            else:  # nobody answered yes: was it committed by a process killed before it answered?
                stored = await store.move_log(table_id)
                if len(stored) == len(acknowledged[table_id]):
                    continue  # not stored: send it again
                assert len(stored) == len(acknowledged[table_id]) + 1 and None in replies, replies
                acknowledged[table_id].append(stored[-1].move)
                unacknowledged_but_stored.append(table_id)
            tokens -= int(move.split()[1])
            turn = 1 - turn

    killed: list[Process] = []

    async def kill_and_restart() -> None:
        await asyncio.sleep(1.0)
        killed.append(processes[1])
        processes[1].kill()
        await asyncio.sleep(0.5)
        processes[1] = Process(database, 7, loop)
        await asyncio.wait_for(processes[1].ready.wait(), timeout=60)

    try:
        await asyncio.wait_for(asyncio.gather(kill_and_restart(), *(drive(t) for t in table_ids)), timeout=240)
    finally:
        for process in processes:
            process.stop()
    assert pairs[0] >= GAMES * 5
    # Killed in the middle: it had answered moves, and so has the process started in its place.
    assert killed[0].answered > 0 and processes[1].answered > 0
    game = get_game("nim")
    for table_id in table_ids:
        log = await store.move_log(table_id)
        assert [move.move for move in log] == acknowledged[table_id]  # nothing lost, nothing twice
        table = await store.load_table(table_id)
        assert table is not None and table.status == FINISHED and table.version == started_at[table_id] + len(log)
        record = GameRecord(game="nim", players=2, seed=table.seed or 0, options=table.options, moves=log)
        state, _ = replay(game, record)
        stored = await store.load_state(table_id)
        assert stored is not None and game.view(game.decode_state(stored), None) == game.view(state, None)
        assert (await store.game_result(table_id)) is not None
    ratings = await store.ratings("g1", "nim")
    assert sum(games for _, games, _ in ratings.values()) == 2 * GAMES  # every result rated once
    await store.close()
