"""Deliberate command sync: the owner mentions the bot; nobody else can."""

from __future__ import annotations

import pytest
from discord.ext import commands
from simcord.backend.errors import SetupError

from engine.referee import HEARTBEAT_SECONDS
from engine.referee.limits import DAY

from .conftest import VirtualClock, World


async def test_the_owner_syncs_commands_to_this_server_by_mentioning_the_bot(world: World) -> None:
    env = world.env
    env.bot.owner_ids = {world.alice.id}
    bot_mention = f"<@{env.bot.user.id}>"
    before = len(env.http_requests)
    await world.alice.send(world.channel, f"{bot_mention} sync here")
    reply = world.channel.last_message
    assert reply.author.id == env.bot.user.id
    assert reply.content == "Synced 13 slash commands to this server."
    synced = [request.path for request in env.http_requests[before:] if request.method == "PUT"]
    assert synced == [f"/applications/{env.backend.application_id}/guilds/{world.guild.id}/commands"]
    # The commands now answer in this server (SimCord refuses commands that were never synced).
    rules = await world.bob.slash(world.channel, "rules", game="sprint")
    assert rules.response.embeds[0].title == "Sprint: rules"


async def test_anyone_else_is_refused(world: World) -> None:
    env = world.env
    env.bot.owner_ids = {world.alice.id}
    before = len(env.http_requests)
    await world.eve.send(world.channel, f"<@{env.bot.user.id}> sync")
    assert world.channel.last_message.content == "Only the bot's owner can do that."
    assert not [request for request in env.http_requests[before:] if request.method == "PUT"]
    # The refusal is discord.py's check failure, answered by the cog (SimCord records it).
    assert [type(error) for error in env.errors] == [commands.NotOwner]


async def test_a_manager_sees_and_changes_the_limits_and_players_meet_them(world: World) -> None:
    shown = await world.moderator.slash(world.channel, "limits show")
    assert shown.ephemeral
    assert "- open lobbies per player: 5\n" in shown.response.content
    assert "- open tables on this server (lobbies and games in progress): 200\n" in shown.response.content
    changed = await world.moderator.slash(world.channel, "limits set", limit="lobbies_per_user", value=1)
    assert "- open lobbies per player: 1 (default 5)" in changed.response.content
    # Discord shows /limits only to members with Manage Server (unless the server changes that).
    with pytest.raises(SetupError, match="default-member-permissions"):
        await world.eve.slash(world.channel, "limits set", limit="lobbies_per_user", value=50)
    first = await world.alice.slash(world.channel, "game new", game="sprint")
    assert not first.ephemeral
    second = await world.alice.slash(world.channel, "game new", game="sprint")
    assert second.ephemeral
    assert second.response.content == (
        "You already host 1 lobbies not started yet, the limit (1). Start or cancel one of them first."
    )
    back = await world.moderator.slash(world.channel, "limits set", limit="lobbies_per_user")
    assert "- open lobbies per player: 5\n" in back.response.content
    assert not (await world.alice.slash(world.channel, "game new", game="sprint")).ephemeral


async def test_the_clock_task_purges_a_cancelled_lobby_a_week_later(
    world: World, virtual_clock: VirtualClock
) -> None:
    lobby = (await world.alice.slash(world.channel, "game new", game="sprint")).response
    await world.alice.click(lobby, label="Cancel")
    referee = world.env.bot.referee
    virtual_clock.offset += 6 * DAY  # the referee's time jumps; its clock task polls every minute
    await world.env.advance_time(2 * HEARTBEAT_SECONDS)
    assert (await referee.table(1)).status == "abandoned"
    virtual_clock.offset += 2 * DAY
    await world.env.advance_time(2 * HEARTBEAT_SECONDS)
    listing = await world.alice.slash(world.channel, "game cancel", game=1)
    assert listing.response.content == "There is no game #1."
