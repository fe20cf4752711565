"""Fixtures for the Discord tests: the real bot under SimCord, on a throw-away SQLite file.

The test game Sprint (tests/discord/sprint.py) is registered for every test here, so the front end
is tested without depending on any real game's rules.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot import RefereeBot, create_bot
from config import Settings

from ..registered import registered_game
from .fake_discord import TOKEN, FakeDiscord
from .helpers import assert_every_interaction_answered, errors_logged


@pytest.fixture(autouse=True)
def sprint_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from registered_game(monkeypatch, "sprint", "tests.discord.sprint")


@pytest.fixture
async def stand_in() -> AsyncIterator[FakeDiscord]:
    """The fake Discord server a real bot.py process talks to (tests/discord/fake_discord.py)."""
    fake = FakeDiscord(token=TOKEN)
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # AI seats think in the bot's own process with a few fixed playouts: quick, and reproducible.
    return Settings(
        token=None,
        database_path=str(tmp_path / "referee.sqlite3"),
        sync_commands=True,
        ai_workers=0,
        ai_iterations=4,
    )


class VirtualClock:
    """The referee's clock in these tests: SimCord's virtual time, so ``env.advance_time`` moves
    every game clock (and wakes the bot's clock task) without any real waiting."""

    START = datetime(2026, 1, 1, tzinfo=UTC).timestamp()  # SimCord's clock before the env runs

    def __init__(self) -> None:
        self.env: simcord.Env | None = None
        self.offset = 0.0  # a jump of the referee's time alone: the bot was down meanwhile

    def __call__(self) -> float:
        now = self.env.now().timestamp() if self.env is not None else self.START
        return now + self.offset


@pytest.fixture
def virtual_clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
async def bot_factory(settings: Settings, virtual_clock: VirtualClock) -> Iterator[Callable[[], RefereeBot]]:
    """Build bots on the same database (a restart is a new bot on the same file)."""
    made: list[RefereeBot] = []

    def make() -> RefereeBot:
        bot = create_bot(settings, new_seed=lambda: 4242, ai_rng=random.Random(7), clock=virtual_clock)
        made.append(bot)
        return bot

    yield make
    for bot in made:
        if bot.thinker is not None:
            await bot.thinker.close()
            bot.thinker = None
        if bot.store is not None:
            await bot.store.close()
            bot.store = None


@pytest.fixture
def simcord_bot(bot_factory: Callable[[], RefereeBot]) -> RefereeBot:
    return bot_factory()


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    dave: simcord.MemberActor
    eve: simcord.MemberActor  # never plays: the bystander
    moderator: simcord.MemberActor  # has Manage Server, plays nothing

    @property
    def players(self) -> list[simcord.MemberActor]:
        return [self.alice, self.bob, self.carol, self.dave]


@pytest.fixture
def world(
    simcord_env: simcord.Env,
    caplog: pytest.LogCaptureFixture,
    virtual_clock: VirtualClock,
) -> Iterator[World]:
    """A server with a #games channel, four players, a bystander and a moderator.

    After the test: every interaction was acknowledged (deferred first where work is slow), and no
    error was logged (the bot answers unexpected errors politely, so SimCord would not see them).
    """
    virtual_clock.env = simcord_env
    guild = simcord_env.create_guild("Tabletop")
    channel = guild.create_text_channel("games")
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    members = {
        name: guild.add_member(simcord_env.create_user(name))
        for name in ("alice", "bob", "carol", "dave", "eve")
    }
    moderator = guild.add_member(simcord_env.create_user("mod"), roles=[managers])
    yield World(simcord_env, guild, channel, moderator=moderator, **members)
    assert_every_interaction_answered(simcord_env)
    errors = errors_logged(caplog)
    assert not errors, f"the bot logged errors: {errors}"
