"""Messages that would break Discord's limits are split or attached, never cut silently or refused."""

from __future__ import annotations

import pytest

from cogs.render import CUT_NOTE
from engine.games import get_game

from . import helpers as H
from .conftest import World
from .test_play import highest, start_sprint
from .whole_games import discord_limits


async def test_a_long_log_goes_first_in_messages_of_its_own_and_nothing_is_lost(world: World) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice], "chatter=60", ai=1)
    before = len(thread.history())
    # Alice's move and the AI's answer: two moves of sixty log lines each, about 6000 characters.
    await H.choose_in_private_message(world.alice, H.latest_dm_with_controls(env, world.alice), highest)
    posted = thread.history()[before:]
    *logs, board = posted
    assert board.id == H.latest_board(thread).id
    assert len(logs) >= 3 and all(not message.embeds and not message.components for message in logs)
    assert all(len(message.content) <= 2000 for message in [*logs, board])
    lines = "\n".join(message.content for message in logs).splitlines()
    assert lines[0] == "alice plays a03 (+3)." and lines[61].startswith("Ada (AI) plays ")
    assert lines[1:61] == [f"Line {n} of the chatter after alice's move 1." for n in range(1, 61)]
    assert lines[62:] == [f"Line {n} of the chatter after Ada (AI)'s move 2." for n in range(1, 61)]
    assert all(H.pinged(env, message) == [] for message in logs)
    # The board itself only says who is to act; it is Alice's turn again (her own answer shows it).
    assert board.content.startswith(f"<@{world.alice.id}>: your turn") and H.waiting_for(board) == [
        world.alice.id
    ]
    discord_limits(env)


async def test_a_board_or_hand_too_long_for_an_embed_is_cut_there_and_attached_whole(world: World) -> None:
    env = world.env
    # About 6400 characters of board and of hand: more than an embed's 4096.
    options = "bulk=110 cards=3 rounds=1"
    lobby = (await world.alice.slash(world.channel, "game new", game="sprint", options=options)).response
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    [thread] = world.channel.threads
    board = H.latest_board(thread)
    description = board.embeds[0].description
    assert len(description) <= 4096 and description.endswith(f"{CUT_NOTE}\n```")
    [attached] = board.attachments
    assert attached.filename == "sprint-1-board.txt"
    whole = (await attached.read()).decode()
    assert whole.startswith("Scores: alice 0, bob 0")
    assert "Board filler line 109: nothing to see here, just length.\nClocks: alice" in whole
    # The hand: cut in the DM's embed (the secret word is at its very end), whole in the file.
    [dm] = H.dm_messages(env, world.alice)
    assert "Your secret word" not in dm.embeds[0].description
    [hand] = dm.attachments
    assert hand.filename == "sprint-1-your-hand.txt"
    assert (await hand.read()).decode().endswith("Your secret word: secreta04242")
    # A move from the long DM: the DM is updated in place, with the new hand attached.
    await H.choose_in_private_message(world.alice, dm, highest)
    [updated] = env.backend.get_message(dm.channel.id, dm.id).attachments
    assert updated["filename"] == "sprint-1-your-hand.txt"
    # /board and /hand answer the same way.
    again = await world.bob.slash(thread, "board")
    assert [file.filename for file in again.response.attachments] == ["sprint-1-board.txt"]
    mine = await world.bob.slash(thread, "hand")
    assert mine.ephemeral and [file.filename for file in mine.response.attachments] == [
        "sprint-1-your-hand.txt"
    ]
    H.assert_not_public(env, {"secreta04242", "secretb04242"}, "secret word")
    discord_limits(env)


@pytest.mark.parametrize("name", ["figures", "granja", "orchard", "vegetables", "sprint"])
async def test_rules_show_the_whole_notation_in_monospace_within_the_limits(
    world: World, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = get_game(name)
    if name == "sprint":  # a notation three times longer than an embed field
        help_text = "\n".join(f"move form {n:03d}    play a{n:02d}    (what it does)" for n in range(60))
        monkeypatch.setattr(type(game), "notation_help", help_text)
    answer = await world.alice.slash(world.channel, "rules", game=name)
    [embed] = answer.response.embeds
    fields = [field.value for field in embed.fields if field.name.startswith("Writing moves")]
    assert all(value.startswith("```\n") and value.endswith("\n```") for value in fields)
    shown = "\n".join(value[4:-4] for value in fields)
    assert shown == game.notation_help.rstrip()
    assert embed.description == game.summary
    discord_limits(world.env)
