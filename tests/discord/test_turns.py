"""How a turn reaches a player: the board's ping and its **Play your turn** button, not a DM per
turn; a DM when someone else's move changed their hand, when the board could not be posted, or
when they keep turn DMs (/settings turn-dms)."""

from __future__ import annotations

import pytest

from . import helpers as H
from .conftest import World
from .test_play import highest, start_sprint


async def test_the_board_announces_the_turn_and_its_button_opens_the_players_moves(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    await world.alice.slash(thread, "play", move="play a01")
    board = H.latest_board(thread)
    assert H.pinged(env, board) == [world.bob.id]
    assert f"<@{world.bob.id}>: your turn; press **Play your turn**" in board.content
    assert H.custom_ids(board) == ["ref:turn:1:1", "ref:hand:1"]
    assert len(H.dm_messages(env, world.bob)) == 1  # only the deal: the ping is the announcement
    opened = await world.bob.click(board, label="Play your turn")
    assert opened.ephemeral and opened.response.content.startswith("**Your turn.**")
    assert "Your hand: b01 b02 b03" in opened.response.embeds[0].description
    assert H.move_options(opened.response) == ["play b01", "play b02", "play b03"]
    move, played = await H.choose_in_private_message(world.bob, opened.response, highest)
    assert move == "play b03"
    # The ephemeral answer now shows the result and Bob's new hand; nobody got a DM.
    updated = env.backend.get_message(opened.response.channel_id, opened.response.id)
    assert updated.content.startswith("You played **play b03**.") and "Your hand: b01 b02" in str(updated.embeds)
    assert len(H.dm_messages(env, world.alice)) == len(H.dm_messages(env, world.bob)) == 1
    assert H.pinged(env, H.latest_board(thread)) == [world.alice.id]
    H.assert_not_public(env, {"b01 b02", "secreta", "secretb"}, "a hand")
    H.assert_every_interaction_answered(env)


async def test_a_stale_turn_button_is_refused(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    first_board = H.latest_board(thread)  # asks Alice, at move 0
    await world.alice.slash(thread, "play", move="play a01")
    # Alice's turn is over: her click on the old board gets who is waited for, no controls.
    over = await world.alice.click(first_board, label="Play your turn")
    assert over.ephemeral and over.response.content == (
        "It is not your turn now. Waiting for bob. **Show my hand** shows your cards."
    )
    assert H.custom_ids(over.response) == []
    # A stranger is told so.
    stranger = await world.eve.click(first_board, label="Play your turn")
    assert stranger.response.content == "You are not playing in this game."
    await world.bob.slash(thread, "play", move="play b01")
    # Alice's turn again, but this board is from her previous turn: refused, with the current
    # board and her current view (whose controls are for move 2).
    stale = await world.alice.click(first_board, label="Play your turn")
    assert stale.ephemeral
    assert stale.response.content.startswith("That board is out of date: here is the current one.")
    assert "Pile: a01 b01" in stale.response.embeds[0].description
    assert "Your hand: a02 a03" in stale.response.embeds[1].description
    assert H.custom_ids(stale.response) == ["ref:mv:1:2:play a02", "ref:mv:1:2:play a03"]
    # The current board's button works without a word of refusal.
    fresh = await world.alice.click(H.latest_board(thread), label="Play your turn")
    assert fresh.response.content.startswith("**Your turn.**")
    H.assert_every_interaction_answered(env)


async def test_a_hand_changed_by_someone_elses_move_goes_by_dm_and_the_mover_gets_none(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob, world.carol], "cards=3 rounds=2 gifts=true")
    alice_dm = H.latest_dm_with_controls(env, world.alice)
    move, result = await H.choose_in_private_message(world.alice, alice_dm, lambda moves: "give a02")
    assert move == "give a02"
    board = H.latest_board(thread)
    assert "alice gives a card to bob." in board.content and H.pinged(env, board) == [world.bob.id]
    # Bob's hand changed by Alice's move: DMed to him, with his moves (it is also his turn).
    bob_dms = H.dm_messages(env, world.bob)
    assert len(bob_dms) == 2
    assert "Your hand: b01 b02 b03 a02" in bob_dms[-1].embeds[0].description
    assert "give a02" in H.move_options(bob_dms[-1]) and bob_dms[-1].content.startswith("**Your turn.**")
    # Alice sees her new hand in the message she played from, not in a new DM; Carol, whose hand
    # did not change, gets nothing.
    assert len(H.dm_messages(env, world.alice)) == 1
    assert "Your hand: a01 a03" in env.backend.get_message(alice_dm.channel.id, alice_dm.id).embeds[0]["description"]
    assert len(H.dm_messages(env, world.carol)) == 1
    # A public-only move (a card played) DMs nobody.
    await H.choose_in_private_message(world.bob, bob_dms[-1], lambda moves: "play b01")
    assert [len(H.dm_messages(env, person)) for person in (world.alice, world.bob, world.carol)] == [1, 2, 1]
    H.assert_not_public(env, {"a01 a03", "b01 b02 b03 a02"}, "a hand")
    H.assert_every_interaction_answered(env)


async def test_turn_dms_are_a_players_choice(world: World) -> None:
    env = world.env
    answer = await world.bob.slash(world.channel, "settings turn-dms", enabled=True)
    assert answer.ephemeral and answer.response.content.startswith("Turn DMs on:")
    assert await env.bot.store.get_user_flag(str(world.bob.id), "turn_dms")
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    await world.alice.slash(thread, "play", move="play a01")
    # Bob asked for them: his turn comes by DM too, with his moves; the board still pings him.
    [_, turn_dm] = H.dm_messages(env, world.bob)
    assert turn_dm.content.startswith("**Your turn.**") and H.move_options(turn_dm) == [
        "play b01",
        "play b02",
        "play b03",
    ]
    assert H.pinged(env, H.latest_board(thread)) == [world.bob.id]
    # Alice did not: her turn is on the board only.
    await H.choose_in_private_message(world.bob, turn_dm, highest)
    assert len(H.dm_messages(env, world.alice)) == 1 and H.pinged(env, H.latest_board(thread)) == [world.alice.id]
    off = await world.bob.slash(thread, "settings turn-dms", enabled=False)
    assert off.response.content.startswith("Turn DMs off:")
    await world.alice.slash(thread, "play", move="play a02")
    assert len(H.dm_messages(env, world.bob)) == 2
    H.assert_every_interaction_answered(env)


async def test_turn_dms_on_tries_closed_dms_again(world: World) -> None:
    env = world.env
    await env.bot.store.set_user_flag(str(world.bob.id), "dm_closed", True)
    await world.bob.slash(world.channel, "settings turn-dms", enabled=True)
    assert not await env.bot.store.get_user_flag(str(world.bob.id), "dm_closed")
    await start_sprint(world, [world.alice, world.bob])
    assert len(H.dm_messages(env, world.bob)) == 1  # the deal reached him


async def test_when_the_board_cannot_be_posted_the_turn_goes_by_dm(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    H.refuse_posts(env, thread.id, H.MISSING_PERMISSIONS, times=1)
    await world.alice.slash(thread, "play", move="play a01")
    # No board, so no ping: Bob's turn reaches him by DM, with his moves.
    [_, turn_dm] = H.dm_messages(env, world.bob)
    assert turn_dm.content.startswith("**Your turn.**") and len(H.move_options(turn_dm)) == 3
    assert "could not post the board" in caplog.text
    caplog.clear()  # expected here; the world fixture fails any other test that logs an error
