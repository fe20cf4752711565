"""Vacations on Discord: ``/settings vacation days:N`` stops the player's clocks in every timed game
(no reminder meanwhile), the board tells the others until when, it outlives a restart, and
``/settings vacation-off`` ends it early with the days not begun given back."""

from __future__ import annotations

from collections.abc import Callable

from bot import RefereeBot

from . import helpers as H
from .conftest import VirtualClock, World
from .test_play import start_sprint

START = VirtualClock.START  # 1 January 2026, 00:00 UTC
DAY = 86_400


async def test_a_vacation_stops_the_clock_shows_on_the_board_and_outlives_a_restart(
    world: World, bot_factory: Callable[[], RefereeBot], virtual_clock: VirtualClock
) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], speed="live-10")  # alice to move
    await env.advance_time(60)
    answer = await world.alice.slash(world.channel, "settings vacation", days=1)
    until = START + 60 + DAY
    assert answer.ephemeral
    assert answer.response.content.startswith(f"You are on vacation until <t:{int(until)}:f>")
    assert "Vacation days left: 29 of 30" in answer.response.content
    # The other players see it on the board.
    await world.bob.slash(thread, "board")
    assert "alice 9m 00s (on vacation until 2 Jan)" in H.latest_board(thread).embeds[0].description
    # Ten minutes pass (a whole live-10 bank): no reminder reaches Alice, she does not run out.
    dms_before = len(H.dm_messages(env, world.alice))
    await env.advance_time(600)
    assert len(H.dm_messages(env, world.alice)) == dms_before
    assert not [m for m in thread.history() if "ran out of time" in m.content]
    # The bot is down for half a day and comes back while she is still away: still paused.
    virtual_clock.offset = DAY / 2
    await env.restart_bot(bot_factory())
    await world.bob.slash(thread, "board")
    assert "alice 9m 00s (on vacation until 2 Jan)" in H.latest_board(thread).embeds[0].description
    # Her vacation ends (the referee's time jumps to its end): her clock runs again, and the
    # half-time reminder comes 4 minutes later.
    virtual_clock.offset += until - virtual_clock()
    await env.advance_time(4 * 60 - 1)
    assert len(H.dm_messages(env, world.alice)) == dms_before
    await env.advance_time(1)
    [reminder] = H.dm_messages(env, world.alice)[dms_before:]
    assert "your clock is running. 5m 00s left" in reminder.content


async def test_vacation_off_ends_it_early_and_gives_back_the_days_not_begun(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], speed="daily-2")
    await world.alice.slash(world.channel, "settings vacation", days=10)
    refused = await world.alice.slash(world.channel, "settings vacation", days=1)
    assert refused.ephemeral and "already on vacation" in refused.response.content
    await env.advance_time(3600)
    back = await world.alice.slash(world.channel, "settings vacation-off")
    assert back.ephemeral
    assert back.response.content == (
        "Welcome back: your clocks run again. Vacation days left: 29 of 30 over the last 365 days."
    )
    await world.bob.slash(thread, "board")
    assert "vacation" not in H.latest_board(thread).embeds[0].description
    too_many = await world.alice.slash(world.channel, "settings vacation", days=30)
    assert "You have 29 vacation days left of 30 a year" in too_many.response.content
    H.assert_every_interaction_answered(env)
