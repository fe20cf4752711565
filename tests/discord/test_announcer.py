"""Every committed change is announced once: after a crash between the commit and the board, when
the thread refuses the board, when the thread is gone (cogs/announcer.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from bot import RefereeBot
from cogs.announcer import unreachable_note
from engine.referee import Outbox

from .conftest import World
from .helpers import (
    MISSING_PERMISSIONS,
    UNKNOWN_CHANNEL,
    dm_messages,
    latest_board,
    pinged,
    refuse_posts,
    thread_messages,
)
from .test_play import start_sprint


def boards(thread) -> list:
    return [message for message in thread_messages(thread) if message.embeds and message.author.bot]


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and r.name == "cogs.announcer"
    ]


async def test_a_move_committed_but_never_announced_is_announced_once_after_the_restart(
    world: World, bot_factory: Callable[[], RefereeBot]
) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2 gifts=true")
    before = len(boards(thread))
    bob_dms = len(dm_messages(env, world.bob))
    # The process dies right after the move is stored, before anything about it is sent.
    await env.bot.referee.play(1, str(world.alice.id), "give a01")
    await env.restart_bot(bot_factory())
    [board] = boards(thread)[before:]  # one board for the current position, pinging Bob
    assert pinged(env, board) == [world.bob.id]
    # Bob's hand changed by Alice's move: he gets it by DM, once.
    assert len(dm_messages(env, world.bob)) == bob_dms + 1
    assert "a01" in dm_messages(env, world.bob)[-1].embeds[0].description
    # Announced: neither another restart nor the clock task's polls post it again.
    await env.restart_bot(bot_factory())
    await env.advance_time(120)
    assert len(boards(thread)) == before + 1 and len(dm_messages(env, world.bob)) == bob_dms + 1


async def test_a_game_abandoned_but_never_announced_is_announced_once_after_the_restart(
    world: World, bot_factory: Callable[[], RefereeBot]
) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "rounds=3", speed="daily-2")
    await world.bob.slash(thread, "game abandon")
    before = len(boards(thread))
    # The deciding vote is stored, then the process dies before its board goes out.
    await env.bot.referee.vote_abandon(1, str(world.alice.id))
    await env.restart_bot(bot_factory())
    [final] = boards(thread)[before:]
    assert "The players voted to abandon the game: it ends here, unrated." in final.content
    assert "**Game over.**" in final.content and pinged(env, final) == []
    # Told: neither another restart nor the clock task's polls post it again.
    await env.restart_bot(bot_factory())
    await env.advance_time(120)
    assert len(boards(thread)) == before + 1


async def test_a_refused_board_with_closed_dms_marks_the_game_until_the_board_goes_out(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    env = world.env
    await env.bot.store.set_user_flag(str(world.bob.id), "dm_closed", True)
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    before = len(boards(thread))
    refuse_posts(env, thread.id, MISSING_PERMISSIONS)
    await world.alice.slash(thread, "play", move="play a01")
    await env.advance_time(100)  # several tries, all refused
    assert len(boards(thread)) == before
    assert list(await env.bot.store.unreachable_table_ids()) == [1]
    turns = await world.bob.slash(world.channel, "turns")
    assert unreachable_note() in turns.response.embeds[0].description
    listed = await world.eve.slash(world.channel, "game list")
    assert unreachable_note() in listed.response.content
    assert len(warnings(caplog)) == 1  # one warning for the table, not one per try
    # A person fixes the channel's permissions: the next try posts the board, once.
    env.backend.faults.clear()
    await env.advance_time(400)
    [board] = boards(thread)[before:]
    assert pinged(env, board) == [world.bob.id] and "Turn: bob" in board.embeds[0].description
    assert await env.bot.store.unreachable_table_ids() == {}
    listed = await world.eve.slash(world.channel, "game list")
    assert unreachable_note() not in listed.response.content
    assert len(warnings(caplog)) == 1


async def test_a_thread_that_is_gone_is_replaced_by_a_new_one(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    refuse_posts(env, thread.id, UNKNOWN_CHANNEL)
    await world.alice.slash(thread, "play", move="play a01")
    await env.advance_time(1)
    [old, new] = world.channel.threads
    assert old.id == thread.id
    assert pinged(env, latest_board(new)) == [world.bob.id]
    assert (await env.bot.referee.table(1)).thread_id == str(new.id)
    # The game goes on there.
    await world.bob.slash(new, "play", move="play b03")
    assert pinged(env, latest_board(new)) == [world.alice.id]


async def test_a_catch_up_that_came_first_is_not_followed_by_the_moves_own_board(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    before = len(boards(thread))
    desk = env.bot.desk
    # A move committed, and the clock task's poll finds it before its own publish runs.
    outbox = await env.bot.referee.play(1, str(world.alice.id), "play a01")
    assert await desk.announcer.catch_up_all() == 1
    await desk.publish(outbox)
    [board] = boards(thread)[before:]
    assert pinged(env, board) == [world.bob.id]
    # A later publish of an older version (its answer was slower) still tells its own moves.
    second = await env.bot.referee.play(1, str(world.bob.id), "play b01")
    third = await env.bot.referee.play(1, str(world.alice.id), "play a02")
    await desk.publish(third)
    await desk.publish(second)
    assert len(boards(thread)) == before + 3


async def test_a_failed_board_overtaken_by_the_next_moves_board_is_not_posted_again(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    before = len(boards(thread))
    refuse_posts(env, thread.id, MISSING_PERMISSIONS, times=1)
    await world.alice.slash(thread, "play", move="play a01")  # refused once
    assert len(boards(thread)) == before and len(warnings(caplog)) == 1
    await world.bob.slash(thread, "play", move="play b01")  # Bob had his turn by DM; this board goes out
    await env.advance_time(600)
    [board] = boards(thread)[before:]
    assert pinged(env, board) == [world.alice.id] and "bob plays b01" in board.content


async def test_only_the_board_that_made_a_version_carries_its_nonce(
    world: World, bot_factory: Callable[[], RefereeBot]
) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    await world.alice.slash(thread, "play", move="play a01")
    sent = [r.json for r in env.http_requests if r.path == f"/channels/{thread.id}/messages" and r.method == "POST"]
    assert sent[-1]["nonce"] == "b1.1"  # Discord refuses a second board with it (a retry after a crash)
    # After a restart, another board of the same version (a skip, a return to the seat) is a
    # board of its own: with that nonce, Discord would answer with the earlier one.
    await env.restart_bot(bot_factory())
    table = await env.bot.referee.table(1)
    async with env.bot.desk.announcer.publishing(Outbox(table=table, moves_applied=0)) as delivery:
        assert not delivery.first


async def test_a_board_another_process_is_announcing_is_left_to_it_then_caught_up_once(world: World) -> None:
    """Shard processes over one database (engine/referee/claims.py): while another process holds
    a table's announcement claim, this one posts nothing for it; once the claim is given back,
    what is still behind is announced once."""
    env = world.env
    referee = env.bot.referee
    referee.claims.shared = True  # as a shard process: other processes share the store
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    before = len(boards(thread))
    now = referee.clock()
    assert await env.bot.store.claim("announce", [1], "another process", now, now + 30) == [1]
    await world.alice.slash(thread, "play", move="play a01")
    await env.advance_time(3)
    assert len(boards(thread)) == before  # the other process is announcing game #1
    await env.bot.store.release("announce", [1], "another process")  # done, but it told an older move
    await env.advance_time(3)
    [board] = boards(thread)[before:]
    assert pinged(env, board) == [world.bob.id] and "Turn: bob" in board.embeds[0].description
    await env.advance_time(120)  # the clock task's catch-ups: nothing more
    assert len(boards(thread)) == before + 1
