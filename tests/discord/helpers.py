"""Helpers for the SimCord tests: what was public, what was private, and simulated players.

"Public" is every bot message anyone in the server can read: non-ephemeral messages in a server
channel or thread, at every stage (the REST payloads as sent, and the final stored messages).
"Private" is DMs and ephemeral answers.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord
from simcord.components import walk_components
from simcord.results import to_discord_message

MENTION = re.compile(r"<@!?(\d+)>")
VERSION = re.compile(r"move (\d+)$")
EPHEMERAL = 1 << 6
# Discord answers an interaction not acknowledged within 3 s with "Unknown interaction". SimCord's
# clock is virtual, so the tests time every whole action (ack and all follow-up work) for real.


def bot_id(env: simcord.Env) -> int:
    return env.backend.bot_user.id


def is_guild_channel(env: simcord.Env, channel_id: int) -> bool:
    return env.backend.get_channel(channel_id).guild_id is not None


def stored_bot_messages(env: simcord.Env) -> list[Any]:
    """Every message the bot authored, as stored by the simulated Discord (latest edit)."""
    found = []
    for messages in env.backend.messages.values():
        found.extend(message for message in messages.values() if message.author_id == bot_id(env))
    return sorted(found, key=lambda message: message.id)


def text_of(message: Any) -> str:
    """Everything a reader sees in a stored message: content, embeds and components."""
    return "\n".join([message.content, json.dumps(message.embeds), json.dumps(message.components)])


def public_texts(env: simcord.Env) -> list[str]:
    """Every public text: stored public messages and every public REST payload ever sent."""
    texts = [
        text_of(message)
        for message in stored_bot_messages(env)
        if is_guild_channel(env, message.channel_id) and not message.is_ephemeral
    ]
    return texts + public_payloads(env)


def private_messages(env: simcord.Env) -> list[Any]:
    return [
        message
        for message in stored_bot_messages(env)
        if not is_guild_channel(env, message.channel_id) or message.is_ephemeral
    ]


def public_payloads(env: simcord.Env, since: int = 0) -> list[str]:
    """The JSON of every REST request whose content lands in a public message (from the
    ``since``-th request on)."""
    interactions = {record.token: record for record in env.backend.interactions.values()}
    payloads = []
    for request in env.http_requests[since:]:
        if not isinstance(request.json, dict):
            continue
        body = request.json
        parts = request.path.strip("/").split("/")
        public = False
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            public = is_guild_channel(env, int(parts[1]))
        elif parts[0] == "interactions" and parts[-1] == "callback":
            record = interactions.get(parts[2])
            data = body.get("data") or {}
            public = record is not None and _public_answer(env, record, data, body.get("type"))
        elif parts[0] == "webhooks" and len(parts) >= 3:
            record = interactions.get(parts[2])
            if record is not None:
                if parts[-1] == "@original":
                    public = _public_original(env, record)
                elif len(parts) == 3:  # a follow-up message
                    public = (
                        is_guild_channel(env, record.channel_id)
                        and not int(body.get("flags") or 0) & EPHEMERAL
                    )
        if public:
            payloads.append(json.dumps(body))
    return payloads


def _public_answer(env: simcord.Env, record: Any, data: dict[str, Any], kind: Any) -> bool:
    if not is_guild_channel(env, record.channel_id):
        return False
    if kind == 8:  # autocomplete choices: shown only to the person typing the command
        return False
    if kind == 7:  # UPDATE_MESSAGE edits the clicked message: public if that message is
        return _source_is_public(env, record)
    return not int(data.get("flags") or 0) & EPHEMERAL


def _public_original(env: simcord.Env, record: Any) -> bool:
    if not is_guild_channel(env, record.channel_id):
        return False
    if record.source_message_id is not None and record.message_id == record.source_message_id:
        return _source_is_public(env, record)
    return not record.ephemeral


def _source_is_public(env: simcord.Env, record: Any) -> bool:
    message = env.backend.get_message(record.channel_id, record.source_message_id)
    return not message.is_ephemeral


def assert_not_public(env: simcord.Env, secrets: set[str], what: str = "secret") -> None:
    texts = public_texts(env)
    for secret in secrets:
        leaks = [text for text in texts if secret in text]
        assert not leaks, f"{what} {secret!r} appeared in a public message: {leaks[0][:300]}"


def components(message: Any) -> list[dict[str, Any]]:
    rows = message.components if isinstance(message.components, list) else []
    if rows and not isinstance(rows[0], dict):  # a discord.Message: back to raw dicts
        rows = [row.to_dict() for row in rows]
    return [component for component in walk_components(rows) if component.get("type") in (2, 3)]


def custom_ids(message: Any) -> list[str]:
    return [component["custom_id"] for component in components(message) if component.get("custom_id")]


def button_move(custom_id: str) -> str:
    """``ref:mv:TABLE:VERSION:MOVE`` -> MOVE."""
    return custom_id.split(":", 4)[4]


def move_options(message: Any) -> list[str]:
    """The moves a private message offers: buttons' moves and select values. A button's label
    may add what the move does ("take 4 (4 $)"); the move is the end of its custom id."""
    moves = []
    for component in components(message):
        custom_id = component.get("custom_id", "")
        if custom_id.startswith("ref:mv:"):
            moves.append(button_move(custom_id))
        elif custom_id.startswith("ref:ms:"):
            moves.extend(option["value"] for option in component["options"])
    return moves


def dm_messages(env: simcord.Env, member: simcord.MemberActor) -> list[discord.Message]:
    channel_id = env.backend.dm_channels.get(member.id)
    if channel_id is None:
        return []
    return member.user.dm_channel.history()


def first_hands(env: simcord.Env, people: list[simcord.MemberActor]) -> list[discord.Message]:
    """Each person's first private message: the hand the table sent them when it started."""
    return [dm_messages(env, person)[0] for person in people]


def footer_version(embed: Any) -> int | None:
    """The version an embed shows ("... move N" at the end of its footer)."""
    if isinstance(embed, dict):
        text = (embed.get("footer") or {}).get("text") or ""
    else:
        text = embed.footer.text or ""
    match = VERSION.search(text)
    return int(match.group(1)) if match else None


def private_version(message: Any) -> int:
    """The version of the private view a message shows (its "your hand" embed's footer)."""
    for embed in reversed(message.embeds):
        title = embed.get("title") if isinstance(embed, dict) else embed.title
        if title and title.endswith(": your hand"):
            version = footer_version(embed)
            return -1 if version is None else version
    return -1


def latest_dm_with_controls(env: simcord.Env, member: simcord.MemberActor) -> discord.Message | None:
    for message in reversed(dm_messages(env, member)):
        if any(cid.startswith(("ref:mv:", "ref:ms:", "ref:mg:")) for cid in custom_ids(message)):
            return message
    return None


def thread_messages(thread: simcord.ChannelHandle) -> list[discord.Message]:
    return thread.history()


def latest_board(thread: simcord.ChannelHandle) -> discord.Message:
    boards = [message for message in thread.history() if message.embeds and message.author.bot]
    assert boards, "no board message in the thread"
    return boards[-1]


def waiting_for(message: Any) -> list[int]:
    """Users a board names as the ones to act ("<@1> <@2>: your turn; ..."), pinged or not."""
    for line in (message.content or "").splitlines():
        if ": your turn" in line:
            return [int(user) for user in MENTION.findall(line.split(": your turn")[0])]
    return []


def pinged(env: simcord.Env, message: Any) -> list[int]:
    """Users actually notified by a message (mentions allowed by allowed_mentions)."""
    return list(
        env.backend.get_message(
            message.channel.id if hasattr(message, "channel") else message.channel_id, message.id
        ).ping_user_ids
    )


def _in_guild(actor: simcord.MemberActor, message: Any) -> bool:
    channel_id = message.channel_id if hasattr(message, "channel_id") else message.channel.id
    return is_guild_channel(actor._env, channel_id)


# Discord's refusals of a message post the tests inject: (HTTP status, Discord error code, message).
CANNOT_DM = (403, 50007, "Cannot send messages to this user")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
UNKNOWN_CHANNEL = (404, 10003, "Unknown Channel")


def refuse_posts(
    env: simcord.Env, channel_id: int, refusal: tuple[int, int, str], times: int | None = None
) -> None:
    """Make Discord refuse the bot's messages in a channel (a DM channel too), for the rest of the
    test unless ``times`` says how many."""
    status, code, message = refusal
    env.inject_error(
        "POST", f"/channels/{channel_id}/messages", status=status, code=code, message=message, times=times
    )


def assert_every_interaction_answered(env: simcord.Env) -> None:
    """No interaction was left unacknowledged (Discord would show "This interaction failed")."""
    unanswered = [record for record in env.backend.interactions.values() if not record.responded]
    assert not unanswered, f"{len(unanswered)} interactions never acknowledged: {unanswered[:3]}"


async def choose_in_private_message(
    actor: simcord.MemberActor | simcord.UserHandle,
    message: Any,
    pick: Callable[[list[str]], str],
) -> tuple[str, simcord.InteractionResult]:
    """Play one move through the controls of a private message, like a person would.

    ``pick`` chooses among the moves offered; a two-step message is opened group by group until
    the move is found. Returns the move and the final interaction result.
    """
    if isinstance(actor, simcord.MemberActor) and not _in_guild(actor, message):
        actor = actor.user  # a DM is clicked as the user, outside any server
    offered = move_options(message)
    group_ids = [cid for cid in custom_ids(message) if cid.startswith("ref:mg:")]
    if group_ids:
        group_select = next(c for c in components(message) if c.get("custom_id") == group_ids[0])
        for option in group_select["options"]:
            opened = await actor.select(message, [option["value"]], custom_id=group_ids[0])
            assert opened.acknowledged
            message = opened.response.message if opened.response else message
            offered = move_options(message)
            if offered and pick(offered) in offered:
                break
            back = next(cid for cid in custom_ids(message) if cid.startswith("ref:back:"))
            result = await actor.click(message, custom_id=back)
            message = result.response.message if result.response else message
    move = pick(offered)
    for component in components(message):
        custom_id = component.get("custom_id", "")
        if custom_id.startswith("ref:mv:") and button_move(custom_id) == move:
            return move, await actor.click(message, custom_id=custom_id)
        if custom_id.startswith("ref:ms:") and move in [option["value"] for option in component["options"]]:
            return move, await actor.select(message, [move], custom_id=custom_id)
    raise AssertionError(f"move {move!r} is not offered by the message (offered: {offered})")


async def open_my_turn(actor: simcord.MemberActor, channel: simcord.ChannelHandle) -> Any:
    """Press **Play your turn** on the latest board of ``channel``, like a pinged player: returns
    the ephemeral answer with their hand and move controls."""
    env = channel._env
    # Read from the simulated Discord's store: listing the history copies every message, which
    # would make a long game (the benchmark's) quadratic.
    stored = env.backend.messages.get(channel.id, {}).values()
    boards = [
        message
        for message in stored
        if message.author_id == bot_id(env) and not message.is_ephemeral and message.embeds
    ]
    assert boards, "no board message in the channel"
    board = to_discord_message(env, max(boards, key=lambda message: message.id))
    opened = await actor.click(board, label="Play your turn")
    assert opened.ephemeral, opened
    return opened.response


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every ERROR the test logged, in setup, call and teardown alike.

    ``caplog.records`` holds only the current phase's records: read after a fixture's ``yield``,
    that is the teardown's alone, and an error logged while the test ran would go unseen."""
    return [
        record.getMessage()
        for phase in ("setup", "call", "teardown")
        for record in caplog.get_records(phase)
        if record.levelno >= logging.ERROR
    ]
