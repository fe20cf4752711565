"""A small stand-in for Discord's REST API and gateway on loopback, for running bot.py for real.

It implements just what a start-up, a command sync, one slash command and a shutdown need:
the token check, the application, command registration, a gateway session (HELLO, IDENTIFY,
READY, GUILD_CREATE, heartbeats), interaction callbacks, and a record of every request. Anything
else is answered 404 and recorded, so an unexpected call is visible in the test.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

API = "/api/v10"


def reply(payload: Any, status: int = 200) -> web.Response:
    # Exactly "application/json" (no charset): discord.py only decodes JSON with that type.
    return web.Response(body=json.dumps(payload).encode(), status=status, content_type="application/json")


@dataclass
class Request:
    method: str
    path: str
    body: Any


@dataclass
class FakeDiscord:
    token: str
    application_id: int = 900_000_000_000_000_001
    bot_user_id: int = 900_000_000_000_000_001
    guild_id: int = 900_000_000_000_000_100
    channel_id: int = 900_000_000_000_000_101
    user_id: int = 900_000_000_000_000_200
    requests: list[Request] = field(default_factory=list)
    commands: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # scope -> registered
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    identified: asyncio.Event = field(default_factory=asyncio.Event)
    disconnected: asyncio.Event = field(default_factory=asyncio.Event)
    base_url: str = ""
    _ids: Any = field(default_factory=lambda: itertools.count(900_000_000_000_001_000))
    _socket: web.WebSocketResponse | None = None
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
        if self._runner is not None:
            await self._runner.cleanup()

    # ----- REST ---------------------------------------------------------------------------------

    async def rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body = await request.json() if request.can_read_body else None
        self.requests.append(Request(request.method, path, body))
        if request.headers.get("Authorization") != f"Bot {self.token}" and not path.startswith(
            "/interactions/"
        ):
            return reply({"message": "401: Unauthorized", "code": 0}, status=401)
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
        self._socket = socket
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
                await self.dispatch("READY", self.ready())
                await self.dispatch("GUILD_CREATE", self.guild())
                self.identified.set()
        self.disconnected.set()
        return socket

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        assert self._socket is not None
        self._sequence += 1
        await self._socket.send_str(json.dumps({"op": 0, "t": event, "s": self._sequence, "d": data}))

    async def slash(self, name: str, options: list[dict[str, Any]]) -> str:
        """A user runs a registered slash command; returns the interaction id."""
        command = next(command for command in self.commands["global"] if command["name"] == name)
        interaction_id = str(next(self._ids))
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
                "member": self.member(),
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

    def user(self) -> dict[str, Any]:
        return {
            "id": str(self.user_id),
            "username": "alice",
            "discriminator": "0",
            "avatar": None,
            "global_name": "Alice",
        }

    def member(self) -> dict[str, Any]:
        return {
            "user": self.user(),
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

    def ready(self) -> dict[str, Any]:
        return {
            "v": 10,
            "user": self.bot_user(),
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
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
