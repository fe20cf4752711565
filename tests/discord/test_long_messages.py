"""Messages that would break Discord's limits are split or attached, never cut silently or refused."""

from __future__ import annotations

from .conftest import World
from .helpers import (
    choose_in_private_message,
    latest_board,
    latest_dm_with_controls,
    pinged,
    waiting_for,
)
from .test_play import highest
from .whole_games import discord_limits


async def test_a_long_log_goes_first_in_messages_of_its_own_and_nothing_is_lost(world: World) -> None:
    env = world.env
    lobby = (
        await world.alice.slash(world.channel, "game new", game="sprint", options="chatter=60", ai=1)
    ).response
    await world.alice.click(lobby, label="Start")
    [thread] = world.channel.threads
    before = len(thread.history())
    # Alice's move and the AI's answer: two moves of sixty log lines each, about 6000 characters.
    await choose_in_private_message(world.alice, latest_dm_with_controls(env, world.alice), highest)
    posted = thread.history()[before:]
    *logs, board = posted
    assert board.id == latest_board(thread).id
    assert len(logs) >= 3 and all(not message.embeds and not message.components for message in logs)
    assert all(len(message.content) <= 2000 for message in [*logs, board])
    lines = "\n".join(message.content for message in logs).splitlines()
    assert lines[0] == "alice plays a03 (+3)." and lines[61].startswith("Ada (AI) plays ")
    assert lines[1:61] == [f"Line {n} of the chatter after alice's move 1." for n in range(1, 61)]
    assert lines[62:] == [f"Line {n} of the chatter after Ada (AI)'s move 2." for n in range(1, 61)]
    assert all(pinged(env, message) == [] for message in logs)
    # The board itself only says who is to act; it is Alice's turn again (her own answer shows it).
    assert board.content.startswith(f"<@{world.alice.id}>: your turn") and waiting_for(board) == [
        world.alice.id
    ]
    discord_limits(env)
