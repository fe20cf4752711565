"""Whole games of Draft Cider on the simulated Discord: two people, then one person alone.

Every pick is chosen from the controls of the picker's private message: one select per pool card
(or, with a larger pool, a card first and then its batch), and now and then typed with /play and
autocomplete. Only the order of the undrawn deck is secret: no undrawn card is ever named.
"""

from __future__ import annotations

import re
from typing import Any

from engine.games.orchard.cards import CODE

from . import whole_games as W
from .conftest import World
from .helpers import dm_messages, public_texts

CARD = re.compile(r"\b(?:(?:Green|Gold|Red)-h\d-s\d|(?:Gr|Go|Re)\d\d)\b")
LEGEND = re.compile(r"Cards: colour-h\(height\)-s\(sweetness\)\.")


def short(code: str) -> str:
    colour, height, sweetness = code.split("-")
    return f"{colour[:2]}{height[1:]}{sweetness[1:]}"


def orchard_secrets(game: Any, state: Any) -> set[str]:
    """The undrawn deck, in the game's card notation and the compact form the board once used."""
    return {form for card in state.deck for form in (CODE[card], short(CODE[card]))}


async def test_two_people_play_a_whole_orchard_game(world: World) -> None:
    env = world.env
    people = [world.alice, world.bob]
    thread = await W.open_table(world, "orchard", people, options="first_picker=host")
    played = await W.play_to_the_end(world, thread, people, seed=5, typed_every=4)

    assert played.human_moves == 24 and played.typed >= 4  # 12 cards each
    assert played.grouped + played.two_step > 0, "a pool of six cards is offered card by card"
    outcome = await W.assert_final_scores(world, thread, played.table_id)
    assert len(outcome.scores) == 2
    assert await W.assert_no_secret_was_public(env, played.table_id, orchard_secrets, CARD, scrub=LEGEND) >= 24
    W.assert_private_views_stayed_private(env)
    W.discord_limits(env)


async def test_one_person_plays_a_whole_solo_orchard_game(world: World) -> None:
    env = world.env
    thread = await W.open_table(world, "orchard", [world.alice])
    [first] = dm_messages(env, world.alice)[:1]
    assert "Your pick" in first.embeds[0].description

    played = await W.play_to_the_end(world, thread, [world.alice], seed=8, typed_every=3)

    assert played.human_moves == 12 and played.typed == 4  # 4 rounds of 3 cards
    final = latest_final_board(thread)
    assert "Final total:" in final.embeds[0].description
    await W.assert_final_scores(world, thread, played.table_id)
    assert "Unrated" in (final.embeds[1].footer.text or "")
    await W.assert_no_secret_was_public(env, played.table_id, orchard_secrets, CARD, scrub=LEGEND)
    assert all("round started with" not in text for text in public_texts(env))  # alone, always first
    W.discord_limits(env)


def latest_final_board(thread: Any) -> Any:
    boards = [message for message in thread.history() if message.embeds and message.author.bot]
    return boards[-1]
