"""One referee process of the multi-process test: a plain Python process (no Discord) running a
``Referee`` over a store shared with the others, as a bot shard would.

    python -m tests.multiprocess.worker STORE_URL NAME BASE T0 SCALE LEASE

It reads one JSON command a line on stdin and answers one JSON line on stdout, each command in a
task of its own (commands sent together run at once, as interactions would):

- ``{"op": "play", "id", "table", "user", "move", "expected"}``: ``{"id", "ok": true, "version"}``
  once the referee has acknowledged the move (on disk by its promise), or ``{"id", "ok": false,
  "error"}`` with the refusal's class;
- ``{"op": "claim", "id", "tables"}``: claims those tables' clocks for this process and never
  gives them back (a process that dies holding them): ``{"id", "claimed"}``;
- ``{"op": "quit"}``: closes the store and exits.

Meanwhile it polls the clocks every 50 ms, as the bot's clock task does, and prints each due
action it fired: ``{"fired": [kind, table, seat, key], "at": virtual time}``. Time is virtual and shared by every
process: ``BASE + (time.time() - T0) * SCALE``, so that clocks of minutes run out in seconds.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from typing import Any

import db
from db import SqliteStore
from engine.games import REGISTRY, get_game
from engine.referee import Referee
from engine.referee.claims import CLOCK
from engine.referee.store import Store

POLL_SECONDS = 0.05


async def open_store(url: str) -> Store:
    """The store a URL names: ``sqlite:///path`` or ``postgresql://...`` (db.open_store)."""
    if url.startswith("sqlite:///"):
        return await SqliteStore.open(url.removeprefix("sqlite:///"))
    store: Store = await db.open_store(url)
    return store


def say(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload) + "\n")
    sys.stdout.flush()


async def play(referee: Referee, command: dict[str, Any]) -> None:
    try:
        outbox = await referee.play(
            command["table"], command["user"], command["move"], expected_version=command.get("expected")
        )
    except Exception as error:  # a refusal: its class is all the test needs
        say({"id": command["id"], "ok": False, "error": type(error).__name__})
        return
    say({"id": command["id"], "ok": True, "version": outbox.table.version})


async def poll_clocks(referee: Referee) -> None:
    while True:
        try:
            due = await referee.due_actions()
        except Exception as error:  # as the bot's clock task: logged, never fatal
            say({"poll_error": repr(error)})
            await asyncio.sleep(POLL_SECONDS)
            continue
        for reminder in due.reminders:
            say({"fired": ["reminder", reminder.links.table_id, reminder.seat, f"{reminder.deadline}/{reminder.rung}"], "at": due.now})
        for timeout in due.timeouts:
            say({"fired": ["timeout", timeout.links.table_id, timeout.seat, str(timeout.ran_out_at)], "at": due.now})
        for forfeit in due.forfeits:
            say({"fired": ["forfeit", forfeit.links.table_id, forfeit.seat, ""], "at": due.now})
        await asyncio.sleep(POLL_SECONDS)


async def main(url: str, name: str, base: float, t0: float, scale: float, lease: float) -> None:
    REGISTRY["nim"] = "tests.toy_game"
    get_game.cache_clear()
    store = await open_store(url)
    referee = Referee(
        store,
        clock=lambda: base + (time.time() - t0) * scale,
        ai_rng=random.Random(name),
        shared=True,
        owner=name,
        lease=lease,
    )
    poller = asyncio.create_task(poll_clocks(referee))
    tasks: set[asyncio.Task[None]] = set()
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    say({"ready": name})
    while line := await reader.readline():
        command = json.loads(line)
        if command["op"] == "quit":
            break
        if command["op"] == "claim":
            claimed = await referee.claims.take(CLOCK, command["tables"])
            say({"id": command["id"], "claimed": claimed})
            continue
        task = asyncio.create_task(play(referee, command))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    poller.cancel()
    # The poll under way ends before the store closes (a pool closing under a query is an error).
    await asyncio.gather(poller, *tasks, return_exceptions=True)
    await store.close()


if __name__ == "__main__":
    url, name, base, t0, scale, lease = sys.argv[1:7]
    asyncio.run(main(url, name, float(base), float(t0), float(scale), float(lease)))
