"""What one player, and one server, may have open at once; and the purge of lobbies nobody started.

Without limits one user could open thousands of lobbies in seconds, and every cancelled lobby was
kept forever. The referee enforces these limits itself, so every front end gets them:

- ``lobbies_per_user``: lobbies a player hosts at once (a lobby is a table not started yet);
- ``games_per_user``: tables where a player holds a seat, lobbies and games running alike;
- ``tables_per_server``: lobbies and running games of one server together.

Each server may change its own (``Admission.set_limit``; on Discord, ``/limits set`` for members
with Manage Server), from 1 to ``LIMIT_MAX``. ``None`` means no limit; only the referee's
defaults can say so (benchmarks' synthetic players use ``UNLIMITED``). Tables outside any server (the local table, the
simulator) have the per-player limits of the defaults and no per-server one.

Admission: ``create_table`` and ``join`` count and write under one lock, so that two requests at
the same moment cannot both take the last place. Finished games never count; they are history
and are never purged. What is purged (``purge_unstarted``, from the clock task, once an hour):
lobbies cancelled more than ``CANCELLED_RETENTION`` ago and lobbies untouched for
``LOBBY_RETENTION``, with their seats.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from typing import Protocol

import msgspec

from engine.core.text import quote
from engine.i18n import N_, number, tr

from .model import LobbyError

DAY = 24 * 3600.0
CANCELLED_RETENTION = 7 * DAY  # a cancelled lobby is deleted a week after it was cancelled
LOBBY_RETENTION = 30 * DAY  # a lobby nobody touched for a month is deleted
PURGE_EVERY = 3600.0  # the clock task purges at most this often
PURGE_BATCH = 500  # lobbies deleted per transaction: a purge never holds the writer long
LIMIT_MAX = 100_000  # the largest value a server may set


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """The limits in force (``None``: no limit)."""

    lobbies_per_user: int | None = 5
    games_per_user: int | None = 50
    tables_per_server: int | None = 200


DEFAULT_LIMITS = Limits()
# For synthetic loads (benchmarks), whose made-up players sit at thousands of tables.
UNLIMITED = Limits(lobbies_per_user=None, games_per_user=None, tables_per_server=None)
# The names a server sets, and what each means to a person (in refusals and in /limits).
LIMIT_NAMES: dict[str, str] = {
    "lobbies_per_user": "open lobbies per player",
    "games_per_user": "games per player (lobbies and games in progress)",
    "tables_per_server": "open tables on this server (lobbies and games in progress)",
}


class OpenCounts(msgspec.Struct, frozen=True, kw_only=True):
    """What counts against the limits, in one server (or outside any)."""

    tables: int  # lobbies and running games of the server (0 when not counted)
    lobbies_hosted: int  # lobbies the player hosts
    games_seated: int  # lobbies and running games where the player holds a seat


class LimitsStore(Protocol):
    async def guild_limits(self, guild_id: str) -> dict[str, int]:
        """The limits a server changed ({name: value}; a name absent: the default)."""

    async def set_guild_limit(self, guild_id: str, name: str, value: int | None) -> None:
        """Set one limit of a server; ``None`` goes back to the default."""

    async def open_counts(self, guild_id: str | None, user_id: str, *, count_tables: bool) -> OpenCounts: ...

    async def purge_unstarted(
        self, table_ids: list[int], cancelled_before: float, idle_before: float
    ) -> list[int]:
        """Delete those of ``table_ids`` that are still cancelled lobbies (cancelled before
        ``cancelled_before``) or lobbies untouched since before ``idle_before``, with their seats,
        in one transaction; returns the ids deleted."""

    async def unstarted_to_purge(
        self, cancelled_before: float, idle_before: float, limit: int
    ) -> list[int]: ...


class Admission:
    """Checks the limits when a table opens or a player sits down (see the module's text)."""

    def __init__(self, store: LimitsStore, defaults: Limits = DEFAULT_LIMITS) -> None:
        self.store = store
        self.defaults = defaults
        self._lock = asyncio.Lock()

    async def limits_for(self, guild_id: str | None) -> Limits:
        """The limits in force in a server: the defaults, with what the server changed."""
        if guild_id is None or self.defaults == UNLIMITED:
            return self.defaults
        # A name no longer known (a limit since removed) is ignored rather than refused.
        changed = {
            name: value
            for name, value in (await self.store.guild_limits(guild_id)).items()
            if name in LIMIT_NAMES
        }
        if not changed:
            return self.defaults
        return msgspec.structs.replace(self.defaults, **changed)

    async def set_limit(self, guild_id: str, name: str, value: int | None) -> Limits:
        """Change one limit of a server (``None``: back to the default); returns those in force."""
        if name not in LIMIT_NAMES:
            raise LobbyError(tr("There is no limit {name}; limits: {limits}.", name=quote(name), limits=", ".join(LIMIT_NAMES)))
        if value is not None and not 1 <= value <= LIMIT_MAX:
            raise LobbyError(tr("A limit is a whole number from 1 to {most}.", most=number(LIMIT_MAX)))
        await self.store.set_guild_limit(guild_id, name, value)
        return await self.limits_for(guild_id)

    @contextlib.asynccontextmanager
    async def admit(
        self, guild_id: str | None, user_id: str, *, opens_table: bool, seated: bool
    ) -> AsyncIterator[None]:
        """Hold the admission lock while the caller writes the new table or seat, after checking
        that ``user_id`` may open a table (``opens_table``, as its host) and take a seat in one
        (``seated``). Raises LobbyError, in the player's words, when a limit is reached."""
        limits = await self.limits_for(guild_id)
        if limits == UNLIMITED:
            yield
            return
        per_server = opens_table and guild_id is not None and limits.tables_per_server is not None
        async with self._lock:
            counts = await self.store.open_counts(guild_id, user_id, count_tables=per_server)
            # (whether the limit applies here, the count, the limit, the refusal in the player's words)
            checks = (
                (
                    per_server,
                    counts.tables,
                    limits.tables_per_server,
                    N_(
                        "This server already has {count} open tables, its limit ({limit}). Finish or cancel"
                        " a game first; a server manager can raise the limit with /limits."
                    ),
                ),
                (
                    opens_table,
                    counts.lobbies_hosted,
                    limits.lobbies_per_user,
                    N_(
                        "You already host {count} lobbies not started yet, the limit ({limit}). Start or"
                        " cancel one of them first."
                    ),
                ),
                (
                    seated,
                    counts.games_seated,
                    limits.games_per_user,
                    N_(
                        "You already have a seat at {count} open games, the limit ({limit}). Finish, leave"
                        " or cancel one of them first."
                    ),
                ),
            )
            for applies, count, limit, refusal in checks:
                if applies and limit is not None and count >= limit:
                    raise LobbyError(tr(refusal, count=number(count), limit=number(limit)))
            yield


class PurgingTables(Protocol):
    """What a purge needs of the referee's table cache (tables.py, whose rooms import this
    module): its store, its per-table locks and the cache itself."""

    @property
    def store(self) -> object: ...

    def lock(self, table_id: int) -> AbstractAsyncContextManager[object]: ...

    def forget(self, table_id: int) -> None: ...


async def purge_unstarted(tables: PurgingTables, now: float) -> list[int]:
    """Delete the lobbies nobody will start (see the module's text) and forget them; returns their
    ids. Each is deleted under its table's lock, with its status and age checked again in the
    deleting transaction, so that a lobby joined or started meanwhile is kept."""
    store: LimitsStore = tables.store  # type: ignore[assignment]
    cancelled_before, idle_before = now - CANCELLED_RETENTION, now - LOBBY_RETENTION
    purged: list[int] = []
    while True:
        candidates = await store.unstarted_to_purge(cancelled_before, idle_before, PURGE_BATCH)
        if not candidates:
            return purged
        async with contextlib.AsyncExitStack() as held:
            for table_id in candidates:  # in id order: two purges never wait on each other
                await held.enter_async_context(tables.lock(table_id))
            deleted = await store.purge_unstarted(candidates, cancelled_before, idle_before)
            for table_id in deleted:
                tables.forget(table_id)
        purged.extend(deleted)
        if len(deleted) < len(candidates):  # changed meanwhile: leave the rest for the next purge
            return purged
