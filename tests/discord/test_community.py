"""Players across games: /turns, /leaderboard, /stats, /history with exports, quiet hours, and the
rating changes in the game-over message."""

from __future__ import annotations

import json
from collections.abc import Callable

import msgspec
import pytest
import simcord

import cogs.scores
import engine.replay
from bot import RefereeBot
from engine.core import GameRecord

from .conftest import VirtualClock, World
from .helpers import assert_every_interaction_answered, custom_ids, latest_board

START = VirtualClock.START


async def open_game(
    world: World, players: list[simcord.MemberActor], speed: str, options: str = ""
) -> simcord.ChannelHandle:
    """Start a game of Sprint in its own thread and return that thread."""
    before = {thread.id for thread in world.channel.threads}
    arguments = {"game": "sprint", "speed": speed, **({"options": options} if options else {})}
    lobby = (await players[0].slash(world.channel, "game new", **arguments)).response
    for player in players[1:]:
        await player.click(lobby, label="Join")
    await players[0].click(lobby, label="Start")
    [thread] = [thread for thread in world.channel.threads if thread.id not in before]
    return thread


async def play(thread: simcord.ChannelHandle, player: simcord.MemberActor, move: str) -> None:
    result = await player.slash(thread, "play", move=move)
    assert result.response.content.startswith(f"You played **{move}**."), result.response.content


async def test_turns_lists_the_games_waiting_for_me_oldest_first_with_links(world: World) -> None:
    env = world.env
    first = await open_game(world, [world.alice, world.bob], "daily-2")  # Alice to act
    second = await open_game(world, [world.bob, world.alice], "daily-2")  # Bob to act
    third = await open_game(world, [world.carol, world.alice], "untimed")  # Carol to act
    await env.advance_time(100)
    await play(first, world.alice, "play a01")  # Bob to act in the first game
    await env.advance_time(100)
    await play(third, world.carol, "play a01")  # Alice to act in the third game since 200
    await env.advance_time(100)
    await play(first, world.bob, "play b01")  # Alice to act in the first game since 300

    mine = await world.alice.slash(world.channel, "turns")
    assert mine.ephemeral
    [embed] = mine.response.embeds
    assert embed.title == "Your turn in 2 games"
    lines = embed.description.splitlines()
    guild = world.guild.id
    assert lines[0].startswith(f"[Sprint #3](https://discord.com/channels/{guild}/{third.id})")
    assert f"waiting since <t:{int(START + 200)}:R>" in lines[0] and "left" not in lines[0]  # untimed
    assert lines[1].startswith(f"[Sprint #1](https://discord.com/channels/{guild}/{first.id})")
    assert f"waiting since <t:{int(START + 300)}:R>" in lines[1]
    assert "1d 12h left (runs out <t:" in lines[1]  # daily-2: a full 36-hour bank after the move
    assert len(lines) == 2
    # In DMs: every server shared with the user.
    in_dm = await world.alice.user.slash("turns")
    assert in_dm.response.embeds[0].description.splitlines() == lines
    bobs = await world.bob.slash(world.channel, "turns")
    [line] = bobs.response.embeds[0].description.splitlines()
    assert line.startswith(f"[Sprint #2](https://discord.com/channels/{guild}/{second.id})")
    nobody = await world.eve.slash(world.channel, "turns")
    assert nobody.response.content == "It is not your turn in any game on this server."
    assert_every_interaction_answered(env)


async def play_short_game(world: World, winner: simcord.MemberActor, loser: simcord.MemberActor) -> None:
    """A rated two-card game that ``winner`` (the host, first to act) wins 2 to 1."""
    thread = await open_game(world, [winner, loser], "live-10", "cards=2 rounds=1")
    await play(thread, winner, "play a02")
    await play(thread, loser, "play b01")
    return thread


async def test_scores_leaderboard_stats_history_and_export(
    world: World,
    bot_factory: Callable[[], RefereeBot],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = world.env
    thread = await play_short_game(world, world.alice, world.bob)
    final = latest_board(thread)
    assert "**Game over.**" in final.content
    ratings = final.embeds[2]
    assert ratings.title == "Rating changes"
    alice_line, bob_line = ratings.description.splitlines()
    assert alice_line.startswith("alice: 0.0 → ") and alice_line.endswith("(provisional)")
    assert bob_line.startswith("bob: 0.0 → -")
    await play_short_game(world, world.alice, world.bob)
    await play_short_game(world, world.carol, world.bob)
    # An untimed game is shown as unrated, and changes no rating.
    friendly = await open_game(world, [world.dave, world.alice], "untimed", "cards=2 rounds=1")
    await play(friendly, world.dave, "play a02")
    await play(friendly, world.alice, "play b01")
    over = latest_board(friendly)
    assert len(over.embeds) == 2 and over.embeds[1].footer.text == "Unrated: an untimed game for friends."

    # The leaderboard, one player a page so that it pages.
    monkeypatch.setattr(cogs.scores, "PAGE_SIZE", 1)
    shown = await world.eve.slash(world.channel, "leaderboard")  # the game finished last here
    assert not shown.ephemeral
    board = shown.response
    assert board.embeds[0].title == "Sprint: leaderboard"
    assert board.embeds[0].description.startswith("**1.** alice: ")
    assert board.embeds[0].description.endswith("* · 2 games · 2 wins · best 2")
    assert board.embeds[0].footer.text.startswith("Page 1 of 3")
    assert custom_ids(board) == ["ref:lb:sprint:0:prev", "ref:lb:sprint:1:next"]
    turned = await world.eve.click(board, label="Next")
    assert turned.response.id == board.id  # edited in place
    assert turned.response.embeds[0].description.startswith("**2.** carol: ")
    await env.restart_bot(bot_factory())  # the buttons survive a restart
    turned = await world.eve.click(turned.response, label="Next")
    assert turned.response.embeds[0].description.startswith("**3.** bob: ")
    assert "· 3 games · 0 wins · best 1" in turned.response.embeds[0].description
    assert turned.response.embeds[0].footer.text.startswith("Page 3 of 3")

    # A board that fits on one page has no buttons, and is an answer, not a failure.
    monkeypatch.setattr(cogs.scores, "PAGE_SIZE", 10)
    whole = await world.eve.slash(world.channel, "leaderboard", game="sprint")
    assert whole.followups == [] and not whole.ephemeral
    assert whole.response.embeds[0].footer.text.startswith("Page 1 of 1")
    assert custom_ids(whole.response) == []

    # Stats: per game, and the latest results.
    stats = await world.eve.slash(world.channel, "stats", user=world.alice)
    [embed] = stats.response.embeds
    assert embed.title == "alice: stats"
    sprint = embed.fields[0]
    assert sprint.name == "Sprint"
    assert sprint.value.startswith("3 games · 2 wins · average 1.7 · best 2 · rating ")
    assert sprint.value.endswith("(provisional)")
    recent = embed.fields[1].value.splitlines()
    assert recent[0].startswith("Sprint #4: 2nd of 2, score 1")  # the friendly game, unrated
    assert recent[1].startswith("Sprint #2: 1st of 2, score 2, rating +")
    mine = await world.eve.slash(world.channel, "stats")
    assert mine.response.embeds[0].description == "No finished game yet."

    # History: the results, and each game's record as a file only the caller sees.
    history = await world.eve.slash(world.channel, "history")
    assert history.ephemeral
    lines = history.response.embeds[0].description.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("**Sprint #4** (unrated, <t:") and lines[0].endswith("1. dave 2, 2. alice 1")
    assert lines[3].startswith("**Sprint #1** (rated, ") and lines[3].endswith("1. alice 2, 2. bob 1")
    assert custom_ids(history.response) == ["ref:export"]
    exported = await world.eve.select(history.response, ["1"], custom_id="ref:export")
    assert exported.ephemeral
    assert exported.response.content.startswith("The record of Sprint #1 (finished, 2 moves).")
    [attachment] = exported.response.attachments
    assert attachment.filename == "sprint-1.json"
    data = env.backend.cdn.get(attachment.url)
    record = msgspec.json.decode(data, type=GameRecord)
    assert [(move.seat, move.move) for move in record.moves] == [(0, "play a02"), (1, "play b01")]
    # python -m engine.replay accepts it and finds the same result.
    path = f"{env.bot.settings.database_path}.record.json"
    with open(path, "wb") as file:
        file.write(data)
    assert engine.replay.main([path]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["over"] and report["scores"] == [2.0, 1.0]
    assert_every_interaction_answered(env)


async def test_quiet_hours_are_set_and_cleared(world: World) -> None:
    referee = world.env.bot.referee
    done = await world.alice.slash(
        world.channel, "settings quiet-hours", time_zone="Europe/Rome", start=23, end=7
    )
    assert done.ephemeral
    assert done.response.content.startswith("Quiet hours set: 23:00 to 07:00 (Europe/Rome).")
    quiet = await referee.quiet_hours(str(world.alice.id))
    assert (quiet.time_zone, quiet.start_hour, quiet.end_hour) == ("Europe/Rome", 23, 7)
    choices = await world.alice.autocomplete(world.channel, "settings quiet-hours", "time_zone", "rome")
    assert [choice["value"] for choice in choices] == ["Europe/Rome"]
    wrong = await world.alice.slash(
        world.channel, "settings quiet-hours", time_zone="Mars/Base", start=1, end=2
    )
    assert wrong.ephemeral and "Mars/Base" in wrong.response.content
    off = await world.alice.slash(world.channel, "settings quiet-hours-off")
    assert off.response.content.startswith("Quiet hours cleared")
    assert await referee.quiet_hours(str(world.alice.id)) is None


async def test_leaderboard_and_history_autocomplete_the_game(world: World) -> None:
    for command in ("leaderboard", "history"):
        choices = await world.alice.autocomplete(world.channel, command, "game", "spr")
        assert [choice["value"] for choice in choices] == ["sprint"]
    empty = await world.alice.slash(world.channel, "leaderboard", game="sprint")
    assert empty.response.embeds[0].description.startswith("No rated game yet")
    assert custom_ids(empty.response) == []
    nothing = await world.alice.slash(world.channel, "history")
    assert nothing.response.content == "No game has finished here yet: play one with `/game new`."
