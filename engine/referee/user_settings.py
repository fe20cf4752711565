"""A player's own settings and what the bot learnt about reaching them, kept per user in the store.

The front ends ask these here (``Referee.user_settings``) instead of holding the store: the flag
names and their meaning live in this one place. Four flags:

- ``dm_closed``: a DM to this user failed because their DMs are closed (Discord's 50007); the
  bot does not try again until they ask for DMs (``set_turn_dms(..., True)``);
- ``dm_notice_pending``: that failure happened outside the user's own interaction, so they are
  told once, at their next action;
- ``turn_dms``: the user wants a DM with their moves at every turn, besides the board's ping;
- ``pictures_off``: the user's own private views (their hand) come as text only, without a picture.

Beside the flags, the language the user chose for their private texts (``language``; none chosen:
their client's).

Quiet hours are the referee's own (``Referee.quiet_hours``): the clocks depend on them.
"""

from __future__ import annotations

from typing import Protocol

from engine.i18n import resolve_language

DM_CLOSED = "dm_closed"
DM_NOTICE_PENDING = "dm_notice_pending"
TURN_DMS = "turn_dms"
PICTURES_OFF = "pictures_off"


class UserFlags(Protocol):
    """The part of the Store this room uses."""

    async def get_user_flag(self, user_id: str, flag: str) -> bool: ...

    async def set_user_flag(self, user_id: str, flag: str, value: bool) -> None: ...

    async def get_user_language(self, user_id: str) -> str | None: ...

    async def set_user_language(self, user_id: str, code: str | None) -> None: ...


class UserSettings:
    """Each user's flags, read through a cache (the store stays the truth; the cache only saves
    queries: every change made here goes to both)."""

    def __init__(self, store: UserFlags) -> None:
        self._store = store
        self._dm_closed: dict[str, bool] = {}
        self._turn_dms: dict[str, bool] = {}
        self._pictures_off: dict[str, bool] = {}
        self._languages: dict[str, str | None] = {}

    async def dms_closed(self, user_id: str) -> bool:
        return await self._read(self._dm_closed, user_id, DM_CLOSED)

    async def set_dms_closed(self, user_id: str, closed: bool) -> None:
        await self._write(self._dm_closed, user_id, DM_CLOSED, closed)

    async def wants_turn_dms(self, user_id: str) -> bool:
        return await self._read(self._turn_dms, user_id, TURN_DMS)

    async def set_turn_dms(self, user_id: str, enabled: bool) -> None:
        """Turn DMs on or off; asking for them is the sign the user's DMs were opened again, so a
        closed-DMs mark is dropped and DMs are tried once more."""
        await self._write(self._turn_dms, user_id, TURN_DMS, enabled)
        if enabled and await self.dms_closed(user_id):
            await self.set_dms_closed(user_id, False)

    async def wants_pictures(self, user_id: str) -> bool:
        """Whether the user's private views carry a picture of their hand (on unless turned off)."""
        return not await self._read(self._pictures_off, user_id, PICTURES_OFF)

    async def set_pictures(self, user_id: str, enabled: bool) -> None:
        await self._write(self._pictures_off, user_id, PICTURES_OFF, not enabled)

    async def language(self, user_id: str) -> str | None:
        """The language the player chose for their private texts (an engine.i18n code), or None
        when they chose none: then their Discord client's language is theirs."""
        if user_id not in self._languages:
            stored = await self._store.get_user_language(user_id)
            self._languages[user_id] = resolve_language(stored) if stored else None
        return self._languages[user_id]

    async def set_language(self, user_id: str, code: str | None) -> None:
        """Choose a language (a code of engine.i18n.LANGUAGES), or None to follow the client's."""
        chosen = resolve_language(code) if code else None
        await self._store.set_user_language(user_id, chosen)
        self._languages[user_id] = chosen

    async def owe_dm_notice(self, user_id: str) -> None:
        """A DM to this user failed outside their own interaction: tell them at their next action."""
        await self._store.set_user_flag(user_id, DM_NOTICE_PENDING, True)

    async def take_dm_notice(self, user_id: str) -> bool:
        """True once after a DM to this user failed outside their own interaction (while their
        DMs are still closed)."""
        if not await self.dms_closed(user_id):
            return False
        if not await self._store.get_user_flag(user_id, DM_NOTICE_PENDING):
            return False
        await self._store.set_user_flag(user_id, DM_NOTICE_PENDING, False)
        return True

    def forget(self, user_id: str) -> None:
        """Drop what the cache holds of a user whose data was deleted (forget.py)."""
        self._dm_closed.pop(user_id, None)
        self._turn_dms.pop(user_id, None)
        self._pictures_off.pop(user_id, None)
        self._languages.pop(user_id, None)

    async def _read(self, cache: dict[str, bool], user_id: str, flag: str) -> bool:
        cached = cache.get(user_id)
        if cached is None:
            cached = cache[user_id] = await self._store.get_user_flag(user_id, flag)
        return cached

    async def _write(self, cache: dict[str, bool], user_id: str, flag: str, value: bool) -> None:
        await self._store.set_user_flag(user_id, flag, value)
        cache[user_id] = value
