"""Deliberate command sync: the owner mentions the bot; nobody else can."""

from __future__ import annotations

from discord.ext import commands

from .conftest import World


async def test_the_owner_syncs_commands_to_this_server_by_mentioning_the_bot(world: World) -> None:
    env = world.env
    env.bot.owner_ids = {world.alice.id}
    bot_mention = f"<@{env.bot.user.id}>"
    before = len(env.http_requests)
    await world.alice.send(world.channel, f"{bot_mention} sync here")
    reply = world.channel.last_message
    assert reply.author.id == env.bot.user.id
    assert reply.content == "Synced 10 slash commands to this server."
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
