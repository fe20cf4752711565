"""A whole game of Vege tables on the simulated Discord: two people and two AI seats.

The people play every move of their turns from the select in their DMs (or the ephemeral answer
to their last /play), and now and then type it with /play and autocomplete. At the end the board
shows the final scores; no hidden card, well or face-down field card ever reached a public message.
"""

from __future__ import annotations

import re
from typing import Any

from . import whole_games as W
from .conftest import World
from .helpers import first_hands

CARD = re.compile(r"(?<![\w@#:])[KGRYT]\d{1,2}(?!\w)")
TRACTOR_COUNT = re.compile(r"\(T\d?\)")  # "(T2)" on the board: how many Tractors a stack holds


def vegetables_secrets(game: Any, state: Any) -> set[str]:
    """Hidden hands, wells and face-down field cards; a dead card's identity is public."""
    hidden = {card for seat in state.seats for card in (*seat.hand, *seat.well)}
    hidden |= {card for card in state.cells if card}
    return hidden - set(state.dead)


async def test_two_people_and_two_ai_play_a_whole_vegetables_game(world: World) -> None:
    env = world.env
    people = [world.alice, world.bob]
    thread = await W.open_table(world, "vegetables", people, ai=2)
    for first in first_hands(env, people):  # every hand arrived by DM, naming the game
        assert first.embeds[0].title == "Vege tables #1: your hand"
        assert "your hand (8 hidden cards)" in first.embeds[0].description

    played = await W.play_to_the_end(world, thread, people, seed=3, typed_every=5)

    assert played.human_moves >= 20 and played.typed >= 3
    await W.assert_final_scores(world, thread, played.table_id)
    boards = await W.assert_no_secret_was_public(
        env, played.table_id, vegetables_secrets, CARD, scrub=TRACTOR_COUNT
    )
    assert boards >= 10
    W.assert_private_views_stayed_private(env)
    W.discord_limits(env)
