"""Refusals through Discord (issues 13 and 14): a refused `/game new` stores nothing, and every
refusal fits Discord's limits whatever was typed."""

from __future__ import annotations

import discord
import pytest

from cogs.render import embeds_total
from cogs.replies import fit_limits
from engine.core import GameError
from engine.referee import Referee

from .conftest import World
from .test_play import start_sprint


async def test_a_refused_game_new_leaves_no_lobby_behind(world: World) -> None:
    refused = await world.alice.slash(world.channel, "game new", game="sprint", ai=5)
    assert refused.ephemeral and refused.response.content == "The table is full (4 players)."
    listing = await world.alice.slash(world.channel, "game list")
    assert "No game is open or running here" in listing.response.content
    too_long = await world.alice.slash(world.channel, "game new", game="sprint", options="cards=" + "9" * 5000)
    assert too_long.ephemeral and len(too_long.response.content) < 200
    listing = await world.alice.slash(world.channel, "game list")
    assert "No game is open or running here" in listing.response.content
    # The same request within the limits opens the lobby with its AI seats, as before.
    opened = await world.alice.slash(world.channel, "game new", game="sprint", ai=3)
    assert opened.response.embeds[0].fields[0].name == "Seats (4; 2-4 players)"


async def test_a_very_long_move_gets_a_short_refusal(world: World) -> None:
    thread = await start_sprint(world, [world.alice, world.bob])
    typed = await world.alice.slash(thread, "play", move="play a01 " * 600)
    assert typed.ephemeral
    assert typed.response.content.startswith("That is 5,400 characters; a move is at most 200")


async def test_any_refusal_is_cut_to_discords_limit(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    thread = await start_sprint(world, [world.alice, world.bob])

    async def refuse(self: Referee, *args: object, **kwargs: object) -> None:
        raise GameError("No. " * 2000)

    monkeypatch.setattr(Referee, "play", refuse)
    typed = await world.alice.slash(thread, "play", move="play a01")
    assert typed.ephemeral
    assert len(typed.response.content) <= 2000 and typed.response.content.startswith("No. No.")


def test_embeds_are_cut_to_discords_limits_and_the_originals_left_alone() -> None:
    embed = discord.Embed(title="T" * 300, description="D" * 5000)
    for index in range(30):
        embed.add_field(name=f"field {index}", value="v" * 1100)
    embed.set_footer(text="f" * 3000)
    content, [fitted] = fit_limits("c" * 2500, [embed])
    assert len(content) == 2000
    assert len(fitted.title) <= 256 and len(fitted.description) <= 4096 and len(fitted.fields) <= 25
    assert all(len(field.value) <= 1024 for field in fitted.fields)
    assert embeds_total([fitted]) <= 6000
    assert len(embed.title) == 300 and len(embed.fields) == 30  # the caller's embed is unchanged
    _, many = fit_limits("", [discord.Embed(description="x") for _ in range(12)])
    assert len(many) == 10
    small = discord.Embed(title="Board", description="fits")
    assert fit_limits("hello", [small]) == ("hello", [small])
