"""bot.py as two real shard processes (SHARD_COUNT=2) over one SQLite file, against the loopback
stand-in for Discord: each process identifies its own shard, the server's interactions reach
the process owning its shard and DMs reach shard 0's. A game whose moves alternate between the
server (Alice) and a DM (Bob), so between the two processes, each one's cached table stale at
every other move, finishes with every move judged on the stored table and each board posted
once."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from db import SqliteStore
from engine.referee import Referee
from engine.referee.announcements import Announcements

from .fake_discord import FakeDiscord
from .test_process import TOKEN, launch, wait_until
from .test_process_announcements import THREAD, stop_bot

# A server id whose events Discord routes to shard 1 of 2 ((id >> 22) % 2), so that the server's
# process is not the one receiving DMs (shard 0).
GUILD_ON_SHARD_1 = (900_000_000_000_000_100 >> 22 | 1) << 22


async def start_shard(fake: FakeDiscord, workdir: Path, shard: int) -> asyncio.subprocess.Process:
    # One process registers the commands.
    process = await launch(fake, workdir, {"SHARD_IDS": str(shard), "SYNC_COMMANDS": str(shard == 0).lower()})
    await wait_until(lambda: shard in fake.identified_shards, f"shard {shard}'s IDENTIFY")
    return process


def stored(database: Path) -> tuple[str, int, int]:
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT status, version, announced_version FROM games WHERE id = 1").fetchone()


async def test_two_shard_processes_play_one_game_from_the_server_and_from_dms(
    stand_in: FakeDiscord, tmp_path: Path
) -> None:
    fake = stand_in
    fake.shard_count = 2
    fake.guild_id = GUILD_ON_SHARD_1
    assert fake.shard_of(fake.guild_id) == 1 and fake.shard_of(None) == 0
    database = tmp_path / "referee.sqlite3"
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH={database}\nSHARD_COUNT=2\n")
    await sprint_game(fake, database)
    processes = [await start_shard(fake, tmp_path, 0)]
    await wait_until(lambda: "global" in fake.commands, "the command sync")
    processes.append(await start_shard(fake, tmp_path, 1))
    # discord.py calls on_ready (the catch-up, the clock task) once the guilds it was told about
    # arrived or 2 s passed; the moves come after, as they would on a bot up for a while.
    await asyncio.sleep(2.5)
    output = ""
    try:
        alice, bob = fake.user_id, fake.other_user_id
        moves = [(alice, "a01", False), (bob, "b01", True), (alice, "a02", False), (bob, "b02", True)]
        moves += [(alice, "a03", False), (bob, "b03", True)]
        for number, (user, card, in_dm) in enumerate(moves, start=1):
            await fake.slash(
                "play",
                [{"name": "move", "type": 3, "value": f"play {card}"}, {"name": "game", "type": 4, "value": 1}],
                user_id=user,
                in_dm=in_dm,
            )
            await wait_until(lambda number=number: stored(database)[1:] == (number, number), f"move {number} told")
        assert stored(database) == ("finished", 6, 6)
        await asyncio.sleep(1.5)  # both clock polls and catch-ups have looked again by now
    finally:
        for process in processes:
            output += await stop_bot(process)
    # Each shard identified once, with its own shard; the server's commands reached shard 1's
    # process, the DMs shard 0's.
    assert fake.identified_shards == {0, 1}
    assert len(fake.interactions_by_shard[1]) == 3 and len(fake.interactions_by_shard[0]) == 3
    answers = [callback["data"].get("content") or "" for callback in fake.callbacks]
    assert not any("changed" in answer or "Something went wrong" in answer for answer in answers), answers
    # One board per move, in order, none twice (a board carries its version in its nonce).
    assert [board["nonce"] for board in fake.boards(THREAD)] == [f"b1.{version}" for version in range(1, 7)]
    with sqlite3.connect(database) as connection:
        logged = [row[0] for row in connection.execute("SELECT move FROM moves WHERE game_id = 1 ORDER BY n")]
        assert connection.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)  # all given back
    assert logged == [f"play {card}" for _, card, _ in moves]
    assert "Traceback" not in output, output
    assert output.count("running shards 0 of 2") == 1 and output.count("running shards 1 of 2") == 1, output


async def sprint_game(fake: FakeDiscord, database: Path) -> None:
    """Game #1, Sprint (three turns each), Alice against Bob, dealt and announced, in its thread."""
    store = await SqliteStore.open(database)
    referee = Referee(store)
    alice, bob = str(fake.user_id), str(fake.other_user_id)
    table = await referee.create_table(
        "sprint", alice, "alice", options={"rounds": 3}, guild_id=str(fake.guild_id), channel_id=str(fake.channel_id)
    )
    await referee.join(table.id, bob, "bob")
    await referee.start(table.id, alice, seed=1)
    await referee.set_links(table.id, thread_id=str(THREAD))
    await Announcements(referee).mark_announced(table.id, 0)
    await store.close()
