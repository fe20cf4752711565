"""Restarts: a new bot object on the same database; every message from before still works."""

from __future__ import annotations

from collections.abc import Callable

from bot import RefereeBot

from . import helpers as H
from .conftest import World
from .test_play import highest, start_sprint


async def test_a_game_goes_on_after_a_restart_from_messages_sent_before_it(
    world: World, bot_factory: Callable[[], RefereeBot]
) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "cards=4 rounds=3")
    alice_first_dm = H.latest_dm_with_controls(env, world.alice)
    await H.choose_in_private_message(world.alice, alice_first_dm, highest)
    old_board = H.latest_board(thread)
    second_lobby = (await world.carol.slash(world.channel, "game new", game="sprint")).response
    old_bot = env.bot

    await env.restart_bot(bot_factory())  # like a crash: nothing of the old process is reused
    assert env.bot is not old_bot and env.bot.referee is not old_bot.referee

    # The board's turn button from before the restart still opens Bob's moves, and they play;
    # the new bot posts the next board.
    bob_turn = await world.bob.click(old_board, label="Play your turn")
    assert bob_turn.ephemeral and H.move_options(bob_turn.response) == [f"play b0{n}" for n in range(1, 5)]
    move, result = await H.choose_in_private_message(world.bob, bob_turn.response, highest)
    assert move == "play b04" and result.acknowledged
    board = H.latest_board(thread)
    assert "bob plays b04 (+4)." in board.content and H.pinged(env, board) == [world.alice.id]
    # A board from before the restart still shows a hand.
    shown = await world.alice.click(old_board, label="Show my hand")
    assert shown.ephemeral and "Your hand: a01 a02 a03" in shown.response.embeds[0].description
    # A lobby from before the restart still seats players.
    joined = await world.dave.click(second_lobby, label="Join")
    assert f"<@{world.dave.id}>" in joined.response.embeds[0].fields[0].value
    # And the game runs to its end.
    while H.pinged(env, H.latest_board(thread)):
        player = world.alice if world.alice.id in H.pinged(env, H.latest_board(thread)) else world.bob
        await H.choose_in_private_message(player, await H.open_my_turn(player, thread), highest)
    assert "**Game over.**" in H.latest_board(thread).content
    H.assert_every_interaction_answered(env)


async def test_stale_controls_from_before_a_restart_are_refused(
    world: World, bot_factory: Callable[[], RefereeBot]
) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob])
    [alice_dm] = H.dm_messages(env, world.alice)
    await world.alice.slash(thread, "play", move="play a02")  # typed: the DM keeps its old buttons
    await env.restart_bot(bot_factory())
    stale = await world.alice.user.click(alice_dm, label="play a03")
    [answer] = stale.followups
    assert answer.content.startswith("The board has changed since you looked at it")
    assert "Your hand: a01 a03" in answer.embeds[1].description


async def test_a_start_interrupted_before_its_thread_is_completed_after_the_restart(
    world: World, bot_factory: Callable[[], RefereeBot]
) -> None:
    env = world.env
    lobby = (await world.alice.slash(world.channel, "game new", game="sprint")).response
    await world.bob.click(lobby, label="Join")
    # The process dies right after the start is stored, before any message about it is sent.
    await env.bot.referee.start(1, str(world.alice.id))
    assert world.channel.threads == []
    await env.restart_bot(bot_factory())
    [thread] = world.channel.threads  # opened on the lobby message at start-up
    board = H.latest_board(thread)
    assert H.pinged(env, board) == [world.alice.id]
    assert H.move_options(H.latest_dm_with_controls(env, world.alice)) == ["play a01", "play a02", "play a03"]
