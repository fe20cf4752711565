"""Claims: work that must happen once in total when several processes share one store.

Several bot processes (shards) over one database all poll the same clocks and the same
announcement outbox. Before acting on a table for one kind of work, a process *claims* it in
the store: a lease (its owner id, and an expiry). A table claimed by another process is left
alone; the claims are given back as soon as the work is done, so the lease only matters when a
process dies in the middle: its claims then expire and the next poll of another process takes
the work over (within ``lease`` seconds plus one poll).

    claimed = await claims.take(CLOCK, due_ids)     # the ones nobody else holds
    try:
        ...                                          # act on each, reading it fresh from the store
    finally:
        await claims.give_back(CLOCK, claimed)

Exactly once needs both halves: the claim keeps two processes from acting together, and acting
on the table as stored (not a cached copy: ``Tables.fresh``) keeps a process from acting again
on what another already did before it claimed.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Sequence

from .batching import Coalescer
from .store import ClaimStore

CLOCK = "clock"  # a table's due reminders, timeouts, skips and forfeits (timekeeping.py)
ANNOUNCE = "announce"  # posting a table's board and private notices (announcements.py)
DOWNTIME = "downtime"  # crediting an outage of every process to the clocks (downtime.py; table 0)
# How long a claim holds without being given back: at most one poll interval of the clock task
# (reports.HEARTBEAT_SECONDS), far more than the work of one poll takes.
LEASE_SECONDS = 30.0


def process_owner() -> str:
    """An owner id unique to this process (a restarted process is a new owner: it must not take
    for its own the claims its previous life left half done before they expire)."""
    return f"{os.getpid()}-{uuid.uuid4().hex[:12]}"


class Claims:
    """This process's claims in the store: one owner id, one lease length."""

    def __init__(
        self,
        store: ClaimStore,
        clock: Callable[[], float],
        *,
        owner: str | None = None,
        lease: float = LEASE_SECONDS,
        shared: bool = False,
    ) -> None:
        self.store = store
        self.clock = clock
        self.owner = owner or process_owner()
        self.lease = lease
        # Whether other processes share the store. Alone, every claim is granted without a write:
        # one process on its own pays nothing for claims.
        self.shared = shared

        # The claims and give-backs waiting for the store, by kind of work (``_send``).
        self._batches: dict[str, Coalescer[tuple[bool, list[int]], list[int]]] = {}

    async def take(self, kind: str, table_ids: Sequence[int], now: float | None = None) -> list[int]:
        """Claim what nobody else holds among ``table_ids``; returns the tables claimed. Without
        ``now`` (one table's announcement, claimed for every published move), it goes to the
        store with the claims and give-backs of the same kind made meanwhile (``_send``)."""
        if not self.shared or not table_ids:
            return list(table_ids)
        if now is None:
            return await self._batch(kind).submit((True, list(table_ids)))
        return await self.store.claim(kind, list(table_ids), self.owner, now, now + self.lease)

    async def give_back(self, kind: str, table_ids: Sequence[int]) -> None:
        if self.shared and table_ids:
            await self._batch(kind).submit((False, list(table_ids)))

    def _batch(self, kind: str) -> Coalescer[tuple[bool, list[int]], list[int]]:
        batch = self._batches.get(kind)
        if batch is None:
            batch = self._batches[kind] = Coalescer(lambda calls: self._send(kind, calls))
        return batch

    async def _send(self, kind: str, calls: list[tuple[bool, list[int]]]) -> list[list[int]]:
        """One batch: what is given back (one release), then what is claimed (one claim). In that
        order: a table given back by one task and claimed by another of this process in the same
        batch stays claimed, as the claimer needs (the one giving back is done with it)."""
        given = sorted({table_id for taking, ids in calls if not taking for table_id in ids})
        if given:
            await self.store.release(kind, given, self.owner)
        wanted = sorted({table_id for taking, ids in calls if taking for table_id in ids})
        held: set[int] = set()
        if wanted:
            now = self.clock()
            held = set(await self.store.claim(kind, wanted, self.owner, now, now + self.lease))
        return [[table_id for table_id in ids if table_id in held] if taking else [] for taking, ids in calls]
