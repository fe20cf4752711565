"""/undo and the Agree / Refuse buttons against everything a server can throw at them (issue 20):
bystanders, forged and stale custom ids, lobbies, finished games, very long names. Every refusal
is private and says why, no error is logged, every interaction is answered."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from . import helpers as H
from .conftest import World
from .sprint import Sprint
from .test_play import start_sprint


@pytest.fixture
def sprint_undoable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Sprint, "undoable", lambda self, before, seat, move, after: True)


async def forged_click(actor: simcord.MemberActor, message: Any, custom_id: str) -> simcord.InteractionResult:
    """A click on a button carrying ``custom_id``, as if the bot had posted it (Discord and
    discord.py take only ids that are on the message): the request's Agree button, its id changed
    in the stored message for one click."""
    stored = actor._message(message)
    agree = stored.components[0]["components"][0]
    real = agree["custom_id"]
    agree["custom_id"] = custom_id
    try:
        return await actor.click(message, custom_id=custom_id)
    finally:
        agree["custom_id"] = real


def answer_text(result: simcord.InteractionResult) -> str:
    parts = [result.response.content if result.response is not None else None]
    parts += [followup.content for followup in result.followups]
    return " ".join(part for part in parts if part)


async def a_request(world: World) -> tuple[simcord.ChannelHandle, Any, int]:
    thread = await start_sprint(world, [world.alice, world.bob, world.carol], "cards=3 rounds=2")  # daily: rated
    await world.alice.slash(thread, "play", move="play a01")
    await world.alice.slash(thread, "undo")
    [request] = [m for m in thread.history() if "asks to take back" in (m.content or "")]
    table_id = int(H.custom_ids(request)[0].split(":")[2])
    return thread, request, table_id


async def test_bystanders_forged_and_stale_answers_are_refused_in_words(world: World, sprint_undoable) -> None:
    thread, request, table_id = await a_request(world)
    refusals = {
        "bystander": await world.eve.click(request, label="Agree"),
        "asker": await world.alice.click(request, label="Refuse"),
        "no such game": await forged_click(world.bob, request, "ref:undo:987654:1:yes"),
        "huge id": await forged_click(world.bob, request, f"ref:undo:{10**30}:1:yes"),
        "wrong version": await forged_click(world.bob, request, f"ref:undo:{table_id}:0:yes"),
        "future version": await forged_click(world.bob, request, f"ref:undo:{table_id}:{10**30}:no"),
    }
    for what, result in refusals.items():
        text = answer_text(result)
        assert text and "Traceback" not in text and len(text) <= 2000, (what, text)
        assert all(followup.ephemeral for followup in result.followups), what
    assert "Only the other players" in answer_text(refusals["bystander"])
    assert "Only the other players" in answer_text(refusals["asker"])
    assert "ended" in answer_text(refusals["wrong version"])
    assert "Pile: a01" in H.latest_board(thread).embeds[0].description
    # The real request still stands: both others agree and the move goes back.
    await world.bob.click(request, label="Agree")
    done = await world.carol.click(request, label="Agree")
    assert "taken back" in answer_text(done)
    assert "Pile: a01" not in H.latest_board(thread).embeds[0].description
    H.assert_every_interaction_answered(world.env)


async def test_a_request_ended_by_a_move_refuses_its_late_answers(world: World, sprint_undoable) -> None:
    thread, request, _ = await a_request(world)
    await world.bob.slash(thread, "play", move="play b01")  # Bob plays on: the request lapses
    late = await world.carol.click(request, label="Agree")
    assert "ended" in answer_text(late) and late.followups[0].ephemeral
    assert "b01" in H.latest_board(thread).embeds[0].description
    H.assert_every_interaction_answered(world.env)


async def test_undo_where_there_is_nothing_to_take_back(world: World, sprint_undoable) -> None:
    lobby = (await world.alice.slash(world.channel, "game new", game="sprint")).response
    in_lobby = await world.alice.slash(world.channel, "undo")
    assert in_lobby.response is None or in_lobby.ephemeral
    assert answer_text(in_lobby) and "Traceback" not in answer_text(in_lobby)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    [thread] = world.channel.threads
    stranger = await world.eve.slash(thread, "undo")
    assert "not playing" in answer_text(stranger) and stranger.ephemeral
    no_such = await world.alice.slash(world.channel, "undo", game=987654)
    assert answer_text(no_such) and no_such.ephemeral
    H.assert_every_interaction_answered(world.env)


async def test_a_finished_game_takes_nothing_back(world: World, sprint_undoable) -> None:
    thread = await start_sprint(world, [world.alice, world.bob], "cards=1 rounds=1", speed="untimed")
    await world.alice.slash(thread, "play", move="play a01")
    await world.bob.slash(thread, "play", move="play b01")  # the last card: the game is over
    late = await world.bob.slash(thread, "undo")
    assert late.ephemeral and answer_text(late) and "took back" not in answer_text(late)
    H.assert_every_interaction_answered(world.env)


async def test_the_request_fits_discord_with_the_longest_names(world: World, sprint_undoable) -> None:
    long = [world.guild.add_member(world.env.create_user(("W" * 31) + str(n))) for n in range(4)]
    thread = await start_sprint(world, long, "cards=3 rounds=2")
    await long[0].slash(thread, "play", move="play a01")
    asked = await long[0].slash(thread, "undo")
    assert len(asked.response.content) <= 2000
    [request] = [m for m in thread.history() if "asks to take back" in (m.content or "")]
    assert len(request.content) <= 2000 and sorted(H.pinged(world.env, request)) == sorted(m.id for m in long[1:])
    for member in long[1:]:
        result = await member.click(request, label="Agree")
        assert len(answer_text(result)) <= 2000
    closed = thread.history()[[m.id for m in thread.history()].index(request.id)]
    assert len(closed.content) <= 2000 and "Everyone agreed" in closed.content
    H.assert_every_interaction_answered(world.env)


async def test_asking_again_does_not_ping_the_others_again(world: World, sprint_undoable) -> None:
    thread, request, _ = await a_request(world)
    again = await world.alice.slash(thread, "undo")
    assert "already asked" in answer_text(again) and again.ephemeral
    assert len([m for m in thread.history() if "asks to take back" in (m.content or "")]) == 1
    # A refusal ends it; asking once more is a new request, posted again.
    await world.bob.click(request, label="Refuse")
    await world.alice.slash(thread, "undo")
    assert len([m for m in thread.history() if "asks to take back" in (m.content or "")]) == 2
    H.assert_every_interaction_answered(world.env)
