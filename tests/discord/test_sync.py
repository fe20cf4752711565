"""Command sync at start-up is deliberate: SYNC_COMMANDS, DEV_GUILD_ID, or a warning."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncIterator, Callable

import pytest
import simcord

from bot import RefereeBot, create_bot
from config import Settings

DEV_GUILD = 1456074443980811111


@pytest.fixture
async def own_env() -> AsyncIterator[Callable[[RefereeBot], simcord.Env]]:
    """An Env built by the test, so a guild can exist before the bot logs in."""
    made: list[tuple[simcord.Env, RefereeBot]] = []

    def make(bot: RefereeBot) -> simcord.Env:
        env = simcord.Env(bot)
        made.append((env, bot))
        return env

    yield make
    for env, bot in made:
        await env.shutdown()
        if bot.store is not None:
            await bot.store.close()


async def test_dev_guild_id_syncs_to_that_server_only(settings: Settings, own_env) -> None:
    bot = create_bot(dataclasses.replace(settings, dev_guild_id=DEV_GUILD))
    env = own_env(bot)
    guild = env.create_guild("Dev server", id=DEV_GUILD)
    channel = guild.create_text_channel("dev")
    await env.start()
    application = env.backend.application_id
    synced = [request.path for request in env.http_requests if request.method == "PUT"]
    assert synced == [f"/applications/{application}/guilds/{DEV_GUILD}/commands"]
    tester = guild.add_member(env.create_user("tester"))
    rules = await tester.slash(channel, "rules", game="sprint")
    assert rules.response.embeds[0].title == "Sprint: rules"


async def test_without_sync_a_missing_registration_is_reported(
    settings: Settings, own_env, caplog: pytest.LogCaptureFixture
) -> None:
    bot = create_bot(dataclasses.replace(settings, sync_commands=False))
    env = own_env(bot)
    with caplog.at_level(logging.WARNING, logger="bot"):
        await env.start()
    assert not [request for request in env.http_requests if request.method == "PUT"]
    [warning] = [record.getMessage() for record in caplog.records if record.name == "bot"]
    assert warning.startswith(
        "slash commands not registered with Discord: /board, /game, /hand, /history, /leaderboard, /limits, /play, "
        "/rules, /season, /settings, /stats, /turns, /undo."
    )
    assert "SYNC_COMMANDS=true" in warning and "@<bot> sync" in warning
