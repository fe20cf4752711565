"""Lobby through slash commands and buttons: seats, AI seats, start, cancel, and the refusals."""

from __future__ import annotations

from cogs import render

from .conftest import World
from .helpers import assert_every_interaction_answered, components, custom_ids, latest_board, public_texts


async def open_lobby(world: World, options: str | None = None, **extra):
    arguments = {"game": "sprint", **extra}
    if options is not None:
        arguments["options"] = options
    result = await world.alice.slash(world.channel, "game new", **arguments)
    assert result.acknowledged and not result.ephemeral
    return result.response


async def test_new_game_posts_a_lobby_with_the_seats_and_buttons(world: World) -> None:
    lobby = await open_lobby(world, options="cards=4")
    embed = lobby.embeds[0]
    assert embed.title == "Sprint #1: lobby"
    seats = embed.fields[0]
    assert seats.name == "Seats (1; 2-4 players)"
    assert f"<@{world.alice.id}> (host)" in seats.value
    assert "`cards=4`" in embed.fields[1].value and "`rounds=2`" in embed.fields[1].value
    assert custom_ids(lobby) == [
        *(f"ref:lobby:1:{action}" for action in ("join", "leave", "unai")),
        "ref:lobbyai:1",  # Add an AI seat: choose its level
        *(f"ref:lobby:1:{action}" for action in ("start", "cancel")),
    ]
    assert_every_interaction_answered(world.env)


async def test_join_leave_and_ai_seats_update_the_lobby_in_place(world: World) -> None:
    lobby = await open_lobby(world)
    joined = await world.bob.click(lobby, label="Join")
    assert joined.response.id == lobby.id  # the lobby message itself was updated
    assert f"<@{world.bob.id}>" in joined.response.embeds[0].fields[0].value
    again = await world.bob.click(lobby, label="Join")
    assert again.ephemeral and again.response.content == "You are already seated at this table."
    left = await world.bob.click(lobby, label="Leave")
    assert f"<@{world.bob.id}>" not in left.response.embeds[0].fields[0].value
    stranger = await world.eve.click(lobby, label="Leave")
    assert stranger.ephemeral and "not seated" in stranger.response.content
    added = await world.alice.select(lobby, ["normal"], custom_id="ref:lobbyai:1")
    assert "(AI) · normal" in added.response.embeds[0].fields[0].value
    not_host = await world.bob.select(lobby, ["strong"], custom_id="ref:lobbyai:1")
    assert not_host.ephemeral and not_host.response.content == "Only the host can add AI seats."
    removed = await world.alice.click(lobby, label="Remove AI")
    assert "(AI)" not in removed.response.embeds[0].fields[0].value
    assert_every_interaction_answered(world.env)


async def test_host_cannot_leave_and_start_needs_enough_players(world: World) -> None:
    lobby = await open_lobby(world)
    host_leaves = await world.alice.click(lobby, label="Leave")
    assert host_leaves.response.content == "The host cannot leave; cancel the table instead."
    too_few = await world.alice.click(lobby, label="Start")
    assert too_few.followups and too_few.followups[0].ephemeral
    assert too_few.followups[0].content == "Sprint is played by 2 to 4 players, not 1."
    assert world.channel.threads == []  # nothing started
    await world.bob.click(lobby, label="Join")
    not_host = await world.bob.click(lobby, label="Start")
    assert not_host.followups[0].content == "Only the host can start the game."
    assert_every_interaction_answered(world.env)


async def test_table_is_full_at_the_maximum(world: World) -> None:
    lobby = await open_lobby(world, ai=3)
    assert lobby.embeds[0].fields[0].name == "Seats (4; 2-4 players)"
    full = await world.bob.click(lobby, label="Join")
    assert full.response.content == "The table is full (4 players)."


async def test_cancel_by_non_host_is_refused_but_host_and_managers_may(world: World) -> None:
    lobby = await open_lobby(world)
    refused = await world.bob.click(lobby, label="Cancel")
    assert refused.ephemeral
    assert refused.response.content == "Only the host (or a server manager) can cancel this game."
    refused_command = await world.eve.slash(world.channel, "game cancel", game=1)
    assert refused_command.ephemeral and "Only the host" in refused_command.response.content
    cancelled = await world.moderator.slash(world.channel, "game cancel", game=1)
    assert not cancelled.ephemeral and cancelled.response.embeds[0].title == "Sprint #1: cancelled"
    # The lobby lost its buttons, and its buttons (if someone still has them) refuse politely.
    stored = world.env.backend.get_message(world.channel.id, lobby.id)
    assert stored.components == []
    again = await world.alice.slash(world.channel, "game cancel", game=1)
    assert again.response.content == "This game has already ended."


async def test_host_cancels_with_the_lobby_button(world: World) -> None:
    lobby = await open_lobby(world)
    cancelled = await world.alice.click(lobby, label="Cancel")
    assert cancelled.response.embeds[0].title == "Sprint #1: cancelled"
    listing = await world.alice.slash(world.channel, "game list")
    assert listing.ephemeral and "No game is open or running here" in listing.response.content


async def test_bad_game_or_options_are_explained(world: World) -> None:
    unknown = await world.alice.slash(world.channel, "game new", game="chess")
    assert unknown.ephemeral and unknown.response.content.startswith("Unknown game 'chess'.")
    bad_option = await world.alice.slash(world.channel, "game new", game="sprint", options="colour=red")
    assert (
        bad_option.response.content
        == "Sprint has no option 'colour' (options: cards, rounds, verbs, bulk, anytime, gifts, chatter)."
    )
    bad_value = await world.alice.slash(world.channel, "game new", game="sprint", options="cards=many")
    assert bad_value.response.content == "Option cards takes a whole number, not 'many'."
    bad_form = await world.alice.slash(world.channel, "game new", game="sprint", options="cards")
    assert bad_form.response.content == "Write options as NAME=VALUE separated by spaces (not 'cards')."


async def test_a_stacked_deal_is_refused_and_opens_no_lobby(world: World) -> None:
    """A host must not choose everyone's cards: ``deck`` is for tests and the local table."""
    stacked = await world.alice.slash(
        world.channel, "game new", game="sprint", options="cards=2 deck=a01,a02,b01,b02"
    )
    assert stacked.ephemeral
    assert stacked.response.content.startswith("Stacked deals (`deck=`) are for tests and the local table")
    listing = await world.alice.slash(world.channel, "game list")
    assert "No game is open or running here" in listing.response.content


async def test_autocomplete_offers_games_and_options_from_the_registry(world: World) -> None:
    games = await world.alice.autocomplete(world.channel, "game new", "game", "spr")
    assert games == [{"name": "Sprint (2-4 players)", "value": "sprint"}]
    options = await world.alice.autocomplete(
        world.channel, "game new", "options", "cards=5 ro", game="sprint"
    )
    assert [choice["value"] for choice in options] == ["cards=5 rounds=2"]


async def test_start_opens_a_thread_with_the_board_and_lists_the_game(world: World) -> None:
    lobby = await open_lobby(world)
    await world.bob.click(lobby, label="Join")
    started = await world.alice.click(lobby, label="Start")
    assert started.acknowledged
    [thread] = world.channel.threads
    assert thread.name == "Sprint #1"
    stored_lobby = world.env.backend.get_message(world.channel.id, lobby.id)
    assert stored_lobby.components == [] and stored_lobby.embeds[0]["title"] == "Sprint #1: started"
    board = latest_board(thread)
    assert "Scores: alice 0, bob 0" in board.embeds[0].description
    assert custom_ids(board) == ["ref:turn:1:0", "ref:hand:1"]
    listing = await world.eve.slash(world.channel, "game list")
    assert "**Sprint #1**: running, move 0 (alice, bob) · daily-2 <#" in listing.response.content
    assert all("secret" not in text for text in public_texts(world.env))


async def test_ai_seats_are_added_at_the_chosen_level_and_shown_with_it(world: World) -> None:
    lobby = await open_lobby(world, ai=1, level="strong")
    assert "Ada (AI) · strong" in lobby.embeds[0].fields[0].value
    select = next(c for c in components(lobby) if c.get("custom_id") == "ref:lobbyai:1")
    assert [option["value"] for option in select["options"]] == ["easy", "normal", "strong"]
    easy = await world.alice.select(lobby, ["easy"], custom_id="ref:lobbyai:1")
    assert "Bruno (AI) · easy" in easy.response.embeds[0].fields[0].value
    table = await world.env.bot.referee.table(1)
    assert [seat.ai_kind for seat in table.seats] == [None, "strong", "easy"]
    # Without a level: the usual one; a lobby posted before the levels still has its Add AI button.
    await world.alice.slash(world.channel, "game new", game="sprint", ai=1)
    assert [seat.ai_kind for seat in (await world.env.bot.referee.table(2)).seats] == [None, "normal"]
    assert_every_interaction_answered(world.env)


async def test_tables_stored_with_the_old_kinds_show_them_as_levels_and_play(world: World) -> None:
    table = await world.env.bot.referee.create_table("sprint", str(world.alice.id), "Alice", ai_seats=["greedy"])
    assert render.seat_line(table, 1) == "2. Ada (AI) · easy"
    outbox = await world.env.bot.referee.start(table.id, str(world.alice.id))
    assert outbox.table.seats[1].ai_kind == "greedy"
