"""A whole game of Granja on the simulated Discord: two people, six rounds, every decision by hand.

Granja has simultaneous secret steps (card plays, the harvest prompt, donkey markers): both people
are asked at once (pinged by one board), each answers from their own controls (the hand dealt by
DM, or what the board's **Play your turn** opens for them), and nothing of an answer reaches a
public message before the reveal. Its many moves come as several selects grouped by verb, or as a
two-step choice (a group of moves, then the move). Some moves are typed with /play.
"""

from __future__ import annotations

import re
from typing import Any

import simcord

from engine.games import get_game

from .conftest import World
from .helpers import (
    assert_not_public,
    choose_in_private_message,
    components,
    dm_messages,
    first_hands,
    pinged,
    public_payloads,
    waiting_for,
)
from .whole_games import (
    Played,
    Players,
    assert_final_scores,
    assert_no_secret_was_public,
    assert_private_views_stayed_private,
    discord_limits,
    footer_version,
    latest_board,
    open_table,
    play_to_the_end,
    private_version,
)

CARD = re.compile(r"\b(?:C\d{3}|R\d-[A-D])\b")
SECRET_STEPS = ("F1", "F3", "T1")
SECRET_LINE = "Your secret choice (hidden until the reveal): "


def granja_secrets(game: Any, state: Any) -> set[str]:
    """Hands (pending card plays stay in them until the reveal), the deck, future roofs, and
    each pending donkey marker as it would be written."""
    hidden = {card for farm in state.farms for card in farm.hand} | set(state.deck)
    hidden |= {roof for later in state.roofs_future[state.round :] for roof in later}
    hidden |= {f"donkey {choice.donkey}" for choice in state.choices if choice.donkey}
    return hidden


class SecretWatch:
    """Checks, while the game is played, that each secret answer stays out of public messages."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.step_start = 0  # REST requests before the current step
        self.both_asked = 0
        self.checked = 0

    async def on_ping(self, played: Played, to_act: list[simcord.MemberActor], players: Players) -> None:
        env = self.world.env
        self.step_start = len(env.http_requests)
        if len(to_act) < 2:
            return
        # Asked at once: each person named gets controls from the moment the board asked them at
        # least (a DM, the answer to their own move that started the step, or the board's button);
        # the driver then clicks them, after the other's answer too, and no click is refused.
        thread = self.world.channel.threads[-1]
        board = footer_version(latest_board(thread).embeds[0])
        for person in to_act:
            message = await players.controls_for_turn(person, thread)
            assert private_version(message) >= board, f"{person.name} was not asked"
        self.both_asked += 1

    async def after_move(self, played: Played, person: simcord.MemberActor, move: str) -> None:
        env = self.world.env
        referee = env.bot.referee
        table = await referee.table(played.table_id)
        if table.status != "running":
            return
        state = await referee.state(played.table_id)
        if state.phase not in SECRET_STEPS:
            return
        text = await referee.private_text(played.table_id, str(person.id))
        pending = [line for line in text.splitlines() if line.startswith(SECRET_LINE)]
        if not pending:
            return
        parts = pending[0].removeprefix(SECRET_LINE).split("; ")
        seat = table.seat_of(str(person.id))
        cards = {play.card for play in state.choices[seat.index].plays}
        for public in public_payloads(env, since=self.step_start):
            for secret in [*parts, *cards]:
                assert secret not in public, f"{person.name}'s secret {secret!r} is public: {public[:300]}"
        self.checked += 1


async def test_two_people_play_a_whole_granja_game(world: World) -> None:
    env = world.env
    people = [world.alice, world.bob]
    thread = await open_table(world, "granja", people)
    for first in first_hands(env, people):
        assert first.embeds[0].title == "Granja #1: your hand"
        assert "Choose your secret card play 1" in first.embeds[0].description
        # Each move says what it does under its notation: the side of the card, in words.
        described = {
            option["value"]: option.get("description")
            for component in components(first)
            if component.get("custom_id", "").startswith("ref:ms:")
            for option in component["options"]
        }
        fields = [value for value in described if value.startswith("play ") and value.endswith(" field")]
        assert fields and all(re.fullmatch(r"an? \w+ field", described[value] or "") for value in fields)

    watch = SecretWatch(world)
    played = await play_to_the_end(
        world,
        thread,
        people,
        seed=12,  # a game whose controls include a two-step choice
        typed_every=7,
        on_ping=watch.on_ping,
        after_move=watch.after_move,
    )

    assert played.typed >= 10
    assert played.two_step > 0 and played.grouped > 0, "granja's many moves come grouped"
    assert watch.both_asked >= 6 and watch.checked >= 12  # the secret steps of six rounds
    outcome = await assert_final_scores(world, thread, played.table_id)
    assert get_game("granja").is_over(await env.bot.referee.state(played.table_id))
    assert len(outcome.scores) == 2
    boards = await assert_no_secret_was_public(env, played.table_id, granja_secrets, CARD)
    assert boards >= 50
    assert_private_views_stayed_private(env)
    discord_limits(env)


def a_field_play(offered: list[str]) -> str:
    return next((move for move in offered if move.startswith("play ") and move.endswith(" field")), "-")


async def test_one_answer_to_a_secret_step_disturbs_nobody_and_the_other_dm_still_works(
    world: World,
) -> None:
    env = world.env
    thread = await open_table(world, "granja", [world.alice, world.bob])
    board = latest_board(thread)
    both = [world.alice.id, world.bob.id]
    assert waiting_for(board) == both and pinged(env, board) == both  # asked at once
    [alice_dm] = dm_messages(env, world.alice)
    [bob_dm] = dm_messages(env, world.bob)
    posted = len(thread.history())

    alice_move, _ = await choose_in_private_message(world.alice, alice_dm, a_field_play)
    # Alice's secret answer: no board, no ping, and no second DM for Bob, whose view is unchanged.
    assert len(thread.history()) == posted
    assert len(dm_messages(env, world.bob)) == 1
    # Bob answers from the DM he got at the start, though the game has moved on since.
    bob_move, result = await choose_in_private_message(world.bob, bob_dm, a_field_play)
    assert not result.followups, [message.content for message in result.followups]
    answered = env.backend.get_message(bob_dm.channel.id, bob_dm.id)
    assert answered.content.startswith(f"You played **{bob_move}**.")
    assert f"Your secret choice (hidden until the reveal): {bob_move}" in answered.embeds[0]["description"]
    assert len(thread.history()) == posted
    assert_not_public(env, {alice_move, bob_move, alice_move.split()[1], bob_move.split()[1]}, "secret play")
