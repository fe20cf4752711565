"""Whose language a text is in: the reader's (engine/i18n), chosen here for Discord.

- Private texts (ephemeral replies, DMs, hands, refusals, hints, /rules, /settings) are in the
  language of the user who reads them: the one they chose in ``/settings language``, else their
  Discord client's (``interaction.locale``).
- Public texts (boards, thread names, lobby and game-over posts, announcements) are in the
  server's language: the one chosen with ``/settings server-language`` (Manage Server), else the
  server's preferred locale (Discord's community setting), else English.

Every interaction runs in its reader's language (the command tree's check and the components'
callback set it, ``reader_language``); a public post made inside it switches to the server's for
its own texts (``public_language``), and the announcer, a background task, writes each table's
posts in its server's language. A DM outside any interaction is in the player's chosen language,
else in their client's as their latest interaction showed it (kept in memory), else in the
language of the server the game is played on.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord

from engine.i18n import SOURCE, resolve_language, use_language
from engine.referee import Referee, use_public_language


def _referee(client: discord.Client) -> Referee | None:
    return getattr(client, "referee", None)


# The client language each user's latest interaction showed (in memory, bounded): a DM sent
# outside their interactions (the hand dealt at the start, a reminder) is in it when known.
_CLIENTS: dict[str, str] = {}
_CLIENTS_KEPT = 50_000


def _remember_client(user_id: str, code: str) -> None:
    _CLIENTS.pop(user_id, None)
    _CLIENTS[user_id] = code
    if len(_CLIENTS) > _CLIENTS_KEPT:
        del _CLIENTS[next(iter(_CLIENTS))]  # the least recently seen


async def reader_language(interaction: discord.Interaction[Any]) -> str:
    """The language of the user behind an interaction: their choice, else their client's."""
    user_id = str(interaction.user.id)
    client = resolve_language(getattr(interaction.locale, "value", None))
    if client is not None:
        _remember_client(user_id, client)
    referee = _referee(interaction.client)
    if referee is not None:
        chosen = await referee.user_settings.language(user_id)
        if chosen:
            return chosen
    return client or SOURCE


async def server_language(client: discord.Client, guild_id: str | int | None) -> str:
    """The language of a server's public posts: its choice, else its preferred locale."""
    if guild_id is None:
        return SOURCE
    referee = _referee(client)
    if referee is not None:
        chosen = await referee.server_settings.language(str(guild_id))
        if chosen:
            return chosen
    try:
        guild = client.get_guild(int(guild_id))
    except (TypeError, ValueError):
        guild = None
    preferred = getattr(getattr(guild, "preferred_locale", None), "value", None)
    return resolve_language(preferred) or SOURCE


async def user_language(client: discord.Client, user_id: str, guild_id: str | None) -> str:
    """The language of a DM sent outside the user's own interaction: their choice, else their
    client's as their latest interaction showed it, else the server's of the game it is about."""
    referee = _referee(client)
    if referee is not None:
        chosen = await referee.user_settings.language(user_id)
        if chosen:
            return chosen
    return _CLIENTS.get(user_id) or await server_language(client, guild_id)


@asynccontextmanager
async def public_language(client: discord.Client, guild_id: str | int | None) -> AsyncIterator[str]:
    """Write the texts of a public post, inside the block, in the server's language."""
    code = await server_language(client, guild_id)
    with use_language(code), use_public_language(code):
        yield code


@asynccontextmanager
async def dm_language(client: discord.Client, user_id: str, guild_id: str | None) -> AsyncIterator[str]:
    with use_language(await user_language(client, user_id, guild_id)) as code:
        yield code


__all__ = ["dm_language", "public_language", "reader_language", "server_language", "user_language"]
