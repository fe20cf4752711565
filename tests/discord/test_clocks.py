"""Clocks on Discord: the speed chosen in /game new, each seat's time on the board, private
reminders at the right (virtual) time, timeouts with Skip, the AI takeover and "I'm back"."""

from __future__ import annotations

from collections.abc import Callable

import simcord

from bot import RefereeBot

from .conftest import VirtualClock, World
from .helpers import (
    CANNOT_DM,
    assert_every_interaction_answered,
    choose_in_private_message,
    custom_ids,
    dm_messages,
    latest_board,
    open_my_turn,
    pinged,
    public_texts,
    refuse_posts,
    waiting_for,
)
from .test_play import highest, start_sprint

START = VirtualClock.START


async def start_timed(
    world: World, players: list[simcord.MemberActor], speed: str, options: str = ""
) -> simcord.ChannelHandle:
    return await start_sprint(world, players, options, speed=speed)


def messages_since(thread: simcord.ChannelHandle, count: int) -> list:
    return thread.history()[count:]


async def test_the_speed_is_chosen_in_game_new_and_each_clock_shows_on_the_board(world: World) -> None:
    lobby = (await world.alice.slash(world.channel, "game new", game="sprint", speed="live-10")).response
    speed = lobby.embeds[0].fields[2]
    assert speed.name == "Speed" and speed.value.startswith("Live: 10 minutes a move; rated")
    untimed = (await world.carol.slash(world.channel, "game new", game="sprint", speed="untimed")).response
    assert untimed.embeds[0].fields[2].value == "Untimed: for friends, unrated"
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    [thread] = world.channel.threads
    board = latest_board(thread)
    assert "Clocks: alice 10m 00s (to move) · bob 10m 00s" in board.embeds[0].description
    [clock] = board.embeds[0].fields
    assert clock.name == "Clock"
    assert clock.value == f"alice: 10m 00s left, runs out <t:{int(START + 600)}:R>"
    assert board.embeds[0].footer.text == "Live: 10 minutes a move · move 0"
    # Time passes: the next board shows what is left of each bank (Alice used 4 minutes).
    await world.env.advance_time(240)
    await world.alice.slash(thread, "play", move="play a01")
    board = latest_board(thread)
    assert "Clocks: alice 10m 00s · bob 10m 00s (to move)" in board.embeds[0].description
    assert board.embeds[0].fields[0].value == f"bob: 10m 00s left, runs out <t:{int(START + 240 + 600)}:R>"
    assert_every_interaction_answered(world.env)


async def test_a_reminder_goes_by_dm_to_that_player_only_at_the_right_time(world: World) -> None:
    env = world.env
    thread = await start_timed(world, [world.alice, world.bob], "live-10")
    alice_before, bob_before = len(dm_messages(env, world.alice)), len(dm_messages(env, world.bob))
    thread_before = len(thread.history())
    # live-10 reminds at half time (5 minutes left), then with 2 minutes left.
    await env.advance_time(299)
    assert len(dm_messages(env, world.alice)) == alice_before
    await env.advance_time(1)
    [reminder] = dm_messages(env, world.alice)[alice_before:]
    assert reminder.content.startswith(
        f"**Sprint #1**: your clock is running. 5m 00s left (runs out <t:{int(START + 600)}:R>)."
    )
    assert "ref:mv:1:0:play a03" in custom_ids(reminder)  # her moves, right in the reminder
    await env.advance_time(180)
    [_, second] = dm_messages(env, world.alice)[alice_before:]
    assert second.content.startswith("**Sprint #1**: almost out of time. 2m 00s left")
    # Nobody else heard of it: no DM to Bob, nothing in the thread, nothing public at all.
    assert len(dm_messages(env, world.bob)) == bob_before
    assert len(thread.history()) == thread_before
    assert not [text for text in public_texts(env) if "clock is running" in text or "out of time" in text]
    # Playing from the reminder works like any DM.
    move, _ = await choose_in_private_message(world.alice, second, highest)
    assert move == "play a03" and "alice plays a03 (+3)." in latest_board(thread).content
    assert_every_interaction_answered(env)


async def test_a_seat_out_of_time_is_skipped_the_ai_plays_it_and_its_player_comes_back(
    world: World,
) -> None:
    env = world.env
    thread = await start_timed(world, [world.alice, world.bob], "live-3", "cards=4 rounds=4")
    await env.advance_time(179)
    assert not [m for m in thread.history() if "ran out of time" in m.content]
    await env.advance_time(1)
    [notice] = [m for m in thread.history() if "ran out of time" in m.content]
    assert notice.content.startswith(f"alice ran out of time. <@{world.bob.id}>: you may skip the seat")
    assert pinged(env, notice) == [world.bob.id]
    assert custom_ids(notice) == ["ref:skip:1:0"]
    told = dm_messages(env, world.alice)[-1]
    assert told.content.startswith("**Sprint #1**: you ran out of time. Play now to keep your seat")
    # Only the other players may skip, and not themselves.
    stranger = await world.eve.click(notice, label="Skip alice")
    assert stranger.followups[0].ephemeral
    assert stranger.followups[0].content == "Only the players of this game can skip a seat."

    skipped = await world.bob.click(notice, label="Skip alice")
    assert skipped.acknowledged
    notice = env.backend.get_message(notice.channel.id, notice.id)
    assert notice.content == f"alice was skipped by <@{world.bob.id}>." and notice.components == []
    # The AI played Alice's move at once; Bob is to act; the board offers Alice "I'm back".
    board = latest_board(thread)
    assert "alice ran out of time and was skipped: an AI plays for alice" in board.content
    assert "alice plays a04 (+4)." in board.content
    assert pinged(env, board) == [world.bob.id]
    assert custom_ids(board) == ["ref:turn:1:1", "ref:hand:1", "ref:return:1"]
    away = dm_messages(env, world.alice)[-1]
    assert "you ran out of time and were skipped" in away.content and "ref:return:1" in custom_ids(away)
    # The game goes on: Bob plays, the AI answers for Alice. Bob, whose own move this answers
    # (the message he played from now offers his next move), is named but not pinged again; and
    # Alice, away, is not DMed about what the AI does with her seat.
    alice_dms = len(dm_messages(env, world.alice))
    await choose_in_private_message(world.bob, await open_my_turn(world.bob, thread), highest)
    assert len(dm_messages(env, world.alice)) == alice_dms
    board = latest_board(thread)
    assert "alice plays a03 (+3)." in board.content and waiting_for(board) == [world.bob.id]
    assert pinged(env, board) == []
    # Bob cannot take Alice's seat back for her; Alice can.
    not_hers = await world.bob.click(board, label="I'm back")
    assert not_hers.ephemeral and "it is still yours" in not_hers.response.content
    back = await world.alice.user.click(away, label="I'm back")
    assert back.ephemeral and back.response.content.startswith("Welcome back: you play your own seat again.")
    board = latest_board(thread)
    assert "alice is back and plays their own seat again." in board.content
    assert custom_ids(board) == ["ref:turn:1:3", "ref:hand:1"]
    # And the game runs to its end with Alice playing herself.
    while waiting_for(latest_board(thread)):
        player = world.alice if world.alice.id in waiting_for(latest_board(thread)) else world.bob
        await choose_in_private_message(player, await open_my_turn(player, thread), highest)
    assert "**Game over.**" in latest_board(thread).content
    assert_every_interaction_answered(env)


async def test_the_time_the_bot_was_down_never_counts(
    world: World, bot_factory: Callable[[], RefereeBot], virtual_clock: VirtualClock
) -> None:
    env = world.env
    thread = await start_timed(world, [world.alice, world.bob], "live-10")
    await env.advance_time(60)  # a poll stores the heartbeat; Alice has used one minute
    virtual_clock.offset = 3600.0  # the process dies and comes back an hour later
    await env.restart_bot(bot_factory())
    [alice, bob] = await env.bot.referee.clock_views(1)
    assert alice.remaining == 540 and bob.remaining == 600
    assert not [m for m in thread.history() if "ran out of time" in m.content]
    # The clock runs on from there: the reminders and the timeout come when they are due.
    await env.advance_time(540)
    assert [m for m in thread.history() if "ran out of time" in m.content]


async def test_no_reminder_in_a_players_quiet_hours(world: World) -> None:
    env = world.env
    # The virtual day starts at 00:00 UTC, 01:00 in Rome: inside Alice's quiet hours.
    await world.alice.slash(world.channel, "settings quiet-hours", time_zone="Europe/Rome", start=0, end=2)
    thread = await start_timed(world, [world.alice, world.bob], "live-10")
    alice_before = len(dm_messages(env, world.alice))
    await env.advance_time(599)
    assert len(dm_messages(env, world.alice)) == alice_before  # no reminder at 5 or 2 minutes left
    await env.advance_time(1)
    # A live clock does not stop for quiet hours: the seat runs out, the others may skip it, but
    # Alice is not woken up by a DM: she is told when her quiet hours end (02:00 in Rome).
    assert [m for m in thread.history() if m.content.startswith("alice ran out of time.")]
    assert len(dm_messages(env, world.alice)) == alice_before
    await env.advance_time(3600 - 600 - 1)
    assert len(dm_messages(env, world.alice)) == alice_before
    await env.advance_time(1)
    [told] = dm_messages(env, world.alice)[alice_before:]
    assert told.content.startswith("**Sprint #1**: you ran out of time. Play now to keep your seat")


async def test_a_skipped_seat_that_stays_away_forfeits(world: World) -> None:
    env = world.env
    thread = await start_timed(world, [world.alice, world.bob], "live-3", "cards=3 rounds=3")
    await env.advance_time(180)
    [notice] = [m for m in thread.history() if "ran out of time" in m.content]
    await world.bob.click(notice, label="Skip alice")
    # Away a further full bank (3 minutes): the referee forfeits the seat, the thread is told.
    await env.advance_time(181)
    [forfeit] = [m for m in thread.history() if "forfeits" in m.content and not m.embeds]
    assert forfeit.content.startswith("alice stayed away too long and forfeits")
    assert pinged(env, forfeit) == []
    back = await world.alice.click(latest_board(thread), label="I'm back")
    assert back.response.content == "You forfeited this game; an AI plays your seat to the end."
    while waiting_for(latest_board(thread)):
        await choose_in_private_message(world.bob, await open_my_turn(world.bob, thread), min)
    final = latest_board(thread)
    assert final.embeds[1].title == "Final scores" and final.embeds[1].description.endswith("2. alice: 6")
    assert_every_interaction_answered(env)


async def test_alone_with_an_ai_the_referee_skips_a_player_who_ran_out_and_the_game_ends_by_the_clock(
    world: World,
) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice], "cards=4 rounds=4", speed="live-3", ai=1)
    await env.advance_time(180)
    # Nobody can press Skip: the referee skips her, on a board of its own, and the game waits.
    assert not [m for m in thread.history() if "you may skip the seat" in m.content]
    board = latest_board(thread)
    assert board.content.startswith(
        "alice ran out of time and nobody else can skip the seat, so the referee skipped it: the game "
        "waits for alice to come back (play a move, or press I'm back) for a further full bank (3m 00s)"
    )
    # The ping line tells her, and the board offers "I'm back".
    assert f"<@{world.alice.id}>: you were skipped: play a move, or press **I'm back**" in board.content
    assert "ref:return:1" in custom_ids(board)
    told = dm_messages(env, world.alice)[-1]
    assert told.content.startswith("**Sprint #1**: you ran out of time and were skipped; the game waits for you.")
    assert "ref:return:1" in custom_ids(told)
    # Her moves are offered while the game waits for her.
    choices = await world.alice.autocomplete(thread, "play", "move", "")
    assert [choice["value"] for choice in choices] == ["play a01", "play a02", "play a03", "play a04"]
    # Away a further full bank: she forfeits and the AI plays her seat to the end.
    await env.advance_time(180)
    [forfeit] = [m for m in thread.history() if "forfeits" in m.content and not m.embeds]
    assert forfeit.content.startswith("alice stayed away too long and forfeits")
    final = latest_board(thread)
    assert "**Game over.**" in final.content and final.embeds[1].title == "Final scores"
    assert_every_interaction_answered(env)


async def test_with_closed_dms_the_clock_shows_in_the_ping_line_and_in_show_my_hand(world: World) -> None:
    env = world.env
    refuse_posts(env, world.bob.user.dm_channel.id, CANNOT_DM)
    thread = await start_timed(world, [world.alice, world.bob], "live-10")
    await env.advance_time(60)
    await world.alice.slash(thread, "play", move="play a01")
    board = latest_board(thread)
    runs_out = int(START + 60 + 600)
    assert board.content.endswith(
        f"<@{world.bob.id}>: your clock: 10m 00s left, runs out <t:{runs_out}:R>; then you may be skipped. "
        "Your DMs are closed, so clock reminders reach you only here."
    )
    assert f"<@{world.alice.id}>: your clock" not in board.content  # her DMs work: the reminders reach her
    await env.advance_time(300)  # the reminder could not be delivered
    shown = await world.bob.click(latest_board(thread), label="Show my hand")
    assert shown.ephemeral
    assert (
        f"Your clock: 5m 00s left, runs out <t:{runs_out}:R>; then you may be skipped. Your DMs are closed, "
        "so clock reminders reach you only here and on the board."
    ) in shown.response.content
    await env.advance_time(300)
    shown = await world.bob.click(latest_board(thread), label="Show my hand")
    assert "Your clock ran out: play now, or you may be skipped." in shown.response.content
    assert_every_interaction_answered(env)
