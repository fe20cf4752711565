"""bot.py as a real process: a move committed but not yet announced is announced exactly once,
whatever happens between its commit and its board (a kill, a SIGINT, a thread that refuses it)."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import sys
from pathlib import Path

from cogs.announcer import unreachable_note
from db import SqliteStore
from engine.referee import Referee
from engine.referee.announcements import Announcements

from .fake_discord import FakeDiscord
from .test_process import LAUNCHER, TIMEOUT, TOKEN, clean_environment, wait_until

THREAD = 900_000_000_000_000_150
BOARDS = f"/channels/{THREAD}/messages"


async def running_game(fake: FakeDiscord, database: Path, *, bob_dms_closed: bool = False) -> None:
    """Game #1, Sprint, Alice to play against Bob, dealt and announced, its thread open."""
    store = await SqliteStore.open(database)
    referee = Referee(store)
    alice, bob = str(fake.user_id), str(fake.other_user_id)
    table = await referee.create_table(
        "sprint", alice, "alice", guild_id=str(fake.guild_id), channel_id=str(fake.channel_id)
    )
    await referee.join(table.id, bob, "bob")
    await referee.start(table.id, alice, seed=1)
    await referee.set_links(table.id, thread_id=str(THREAD))
    await Announcements(referee).mark_announced(table.id, 0)
    if bob_dms_closed:
        await store.set_user_flag(bob, "dm_closed", True)
    await store.close()


def stored(database: Path) -> tuple[int, int, float | None]:
    """Game #1's version, last announced version and "cannot reach" mark, as on disk."""
    with sqlite3.connect(database) as connection:
        row = connection.execute(
            "SELECT version, announced_version, unreachable_since FROM games WHERE id = 1"
        ).fetchone()
    return row


async def start_bot(fake: FakeDiscord, workdir: Path, **settings: str) -> asyncio.subprocess.Process:
    """bot.py started on ``workdir`` (``settings``: more environment, e.g. FAKE_PICTURES="1")."""
    fake.identified.clear()
    environment = {**clean_environment(fake), "FAKE_RETRY_SECONDS": "0.3", **settings}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(LAUNCHER),
        cwd=workdir,
        env=environment,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    await asyncio.wait_for(fake.identified.wait(), TIMEOUT)
    await wait_until(lambda: "global" in fake.commands, "the command sync")
    return process


async def stop_bot(process: asyncio.subprocess.Process, signum: int = signal.SIGTERM) -> str:
    if process.returncode is None:
        process.send_signal(signum)
    stdout, stderr = await asyncio.wait_for(process.communicate(), TIMEOUT)
    return stdout.decode() + stderr.decode()


async def alice_plays(fake: FakeDiscord) -> None:
    await fake.slash(
        "play", [{"name": "move", "type": 3, "value": "play a03"}, {"name": "game", "type": 4, "value": 1}]
    )


def setup_workdir(tmp_path: Path) -> Path:
    database = tmp_path / "referee.sqlite3"
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH={database}\nSYNC_COMMANDS=true\n")
    return database


async def interrupted_between_commit_and_board(fake: FakeDiscord, tmp_path: Path, signum: int) -> str:
    database = setup_workdir(tmp_path)
    await running_game(fake, database)
    fake.hold("POST", BOARDS)  # Discord never gets the board
    process = await start_bot(fake, tmp_path)
    try:
        await alice_plays(fake)
        await wait_until(lambda: fake.held, "the board request")
        assert stored(database)[:2] == (1, 0)  # committed, not announced
    finally:
        interrupted = await stop_bot(process, signum)
    if signum == signal.SIGINT:  # a clean stop, the board left for the next start
        assert "Traceback" not in interrupted and "stopped cleanly" in interrupted, interrupted
    fake.release()
    assert fake.boards(THREAD) == []
    # The next start announces the move: one board, pinging Bob, whose turn it is.
    process = await start_bot(fake, tmp_path)
    try:
        await wait_until(lambda: fake.boards(THREAD), "the board after the restart")
        await wait_until(lambda: stored(database)[1] == 1, "the announcement mark")
    finally:
        output = await stop_bot(process)
    # And the start after that one posts nothing again.
    process = await start_bot(fake, tmp_path)
    await asyncio.sleep(1.0)  # on_ready and the first clock poll have run by now
    output += await stop_bot(process)
    [board] = fake.boards(THREAD)
    assert [user["id"] for user in board["mentions"]] == [str(fake.other_user_id)]
    assert "Turn: bob" in board["embeds"][0]["description"]
    assert "Traceback" not in output, output
    return output


async def test_a_bot_killed_between_the_commit_and_the_board_posts_it_after_the_restart_once(
    stand_in: FakeDiscord, tmp_path: Path
) -> None:
    await interrupted_between_commit_and_board(stand_in, tmp_path, signal.SIGKILL)


async def test_a_bot_stopped_with_sigint_between_the_commit_and_the_board_posts_it_after_the_restart_once(
    stand_in: FakeDiscord, tmp_path: Path
) -> None:
    await interrupted_between_commit_and_board(stand_in, tmp_path, signal.SIGINT)


async def test_a_refused_board_with_closed_dms_is_marked_then_delivered_once_permissions_are_back(
    stand_in: FakeDiscord, tmp_path: Path
) -> None:
    fake = stand_in
    database = setup_workdir(tmp_path)
    await running_game(fake, database, bob_dms_closed=True)
    fake.fail("POST", BOARDS, 403, 50013, "Missing Permissions")
    process = await start_bot(fake, tmp_path)
    try:
        await alice_plays(fake)
        await wait_until(lambda: stored(database)[2] is not None, "the 'cannot reach' mark")
        await asyncio.sleep(1.0)  # a few more tries, refused too
        # One after the other: answered concurrently, they could come back in either order.
        answered = len(fake.callbacks)
        await fake.slash("turns", [], user_id=fake.other_user_id)
        await wait_until(lambda: len(fake.callbacks) > answered, "the answer to /turns")
        await fake.slash("game", [{"name": "list", "type": 1}])
        await wait_until(lambda: len(fake.callbacks) > answered + 1, "the answer to /game list")
        turns, listed = fake.callbacks[-2:]
        assert unreachable_note() in turns["data"]["embeds"][0]["description"]
        assert unreachable_note() in listed["data"]["content"]
        assert fake.boards(THREAD) == []
        fake.faults.clear()  # someone gives the bot its permissions back
        await wait_until(lambda: fake.boards(THREAD), "the board once allowed")
        await wait_until(lambda: stored(database)[1:] == (1, None), "the mark cleared")
        await asyncio.sleep(1.0)
    finally:
        output = await stop_bot(process)
    [board] = fake.boards(THREAD)
    assert [user["id"] for user in board["mentions"]] == [str(fake.other_user_id)]
    assert output.count("could not post the board of game #1") == 1, output  # one warning, many tries
    assert "Traceback" not in output, output
