"""The process the crash test kills: plays games of the toy Nim through the referee on an SQLite
file, several at once, and prints one line per move the referee acknowledged.

    python -m tests.crash.child DATABASE GAMES SEED [undo]

Each line ``ACK <table> <version> <move>`` is printed (and flushed) only once ``Referee.play``
has returned: the move is on disk by the referee's promise. Started again on the same file, it
goes on with the games in progress (and lobbies left unstarted) and opens new ones until GAMES
tables exist, then plays them all to their end and prints ``DONE``.

With ``undo`` (issue 20), every Nim move can be taken back and the player who moved takes about
every other one back at once (an unrated game: no consent), printing ``ACK <table> <version>
(undo)`` once ``Referee.undo`` has returned; so kills fall around undo commits too.
"""

from __future__ import annotations

import asyncio
import random
import sys

from db import SqliteStore
from engine.core import GameError
from engine.games import REGISTRY, get_game
from engine.referee import LOBBY, RUNNING, Referee

PLAYERS = ("p0", "p1")
TOKENS = 25  # about a dozen moves a game
AT_ONCE = 4  # games played at the same time: moves of several games share a commit


def ack(table_id: int, version: int, move: str) -> None:
    sys.stdout.write(f"ACK {table_id} {version} {move}\n")
    sys.stdout.flush()


async def play_to_the_end(referee: Referee, table_id: int, rng: random.Random, undo: bool = False) -> None:
    while True:
        table = await referee.table(table_id)
        if table.status != RUNNING:
            return
        for user in PLAYERS:
            moves = await referee.legal_moves(table_id, user)
            if moves:
                move = rng.choice(moves)
                outbox = await referee.play(table_id, user, move)
                ack(table_id, outbox.table.version, move)
                if undo and rng.random() < 0.5:
                    try:
                        taken_back = await referee.undo(table_id, user)
                    except GameError:  # the game ended with that move
                        break
                    assert taken_back.outbox is not None
                    ack(table_id, taken_back.outbox.table.version, "(undo)")
                break
        await asyncio.sleep(0)  # let the other games go on


async def start_lobby(referee: Referee, table_id: int, seed: int) -> None:
    table = await referee.table(table_id)
    if table.seat_of(PLAYERS[1]) is None:
        await referee.join(table_id, PLAYERS[1], "P1")
    await referee.start(table_id, PLAYERS[0], seed=seed)


async def main(path: str, games: int, seed: int, undo: bool) -> None:
    REGISTRY["nim"] = "tests.toy_game"
    get_game.cache_clear()
    if undo:  # Nim shows and draws nothing: every move may be taken back
        type(get_game("nim")).undoable = lambda self, before, seat, move, after: True  # type: ignore[method-assign]
    store = await SqliteStore.open(path)
    rng = random.Random(seed)
    try:
        referee = Referee(store, ai_rng=random.Random(seed))
        for table in await referee.tables(statuses=(LOBBY,), limit=games):
            await start_lobby(referee, table.id, rng.randrange(2**31))
        running = [table.id for table in await referee.tables(statuses=(RUNNING,), limit=games)]
        opened = len(await referee.tables(limit=games + 1))
        while running or opened < games:
            while len(running) < AT_ONCE and opened < games:
                table = await referee.create_table("nim", PLAYERS[0], "P0", options={"tokens": TOKENS})
                opened += 1
                await start_lobby(referee, table.id, rng.randrange(2**31))
                running.append(table.id)
            batch, running = running[:AT_ONCE], running[AT_ONCE:]
            await asyncio.gather(*(play_to_the_end(referee, table_id, rng, undo) for table_id in batch))
    finally:
        await store.close()
    sys.stdout.write("DONE\n")
    sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:] == ["undo"]))
