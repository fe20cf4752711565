"""The referee's table cache: the tables in play kept in memory, one lock per table, and the way
back to the store.

Every room of the referee (lobby, turns, timekeeping, queries) reaches tables through one
``Tables``: ``load`` (cache, else store), ``lock`` (one call at a time per table), ``save_seats``
(a change without a move) and the status checks. The cache keeps at most ``cache_size`` tables,
the least recently used evicted first; only the ``hot_states`` most recently used keep their state
decoded (see ``Loaded``). A table changes in the cache only after the store has it.

A table still owed the downtime found at start-up (``downtime``, noted by downtime.py) is
credited and stored the first time it is loaded, before anyone reads its clocks.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import msgspec

from engine.games import get_game
from engine.i18n import N_, tr

from .absence import Step
from .clock import Hours, get_speed, pauses_of
from .deadlines import credit_seat
from .locks import TableLocks
from .model import (
    ABANDONED,
    FINISHED,
    LOBBY,
    RUNNING,
    StaleCache,
    Table,
    TableNotFound,
    TimedSeat,
    VersionConflict,
    WrongStatus,
)
from .store import Store

logger = logging.getLogger(__name__)

class Loaded:
    """A table as kept in the cache.

    The state is kept decoded only while the game is among the recently used ones (see
    ``Tables.hot_states``); otherwise only its encoding is kept, and decoded again when needed.
    Why: a decoded state is hundreds of small objects that Python's cyclic garbage collector
    walks on every full collection, so thousands of decoded idle games turn each collection into
    a pause of a second; bytes are never walked and take less memory."""

    __slots__ = ("table", "encoded", "_state", "secrets", "public", "quiet", "step")

    def __init__(self, table: Table, state: Any = None, encoded: bytes | None = None) -> None:
        self.table = table
        self.encoded = encoded
        self._state = state
        # Fingerprints of this state's secret views by human seat (turns.secret_prints), kept
        # from the move that made it: the next move compares against them without computing them.
        self.secrets: dict[int, bytes] | None = None
        # The public view's fingerprint, when the move that made this state computed it (a move
        # that told the table nothing: see turns.apply_and_commit); None otherwise.
        self.public: bytes | None = None
        # The seated players' quiet hours by seat, read once; dropped when one of them changes.
        self.quiet: dict[int, Hours] | None = None
        # The referee's own next move for this very table and state (see Turns.pending_step).
        self.step: tuple[Any, Table, Step | None] | None = None

    @property
    def state(self) -> Any:
        if self._state is None and self.encoded is not None:
            self._state = get_game(self.table.game).decode_state(self.encoded)
        return self._state

    def set_state(self, state: Any, encoded: bytes) -> None:
        self._state, self.encoded = state, encoded

    def take_state(self) -> Any:
        """The decoded state, for a move to change in place; until ``set_state``, readers get
        the committed state decoded again from ``encoded``."""
        state = self.state
        self._state = None
        self.step = None  # it holds the state being changed
        return state

    def cool(self) -> None:
        """Keep only the encoding (the game has not been used for a while)."""
        if self.encoded is not None:
            self._state = None
            self.step = None  # it holds the decoded state too


class Downtime:
    """An outage found at start-up, from the last heartbeat (``since``) to the start (``until``),
    and the running timed tables not credited for it yet (None while they are being read)."""

    __slots__ = ("since", "until", "tables")

    def __init__(self, since: float, until: float, tables: set[int] | None) -> None:
        self.since = since
        self.until = until
        self.tables = tables

    def owes(self, table_id: int) -> bool:
        return self.tables is None or table_id in self.tables


class Tables:
    """The cache, the locks, the store and the clock every room of the referee shares."""

    def __init__(
        self, store: Store, clock: Callable[[], float], *, cache_size: int, hot_states: int, shared: bool = False
    ) -> None:
        self.store = store
        # Other processes write the same store: a cached table may be stale (see ``fresh``).
        self.shared = shared
        self.clock = clock
        self.cache_size = cache_size
        self.hot_states = hot_states  # how many cached games keep their state decoded
        self.cache: OrderedDict[int, Loaded] = OrderedDict()
        self.hot: OrderedDict[int, Loaded] = OrderedDict()  # the most recently used, decoded
        # Per-table locks, dropped with the table from the cache (see locks.py).
        self.locks = TableLocks(self.cache.__contains__)
        # Downtime still owed to some tables; the lock makes each table credited exactly once,
        # either when it is first loaded or by the batch (downtime.py).
        self.downtime: Downtime | None = None
        self.credit_lock = asyncio.Lock()

    def lock(self, table_id: int) -> AbstractAsyncContextManager[None]:
        """``async with tables.lock(table_id):`` one call at a time per table."""
        return self.locks(table_id)

    # ----- loading ------------------------------------------------------------------------------

    async def load(self, table_id: int) -> Loaded:
        loaded = self.cache.get(table_id)
        if loaded is not None:
            self.cache.move_to_end(table_id)
            self.keep_hot(loaded)
            return loaded
        downtime = self.downtime
        if downtime is not None and downtime.owes(table_id):
            return await self._load_owed(table_id)
        return await self._load_stored(table_id, await self.store.load_table(table_id))

    async def _load_owed(self, table_id: int) -> Loaded:
        """Load a table still owed downtime: credit it and store that first, so that nothing reads,
        times or writes its clocks uncredited. Under the credit lock: credited once, here or by
        the batch, never both."""
        async with self.credit_lock:
            loaded = self.cache.get(table_id)
            if loaded is not None:  # loaded by another caller while this one waited
                self.cache.move_to_end(table_id)
                self.keep_hot(loaded)
                return loaded
            table = await self.store.load_table(table_id)
            downtime = self.downtime
            if table is not None and downtime is not None and downtime.owes(table_id):
                if not await self.credit_table(table, downtime):
                    table = await self.store.load_table(table_id)
                assert downtime.tables is not None  # known once the lock is free
                downtime.tables.discard(table_id)
            return await self._load_stored(table_id, table)

    async def _load_stored(self, table_id: int, table: Table | None) -> Loaded:
        if table is None:
            raise TableNotFound(tr("There is no game {table}.", table=f"#{table_id}"))
        encoded = None
        if table.status != LOBBY:
            get_game(table.game)  # fails here, at load, for a game no longer installed
            encoded = await self.store.load_state(table_id)
        loaded = Loaded(table, encoded=encoded)
        self.remember(loaded)
        return loaded

    async def fresh(self, table_id: int) -> Loaded:
        """The table as the store has it now: the cached copy if it is still the stored one (same
        version and revision), else loaded again. For work that must not act on a copy another
        process made stale (the claimed clock actions, a move judged again); call it holding the
        table's lock. A process alone on its store has nothing to read again."""
        cached = self.cache.get(table_id)
        if not self.shared:
            return await self.load(table_id)
        downtime = self.downtime
        if cached is None or (downtime is not None and downtime.owes(table_id)):
            self.forget(table_id)
            return await self.load(table_id)
        stored = await self.store.load_table(table_id)
        if stored is not None and (stored.version, stored.revision) == (cached.table.version, cached.table.revision):
            return await self.load(table_id)
        self.forget(table_id)
        return await self._load_stored(table_id, stored)

    def remember(self, loaded: Loaded) -> None:
        self.cache[loaded.table.id] = loaded
        self.cache.move_to_end(loaded.table.id)
        while len(self.cache) > self.cache_size:
            table_id, _ = self.cache.popitem(last=False)
            self.hot.pop(table_id, None)
            self.locks.discard(table_id)
        self.keep_hot(loaded)

    def keep_hot(self, loaded: Loaded) -> None:
        hot = self.hot
        hot[loaded.table.id] = loaded
        hot.move_to_end(loaded.table.id)
        while len(hot) > self.hot_states:
            hot.popitem(last=False)[1].cool()

    def forget(self, table_id: int) -> None:
        """Drop a table whose cached copy may be stale (another process moved it)."""
        self.cache.pop(table_id, None)
        self.hot.pop(table_id, None)
        self.locks.discard(table_id)

    def forget_all(self) -> None:
        self.cache.clear()
        self.hot.clear()
        self.locks.clear_idle()

    # ----- shared by the rooms ------------------------------------------------------------------

    async def quiet_hours_at(self, table: Table, loaded: Loaded | None = None) -> dict[int, Hours]:
        """The pauses of the seated players' clocks (quiet hours, vacation), by seat; kept on
        ``loaded`` (the table's cache entry) so that a move does not read them again."""
        if loaded is not None and loaded.quiet is not None:
            return loaded.quiet
        users = [seat.user_id for seat in table.seats if seat.user_id is not None and not seat.is_ai]
        by_user = await self.store.quiet_hours_of(users) if users else {}
        away = await self.store.vacations_of(users) if users else {}
        quiet: dict[int, Hours] = {}
        for seat in table.seats:
            if seat.user_id is not None and (seat.user_id in by_user or seat.user_id in away):
                quiet[seat.index] = pauses_of(by_user.get(seat.user_id), away.get(seat.user_id))
        if loaded is not None:
            loaded.quiet = quiet
        return quiet

    async def pauses_of_user(self, user_id: str) -> Hours:
        """One player's pauses (quiet hours and latest vacation), read from the store."""
        quiet = await self.store.get_quiet_hours(user_id)
        vacation = (await self.store.vacations_of([user_id])).get(user_id)
        return pauses_of(quiet, vacation)

    async def credit_table(self, table: Table, downtime: Downtime) -> bool:
        """Credit one table (changed in place) and store its changed seats; False if the store had
        moved on from the version read (nothing written then)."""
        speed = get_speed(table.speed)
        if table.status != RUNNING or not speed.timed:
            return True
        quiet = await self.quiet_hours_at(table)
        changed = [
            TimedSeat(table_id=table.id, version=table.version, speed=table.speed, seat=seat)
            for seat in table.seats
            if credit_seat(seat, speed, quiet.get(seat.index), downtime.since, downtime.until)
        ]
        if changed:
            if await self.store.save_timed_seats(changed):
                logger.warning("downtime not credited to game #%s: it changed during the restart", table.id)
                return False
            table.revision += 1  # the store raised it with the write
        return True

    async def save_seats(self, loaded: Loaded, table: Table) -> None:
        """Store a table whose seats changed without a move (skip, return, clocks checked)."""
        await self.save_cached(table)
        loaded.table = table

    async def save_cached(self, table: Table, *, refuse: bool = True) -> None:
        """Store a table changed outside a move (a lobby's seats, its links, a copy of it). A copy
        another process made stale is never written over the stored table: it is dropped from
        the cache (whatever the caller changed in it), and ``refuse`` raises StaleCache (the
        player is told to look again) instead of the store's VersionConflict."""
        try:
            await self.store.save_table(table, table.version)
        except VersionConflict:
            self.forget(table.id)
            if not refuse:
                raise
            raise StaleCache(tr("The game changed in the meantime; look at the board and try again.")) from None

    # ----- checks -------------------------------------------------------------------------------

    async def lobby(self, table_id: int) -> Table:
        table = (await self.load(table_id)).table
        if table.status != LOBBY:
            raise WrongStatus(status_text(table))
        return table

    async def started(self, table_id: int) -> Loaded:
        loaded = await self.load(table_id)
        if loaded.table.status == LOBBY:
            raise WrongStatus(tr("This game has not started yet."))
        if loaded.state is None:
            raise WrongStatus(tr("This game was cancelled before it started."))
        return loaded

    async def running(self, table_id: int) -> Loaded:
        loaded = await self.load(table_id)
        if loaded.table.status != RUNNING:
            raise WrongStatus(status_text(loaded.table))
        return loaded


def copy_table(table: Table) -> Table:
    """A copy to change before a commit: its own seats, clocks and options (everything in them
    that is changed in place); strings and numbers are shared, as they never change."""
    replace = msgspec.structs.replace
    return replace(
        table,
        options=dict(table.options),
        abandon_votes=list(table.abandon_votes),
        seats=[replace(seat, clock=None if seat.clock is None else replace(seat.clock)) for seat in table.seats],
    )


_VIEW_ENCODER = msgspec.msgpack.Encoder(order="deterministic")


def fingerprint(view: Any) -> bytes:
    """A short digest of a view: equal views, equal digests (keys and sets in sorted order)."""
    return hashlib.blake2b(_VIEW_ENCODER.encode(view), digest_size=16).digest()


def status_text(table: Table) -> str:
    return tr(_STATUS_TEXTS[table.status])


_STATUS_TEXTS = {
    LOBBY: N_("This game has not started yet."),
    RUNNING: N_("This game is already running."),
    FINISHED: N_("This game is over."),
    ABANDONED: N_("This game was cancelled."),
}
