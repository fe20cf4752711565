"""The end of a game on Discord besides its last move: the Rematch button of the game-over message
(a lobby in the same channel, seats rotated, one click to join; a second click leads to it) and
``/game abandon`` (a vote per person, shown on the board; the deciding vote ends it unrated)."""

from __future__ import annotations

from collections.abc import Callable

import simcord

from bot import RefereeBot

from . import helpers as H
from .conftest import World
from .test_play import start_sprint


async def play_to_the_end(world: World, thread: simcord.ChannelHandle, players: list[simcord.MemberActor]) -> None:
    """Each player plays their first card in turn (Sprint, one round) until the game is over."""
    for player, card in zip(players, ("a01", "b01", "c01"), strict=False):
        await player.slash(thread, "play", move=f"play {card}")


async def test_rematch_opens_one_lobby_with_the_seats_rotated_and_players_join_with_one_click(
    world: World, bot_factory: Callable[[], RefereeBot]
) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "rounds=1", speed="live-10")
    await play_to_the_end(world, thread, [world.alice, world.bob])
    final = H.latest_board(thread)
    assert "**Game over.**" in final.content and H.custom_ids(final) == ["ref:rematch:1"]
    await env.restart_bot(bot_factory())  # the button outlives the process that posted it
    channel_before = len(world.channel.history())
    asked = await world.alice.click(final, label="Rematch")
    assert asked.ephemeral and asked.response.content.startswith("Rematch lobby opened: https://discord.com/channels/")
    [lobby] = world.channel.history()[channel_before:]
    assert lobby.embeds[0].title == "Sprint #2: lobby"
    assert lobby.embeds[0].description.endswith("A rematch of game #1: its players sit one place round.")
    assert H.custom_ids(lobby)[0] == "ref:lobby:2:join"
    speed = [field for field in lobby.embeds[0].fields if field.name == "Speed"]
    assert speed[0].value.startswith("Live: 10 minutes a move")
    # The old thread hears of it, with the link.
    note = H.thread_messages(thread)[-1]
    assert "opened a rematch" in note.content and str(lobby.id) in note.content
    # A second click, by anyone of the game, leads to the same lobby.
    again = await world.bob.click(final, label="Rematch")
    assert again.ephemeral and "already open" in again.response.content and str(lobby.id) in again.response.content
    assert len(world.channel.history()) == channel_before + 1
    # Bob joins with one click and takes his rotated seat, first; then Bob starts the game.
    await world.bob.click(lobby, label="Join")
    seats = env.backend.get_message(world.channel.id, lobby.id).embeds[0]["fields"][0]["value"]
    assert seats.index(f"1. <@{world.bob.id}>") < seats.index(f"2. <@{world.alice.id}>")
    await world.alice.click(lobby, label="Start")
    rematch_thread = world.channel.threads[-1]
    assert H.pinged(env, H.latest_board(rematch_thread)) == [world.bob.id]
    # Someone who did not play is refused.
    refused = await world.eve.click(final, label="Rematch")
    assert refused.ephemeral and "Only the players of game #1" in refused.response.content


async def test_a_unanimous_abandon_vote_shows_on_the_board_then_ends_the_game_unrated(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "rounds=3", speed="daily-2")
    voted = await world.bob.slash(thread, "game abandon")
    assert voted.ephemeral and "counted" in voted.response.content
    board = H.latest_board(thread)
    assert "bob votes to abandon the game." in board.content
    assert "Vote to abandon: bob (1 of 2 needed, unanimous)" in board.embeds[0].description
    refused = await world.eve.slash(thread, "game abandon", game=1)
    assert refused.ephemeral and "Only the players" in refused.response.content
    decided = await world.alice.slash(thread, "game abandon")
    assert "abandoned" in decided.response.content
    final = H.latest_board(thread)
    assert "The players voted to abandon the game: it ends here, unrated." in final.content
    assert "**Game over.**" in final.content and H.custom_ids(final) == []  # no rematch of it
    # History and stats show it as abandoned, and nobody's rating moved.
    history = await world.alice.slash(world.channel, "history")
    assert "abandoned by vote, unrated" in history.response.embeds[0].description
    stats = await world.alice.slash(world.channel, "stats")
    [recent] = [field for field in stats.response.embeds[0].fields if field.name == "Recent games"]
    assert "abandoned by vote" in recent.value
    after = await world.alice.slash(thread, "play", move="play a03")
    assert after.ephemeral and "abandoned" not in H.latest_board(thread).embeds[0].description
    H.assert_every_interaction_answered(env)
