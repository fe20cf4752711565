"""Pictures on Discord (cogs/pictures.py): every board in the thread and every private view carries
its picture in the same message as its text, with the text as alt text; the game-over message
carries the result; /stats a rating chart; a server (Manage Server) or a player turns them off.

Sprint draws with the test drawer (tests/picture_drawer.py) here; the REST calls are counted from
SimCord's request log as in test_play.py and the benchmark (bench/discord_calls.py).
"""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bench.discord_calls import is_interaction_response, route
from engine.games import get_game
from engine.referee.pictures import ALT_LIMIT

from .. import picture_drawer
from .conftest import World
from .helpers import (
    assert_not_public,
    choose_in_private_message,
    dm_messages,
    latest_board,
    open_my_turn,
    pinged,
    public_payloads,
    thread_messages,
)
from .test_community import open_game, play_short_game
from .test_play import highest, start_sprint


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    picture_drawer.drawing(monkeypatch, get_game("sprint"))


def attachment(message: Any, filename: str) -> Any:
    """The attachment ``filename`` of a message (discord.Message or SimCord's response), or None."""
    found = [item for item in message.attachments if item.filename == filename]
    assert len(found) <= 1
    return found[0] if found else None


def image_url(embed: Any) -> str | None:
    if isinstance(embed, dict):
        return (embed.get("image") or {}).get("url")
    return embed.image.url


def assert_picture(message: Any, filename: str, embed_index: int = 0) -> Any:
    """The message shows ``filename`` in its embed, with alt text that fits Discord's limit."""
    picture = attachment(message, filename)
    assert picture is not None, f"no {filename} on the message"
    assert image_url(message.embeds[embed_index]) == f"attachment://{filename}"
    assert picture.description and len(picture.description) <= ALT_LIMIT
    return picture


def assert_no_picture(message: Any) -> None:
    assert [item.filename for item in message.attachments if item.filename.endswith(".png")] == []
    assert all(image_url(embed) is None for embed in message.embeds)


async def play_out(world: World, thread: simcord.ChannelHandle, players: list[simcord.MemberActor]) -> None:
    """Each pinged player plays through **Play your turn** until the game is over."""
    while True:
        to_act = [player for player in players if player.id in pinged(world.env, latest_board(thread))]
        if not to_act:
            return
        await choose_in_private_message(to_act[0], await open_my_turn(to_act[0], thread), highest)


def routes(world: World, since: int) -> list[str]:
    """The REST requests made since ``since``, by route, interaction responses left out (and the
    opening of a DM channel, which discord.py does once per user and process)."""
    return [
        route(request.method, request.path)
        for request in world.env.http_requests[since:]
        if not is_interaction_response(request.method, request.path)
        and route(request.method, request.path) != "POST /users/@me/channels"
    ]


async def test_boards_and_private_views_carry_their_picture_in_the_same_message(
    world: World, drawn: None
) -> None:
    env = world.env
    thread = await start_sprint(world, [world.alice, world.bob])
    board = latest_board(thread)
    shown = assert_picture(board, "board.png")
    assert shown.description.startswith("Scores: alice 0, bob 0")  # the board's own text
    assert shown.description in board.embeds[0].description  # and the text stays in the message
    [alice_dm] = dm_messages(env, world.alice)
    hand = assert_picture(alice_dm, "hand.png")
    assert "Your hand: a01 a02 a03" in hand.description

    # A move through the DM's controls: the clicked DM shows the new hand and the board its
    # picture, in the same three requests as without pictures (test_play.py).
    before = len(env.http_requests)
    await choose_in_private_message(world.alice, alice_dm, highest)
    calls = [f"{request.method} {request.path.split('/')[1]}" for request in env.http_requests[before:]]
    assert calls == ["POST interactions", "PATCH webhooks", "POST channels"], calls
    edited = env.backend.get_message(alice_dm.channel.id, alice_dm.id)
    assert [item["filename"] for item in edited.attachments] == ["hand.png"]
    assert "Your hand: a01 a02" in edited.attachments[0]["description"]
    board = latest_board(thread)
    assert "alice plays a03 (+3)." in board.content
    assert "alice 3" in assert_picture(board, "board.png").description

    # Play your turn and Show my hand: the ephemeral answer carries the hand.
    turn = await open_my_turn(world.bob, thread)
    assert "Your hand: b01 b02 b03" in assert_picture(turn, "hand.png").description
    shown = await world.alice.click(latest_board(thread), label="Show my hand")
    assert "Your hand: a01 a02" in assert_picture(shown.response, "hand.png").description

    await play_out(world, thread, [world.alice, world.bob])
    final = latest_board(thread)
    assert "**Game over.**" in final.content
    assert_picture(final, "board.png")
    result = assert_picture(final, "result.png", embed_index=1)
    assert final.embeds[1].title == "Final scores"
    assert result.description.startswith("Final scores") and "(winner)" in result.description
    # No hand, and no secret, ever went public: not in a text, not in an alt text.
    secrets = {f"secret{letter}" for letter in "ab"} | {"Your hand"}
    assert_not_public(env, secrets)
    for payload in public_payloads(env):
        assert not any(secret in payload for secret in secrets), payload[:300]


async def test_pictures_add_no_rest_call_to_a_whole_game(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same game (same seed, same moves) with and without pictures: the same requests."""
    plain = len(world.env.http_requests)
    first = await start_sprint(world, [world.alice, world.bob], "rounds=3")
    await play_out(world, first, [world.alice, world.bob])
    without = routes(world, plain)
    assert_no_picture(latest_board(first))

    picture_drawer.drawing(monkeypatch, get_game("sprint"))
    drawn_from = len(world.env.http_requests)
    before = {thread.id for thread in world.channel.threads}
    lobby = (await world.alice.slash(world.channel, "game new", game="sprint", options="rounds=3")).response
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    [second] = [thread for thread in world.channel.threads if thread.id not in before]
    await play_out(world, second, [world.alice, world.bob])
    assert_picture(latest_board(second), "result.png", embed_index=1)
    assert routes(world, drawn_from) == without
    assert picture_drawer.DRAWS.count("board") >= 7  # every board of the game was drawn


async def test_a_server_manager_turns_pictures_off_for_the_server(world: World, drawn: None) -> None:
    refused = await world.alice.slash(world.channel, "settings server-pictures", enabled=False)
    assert refused.ephemeral and refused.response.content.startswith("Only members with Manage Server")
    thread = await start_sprint(world, [world.alice, world.bob])
    assert_picture(latest_board(thread), "board.png")
    done = await world.moderator.slash(world.channel, "settings server-pictures", enabled=False)
    assert done.response.content.startswith("Pictures off")
    await world.eve.slash(thread, "board")
    assert_no_picture(latest_board(thread))
    turn = await open_my_turn(world.alice, thread)
    assert_no_picture(turn)
    await choose_in_private_message(world.alice, turn, highest)
    assert_no_picture(latest_board(thread))
    assert "alice plays a03 (+3)." in latest_board(thread).content  # the text, as before pictures
    await world.moderator.slash(world.channel, "settings server-pictures", enabled=True)
    assert_picture(await open_my_turn(world.bob, thread), "hand.png")


async def test_a_player_turns_pictures_off_for_their_own_private_views(world: World, drawn: None) -> None:
    done = await world.alice.slash(world.channel, "settings pictures", enabled=False)
    assert done.ephemeral and done.response.content.startswith("Pictures off")
    thread = await start_sprint(world, [world.alice, world.bob])
    [alice_dm] = dm_messages(world.env, world.alice)
    [bob_dm] = dm_messages(world.env, world.bob)
    assert_no_picture(alice_dm)
    assert "Your hand: a01 a02 a03" in alice_dm.embeds[0].description  # the text is all there
    assert_picture(bob_dm, "hand.png")
    assert_no_picture(await open_my_turn(world.alice, thread))
    assert_picture(latest_board(thread), "board.png")  # boards are the server's choice
    await world.alice.slash(world.channel, "settings pictures", enabled=True)
    assert_picture(await open_my_turn(world.alice, thread), "hand.png")
    # /board: a fresh board with its picture.
    fresh = await world.eve.slash(thread, "board")
    assert "Scores: alice 0" in assert_picture(fresh.response, "board.png").description


async def test_stats_shows_the_rating_over_time(world: World, drawn: None) -> None:
    await play_short_game(world, world.alice, world.bob)
    await play_short_game(world, world.bob, world.alice)
    stats = await world.eve.slash(world.channel, "stats", user=world.alice)
    chart = assert_picture(stats.response, "rating.png")
    assert chart.description.startswith("alice's rating over time. Sprint: 0.0 to ")
    assert "over 2 rated games" in chart.description
    # Nobody rated yet: no chart; a server with pictures off: none either.
    assert_no_picture((await world.eve.slash(world.channel, "stats")).response)
    await world.moderator.slash(world.channel, "settings server-pictures", enabled=False)
    plain = await world.eve.slash(world.channel, "stats", user=world.alice)
    assert_no_picture(plain.response)
    assert plain.response.embeds[0].title == "alice: stats"


async def test_a_long_board_keeps_its_text_file_beside_the_picture(world: World, drawn: None) -> None:
    thread = await open_game(world, [world.alice, world.bob], "untimed", "bulk=400")
    board = latest_board(thread)
    assert attachment(board, "sprint-1-board.txt") is not None  # the whole text, as before
    assert len(assert_picture(board, "board.png").description) <= ALT_LIMIT
    assert len(thread_messages(thread)) >= 1
