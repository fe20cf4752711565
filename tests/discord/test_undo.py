"""/undo through Discord (issue 20): an unrated game takes the move back at once and posts the
board again; a rated game asks the other players in the thread, and the move goes back only when
they all agree."""

from __future__ import annotations

import pytest

from . import helpers as H
from .conftest import World
from .sprint import Sprint
from .test_play import start_sprint


@pytest.fixture
def sprint_undoable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Sprint, "undoable", lambda self, before, seat, move, after: True)


async def test_an_unrated_move_is_taken_back_and_the_board_posted_again(world: World, sprint_undoable) -> None:
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2", speed="untimed")
    before = H.latest_board(thread).embeds[0].description
    await world.alice.slash(thread, "play", move="play a01")
    assert "Pile: a01" in H.latest_board(thread).embeds[0].description
    undone = await world.alice.slash(thread, "undo")
    assert undone.ephemeral and undone.response.content.startswith("You took back **play a01**.")
    board = H.latest_board(thread)
    assert board.embeds[0].description == before and "alice took back play a01." in board.content
    assert H.pinged(world.env, board) == []  # her own answer shows her turn: no ping
    # Bob cannot take back a move he did not make; the game goes on from the position before.
    refused = await world.bob.slash(thread, "undo")
    assert refused.ephemeral and refused.response.content == "There is no move to take back: only the last move of the game can be."
    played = await world.alice.slash(thread, "play", move="play a02")
    assert played.response.content.startswith("You played **play a02**.")
    H.assert_every_interaction_answered(world.env)


async def test_a_rated_undo_asks_the_others_in_the_thread(world: World, sprint_undoable) -> None:
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")  # daily: rated
    await world.alice.slash(thread, "play", move="play a01")
    asked = await world.alice.slash(thread, "undo")
    assert asked.response.content.startswith("This game is rated: bob must agree before **play a01** is taken back.")
    [request] = [m for m in thread.history() if "asks to take back" in (m.content or "")]
    assert H.pinged(world.env, request) == [world.bob.id]
    assert "Pile: a01" in H.latest_board(thread).embeds[0].description  # nothing taken back yet
    # Alice cannot answer her own request; Bob agrees, and the move goes back.
    own = await world.alice.click(request, label="Agree")
    assert "Only the other players" in own.followups[0].content
    agreed = await world.bob.click(request, label="Agree")
    assert agreed.followups[0].content == "You agreed: **play a01** is taken back."
    assert "Pile: a01" not in H.latest_board(thread).embeds[0].description
    closed = thread.history()[[m.id for m in thread.history()].index(request.id)]
    assert "Everyone agreed" in closed.content and H.custom_ids(closed) == []
    H.assert_every_interaction_answered(world.env)


async def test_a_refusal_keeps_the_move(world: World, sprint_undoable) -> None:
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    await world.alice.slash(thread, "play", move="play a01")
    await world.alice.slash(thread, "undo")
    [request] = [m for m in thread.history() if "asks to take back" in (m.content or "")]
    refused = await world.bob.click(request, label="Refuse")
    assert refused.followups[0].content == "You refused: the move stands."
    assert "Pile: a01" in H.latest_board(thread).embeds[0].description
    H.assert_every_interaction_answered(world.env)


async def test_a_move_the_game_calls_final_is_refused_with_the_reason(world: World) -> None:
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2", speed="untimed")
    await world.alice.slash(thread, "play", move="play a01")
    refused = await world.alice.slash(thread, "undo")
    assert refused.response.content.startswith("play a01 cannot be taken back")


async def test_a_request_the_game_moved_past_loses_its_buttons_at_the_first_click(world: World, sprint_undoable) -> None:
    thread = await start_sprint(world, [world.alice, world.bob], "cards=3 rounds=2")
    await world.alice.slash(thread, "play", move="play a01")
    await world.alice.slash(thread, "undo")
    [request] = [m for m in thread.history() if "asks to take back" in (m.content or "")]
    await world.bob.slash(thread, "play", move="play b01")  # any move ends the request
    late = await world.bob.click(request, label="Agree")
    assert late.followups[0].content.startswith("That request to take a move back has ended")
    closed = thread.history()[[m.id for m in thread.history()].index(request.id)]
    assert "This request has ended: the game moved on." in closed.content and H.custom_ids(closed) == []
    assert "Pile: a01" in H.latest_board(thread).embeds[0].description  # nothing taken back
    H.assert_every_interaction_answered(world.env)
