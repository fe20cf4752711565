"""bot.py as a real process (issue 20): /undo takes a Draft Cider pick back, and a bot killed
right after the undo's commit, before its board, posts that board once at the next start (the
announcer's catch-up replays the move log's undo entry): the same board as before the move."""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

from db import SqliteStore
from engine.games import get_game
from engine.referee import Referee

from .fake_discord import FakeDiscord
from .test_process import wait_until
from .test_process_announcements import THREAD, setup_workdir, start_bot, stop_bot


async def orchard_game(fake: FakeDiscord, database: Path) -> tuple[int, str]:
    """Game #1, Draft Cider for two, untimed (so unrated: an undo needs nobody's consent); who
    moves first and a pick of theirs that draws nothing (one that can be taken back)."""
    store = await SqliteStore.open(database)
    try:
        referee = Referee(store)
        alice, bob = str(fake.user_id), str(fake.other_user_id)
        table = await referee.create_table(
            "orchard", alice, "alice", guild_id=str(fake.guild_id), channel_id=str(fake.channel_id), speed="untimed"
        )
        await referee.join(table.id, bob, "bob")
        await referee.start(table.id, alice, seed=3)
        await referee.set_links(table.id, thread_id=str(THREAD))
        [first] = await referee.to_act(table.id)
        mover = (alice, bob)[first]
        game, state = get_game("orchard"), await referee.state(table.id)
        for move in game.legal_moves(state, first):
            after, _ = game.apply(state, first, move)
            if game.undoable(state, first, move, after):
                return int(mover), game.format_move(move)
        raise AssertionError("no pick that draws nothing")
    finally:
        await store.close()


def versions(database: Path) -> tuple[int, int]:
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT version, announced_version FROM games WHERE id = 1").fetchone()


async def test_a_bot_killed_right_after_an_undo_posts_the_board_before_the_move_once(stand_in: FakeDiscord, tmp_path: Path) -> None:
    fake = stand_in
    database = setup_workdir(tmp_path)
    mover, move = await orchard_game(fake, database)
    process = await start_bot(fake, tmp_path)
    try:
        await wait_until(lambda: len(fake.boards(THREAD)) == 1, "the deal's board")
        await fake.slash("play", [{"name": "move", "type": 3, "value": move}, {"name": "game", "type": 4, "value": 1}], user_id=mover)
        await wait_until(lambda: versions(database) == (1, 1), "the move's board")
        fake.hold("POST", f"/channels/{THREAD}/messages")  # the undo's board never reaches Discord
        await fake.slash("undo", [{"name": "game", "type": 4, "value": 1}], user_id=mover)
        await wait_until(lambda: fake.held, "the undo's board")
        assert versions(database) == (2, 1)  # committed, not announced
    finally:
        output = await stop_bot(process, signal.SIGKILL)
    fake.release()
    assert len(fake.boards(THREAD)) == 2
    process = await start_bot(fake, tmp_path)
    try:
        await wait_until(lambda: len(fake.boards(THREAD)) == 3, "the board after the restart")
        await wait_until(lambda: versions(database) == (2, 2), "the announcement mark")
    finally:
        output += await stop_bot(process)
    deal, played, undone = fake.boards(THREAD)
    assert undone["embeds"][0]["description"] == deal["embeds"][0]["description"]
    assert played["embeds"][0]["description"] != deal["embeds"][0]["description"]
    assert "Traceback" not in output, output
