"""Whole games of the registered games on the simulated Discord, played like people play them.

``open_table`` opens a lobby with ``/game new``, the other people join with the lobby's button and
the host starts it. ``play_to_the_end`` then answers every ping on the game's board: the pinged
players choose their move from the controls of their latest private message when it is from
their current turn (a DM, or the ephemeral answer to their previous move), else from those the
board's **Play your turn** button opens, opening grouped or two-step selects like a person,
and now and then type it with ``/play`` after asking autocomplete. The move a player wants is
the one the game's own greedy AI would choose, so the games look like real games and end.

``discord_limits`` measures every payload the bot sent against Discord's hard limits, and
``assert_no_secret_was_public`` replays a finished game and checks every public board against the
secrets (hands, wells, pending choices, the deck) held at the version that board shows.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import simcord
from simcord.results import ResponseMessage, to_discord_message

from engine.games import get_game

from .conftest import World
from .helpers import (
    choose_in_private_message,
    components,
    custom_ids,
    footer_version,
    is_guild_channel,
    private_version,
    public_payloads,
    public_texts,
    stored_bot_messages,
    waiting_for,
)

CONTROL_PREFIXES = ("ref:mv:", "ref:ms:", "ref:mg:")


def has_controls(message: Any) -> bool:
    return any(cid.startswith(CONTROL_PREFIXES) for cid in custom_ids(message))


async def open_table(
    world: World,
    game: str,
    people: list[simcord.MemberActor],
    *,
    ai: int = 0,
    options: str | None = None,
    level: str = "easy",
) -> simcord.ChannelHandle:
    """The host (first person) opens the lobby with ``ai`` AI seats (at ``level``: easy, the
    quick one, since these games are about what Discord is sent, not how well the AI plays); the
    others join; the host starts."""
    arguments: dict[str, Any] = {"game": game}
    if options:
        arguments["options"] = options
    if ai:
        arguments["ai"] = ai
        arguments["level"] = level
    opened = await people[0].slash(world.channel, "game new", **arguments)
    assert opened.acknowledged and not opened.ephemeral, opened
    lobby = opened.response
    for person in people[1:]:
        joined = await person.click(lobby, label="Join")
        assert not joined.ephemeral, joined.response.content
    started = await people[0].click(lobby, label="Start")
    assert not [message for message in started.followups if message.ephemeral], started.followups
    threads = world.channel.threads
    assert threads, "starting the game opened no thread"
    return threads[-1]


@dataclass
class Played:
    """What happened while a game was played: for the assertions of each game's test."""

    table_id: int
    human_moves: int = 0
    typed: int = 0
    two_step: int = 0  # moves chosen through a two-step (group, then move) select
    grouped: int = 0  # moves chosen from a message with several selects
    simultaneous: list[tuple[int, list[int]]] = field(default_factory=list)  # (version, users pinged)
    boards: int = 0
    transcript: list[str] = field(default_factory=list)  # what a reader of the thread and DMs saw


class Players:
    """The latest private message with move controls of each person, and how they pick a move."""

    def __init__(self, world: World, people: list[simcord.MemberActor]) -> None:
        self.world = world
        self.people = {person.id: person for person in people}
        self.answers: dict[int, list[Any]] = {person.id: [] for person in people}
        self.asked_at: dict[int, int] = {}  # the version of the board that last pinged each person
        self.opened_turns = 0  # times a person pressed the board's "Play your turn"

    def remember(self, person: simcord.MemberActor, result: simcord.InteractionResult) -> None:
        for message in [result.response, *result.followups]:
            if message is not None and has_controls(message):
                self.answers[person.id].append(message)

    def latest_controls(self, person: simcord.MemberActor) -> Any:
        """The freshest message with controls: the highest version shown, the newest on a tie."""
        env = self.world.env
        # Read from the simulated Discord's store (listing a channel's history copies every
        # message, which would make a long game quadratic); answers are live objects.
        dm_channel = env.backend.dm_channels.get(person.id)
        stored = env.backend.messages.get(dm_channel, {}).values() if dm_channel is not None else []
        candidates: list[Any] = [message for message in stored if has_controls(message)]
        candidates += [answer for answer in self.answers[person.id] if has_controls(answer)]
        if not candidates:
            return None
        best = max(candidates, key=lambda message: (private_version(message), message.id))
        if isinstance(best, ResponseMessage):
            return best
        return to_discord_message(env, best)

    async def controls_for_turn(self, person: simcord.MemberActor, thread: simcord.ChannelHandle) -> Any:
        """The controls a person uses now: their latest ones if shown since the board pinged them
        (their DM, or the answer to their previous move of the same turn), else those that the
        board's **Play your turn** opens for them."""
        latest = self.latest_controls(person)
        if latest is not None and private_version(latest) >= self.asked_at.get(person.id, 0):
            return latest
        board = to_discord_message(self.world.env, latest_board(thread))
        opened = await person.click(board, label="Play your turn")
        assert opened.ephemeral and opened.response is not None, opened
        assert has_controls(opened.response), f"{person.name}'s turn shows no controls: {opened.response.content}"
        self.opened_turns += 1
        self.remember(person, opened)
        return opened.response


def latest_board(thread: simcord.ChannelHandle) -> Any:
    """The newest public board of the thread (a stored message: content and embed dicts)."""
    env = thread._env
    for message in sorted(env.backend.messages.get(thread.id, {}).values(), key=lambda m: -m.id):
        if (
            message.author_id == env.backend.bot_user.id
            and not message.is_ephemeral
            and message.embeds
            and footer_version(message.embeds[0]) is not None
        ):
            return message
    raise AssertionError("no board message in the thread")


async def wanted_move(world: World, table_id: int, person: simcord.MemberActor, rng: random.Random) -> str:
    """The move the game's greedy AI (else random AI) would make for this person's seat."""
    referee = world.env.bot.referee
    table = await referee.table(table_id)
    game = get_game(table.game)
    state = await referee.state(table_id)
    seat = table.seat_of(str(person.id))
    assert seat is not None
    kinds = game.ai_players()
    player = kinds["greedy" if "greedy" in kinds else "random"]()
    return game.format_move(player.choose(game, state, seat.index, rng))


async def play_to_the_end(
    world: World,
    thread: simcord.ChannelHandle,
    people: list[simcord.MemberActor],
    *,
    seed: int = 1,
    typed_every: int = 6,
    max_moves: int = 1500,
    on_ping: Callable[[Played, list[simcord.MemberActor], Players], Awaitable[None]] | None = None,
    after_move: Callable[[Played, simcord.MemberActor, str], Awaitable[None]] | None = None,
) -> Played:
    """Answer every ping until the board says the game is over."""
    env = world.env
    rng = random.Random(seed)
    players = Players(world, people)
    table_id = int(re.search(r"#(\d+)", latest_board(thread).embeds[0]["title"]).group(1))
    played = Played(table_id)
    referee = env.bot.referee
    while True:
        board = latest_board(thread)
        to_act = [players.people[user] for user in waiting_for(board) if user in players.people]
        if not to_act:
            break
        version = footer_version(board.embeds[0])
        for user in board.ping_user_ids:
            players.asked_at[user] = version
        if len(to_act) > 1:
            played.simultaneous.append((version, [person.id for person in to_act]))
        if on_ping is not None:
            await on_ping(played, to_act, players)
        # Everyone named answers; in a simultaneous step they answer one after the other.
        moved = played.human_moves
        for person in to_act:
            table = await referee.table(table_id)
            seat = table.seat_of(str(person.id))
            state = await referee.state(table_id)
            if seat.index not in get_game(table.game).to_act(state):
                continue  # no longer asked (the step ended)
            move = await wanted_move(world, table_id, person, rng)
            if played.human_moves % typed_every == typed_every - 1:
                await play_typed(world, thread, person, move, players)
                played.typed += 1
            else:
                message = await players.controls_for_turn(person, thread)
                kinds = {cid.split(":")[1] for cid in custom_ids(message) if cid.startswith(CONTROL_PREFIXES)}
                if "mg" in kinds:
                    played.two_step += 1
                elif sum(cid.startswith("ref:ms:") for cid in custom_ids(message)) > 1:
                    played.grouped += 1
                chosen, result = await choose_in_private_message(
                    person, message, lambda offered, move=move: move
                )
                assert chosen == move
                refused = [m.content for m in result.followups if m.content and "changed" in m.content]
                assert not refused, f"{person.name}'s click on {move!r} was refused: {refused}"
                players.remember(person, result)
            played.human_moves += 1
            assert played.human_moves < max_moves, "the game does not end"
            if after_move is not None:
                await after_move(played, person, move)
        assert played.human_moves > moved, f"the board at move {version} names nobody who may act"
    played.boards = len([m for m in thread.history() if m.embeds and m.author.bot])
    played.transcript = transcript(env)
    return played


async def play_typed(
    world: World,
    thread: simcord.ChannelHandle,
    person: simcord.MemberActor,
    move: str,
    players: Players,
) -> None:
    """/play with autocomplete: type the first word, take the move from the suggestions if listed."""
    first = move.split()[0]
    choices = await person.autocomplete(thread, "play", "move", first)
    values = [choice["value"] for choice in choices]
    assert values, f"autocomplete offered {person.name} nothing for {first!r}"
    assert all(value.lower().startswith(first.lower()) or first.lower() in value.lower() for value in values)
    if len(values) < 25:
        assert move in values, f"{move!r} missing from the autocomplete for {first!r}: {values}"
    result = await person.slash(thread, "play", move=move)
    assert result.ephemeral, result
    assert result.response.content.startswith(f"You played **{move}**."), result.response.content
    players.remember(person, result)


# ----- what was shown ---------------------------------------------------------------------------


def embed_text(embed: dict[str, Any]) -> str:
    parts = [embed.get("title") or "", embed.get("description") or ""]
    parts += [f"[{f.get('name')}] {f.get('value')}" for f in embed.get("fields") or []]
    parts.append(((embed.get("footer") or {}).get("text")) or "")
    return "\n".join(part for part in parts if part)


def transcript(env: simcord.Env) -> list[str]:
    """Every bot message as a reader sees it now, labelled public or private, in order."""
    lines = []
    for message in stored_bot_messages(env):
        public = is_guild_channel(env, message.channel_id) and not message.is_ephemeral
        where = "PUBLIC" if public else ("EPHEMERAL" if message.is_ephemeral else "DM")
        body = "\n".join([message.content or "", *(embed_text(embed) for embed in message.embeds)])
        controls = [
            component.get("label") or component.get("placeholder") for component in components(message)
        ]
        lines.append(f"--- {where} #{message.id}\n{body}\ncontrols: {controls}")
    return lines


# ----- Discord's hard limits --------------------------------------------------------------------


@dataclass
class Limits:
    """The largest value of each limited thing in everything the bot sent."""

    content: int = 0
    description: int = 0
    embed_total: int = 0
    field_value: int = 0
    rows: int = 0
    row_buttons: int = 0
    select_options: int = 0
    option_label: int = 0
    option_value: int = 0
    option_description: int = 0
    custom_id: int = 0
    button_label: int = 0
    placeholder: int = 0
    autocomplete_choices: int = 0
    autocomplete_name: int = 0
    autocomplete_value: int = 0
    messages: int = 0

    MAXIMA = {
        "content": 2000,
        "description": 4096,
        "embed_total": 6000,
        "field_value": 1024,
        "rows": 5,
        "row_buttons": 5,
        "select_options": 25,
        "option_label": 100,
        "option_value": 100,
        "option_description": 100,
        "custom_id": 100,
        "button_label": 80,
        "placeholder": 150,
        "autocomplete_choices": 25,
        "autocomplete_name": 100,
        "autocomplete_value": 100,
    }

    def see(self, name: str, value: int) -> None:
        setattr(self, name, max(getattr(self, name), value))

    def check(self) -> None:
        over = {
            name: getattr(self, name) for name, limit in self.MAXIMA.items() if getattr(self, name) > limit
        }
        assert not over, f"over Discord's limits: {over}"

    def summary(self) -> str:
        return ", ".join(
            f"{name} {getattr(self, name)}" for name in ("content", "description", "embed_total")
        )


def discord_limits(env: simcord.Env) -> Limits:
    """Measure every message payload and autocomplete answer the bot sent (as sent, not as stored)."""
    limits = Limits()
    for request in env.http_requests:
        body = request.json
        if not isinstance(body, dict):
            continue
        if body.get("type") == 8:  # autocomplete result
            choices = (body.get("data") or {}).get("choices") or []
            limits.see("autocomplete_choices", len(choices))
            for choice in choices:
                limits.see("autocomplete_name", len(choice["name"]))
                limits.see("autocomplete_value", len(str(choice["value"])))
            continue
        data = body.get("data") if isinstance(body.get("data"), dict) else body
        measure_message(limits, data)
    limits.check()
    return limits


def measure_message(limits: Limits, data: dict[str, Any]) -> None:
    if not any(key in data for key in ("content", "embeds", "components")):
        return
    limits.messages += 1
    limits.see("content", len(data.get("content") or ""))
    total = 0
    for embed in data.get("embeds") or []:
        limits.see("description", len(embed.get("description") or ""))
        for embed_field in embed.get("fields") or []:
            limits.see("field_value", len(embed_field.get("value") or ""))
        total += len(embed_text(embed).replace("\n", "")) - sum(len("[] ") for _ in embed.get("fields") or [])
    limits.see("embed_total", total)
    rows = data.get("components") or []
    limits.see("rows", len(rows))
    for row in rows:
        children = row.get("components") or []
        buttons = [child for child in children if child.get("type") == 2]
        limits.see("row_buttons", len(buttons))
        for child in children:
            if child.get("custom_id"):
                limits.see("custom_id", len(child["custom_id"]))
            if child.get("type") == 2:
                limits.see("button_label", len(child.get("label") or ""))
            if child.get("type") == 3:
                options = child.get("options") or []
                limits.see("select_options", len(options))
                limits.see("placeholder", len(child.get("placeholder") or ""))
                for option in options:
                    limits.see("option_label", len(option["label"]))
                    limits.see("option_value", len(option["value"]))
                    limits.see("option_description", len(option.get("description") or ""))


# ----- secrets ----------------------------------------------------------------------------------

Secrets = Callable[[Any, Any], Iterable[str]]  # (game, state) -> texts nobody may see in public


async def states_by_version(env: simcord.Env, table_id: int) -> list[Any]:
    """The state after each move of a finished game, replayed from its record (index = version)."""
    record = await env.bot.referee.record(table_id)
    game = get_game(record.game)
    state = game.new_game(record.players, record.seed, record.options)
    states = [state]
    for recorded in record.moves:
        state, _ = game.apply(state, recorded.seat, game.parse_move(recorded.move))
        states.append(state)
    return states


async def assert_no_secret_was_public(
    env: simcord.Env,
    table_id: int,
    secrets: Secrets,
    token: re.Pattern[str],
    *,
    scrub: re.Pattern[str] | None = None,
) -> int:
    """Every public board as sent (new or updated in place, with its log and any log messages
    sent just before it) against the secrets of the version it shows. Returns how many."""
    states = await states_by_version(env, table_id)
    game = get_game((await env.bot.referee.table(table_id)).game)
    checked = 0
    pending: list[str] = []  # public texts without a board: a long log sent before its board
    for payload in public_payloads(env):
        body = json.loads(payload)
        data = body["data"] if isinstance(body.get("data"), dict) else body
        embeds = data.get("embeds") or []
        text = "\n".join([data.get("content") or "", *(embed_text(embed) for embed in embeds)])
        version = footer_version(embeds[0]) if embeds else None
        if version is None:
            pending.append(text)
            continue
        text = "\n".join([*pending, text])
        pending = []
        if scrub is not None:
            text = scrub.sub(" ", text)  # marks that only look like a secret (a legend, a count)
        hidden = set(secrets(game, states[version]))
        leaked = set(token.findall(text)) & hidden
        assert not leaked, f"the public board at move {version} shows secrets {sorted(leaked)}"
        for secret in hidden:
            if not token.fullmatch(secret):  # a phrase, such as a pending choice: looked up as is
                assert secret not in text, f"the public board at move {version} shows the secret {secret!r}"
        checked += 1
    assert checked, "no public board"
    return checked


def private_blocks(env: simcord.Env) -> set[str]:
    """The code blocks of every private view sent (DMs and ephemeral answers)."""
    blocks = set()
    for message in stored_bot_messages(env):
        if is_guild_channel(env, message.channel_id) and not message.is_ephemeral:
            continue
        for embed in message.embeds:
            if (embed.get("title") or "").endswith(": your hand"):
                blocks.update(re.findall(r"```\n(.*?)\n```", embed.get("description", ""), re.S))
    return blocks


def assert_private_views_stayed_private(env: simcord.Env) -> int:
    """No private view, nor any line of one that the board never showed, reached a public message."""
    blocks = private_blocks(env)
    assert blocks, "no private view was sent"
    texts = public_texts(env)
    everything = "\n".join(texts)
    for block in blocks:
        assert block not in everything, f"a private view appeared in a public message: {block[:200]}"
    return len(blocks)


async def assert_final_scores(world: World, thread: simcord.ChannelHandle, table_id: int) -> Any:
    """The last board says the game is over and lists the referee's final scores and ranks."""
    final = latest_board(thread)
    assert "**Game over.**" in final.content
    referee = world.env.bot.referee
    outcome = await referee.outcome(table_id)
    table = await referee.table(table_id)
    assert outcome is not None and table.status == "finished"
    # Best first; ties in play order (the lobby's, unless the game drew the seating).
    seating = outcome.seating or list(range(len(table.seats)))
    order = sorted(range(len(table.seats)), key=lambda seat: (outcome.ranks[seat], seating.index(seat)))
    expected = "\n".join(
        f"{outcome.ranks[seat]}. {table.seats[seat].name}: {outcome.scores[seat]:g}" for seat in order
    )
    assert final.embeds[1]["title"] == "Final scores" and final.embeds[1]["description"] == expected
    # No move control is left on the final board: only the Rematch button.
    assert custom_ids(final) == [f"ref:rematch:{table_id}"], "only Rematch is left on the final board"
    return outcome
