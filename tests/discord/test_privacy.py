"""Data deletion on Discord: /settings forget-me with its confirm button, and the owner's
``@Bot forget <id>``: afterwards no column of any table holds the user's id or name, and the
other players' games go on."""

from __future__ import annotations

from discord.ext import commands

from bot import RefereeBot
from tests.referee.test_forget import file_traces

from .conftest import World
from .helpers import custom_ids, latest_board
from .test_community import open_game, play, play_short_game


async def test_forget_me_asks_first_then_leaves_no_trace_and_the_others_play_on(world: World) -> None:
    env = world.env
    bot: RefereeBot = env.bot
    alice = str(world.alice.id)
    await play_short_game(world, world.alice, world.bob)  # a finished, rated game
    await world.alice.slash(world.channel, "settings quiet-hours", time_zone="Europe/Rome", start=23, end=7)
    await world.alice.slash(world.channel, "settings turn-dms", enabled=True)
    running = await open_game(world, [world.bob, world.alice, world.carol], "daily-2")
    await play(running, world.bob, "play a01")  # Alice to act
    lobby = (await world.alice.slash(world.channel, "game new", game="sprint")).response
    await world.dave.click(lobby, label="Join")
    assert file_traces(bot.store.path, alice, "alice")

    asked = await world.alice.slash(world.channel, "settings forget-me")
    assert asked.ephemeral and asked.response.content.startswith("**Delete your data?**")
    assert custom_ids(asked.response) == [f"ref:forget:{alice}"]
    assert await bot.referee.quiet_hours(alice) is not None  # nothing happens before the click
    done = await world.alice.click(asked.response, label="Delete my data")
    answer = done.followups[-1] if done.followups else done.response
    assert answer.content.startswith(
        "Done: your data is deleted; your finished games show you as **Former player #1**."
    )
    assert "1 lobby left, 1 game in progress forfeited." in answer.content

    assert file_traces(bot.store.path, alice, "alice") == []
    # The game in progress went on: a new board, and the AI played her seat.
    board = latest_board(running)
    assert "Former player #1" in board.content + str(board.embeds[0].description)
    assert f"<@{alice}>" not in board.content
    # Her lobby: Dave hosts it now, and its message no longer shows her.
    redrawn = world.channel.history()
    [message] = [m for m in redrawn if m.id == lobby.id]
    shown = str(message.embeds[0].to_dict())
    assert alice not in shown and f"1. <@{world.dave.id}> (host)" in shown
    table = await bot.referee.table(3)  # the lobby: the third table
    assert table.host == str(world.dave.id)
    # The leaderboard keeps the finished game, under her anonymous name.
    shown = await world.eve.slash(world.channel, "leaderboard", game="sprint")
    assert "Former player #1" in shown.response.embeds[0].description


async def test_the_owner_forgets_a_user_by_id(world: World) -> None:
    env = world.env
    env.bot.owner_ids = {world.alice.id}
    await play_short_game(world, world.bob, world.carol)
    bob = str(world.bob.id)
    await world.eve.send(world.channel, f"<@{env.bot.user.id}> forget {bob}")
    assert world.channel.last_message.content == "Only the bot's owner can do that."
    assert [type(error) for error in env.errors] == [commands.NotOwner]  # answered by the cog
    assert file_traces(env.bot.store.path, bob, "bob")
    await world.alice.send(world.channel, f"<@{env.bot.user.id}> forget {bob}")
    assert world.channel.last_message.content.startswith("Forgotten: that user is now Former player #1")
    assert file_traces(env.bot.store.path, bob, "bob") == []
    await world.alice.send(world.channel, f"<@{env.bot.user.id}> forget someone")
    assert world.channel.last_message.content == "Use `forget <user id>` (the numeric Discord id)."
