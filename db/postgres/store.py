"""The referee's Store on PostgreSQL (asyncpg): for several bot processes over one database.

The same protocols as the SQLite store (engine/referee/store.py), split the same way: tables.py
(tables, seats, moves, snapshots), clocks.py (clocks, players' settings, the announcement outbox,
the limits), results.py (results, ratings, leaderboards), seasons.py and players.py (forgetting a
player, vacations, rematches). The rows and their conversions are
db/rows.py's, shared with SQLite; the schema is SQLite's numbered migrations (db/migrations/),
translated to PostgreSQL's dialect by schema.py and applied at start-up as SQLite's are.

Several processes share the database, so nothing relies on one process's order: a move's commit
is a compare-and-swap on the table's version (the UPDATE's row lock orders two commits of one
table; the second finds the version moved and raises VersionConflict), the ratings of one pool are
updated under a transaction-scoped advisory lock (results.py), and results are numbered by a
sequence. Every write is one transaction on a pooled connection: PostgreSQL shares one WAL flush
among the commits that arrive together, and the plain moves of one process go in groups
(batch.py), one statement and one flush for many, as the SQLite store's group writer does.
"""

from __future__ import annotations

import asyncpg

from engine.referee.batching import Coalescer

from ..plans import Plan, R
from ..results import ResultQueries
from ..seasons import SeasonQueries
from .batch import GroupCommitter
from .clocks import PgAnnouncements, PgClaims, PgClocks, PgLimits, PgUndo, PgUsers
from .plans import read_postgres, write_postgres
from .players import PgForget, PgVacations
from .schema import has_statements, migration_scripts
from .tables import PgTables, commit_one

# One number for the advisory lock that lets only one starting process migrate at a time.
_MIGRATION_LOCK = 0x7265_6665_7265_6531


async def _keep_session(connection: asyncpg.Connection) -> None:
    """What the pool does to a connection given back, beyond rolling back a transaction left
    open (asyncpg does that first, whatever this does): nothing. asyncpg's default sends one more
    statement per use (advisory locks, LISTENs, cursors, settings undone): a round trip and a
    statement of the server's for every read and write, which nearly doubled the time of a small
    read through the pool (measured on a loaded 2-core machine: 1.5-1.8 ms a read with it,
    0.85-1.0 ms without; the client's CPU 340 against 230 us). The store leaves no session state behind: its advisory locks are
    transaction-scoped, but for the migration lock, given back where it is taken (``migrate``);
    it sets nothing and listens to nothing."""


class PostgresStore(
    PgTables,
    PgClocks,
    ResultQueries,
    SeasonQueries,
    PgUsers,
    PgAnnouncements,
    PgLimits,
    PgUndo,
    PgClaims,
    PgForget,
    PgVacations,
):
    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        # Plain moves go to the server in groups (batch.py), one group on its way at a time: the
        # moves that arrive meanwhile make the next group, as the SQLite writer's do. Four at once
        # made groups smaller and cost the server about a third more CPU per move (more
        # statements, contending for the same index pages and the WAL; measured with 1 and 2
        # processes on two loaded cores), and the server flushes its WAL one flush at a time
        # anyway. The rest of the pool is left to reads, game ends and the other writes.
        self._groups = GroupCommitter(pool, lambda move: commit_one(pool, move), in_flight=1)
        # The announcement marks, one per published move, go together too (clocks.py).
        self._marks = Coalescer(self._write_marks)

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresStore:
        pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size, reset=_keep_session)
        store = cls(pool, url)
        try:
            await store.migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    async def _read(self, plan: Plan[R]) -> R:
        """Run a plan of reads (db/plans.py) on one pooled connection."""
        return await read_postgres(self._pool, plan)

    async def _write(self, plan: Plan[R]) -> R:
        """Run a write plan in a transaction of its own."""
        return await write_postgres(self._pool, plan)

    async def migrate(self) -> int:
        """Apply the migrations not yet applied (each in its transaction, with its number in
        ``schema_version``), whatever their number: a migration numbered below the latest applied
        one (branches merged in another order) is applied too. Several processes starting at once
        take turns. Returns the highest number applied."""
        async with self._pool.acquire() as connection:
            await connection.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
            try:
                await connection.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
                )
                applied = {row[0] for row in await connection.fetch("SELECT version FROM schema_version")}
                for number, script in migration_scripts():
                    if number in applied:
                        continue
                    async with connection.transaction():
                        if has_statements(script):
                            await connection.execute(script)
                        await connection.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
                    applied.add(number)
                return max(applied, default=0)
            finally:
                await connection.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)


__all__ = ["PostgresStore"]
