"""Downtime credit: the time the bot was down is given back to every running clock.

At start-up ``credit_downtime`` measures the outage from the last heartbeat that ``due_actions``
stores. With ``defer=True`` (what the bot does) start-up only notes the outage: a table is
credited the first time it is loaded (tables.py), the rest in one batch at the first
``due_actions``; nothing reads, changes or times out a clock that was not credited first. The
Referee's methods of the same names say more.

With several processes on one store (``shared``), the heartbeat is theirs together: a process
that starts while others run finds it at most a poll old, and nothing was down. Only an outage of
every process is credited, and by one process only: the first to claim it (claims.py; the claim is
left to expire, so that a process starting meanwhile finds the fresh heartbeat instead).
"""

from __future__ import annotations

import asyncio
import logging

from .claims import DOWNTIME, Claims
from .deadlines import credit_timed_seats
from .reports import HEARTBEAT_SECONDS
from .tables import Downtime, Tables, copy_table

logger = logging.getLogger(__name__)


class DowntimeCredit:
    def __init__(self, tables: Tables, claims: Claims) -> None:
        self.tables = tables
        self.claims = claims
        # Whether the outage at start-up was looked at (the first due_actions does it otherwise).
        self.credited = False

    async def credit_downtime(self, now: float | None = None, *, defer: bool = False) -> float:
        now = self.tables.clock() if now is None else now
        self.credited = True
        await self.finish_downtime_credit()  # an earlier outage first: each is credited once
        # Until the outage is known, every table loaded waits for it (see Tables.load).
        downtime = self.tables.downtime = Downtime(now, now, None)
        async with self.tables.credit_lock:
            last = await self.tables.store.get_heartbeat()
            if last is not None and self.claims.shared and not await self._whole_outage(last, now):
                last = None  # the other processes kept the clocks (or one of them credits the outage)
            if last is None or now <= last:
                self.tables.downtime = None
                await self.tables.store.set_heartbeat(now)
                return 0.0
            downtime.since = last
            downtime.tables = set(await self.tables.store.running_timed_table_ids())
        # Tables cached before this call (only when it comes late) are credited where they are.
        for table_id in [cached for cached in self.tables.cache if cached in downtime.tables]:
            await self._credit_cached(table_id, downtime)
        if not defer:
            await self.finish_downtime_credit()
        return now - last

    async def _whole_outage(self, last: float, now: float) -> bool:
        """Shared store: whether every process was down (the heartbeat older than the others' polls
        leave it) and this process is the one to credit it."""
        if now - last <= 2 * HEARTBEAT_SECONDS:
            return False
        return bool(await self.claims.take(DOWNTIME, [0], now))

    async def finish_downtime_credit(self) -> None:
        downtime = self.tables.downtime
        if downtime is not None and downtime.tables is None:
            async with self.tables.credit_lock:  # the outage is being noted: wait until it is known
                downtime = self.tables.downtime
        if downtime is None or downtime.tables is None:
            return
        # Read and computed outside the lock, so that commands go on meanwhile: a table credited on
        # its own in the meantime is no longer owed and is not written again below; the others
        # cannot have changed since they were read, as loading one takes the lock.
        seats = await self.tables.store.running_timed_seats()
        credited = await asyncio.to_thread(credit_timed_seats, seats, downtime.since, downtime.until)
        async with self.tables.credit_lock:
            if self.tables.downtime is not downtime:
                return  # finished by another caller meanwhile
            owed = [timed for timed in credited if timed.table_id in downtime.tables]
            left_alone = await self.tables.store.save_timed_seats(owed, heartbeat=downtime.until)
            if left_alone:
                # Only another process writing the same database can do this.
                logger.warning("downtime not credited to games %s: they changed during the restart", left_alone)
            self.tables.downtime = None

    async def _credit_cached(self, table_id: int, downtime: Downtime) -> None:
        """Credit a table that was cached before the outage was noted, where it is."""
        async with self.tables.lock(table_id), self.tables.credit_lock:
            loaded = self.tables.cache.get(table_id)
            if loaded is None or not downtime.owes(table_id):
                return  # evicted meanwhile: credited when loaded again
            table = copy_table(loaded.table)
            if await self.tables.credit_table(table, downtime):
                loaded.table = table
            else:
                self.tables.forget(table_id)
            assert downtime.tables is not None
            downtime.tables.discard(table_id)

    async def heartbeat(self, now: float | None = None) -> None:
        await self.finish_downtime_credit()
        await self.tables.store.set_heartbeat(self.tables.clock() if now is None else now)
