"""Playing Sprint through Discord: the dealt hand by DM, the board's ping and its "Play your turn"
button, buttons and selects, /play, boards, refusals."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from . import helpers as H
from .conftest import World


async def start_sprint(
    world: World,
    players: list[simcord.MemberActor],
    options: str = "",
    speed: str | None = None,
    ai: int = 0,
) -> simcord.ChannelHandle:
    """The first player opens a sprint lobby (at ``speed``, with ``ai`` AI seats, if given), the
    others join, and it starts."""
    host = players[0]
    arguments = {
        "game": "sprint",
        **({"speed": speed} if speed else {}),
        **({"options": options} if options else {}),
        **({"ai": ai} if ai else {}),
    }
    lobby = (await host.slash(world.channel, "game new", **arguments)).response
    for player in players[1:]:
        await player.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    [thread] = world.channel.threads
    return thread


def highest(moves: list[str]) -> str:
    return max(moves, key=lambda move: (move.startswith("play"), move))


async def test_a_whole_game_from_the_dealt_hand_and_the_boards_turn_button(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob])
    board = H.latest_board(thread)
    assert H.pinged(env, board) == [world.alice.id]
    assert f"<@{world.alice.id}>: your turn" in board.content
    # Alice's DM names the game, links the thread and offers her three moves as buttons.
    [alice_dm] = H.dm_messages(env, world.alice)
    assert alice_dm.embeds[0].title == "Sprint #1: your hand"
    assert f"https://discord.com/channels/{world.guild.id}/{thread.id}" in alice_dm.embeds[0].url
    assert "Your hand: a01 a02 a03" in alice_dm.embeds[0].description
    assert H.move_options(alice_dm) == ["play a01", "play a02", "play a03"]
    [bob_dm] = H.dm_messages(env, world.bob)
    assert H.move_options(bob_dm) == [] and "Waiting for alice." in bob_dm.content

    requests_before = len(env.http_requests)
    move, result = await H.choose_in_private_message(world.alice, alice_dm, highest)
    assert move == "play a03"
    # The clicked DM now says what was played and shows the new hand, without stale buttons.
    edited = env.backend.get_message(alice_dm.channel.id, alice_dm.id)
    assert edited.content.startswith("You played **play a03**.") and edited.components == []
    assert "Your hand: a01 a02" in edited.embeds[0]["description"]
    calls = [
        f"{request.method} {request.path.split('/')[1]}" for request in env.http_requests[requests_before:]
    ]
    # Acknowledge, update the clicked DM, post the board (its ping tells Bob): three REST calls.
    assert calls == ["POST interactions", "PATCH webhooks", "POST channels"], calls

    board = H.latest_board(thread)
    assert "alice plays a03 (+3)." in board.content
    assert H.pinged(env, board) == [world.bob.id]
    assert H.custom_ids(board) == ["ref:turn:1:1", "ref:hand:1"]
    while True:
        to_act = [
            player for player in (world.alice, world.bob) if player.id in H.pinged(env, H.latest_board(thread))
        ]
        if not to_act:
            break
        message = await H.open_my_turn(to_act[0], thread)
        await H.choose_in_private_message(to_act[0], message, highest)
    # Nobody was DMed after the deal: the boards announced every turn.
    assert len(H.dm_messages(env, world.alice)) == len(H.dm_messages(env, world.bob)) == 1
    final = H.latest_board(thread)
    assert "**Game over.**" in final.content and H.pinged(env, final) == []
    assert final.embeds[1].title == "Final scores"
    assert final.embeds[1].description == "1. alice: 5\n1. bob: 5"
    assert H.custom_ids(final) == ["ref:rematch:1"]  # the only control left: a rematch
    H.assert_every_interaction_answered(env)
    H.assert_not_public(env, {"secreta", "secretb"}, "secret word")


async def test_clicks_on_old_messages_are_refused_with_the_current_view(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    [alice_dm] = H.dm_messages(env, world.alice)
    typed = await world.alice.slash(thread, "play", move="play a01")
    assert typed.ephemeral and typed.response.content.startswith("You played **play a01**.")
    # The DM button was for move 0; the board is at move 1 now.
    stale = await world.alice.user.click(alice_dm, label="play a02")
    [answer] = stale.followups
    assert answer.ephemeral
    assert answer.content.startswith("The board has changed since you looked at it; here is the current one.")
    assert "Pile: a01" in answer.embeds[0].description  # the current board
    assert "Your hand: a02 a03" in answer.embeds[1].description  # and her current hand
    assert "Waiting for bob." in answer.content
    # Bob plays from the board's button; then Alice's fresh controls work again.
    await H.choose_in_private_message(world.bob, await H.open_my_turn(world.bob, thread), highest)
    fresh = await H.open_my_turn(world.alice, thread)
    move, _ = await H.choose_in_private_message(world.alice, fresh, highest)
    assert move == "play a03"
    H.assert_every_interaction_answered(env)


async def test_a_click_after_the_end_says_the_game_is_over(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "rounds=1")
    [alice_dm] = H.dm_messages(env, world.alice)
    await world.alice.slash(thread, "play", move="play a01")
    await world.bob.slash(thread, "play", move="play b02")
    assert "**Game over.**" in H.latest_board(thread).content
    late = await world.alice.user.click(alice_dm, label="play a02")
    assert late.followups[0].ephemeral and late.followups[0].content == "This game is over."
    typed = await world.alice.slash(thread, "play", move="play a02")
    assert typed.response.content == "You have no game here. Start one with `/game new`, or see `/game list`."


async def test_refusals_say_what_to_do(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob])
    not_your_turn = await world.bob.slash(thread, "play", move="play b01")
    assert (
        not_your_turn.ephemeral
        and not_your_turn.response.content == "It is not your turn; waiting for alice."
    )
    unreadable = await world.alice.slash(thread, "play", move="dance")
    assert unreadable.response.content == "Write a verb and a card, like `play a03` (not 'dance')."
    illegal = await world.alice.slash(thread, "play", move="play b01")
    assert illegal.response.content == "play b01 is not a legal move now."
    stranger = await world.eve.slash(thread, "play", move="play a01")
    assert stranger.response.content == "You are not playing in this game."
    stranger_hand = await world.eve.click(H.latest_board(thread), label="Show my hand")
    assert stranger_hand.ephemeral and stranger_hand.response.content == "You are not playing in this game."
    elsewhere = await world.eve.slash(world.channel, "hand")
    assert (
        elsewhere.response.content
        == "You have no game here. Start one with `/game new`, or see `/game list`."
    )
    H.assert_every_interaction_answered(env)


async def test_autocomplete_offers_only_the_callers_legal_moves(world: World) -> None:
    thread = await start_sprint(world, [world.alice, world.bob], "cards=12 verbs=2")
    everything = await world.alice.autocomplete(thread, "play", "move", "")
    assert len(everything) == 24 and everything[0] == {"name": "play a01", "value": "play a01"}
    narrowed = await world.alice.autocomplete(thread, "play", "move", "disc a1")
    assert [choice["value"] for choice in narrowed] == []
    narrowed = await world.alice.autocomplete(thread, "play", "move", "discard a1")
    assert [choice["value"] for choice in narrowed] == ["discard a10", "discard a11", "discard a12"]
    assert await world.bob.autocomplete(thread, "play", "move", "") == []  # not his turn
    assert await world.eve.autocomplete(thread, "play", "move", "") == []  # not playing


async def test_controls_follow_the_number_of_moves(world: World) -> None:
    env = world.env
    # 12 moves: one select.
    await start_sprint(world, [world.alice, world.bob], "cards=12")
    dm = H.latest_dm_with_controls(env, world.alice)
    assert [cid for cid in H.custom_ids(dm)] == ["ref:ms:1:0:0"] and len(H.move_options(dm)) == 12
    move, result = await H.choose_in_private_message(world.alice, dm, lambda moves: moves[-1])
    assert move == "play a12" and result.acknowledged


async def test_many_moves_are_grouped_by_their_first_word(world: World) -> None:
    env = world.env
    # 2 verbs x 30 cards: play (2 pages) and discard (2 pages): four selects in one message.
    await start_sprint(world, [world.alice, world.bob], "cards=30 verbs=2")
    dm = H.latest_dm_with_controls(env, world.alice)
    assert H.custom_ids(dm) == [f"ref:ms:1:0:{n}" for n in range(4)]
    placeholders = [row.children[0].placeholder for row in dm.components]
    assert placeholders == [
        "play (1-25 of 30)",
        "play (26-30 of 30)",
        "discard (1-25 of 30)",
        "discard (26-30 of 30)",
    ]
    move, _ = await H.choose_in_private_message(world.alice, dm, lambda moves: "discard a29")
    assert move == "discard a29"
    # The secret discard is told to Alice only; the table hears that something happened.
    assert "alice does something secret with a card." in H.latest_board(world.channel.threads[0]).content
    H.assert_not_public(env, {"a29"}, "discarded card")


async def test_too_many_groups_become_a_two_step_choice(world: World) -> None:
    env = world.env
    # 6 verbs x 10 cards: six groups do not fit five rows, so a group is chosen first.
    await start_sprint(world, [world.alice, world.bob], "cards=10 verbs=6")
    dm = H.latest_dm_with_controls(env, world.alice)
    assert H.custom_ids(dm) == ["ref:mg:1:0"]
    assert H.components(dm)[0]["placeholder"] == "Choose a group of moves, then your move"
    opened = await world.alice.user.select(dm, ["5"], custom_id="ref:mg:1:0")
    assert opened.response.id == dm.id  # the same DM now lists the moves of the group
    assert H.move_options(opened.response) == [f"spin a{n:02d}" for n in range(1, 11)]
    back = await world.alice.user.click(opened.response, label="Back")
    assert H.custom_ids(back.response) == ["ref:mg:1:0"]
    move, _ = await H.choose_in_private_message(
        world.alice, back.response, lambda moves: "toss a07" if "toss a07" in moves else "-"
    )
    assert move == "toss a07"
    # Bob's first step on an old message after a move: refused, with his current controls.
    bob_turn = await H.open_my_turn(world.bob, world.channel.threads[0])
    assert H.custom_ids(bob_turn) == ["ref:mg:1:1"]
    await world.bob.slash(world.channel.threads[0], "play", move="play b01")
    await world.alice.slash(world.channel.threads[0], "play", move="play a01")
    stale = await world.bob.select(bob_turn, ["0"], custom_id="ref:mg:1:1")
    assert stale.followups[0].content.startswith("The board has changed since you looked at it")
    assert H.custom_ids(stale.followups[0]) == ["ref:mg:1:3"]
    H.assert_every_interaction_answered(env)


async def test_closed_dms_fall_back_to_show_my_hand(world: World) -> None:
    env = world.env
    bob_dm_channel = world.bob.user.dm_channel
    H.refuse_posts(env, bob_dm_channel.id, H.CANNOT_DM)
    thread = await start_sprint(world, [world.alice, world.bob])
    bot = env.bot
    assert await bot.store.get_user_flag(str(world.bob.id), "dm_closed")
    await H.choose_in_private_message(world.alice, H.latest_dm_with_controls(env, world.alice), highest)
    board = H.latest_board(thread)
    assert H.pinged(env, board) == [world.bob.id]
    assert "press **Play your turn**" in board.content
    shown = await world.bob.click(board, label="Show my hand")
    assert shown.ephemeral
    assert shown.response.content.startswith("I could not send you a DM (your DMs are closed)")
    assert "Your hand: b01 b02 b03" in shown.response.embeds[0].description
    move, played = await H.choose_in_private_message(world.bob, shown.response, highest)
    assert move == "play b03"
    # The ephemeral message itself shows the result; no DM was attempted again.
    updated = env.backend.get_message(shown.response.channel_id, shown.response.id)
    assert updated.content.startswith("You played **play b03**.") and updated.flags & 64
    await H.choose_in_private_message(world.alice, await H.open_my_turn(world.alice, thread), highest)
    again = await world.bob.click(H.latest_board(thread), label="Play your turn")
    assert not again.response.content.startswith("I could not send you a DM")  # told once only
    assert H.move_options(again.response) == ["play b01", "play b02"]
    attempts = [r for r in env.http_requests if r.path == f"/channels/{bob_dm_channel.id}/messages"]
    assert len(attempts) == 1
    H.assert_every_interaction_answered(env)


async def test_the_host_is_told_at_once_when_their_own_dm_fails(world: World) -> None:
    env = world.env
    H.refuse_posts(env, world.alice.user.dm_channel.id, H.CANNOT_DM)
    lobby = (await world.alice.slash(world.channel, "game new", game="sprint")).response
    await world.bob.click(lobby, label="Join")
    started = await world.alice.click(lobby, label="Start")
    [notice] = started.followups
    assert notice.ephemeral and notice.content.startswith("I could not send you a DM")
    shown = await world.alice.click(H.latest_board(world.channel.threads[0]), label="Show my hand")
    assert not shown.response.content.startswith("I could not send you a DM")


async def test_board_hand_and_rules_commands(world: World) -> None:
    thread = await start_sprint(world, [world.alice, world.bob])
    board = await world.eve.slash(thread, "board")
    assert not board.ephemeral and "Scores: alice 0, bob 0" in board.response.embeds[0].description
    assert H.custom_ids(board.response) == ["ref:turn:1:0", "ref:hand:1"]
    elsewhere = await world.bob.slash(world.channel, "board")
    assert elsewhere.ephemeral and str(thread.id) in elsewhere.response.content
    hand = await world.bob.slash(thread, "hand")
    assert hand.ephemeral and "Your hand: b01 b02 b03" in hand.response.embeds[0].description
    rules = await world.eve.slash(world.channel, "rules", game="sprint")
    assert rules.response.embeds[0].title == "Sprint: rules"
    assert "`play a03`" in rules.response.embeds[0].fields[1].value


async def test_an_unexpected_failure_still_gets_an_answer_and_stays_visible(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob])

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(env.bot.referee, "play", broken)
    sorry = "Something went wrong on my side (it is logged). Try again, or use /board."
    clicked = await world.alice.user.click(H.latest_dm_with_controls(env, world.alice), label="play a01")
    assert clicked.followups[0].ephemeral and clicked.followups[0].content == sorry
    typed = await world.alice.slash(thread, "play", move="play a01")
    assert typed.ephemeral and typed.response.content == sorry
    # Both failures were logged with their traceback: answered, but not swallowed.
    logged = [record for record in caplog.records if record.levelname == "ERROR" and record.exc_info]
    assert len(logged) == 2 and all("disk on fire" in str(record.exc_info[1]) for record in logged)
    caplog.clear()  # expected here; the world fixture fails any other test that logs an error


async def test_without_thread_permission_the_game_is_played_in_the_channel(world: World) -> None:
    env = world.env
    no_threads = world.guild.create_text_channel(
        "no-threads", overwrites={world.guild.me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    lobby = (await world.alice.slash(no_threads, "game new", game="sprint")).response
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    assert no_threads.threads == []
    board = H.latest_board(no_threads)
    assert H.pinged(env, board) == [world.alice.id] and "Scores: alice 0, bob 0" in board.embeds[0].description
    played = await world.alice.slash(no_threads, "play", move="play a01")
    assert played.response.content.startswith("You played **play a01**.")
    assert "alice plays a01 (+1)." in H.latest_board(no_threads).content


async def test_an_optional_move_out_of_turn_is_offered_as_such_and_disturbs_nobody(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 anytime=true")
    [alice_dm] = H.dm_messages(env, world.alice)
    [bob_dm] = H.dm_messages(env, world.bob)
    assert alice_dm.content == "**Your turn.** Choose a move below, or type `/play`."
    # Bob is not on turn, but may already toss a card: said so, not "Your turn".
    assert bob_dm.content == (
        "Waiting for alice.\nNot your turn, but you may already make one of these moves (or just wait)."
    )
    assert H.move_options(bob_dm) == ["toss b01", "toss b02", "toss b03"]
    first_board = H.latest_board(thread)
    await H.choose_in_private_message(world.bob, bob_dm, lambda moves: "toss b02")
    board = H.latest_board(thread)
    # Still Alice's turn: the board of that turn is updated in place with the news.
    assert board.id == first_board.id and "bob tosses a card out of turn." in board.content
    # Alice, still to play and with an unchanged hand, is neither pinged nor DMed again...
    assert H.waiting_for(board) == [world.alice.id] and H.pinged(env, board) == []
    assert len(H.dm_messages(env, world.alice)) == 1
    # ...and the DM she had still plays.
    move, result = await H.choose_in_private_message(world.alice, alice_dm, highest)
    assert not result.followups and move == "play a03"
    assert "alice plays a03 (+3)." in H.latest_board(thread).content
    H.assert_every_interaction_answered(env)


async def test_a_turn_of_several_moves_updates_its_board_and_a_remark_starts_a_new_one(world: World) -> None:
    env = world.env
    # Alice against an AI seat: after each of her moves the AI answers and it is her turn again.
    thread = await start_sprint(world, [world.alice], "cards=4 rounds=4", ai=1)
    board = H.latest_board(thread)
    assert H.pinged(env, board) == [world.alice.id]
    await H.choose_in_private_message(world.alice, H.latest_dm_with_controls(env, world.alice), highest)
    updated = H.latest_board(thread)
    # The same message, now telling the whole story of the turn; Alice is not pinged again.
    assert updated.id == board.id
    assert updated.content.startswith("alice plays a04 (+4).\nAda (AI) plays b04 (+4).\n")
    assert updated.content.endswith(
        f"<@{world.alice.id}>: your turn; press **Play your turn** below for your hand and your moves."
    )
    assert "move 2" in updated.embeds[0].footer.text
    # Someone says something in the thread: the next board comes below it, as a new message.
    await world.bob.send(thread, "nice move")
    await H.choose_in_private_message(world.alice, H.latest_dm_with_controls(env, world.alice), highest)
    after = H.latest_board(thread)
    assert after.id != board.id and after.content.startswith("alice plays a03 (+3).")
    H.assert_every_interaction_answered(env)


async def test_show_my_hand_is_one_snapshot_and_no_cog_reads_raw_state(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One read model: a player's private message comes from one snapshot of one version (not
    the table, private text, moves, who must act and clocks read one by one), and the desk
    never reads the raw state (its secrets and seed), not even for the seating at the start."""
    from engine.referee import Referee

    async def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a cog read the raw state instead of a snapshot")

    monkeypatch.setattr(Referee, "state", refused)
    thread = await start_sprint(world, [world.alice, world.bob])
    calls: list[str] = []
    reads = ("table", "to_act", "private_text", "described_moves", "legal_moves", "board_text", "clock_views")
    for name in (*reads, "snapshot"):
        monkeypatch.setattr(Referee, name, _counted(calls, name, getattr(Referee, name)))
    shown = await world.bob.click(H.latest_board(thread), label="Show my hand")
    assert shown.ephemeral and "Your hand:" in shown.response.embeds[0].description
    assert calls == ["snapshot"]


async def test_play_your_turn_is_one_snapshot(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """**Play your turn** reads one snapshot too: the seat, who must act and the hand of one
    version, whether it is the clicker's turn (alice, first to act) or not (bob)."""
    from engine.referee import Referee

    thread = await start_sprint(world, [world.alice, world.bob])
    calls: list[str] = []
    reads = ("table", "to_act", "private_text", "described_moves", "legal_moves", "board_text", "clock_views")
    for name in (*reads, "snapshot"):
        monkeypatch.setattr(Referee, name, _counted(calls, name, getattr(Referee, name)))
    opened = await H.open_my_turn(world.alice, thread)
    assert "Your hand:" in opened.embeds[0].description and H.move_options(opened)
    assert calls == ["snapshot"]
    calls.clear()
    refused = await world.bob.click(H.latest_board(thread), label="Play your turn")
    assert refused.response.content.startswith("It is not your turn now. Waiting for alice.")
    assert calls == ["snapshot"]


async def test_the_game_number_autocompletes_on_every_command_that_takes_one(world: World) -> None:
    """/play, /hand and /board offer the running games the player sits at; /game cancel offers
    lobbies too; /game new and /rules offer the games by name."""
    await start_sprint(world, [world.alice, world.bob])
    lobby = (await world.alice.slash(world.channel, "game new", game="sprint")).response
    assert lobby is not None
    running = []
    for command in ("play", "hand", "board", "game cancel"):
        choices = await world.alice.autocomplete(world.channel, command, "game", "")
        running.append([choice["value"] for choice in choices])
    assert running[:3] == [[1], [1], [1]] and sorted(running[3]) == [1, 2]
    for command in ("game new", "rules"):
        choices = await world.alice.autocomplete(world.channel, command, "game", "spr")
        assert [choice["value"] for choice in choices] == ["sprint"]


def _counted(calls: list[str], name: str, read: Any) -> Any:
    """``read`` (a Referee method), noting its name in ``calls`` at each call."""

    async def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return await read(self, *args, **kwargs)

    return call
