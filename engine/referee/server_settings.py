"""A server's own settings, besides its limits: whether its games show pictures, and the
language of its public posts (its own table, migration 0011: none chosen means its preferred locale).

A server turns pictures off for all its games (boards, hands, results; on Discord
``/settings server-pictures``, for members with Manage Server); each player may also turn them off
for their own private views (``UserSettings.set_pictures``). Off means text only, as before
pictures existed.

The settings are kept in the store's per-server table of named values (``guild_limits``, whose
names the limits ignore when not theirs: limits.py), so no schema change was needed: a setting
that is stored is off, an absent one is the default (on).
"""

from __future__ import annotations

from typing import Protocol

from engine.i18n import resolve_language

PICTURES_OFF = "pictures_off"


class ServerRows(Protocol):
    """The part of the Store this room uses (limits.py's LimitsStore has them)."""

    async def guild_limits(self, guild_id: str) -> dict[str, int]: ...

    async def set_guild_limit(self, guild_id: str, name: str, value: int | None) -> None: ...

    async def get_guild_language(self, guild_id: str) -> str | None: ...

    async def set_guild_language(self, guild_id: str, code: str | None) -> None: ...


class ServerSettings:
    """Each server's settings, read through a cache (every change made here goes to both)."""

    def __init__(self, store: ServerRows) -> None:
        self._store = store
        self._pictures: dict[str, bool] = {}
        self._languages: dict[str, str | None] = {}

    async def pictures(self, guild_id: str | None) -> bool:
        """Whether the server's games show pictures (tables outside any server always may)."""
        if guild_id is None:
            return True
        cached = self._pictures.get(guild_id)
        if cached is None:
            cached = self._pictures[guild_id] = PICTURES_OFF not in await self._store.guild_limits(guild_id)
        return cached

    async def set_pictures(self, guild_id: str, enabled: bool) -> None:
        await self._store.set_guild_limit(guild_id, PICTURES_OFF, None if enabled else 1)
        self._pictures[guild_id] = enabled

    async def language(self, guild_id: str | None) -> str | None:
        """The language a server chose for its public posts (an engine.i18n code), or None when it
        chose none: then the server's preferred locale (Discord's) is its language."""
        if guild_id is None:
            return None
        if guild_id not in self._languages:
            stored = await self._store.get_guild_language(guild_id)
            self._languages[guild_id] = resolve_language(stored) if stored else None
        return self._languages[guild_id]

    async def set_language(self, guild_id: str, code: str | None) -> None:
        """Choose the server's language (a code of engine.i18n.LANGUAGES), or None to follow its
        preferred locale."""
        chosen = resolve_language(code) if code else None
        await self._store.set_guild_language(guild_id, chosen)
        self._languages[guild_id] = chosen
