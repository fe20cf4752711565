"""The 2-player Vege tables on the simulated Discord (docs/rules/vegetables-2p.md): the lobby and
/rules say which rules apply at each player count, and two people play a whole game from their DMs
and /play. No card of a Hand that was dealt hidden, nor of the face-down W3, reaches a public message
while it is secret (cards drawn from the face-up wells or taken from the Silos are public)."""

from __future__ import annotations

from typing import Any

from . import whole_games as W
from .conftest import World
from .helpers import first_hands
from .test_vegetables_game import CARD, TRACTOR_COUNT


async def test_the_lobby_and_rules_say_which_rules_apply_at_each_player_count(world: World) -> None:
    opened = await world.alice.slash(world.channel, "game new", game="vegetables")
    fields = {field.name: field.value for field in opened.response.embeds[0].fields}
    note = fields["Rules by player count"]
    assert "2 players: the official 2-player game as Board Game Arena plays it" in note
    assert "with our rulings" in note and "3 or 5 players: house rules" in note
    rules = await world.bob.slash(world.channel, "rules", game="vegetables")
    players = {field.name: field.value for field in rules.response.embeds[0].fields}["Players"]
    assert players.startswith("2-5 players\n2 players: the official 2-player game")


async def test_two_people_play_a_whole_two_player_game(world: World) -> None:
    env = world.env
    people = [world.alice, world.bob]
    thread = await W.open_table(world, "vegetables", people)
    for first in first_hands(env, people):
        assert "your Hand (12 cards)" in first.embeds[0].description
    played = await W.play_to_the_end(world, thread, people, seed=5, typed_every=4)
    assert played.human_moves >= 20 and played.typed >= 5
    await W.assert_final_scores(world, thread, played.table_id)

    dealt_state = (await W.states_by_version(env, played.table_id))[0]
    dealt = {card for seat in dealt_state.seats for card in seat.hand}

    def secrets(game: Any, state: Any) -> set[str]:
        hidden = {card for seat in state.seats for card in seat.hand if card in dealt}
        if not state.revealed:
            hidden |= set(state.wells[2])
        return hidden - set(state.dead)

    boards = await W.assert_no_secret_was_public(env, played.table_id, secrets, CARD, scrub=TRACTOR_COUNT)
    assert boards >= 10
    W.assert_private_views_stayed_private(env)
    W.discord_limits(env)
