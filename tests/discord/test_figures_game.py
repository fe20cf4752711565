"""A whole Figures match on the simulated Discord: four people, slash commands and buttons only.

The four players open the lobby, join and start with buttons, then play every move the way a
person would: pinged by the board, mostly from the controls its **Play your turn** button opens
for them (their first turn: from the hand dealt to them by DM), sometimes by typing /play with
autocomplete.
The bot is restarted halfway through and the match goes on from messages sent before the restart.
At the end the board shows the final scores, and no hand was ever shown in a public message.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import simcord

from bot import RefereeBot
from engine.games import get_game

from .conftest import World
from .helpers import (
    assert_every_interaction_answered,
    assert_not_public,
    choose_in_private_message,
    dm_messages,
    latest_board,
    latest_dm_with_controls,
    open_my_turn,
    pinged,
    private_messages,
    public_texts,
    stored_bot_messages,
    waiting_for,
)
from .whole_games import latest_board as latest_board_data
from .whole_games import open_table, play_to_the_end

CARD = re.compile(r"(?<![\w])[1-7JNK][dcsb](?![\w])")
DURATION = re.compile(r"\b\d+d \d+h\b")  # a clock ("1d 12h"), not the card 1d
FOOTER_VERSION = re.compile(r'"footer": \{"text": "move (\d+)"\}')
OPTIONS = "match_end=hands number_of_hands=1"


async def test_four_people_play_a_whole_figures_match(
    world: World, bot_factory: Callable[[], RefereeBot]
) -> None:
    env = world.env
    rng = random.Random(2024)
    players = world.players
    lobby = (
        await world.alice.slash(world.channel, "game new", game="figures", options=OPTIONS)
    ).response
    assert "`match_end=hands`" in lobby.embeds[0].fields[1].value
    assert "`target_score=" not in lobby.embeds[0].fields[1].value  # it does not apply to hands
    for player in players[1:]:
        await player.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    [thread] = world.channel.threads
    for player in players:  # every hand arrived privately, naming the game
        [first] = dm_messages(env, player)
        assert first.embeds[0].title == "Figures #1: your hand"
        assert "your hand (10):" in first.embeds[0].description

    turns = typed = 0
    calls_per_click: list[int] = []
    restarted = False
    by_id = {player.id: player for player in players}
    last_mover = None
    while True:
        board = latest_board(thread)
        to_act = waiting_for(board)
        if not to_act:
            break
        assert len(to_act) == 1, "Figures is turn based: one player named per board"
        # Pinged, unless the player named just moved themselves (their answer shows the new turn);
        # a restarted bot pings whoever it names first.
        if last_mover is not None:
            assert pinged(env, board) == ([] if to_act[0] == last_mover else to_act)
        player = by_id[to_act[0]]
        last_mover = None if turns == 20 else player.id
        if turns % 5 == 4:
            choices = await player.autocomplete(thread, "play", "move", "")
            assert choices, "autocomplete offers the legal moves of the player to act"
            move = rng.choice(choices)["value"]
            result = await player.slash(thread, "play", move=move)
            assert result.ephemeral and result.response.content.startswith(f"You played **{move}**.")
            typed += 1
        else:
            if turns == 0:  # the first player's dealt hand came with their moves
                message = latest_dm_with_controls(env, player)
                assert message is not None, f"{player.name} was dealt a hand without their moves"
            else:
                before = len(env.http_requests)
                message = await open_my_turn(player, thread)
                assert len(env.http_requests) - before == 1  # the interaction's answer, nothing else
            before = len(env.http_requests)
            await choose_in_private_message(player, message, rng.choice)
            calls_per_click.append(len(env.http_requests) - before)
        turns += 1
        if turns == 20 and not restarted:
            await env.restart_bot(bot_factory())
            restarted = True
            last_mover = None
        assert turns < 400, "the match does not end"

    assert restarted and typed >= 3
    # A move costs at most 3 REST calls: acknowledge, update the clicked message, post the board
    # (which pings the next player). Nobody is DMed at every move: only the deal changed a hand
    # by someone else's doing (one hand is played here).
    assert max(calls_per_click) <= 3, calls_per_click
    for player in players:
        assert len(dm_messages(env, player)) == 1, "a DM for the deal only"
    final = latest_board(thread)
    assert "**Game over.**" in final.content
    referee = env.bot.referee
    outcome = await referee.outcome(1)
    table = await referee.table(1)
    # Best first; ties in play order (the drawn seating), as the board lists the seats.
    expected = "\n".join(
        f"{outcome.ranks[seat]}. {table.seats[seat].name}: {int(outcome.scores[seat])}"
        for seat in sorted(range(4), key=lambda seat: (outcome.ranks[seat], outcome.seating.index(seat)))
    )
    assert final.embeds[1].title == "Final scores" and final.embeds[1].description == expected
    assert_every_interaction_answered(env)
    await assert_no_hand_was_public(env, referee)


BOARD_ROW = re.compile(r"^[> ]\s*(\d)\s+(\w+)\s+([AB])\s")


async def test_a_pairs_match_ends_with_the_pairs_numbered_as_on_the_board(world: World) -> None:
    """The game-over message names each seat's pair with the board's seat numbers (play order),
    not the lobby's: "Pair A (seats 1 + 3)" is the pair the board shows at seats 1 and 3."""
    people = world.players
    world.env.bot.referee.new_seed = lambda: 1  # a seed whose draw seats the lobby's 2 + 4 first
    thread = await open_table(world, "figures", people, options=f"{OPTIONS} mode=pairs")
    played = await play_to_the_end(world, thread, people, seed=3)
    final = latest_board_data(thread)
    assert "**Game over.**" in final.content
    board = re.search(r"```\n(.*?)\n```", final.embeds[0]["description"], re.S).group(1)
    rows = [match.groups() for line in board.splitlines() if (match := BOARD_ROW.match(line))]
    assert len(rows) == 4, board
    seats_of = {pair: [int(number) for number, _, p in rows if p == pair] for pair in "AB"}
    label = {name: f"Pair {pair} (seats {' + '.join(map(str, seats_of[pair]))})" for _, name, pair in rows}
    assert sorted(label.values()) == ["Pair A (seats 1 + 3)"] * 2 + ["Pair B (seats 2 + 4)"] * 2
    outcome = await world.env.bot.referee.outcome(played.table_id)
    assert outcome.seating == [1, 0, 3, 2]
    lines = final.embeds[1]["description"].splitlines()
    assert final.embeds[1]["title"] == "Final scores" and len(lines) == 4
    for line in lines:
        name = re.match(r"\d\. (\w+): ", line).group(1)
        assert line.endswith(f" · {label[name]}"), (line, board)
    # The lobby message, once started, numbered the seats as the board does.
    [started] = [m for m in world.channel.history() if m.embeds and m.embeds[0].title == "Figures #1: started"]
    ids = {person.name: person.id for person in people}
    seats = started.embeds[0].fields[0].value.splitlines()
    assert [re.match(r"(\d)\. <@(\d+)>", line).groups() for line in seats] == [
        (number, str(ids[name])) for number, name, _ in rows
    ]
    # /history names the same pairs.
    history = (await world.eve.slash(world.channel, "history")).response.embeds[0].description
    for _, name, pair in rows:
        assert re.search(rf"\d\. {name} \d+ \(pair {pair}\)", history), (name, pair, history)


async def assert_no_hand_was_public(env: simcord.Env, referee) -> None:
    """Replay the match and check every board against the hands held when it was posted."""
    record = await referee.record(1)
    game = get_game("figures")
    state = game.new_game(record.players, record.seed, record.options)
    hands_at = [[set(game.view(state, seat)["hand"]) for seat in range(4)]]
    for recorded in record.moves:
        state, _ = game.apply(state, recorded.seat, game.parse_move(recorded.move))
        hands_at.append([set(game.view(state, seat)["hand"]) for seat in range(4)])
    boards = [
        message
        for message in stored_bot_messages(env)
        if message.embeds
        and message.embeds[0].get("footer")
        and message.channel_id in env.backend.channels
        and env.backend.get_channel(message.channel_id).guild_id is not None
        and not message.is_ephemeral
    ]
    assert boards
    for message in boards:
        version = int(message.embeds[0]["footer"]["text"].split()[-1])
        shown = set(CARD.findall(DURATION.sub("", message.content + str(message.embeds))))
        held = set().union(*hands_at[version])
        assert not shown & held, f"board at move {version} shows cards still in a hand: {shown & held}"
    # Every private view sent (DMs, ephemeral answers) stayed out of public messages.
    private_blocks = {
        block
        for message in private_messages(env)
        for embed in message.embeds
        for block in re.findall(r"```\n(.*?)\n```", embed.get("description", ""), re.S)
        if "your hand" in block
    }
    assert private_blocks
    assert_not_public(env, private_blocks, "private view")
    assert all("your hand (" not in text for text in public_texts(env))
