"""Seasons on Discord: /season for managers, /leaderboard by season, and the final standings
posted once when a season ends: by hand, at a monthly boundary, across a restart and a downtime."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
import simcord
from simcord.backend.errors import SetupError

from bot import RefereeBot
from engine.referee import HEARTBEAT_SECONDS

from .conftest import VirtualClock, World
from .helpers import custom_ids, latest_board
from .test_community import play_short_game

DAY = 24 * 3600.0


def standings_posts(channel: simcord.ChannelHandle) -> list[str]:
    """The titles of the standings posted in a channel, in order."""
    return [
        message.embeds[0].title
        for message in channel.history()
        if message.author.bot and message.embeds and "final standings" in (message.embeds[0].title or "")
    ]


async def test_a_manager_starts_seasons_and_the_leaderboard_shows_each(world: World) -> None:
    env = world.env
    with pytest.raises(SetupError, match="default-member-permissions"):
        await world.eve.slash(world.channel, "season start", carry="continue")
    results = world.guild.create_text_channel("results")
    await play_short_game(world, world.carol, world.dave)  # before any season: all time only
    started = await world.moderator.slash(world.channel, "season start", carry="soft", channel=results)
    assert started.ephemeral and started.response.content.startswith("**Season 1** has started.")
    thread = await play_short_game(world, world.alice, world.bob)
    assert latest_board(thread).embeds[2].title == "Rating changes · Season 1"
    current = await world.eve.slash(world.channel, "leaderboard", game="sprint")
    [embed] = current.response.embeds
    assert embed.title == "Sprint: leaderboard · Season 1"
    assert [line.split(":")[0] for line in embed.description.splitlines()] == ["**1.** alice", "**2.** bob"]

    await world.moderator.slash(world.channel, "season start", carry="continue")
    await env.advance_time(HEARTBEAT_SECONDS)  # the clock task posts the standings owed
    assert standings_posts(results) == ["Season 1 is over: final standings"]
    [post] = [m for m in results.history() if m.embeds]
    assert post.embeds[0].fields[0].name == "Sprint" and "alice" in post.embeds[0].fields[0].value
    assert "carol" not in post.embeds[0].fields[0].value
    sent = [r.json for r in env.http_requests if isinstance(r.json, dict) and r.json.get("nonce")]
    assert [(body["nonce"], body["enforce_nonce"]) for body in sent if "season" in body["nonce"]] == [
        ("season1", True)
    ]
    await env.advance_time(3 * HEARTBEAT_SECONDS)
    assert len(standings_posts(results)) == 1  # once

    empty = await world.eve.slash(world.channel, "leaderboard", game="sprint")
    assert empty.response.embeds[0].title == "Sprint: leaderboard · Season 2"
    assert empty.response.embeds[0].description.startswith("No rated game yet")
    choices = await world.eve.autocomplete(world.channel, "leaderboard", "season", "")
    assert [(c["name"], c["value"]) for c in choices] == [
        ("All time", "all"),
        ("Season 2", "2"),
        ("Season 1", "1"),
    ]
    earlier = await world.eve.slash(world.channel, "leaderboard", game="sprint", season="1")
    assert earlier.response.embeds[0].title == "Sprint: leaderboard · Season 1"
    assert "alice" in earlier.response.embeds[0].description
    everyone = await world.eve.slash(world.channel, "leaderboard", game="sprint", season="all")
    assert everyone.response.embeds[0].title == "Sprint: leaderboard · all time"
    assert len(everyone.response.embeds[0].description.splitlines()) == 4
    unknown = await world.eve.slash(world.channel, "leaderboard", game="sprint", season="Season 7")
    assert unknown.ephemeral and unknown.response.content == "There is no season 'Season 7' on this server."
    shown = await world.moderator.slash(world.channel, "season show")
    assert "Current season: **Season 2**" in shown.response.content


async def test_a_seasons_pages_keep_their_season_after_a_restart(
    world: World, bot_factory: Callable[[], RefereeBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    import cogs.scores

    monkeypatch.setattr(cogs.scores, "PAGE_SIZE", 1)
    await play_short_game(world, world.carol, world.dave)
    await world.moderator.slash(world.channel, "season start", carry="continue")
    await play_short_game(world, world.alice, world.bob)
    board = (await world.eve.slash(world.channel, "leaderboard", game="sprint")).response
    assert custom_ids(board) == ["ref:lbs:sprint:1:0:prev", "ref:lbs:sprint:1:1:next"]
    await world.env.restart_bot(bot_factory())
    turned = await world.eve.click(board, label="Next")
    assert turned.response.embeds[0].title == "Sprint: leaderboard · Season 1"
    assert turned.response.embeds[0].description.startswith("**2.** bob")
    assert turned.response.embeds[0].footer.text.startswith("Page 2 of 2")  # not the 4 of all time


async def test_monthly_seasons_roll_over_once_across_a_restart_and_a_downtime(
    world: World, bot_factory: Callable[[], RefereeBot], virtual_clock: VirtualClock
) -> None:
    env = world.env  # the virtual clock starts on January 1, 2026
    done = await world.moderator.slash(world.channel, "season schedule", cadence="monthly", carry="soft")
    assert "Seasons now roll over monthly. The current season is **Season 1 (January 2026)**." in (
        done.response.content
    )
    await play_short_game(world, world.alice, world.bob)
    # The bot goes down on January 30 and comes back on February 2: past the boundary.
    virtual_clock.offset = 29 * DAY
    await env.advance_time(HEARTBEAT_SECONDS)
    assert standings_posts(world.channel) == []
    virtual_clock.offset = 32 * DAY
    await env.restart_bot(bot_factory())
    await env.advance_time(HEARTBEAT_SECONDS)
    assert standings_posts(world.channel) == ["Season 1 (January 2026) is over: final standings"]
    seasons = await env.bot.referee.seasons.seasons(str(world.guild.id))
    assert [(s.name, s.ended_at is None) for s in seasons] == [
        ("Season 2 (February 2026)", True),
        ("Season 1 (January 2026)", False),
    ]
    assert seasons[1].ended_at == VirtualClock.START + 31 * DAY  # at the boundary, not at the restart
    await env.restart_bot(bot_factory())  # and again: nothing more to post
    await env.advance_time(3 * HEARTBEAT_SECONDS)
    assert len(standings_posts(world.channel)) == 1
    now = await world.eve.slash(world.channel, "leaderboard", game="sprint")
    assert now.response.embeds[0].title == "Sprint: leaderboard · Season 2 (February 2026)"
    assert json.dumps(now.response.embeds[0].description).startswith('"No rated game yet')


async def test_standings_lost_to_a_crash_at_the_boundary_are_posted_after_the_restart(
    world: World, bot_factory: Callable[[], RefereeBot], virtual_clock: VirtualClock
) -> None:
    env = world.env
    await world.moderator.slash(world.channel, "season schedule", cadence="monthly", carry="continue")
    await play_short_game(world, world.alice, world.bob)

    env.bot.clock_keeper.chores.clear()  # this process dies before it posts anything more
    virtual_clock.offset = 31 * DAY + 10
    await play_short_game(world, world.bob, world.alice)  # a result past the boundary ends the season
    assert standings_posts(world.channel) == []
    await env.restart_bot(bot_factory())
    await env.advance_time(HEARTBEAT_SECONDS)
    assert standings_posts(world.channel) == ["Season 1 (January 2026) is over: final standings"]
