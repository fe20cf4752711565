"""Hint on Discord: the private turn view of an unrated game has a Hint button that answers, only
to the clicker, what the normal AI would play and why; rated games have none, and the referee
refuses a hint there."""

from __future__ import annotations

import pytest

from engine.referee import HintRefused

from . import helpers as H
from .conftest import World
from .test_play import start_sprint


async def test_hint_says_what_normal_would_play_only_to_the_player(world: World) -> None:
    thread = await start_sprint(world, [world.alice], ai=1)  # an AI seat: unrated
    turn = await H.open_my_turn(world.alice, thread)
    hint_ids = [cid for cid in H.custom_ids(turn) if cid.startswith("ref:hint:")]
    assert hint_ids == [f"ref:hint:1:{H.private_version(turn)}"]
    legal = H.move_options(turn)
    clicked = await world.alice.click(turn, custom_id=hint_ids[0])
    assert clicked.ephemeral  # deferred ("thinking…"), then filled in with the hint
    text = clicked.response.content
    assert text.startswith("normal would choose ") and "\n" not in text and len(text) <= 2000
    move = text.removeprefix("normal would choose ").split(":")[0]
    assert move in legal
    # The sprint's normal level is its greedy player: it plays the highest card, and says its gain.
    assert move == max(legal) and "right away" in text
    assert text not in "\n".join(H.public_texts(world.env))
    H.assert_every_interaction_answered(world.env)


async def test_rated_games_offer_no_hint_and_the_referee_refuses_one(world: World) -> None:
    thread = await start_sprint(world, [world.alice, world.bob], speed="daily-2")  # two people: rated
    turn = await H.open_my_turn(world.alice, thread)
    assert H.move_options(turn) and not [cid for cid in H.custom_ids(turn) if cid.startswith("ref:hint:")]
    with pytest.raises(HintRefused, match="Hints are off in rated games"):
        await world.env.bot.referee.hint(1, str(world.alice.id))


async def test_a_hint_is_refused_to_a_player_who_need_not_act(world: World) -> None:
    await start_sprint(world, [world.alice, world.bob], speed="untimed")  # unrated: friends
    with pytest.raises(HintRefused, match="not your turn"):
        await world.env.bot.referee.hint(1, str(world.bob.id))
    assert "normal would choose" in await world.env.bot.referee.hint(1, str(world.alice.id))
