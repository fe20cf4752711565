"""A small stand-in for Discord's REST API and gateway on loopback, for running bot.py for real.

It implements just what a start-up, a command sync, slash commands, a game's boards and a
shutdown need: the token check, the application, command registration, a gateway session (HELLO,
IDENTIFY, READY, GUILD_CREATE, heartbeats; with ``shard_count``, one per shard, each guild's events
on its shard and DMs on shard 0), interaction callbacks and follow-ups, messages in any
channel or thread (with Discord's nonce check: a second message with the nonce of one created
before returns that one), DM channels, threads, and a record of every request. A test can make
requests fail (``fail``: 403, 404, 5xx...) or hold them unanswered (``hold``: the process can be
killed while Discord "has not received" them yet). Anything else is answered 404 and recorded, so
an unexpected call is visible in the test.
"""

from __future__ import annotations

import asyncio
import fnmatch
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

API = "/api/v10"
# The bot token the tests give a real bot.py process; shaped like a real one, valid nowhere else.
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GfakeX.fake-token-for-tests_only0123456789ab"


def reply(payload: Any, status: int = 200) -> web.Response:
    # Exactly "application/json" (no charset): discord.py only decodes JSON with that type.
    return web.Response(body=json.dumps(payload).encode(), status=status, content_type="application/json")


@dataclass
class Request:
    method: str
    path: str
    body: Any
    files: dict[str, int] = field(default_factory=dict)  # uploaded file name -> size in bytes


@dataclass
class Fault:
    """Requests matching ``method`` and the fnmatch ``pattern`` fail ``times`` times (None: until
    cleared) with this status and Discord error code."""

    method: str
    pattern: str
    status: int
    code: int
    message: str
    times: int | None = None


@dataclass
class FakeDiscord:
    token: str
    application_id: int = 900_000_000_000_000_001
    bot_user_id: int = 900_000_000_000_000_001
    guild_id: int = 900_000_000_000_000_100
    channel_id: int = 900_000_000_000_000_101
    user_id: int = 900_000_000_000_000_200  # alice, who runs the slash commands by default
    other_user_id: int = 900_000_000_000_000_201  # bob
    requests: list[Request] = field(default_factory=list)
    commands: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # scope -> registered
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    followups: list[dict[str, Any]] = field(default_factory=list)  # webhook edits and follow-ups
    identified: asyncio.Event = field(default_factory=asyncio.Event)
    # Sharding (SHARD_COUNT in the bot): one gateway connection per shard; a guild's events go to
    # shard (guild_id >> 22) % shard_count, direct messages' to shard 0, as Discord routes them.
    shard_count: int | None = None
    identified_shards: set[int] = field(default_factory=set)
    interactions_by_shard: dict[int, list[str]] = field(default_factory=dict)  # shard -> interaction ids
    disconnected: asyncio.Event = field(default_factory=asyncio.Event)
    base_url: str = ""
    messages: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # channel -> created
    faults: list[Fault] = field(default_factory=list)
    holds: list[tuple[str, str]] = field(default_factory=list)  # (method, pattern) left unanswered
    held: list[Request] = field(default_factory=list)
    _ids: Any = field(default_factory=lambda: itertools.count(900_000_000_000_001_000))
    _release: asyncio.Event = field(default_factory=asyncio.Event)
    _nonces: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    _socket: web.WebSocketResponse | None = None
    _shard_sockets: dict[int, web.WebSocketResponse] = field(default_factory=dict)
    _sequence: int = 0
    _runner: web.AppRunner | None = None

    # ----- life cycle ---------------------------------------------------------------------------

    async def start(self) -> str:
        app = web.Application()
        app.router.add_get("/gateway", self.gateway)
        app.router.add_route("*", API + "/{tail:.*}", self.rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        return self.base_url

    async def stop(self) -> None:
        self._release.set()
        if self._runner is not None:
            await self._runner.cleanup()

    # ----- REST ---------------------------------------------------------------------------------

    def fail(self, method: str, pattern: str, status: int, code: int, message: str, times: int | None = None) -> None:
        self.faults.append(Fault(method, pattern, status, code, message, times))

    def hold(self, method: str, pattern: str) -> None:
        """Leave matching requests unanswered until ``release`` (then they fail: never created)."""
        self.holds.append((method, pattern))

    def release(self) -> None:
        self.holds.clear()
        self._release.set()

    def boards(self, channel_id: int) -> list[dict[str, Any]]:
        """The messages with embeds created in a channel (the boards)."""
        return [message for message in self.messages.get(channel_id, []) if message["embeds"]]

    async def rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body, files = await _body(request)
        self.requests.append(Request(request.method, path, body, files))
        if request.headers.get("Authorization") != f"Bot {self.token}" and not path.startswith(
            ("/interactions/", "/webhooks/")
        ):
            return reply({"message": "401: Unauthorized", "code": 0}, status=401)
        for fault in self.faults:
            if fault.method == request.method and fnmatch.fnmatch(path, fault.pattern) and fault.times != 0:
                if fault.times is not None:
                    fault.times -= 1
                return reply({"message": fault.message, "code": fault.code}, status=fault.status)
        if any(method == request.method and fnmatch.fnmatch(path, pattern) for method, pattern in self.holds):
            self.held.append(self.requests[-1])
            await self._release.wait()
            return reply({"message": "503: held, never delivered", "code": 0}, status=503)
        parts = path.strip("/").split("/")
        if request.method == "GET" and path == "/users/@me":
            return reply(self.bot_user())
        if request.method == "GET" and path == "/oauth2/applications/@me":
            return reply(self.application())
        if parts[0] == "applications" and parts[-1] == "commands":
            scope = "global" if len(parts) == 3 else f"guild:{parts[3]}"
            if request.method == "PUT":
                self.commands[scope] = [self.registered(command, scope) for command in body]
            return reply(self.commands.get(scope, []))
        if parts[0] == "interactions" and parts[-1] == "callback":
            self.callbacks.append(body)
            return reply(self.callback_response(parts[1], body))
        if parts[0] == "webhooks":  # an interaction's follow-up, or its original answer edited
            self.followups.append(body or {})
            return reply(self.message(self.channel_id, body or {}))
        if parts[0] == "users" and parts[-1] == "channels" and request.method == "POST":
            recipient = int(body["recipient_id"])
            return reply({"id": str(recipient + 1_000_000), "type": 1, "recipients": [self.user(recipient)]})
        if parts[0] == "channels" and parts[-1] == "threads" and request.method == "POST":
            return reply(self.thread(int(parts[1]), body))
        if parts[0] == "channels" and "thread-members" in parts:
            return web.Response(status=204)
        if parts[0] == "channels" and len(parts) == 3 and parts[2] == "messages" and request.method == "POST":
            return reply(self.create_message(int(parts[1]), body))
        if parts[0] == "channels" and len(parts) == 4 and parts[2] == "messages" and request.method == "PATCH":
            return reply({**self.message(int(parts[1]), body), "id": parts[3]})
        return reply({"message": "404: Not Found (not faked)", "code": 0}, status=404)

    def registered(self, command: dict[str, Any], scope: str) -> dict[str, Any]:
        guild = scope.split(":")[1] if scope != "global" else None
        return {
            **command,
            "id": str(next(self._ids)),
            "application_id": str(self.application_id),
            "guild_id": guild,
            "version": "1",
            "default_member_permissions": command.get("default_member_permissions"),
        }

    def create_message(self, channel_id: int, body: dict[str, Any]) -> dict[str, Any]:
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce") and (channel_id, str(nonce)) in self._nonces:
            return self._nonces[(channel_id, str(nonce))]  # Discord's answer to a repeated nonce
        message = self.message(channel_id, body)
        self.messages.setdefault(channel_id, []).append(message)
        if nonce is not None:
            self._nonces[(channel_id, str(nonce))] = message
        return message

    def thread(self, parent_id: int, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(next(self._ids)),
            "guild_id": str(self.guild_id),
            "parent_id": str(parent_id),
            "owner_id": str(self.bot_user_id),
            "name": body.get("name", "thread"),
            "type": 11,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2026-01-01T00:00:00+00:00",
                "locked": False,
            },
        }

    def message(self, channel_id: int, data: dict[str, Any]) -> dict[str, Any]:
        mentions = (data.get("allowed_mentions") or {}).get("users") or []
        return {
            "id": str(next(self._ids)),
            "channel_id": str(channel_id),
            "author": self.bot_user(),
            "content": data.get("content") or "",
            "embeds": data.get("embeds") or [],
            "components": data.get("components") or [],
            "flags": data.get("flags") or 0,
            "nonce": data.get("nonce"),
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [self.user(int(user)) for user in mentions],
            "mention_roles": [],
            "attachments": [],
            "pinned": False,
            "type": 0,
        }

    def callback_response(self, interaction_id: str, body: dict[str, Any]) -> dict[str, Any]:
        data = body.get("data") or {}
        message_id = str(next(self._ids))
        message = {
            "id": message_id,
            "channel_id": str(self.channel_id),
            "author": self.bot_user(),
            "content": data.get("content") or "",
            "embeds": data.get("embeds") or [],
            "components": data.get("components") or [],
            "flags": data.get("flags") or 0,
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "pinned": False,
            "type": 20,
        }
        return {
            "interaction": {
                "id": interaction_id,
                "type": 2,
                "response_message_id": message_id,
                "response_message_loading": False,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & 64),
            },
            "resource": {"type": body["type"], "message": message},
        }

    # ----- gateway ------------------------------------------------------------------------------

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._socket = socket  # unsharded: the one connection
        await socket.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45_000}}))
        async for frame in socket:
            if frame.type != WSMsgType.TEXT:
                break
            payload = json.loads(frame.data)
            if payload["op"] == 1:
                await socket.send_str(json.dumps({"op": 11}))
            elif payload["op"] == 2:
                if payload["d"].get("token") != self.token:
                    await socket.close(code=4004, message=b"Authentication failed.")
                    break
                shard = self._identify_shard(payload["d"].get("shard"))
                if shard is None:
                    await socket.close(code=4010, message=b"Invalid shard.")
                    break
                self._shard_sockets[shard] = socket
                await self.dispatch("READY", self.ready(shard), shard=shard)
                if self.shard_of(self.guild_id) == shard:
                    await self.dispatch("GUILD_CREATE", self.guild(), shard=shard)
                self.identified_shards.add(shard)
                self.identified.set()
        self.disconnected.set()
        return socket

    def _identify_shard(self, shard: Any) -> int | None:
        """The shard an IDENTIFY asks for (0 unsharded); None if Discord would refuse it."""
        if self.shard_count is None:
            return 0
        if not isinstance(shard, list) or len(shard) != 2 or shard[1] != self.shard_count:
            return None
        return shard[0] if 0 <= shard[0] < self.shard_count else None

    def shard_of(self, guild_id: int | None) -> int:
        """The shard that receives a guild's events (Discord's formula), or a DM's (shard 0)."""
        if guild_id is None or self.shard_count is None:
            return 0
        return (guild_id >> 22) % self.shard_count

    async def dispatch(self, event: str, data: dict[str, Any], *, shard: int | None = None) -> None:
        """Send an event on a shard's connection (by default: the one that owns it)."""
        if shard is None:
            guild = data.get("guild_id")
            shard = self.shard_of(int(guild) if guild is not None else None)
        socket = self._shard_sockets.get(shard, self._socket)
        assert socket is not None
        if event == "INTERACTION_CREATE":
            self.interactions_by_shard.setdefault(shard, []).append(data["id"])
        self._sequence += 1
        await socket.send_str(json.dumps({"op": 0, "t": event, "s": self._sequence, "d": data}))

    async def slash(
        self, name: str, options: list[dict[str, Any]], *, user_id: int | None = None, in_dm: bool = False
    ) -> str:
        """A user (alice unless ``user_id``) runs a registered slash command, in the server or,
        ``in_dm``, in their DM with the bot; returns the interaction id."""
        command = next(command for command in self.commands["global"] if command["name"] == name)
        interaction_id = str(next(self._ids))
        if in_dm:
            await self.dispatch("INTERACTION_CREATE", self.dm_command(interaction_id, command, options, user_id))
            return interaction_id
        await self.dispatch(
            "INTERACTION_CREATE",
            {
                "id": interaction_id,
                "application_id": str(self.application_id),
                "type": 2,
                "token": f"token-{interaction_id}",
                "version": 1,
                "guild_id": str(self.guild_id),
                "channel_id": str(self.channel_id),
                "channel": {
                    "id": str(self.channel_id),
                    "type": 0,
                    "guild_id": str(self.guild_id),
                    "name": "games",
                },
                "member": self.member(user_id or self.user_id),
                "app_permissions": "2251799813685247",
                "locale": "en-US",
                "guild_locale": "en-US",
                "entitlements": [],
                "authorizing_integration_owners": {"0": str(self.guild_id)},
                "context": 0,
                "attachment_size_limit": 10_485_760,
                "data": {"id": command["id"], "name": name, "type": 1, "options": options},
            },
        )
        return interaction_id

    def dm_command(
        self, interaction_id: str, command: dict[str, Any], options: list[dict[str, Any]], user_id: int | None
    ) -> dict[str, Any]:
        """A slash command run in the user's DM with the bot: no guild, a DM channel, a user."""
        user = user_id or self.user_id
        channel = str(user + 1_000_000)  # the DM channel the stand-in gives this user
        return {
            "id": interaction_id,
            "application_id": str(self.application_id),
            "type": 2,
            "token": f"token-{interaction_id}",
            "version": 1,
            "channel_id": channel,
            "channel": {"id": channel, "type": 1, "recipients": [self.user(user)]},
            "user": self.user(user),
            "app_permissions": "2251799813685247",
            "locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 1,
            "attachment_size_limit": 10_485_760,
            "data": {"id": command["id"], "name": command["name"], "type": 1, "options": options},
        }

    # ----- payloads -----------------------------------------------------------------------------

    def bot_user(self) -> dict[str, Any]:
        return {
            "id": str(self.bot_user_id),
            "username": "Referee",
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "global_name": None,
        }

    def user(self, user_id: int | None = None) -> dict[str, Any]:
        name = "bob" if user_id == self.other_user_id else "alice"
        return {
            "id": str(user_id or self.user_id),
            "username": name,
            "discriminator": "0",
            "avatar": None,
            "global_name": name.title(),
        }

    def member(self, user_id: int | None = None) -> dict[str, Any]:
        return {
            "user": self.user(user_id),
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": "2251799813685247",
        }

    def application(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": "Referee",
            "icon": None,
            "description": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.user(),
            "team": None,
            "flags": 0,
        }

    def ready(self, shard: int = 0) -> dict[str, Any]:
        guilds = [{"id": str(self.guild_id), "unavailable": True}] if self.shard_of(self.guild_id) == shard else []
        return {
            "v": 10,
            "user": self.bot_user(),
            "guilds": guilds,
            **({"shard": [shard, self.shard_count]} if self.shard_count is not None else {}),
            "session_id": "fake-session",
            "resume_gateway_url": self.base_url.replace("http", "ws") + "/gateway",
            "application": {"id": str(self.application_id), "flags": 0},
        }

    def guild(self) -> dict[str, Any]:
        guild = str(self.guild_id)
        return {
            "id": guild,
            "name": "Tabletop",
            "icon": None,
            "owner_id": str(self.user_id),
            "unavailable": False,
            "member_count": 2,
            "large": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [
                {
                    "id": guild,
                    "name": "@everyone",
                    "permissions": "2251799813685247",
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                }
            ],
            "channels": [
                {
                    "id": str(self.channel_id),
                    "type": 0,
                    "name": "games",
                    "position": 0,
                    "permission_overwrites": [],
                }
            ],
            "threads": [],
            "members": [{**self.member(), "user": self.bot_user()}],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


async def _body(request: web.Request) -> tuple[Any, dict[str, int]]:
    """The JSON of a request: its body, or the ``payload_json`` part of a multipart one, with the
    files it uploads (name -> size)."""
    if not request.can_read_body:
        return None, {}
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        files = {
            part.filename: len(part.file.read()) for part in form.values() if isinstance(part, web.FileField)
        }
        return json.loads(str(form.get("payload_json") or "null")), files
    text = await request.text()
    return (json.loads(text) if text else None), {}
