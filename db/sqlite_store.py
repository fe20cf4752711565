"""The referee's Store on one SQLite file: the query modules composed over the group writer.

One module per job, as the Store protocol is split (engine/referee/store.py): tables.py (tables,
seats, moves, snapshots), clocks.py, results.py (results, ratings, leaderboards, statistics),
users.py (flags and settings), announcements.py (the outbox), claims.py (work claimed by one
process of several), limits_store.py, seasons.py and forget.py; every write
goes through the group-commit writer (writer.py), which keeps the WAL bounded (wal.py). Schema
changes are numbered SQL files under ``migrations/``, applied in order and tracked with
``PRAGMA user_version``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import aiosqlite

from . import wal
from .announcements import AnnouncementQueries
from .claims import ClaimQueries
from .clocks import HEARTBEAT, ClockQueries
from .forget import ForgetRows
from .limits_store import LimitsRows
from .plans import Plan, R, read_sqlite, run_sqlite
from .results import ResultQueries
from .seasons import SeasonQueries
from .tables import TableQueries
from .undo_store import UndoRows
from .users import UserQueries
from .vacations import VacationQueries
from .writer import Call, GroupWriter, Work

MIGRATIONS = Path(__file__).with_name("migrations")
DEFAULT_DATABASE_PATH = "data/referee.sqlite3"


# The connection settings, shared with the benchmark's bare commits so that both wait for the disk
# alike. FULL, not NORMAL: with NORMAL a commit returns before the log reaches the disk, and a
# host crash may take back moves the players were told were accepted. The WAL file is cut back
# to journal_size_limit whenever it starts again from its beginning (see wal.py).
PRAGMAS = (
    "journal_mode=WAL",
    "synchronous=FULL",
    "foreign_keys=ON",
    f"busy_timeout={wal.BUSY_TIMEOUT_MS}",
    f"journal_size_limit={wal.JOURNAL_SIZE_LIMIT}",
)


def database_path_from_env() -> str:
    return os.environ.get("DATABASE_PATH") or DEFAULT_DATABASE_PATH


class SqliteStore(
    TableQueries,
    ClockQueries,
    ResultQueries,
    UserQueries,
    LimitsRows,
    AnnouncementQueries,
    SeasonQueries,
    ForgetRows,
    UndoRows,
    VacationQueries,
    ClaimQueries,
):
    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self._db = connection  # the reads (and the migrations, before the writer starts)
        self.path = path
        self._writer = GroupWriter(path)  # every write (writer.py)
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        self._init_marks()  # the announcement marks waiting for the next group (db/announcements.py)

    @classmethod
    async def open(cls, path: str | os.PathLike[str] | None = None) -> SqliteStore:
        path = str(path or database_path_from_env())
        scratch = None
        if path == ":memory:":
            # The reads and the writer have a connection each, and two connections to
            # ":memory:" are two databases: a fresh file instead, gone when the store closes.
            scratch = tempfile.TemporaryDirectory(prefix="referee-")
            path = os.path.join(scratch.name, "referee.sqlite3")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)  # explicit transactions
        for pragma in (*PRAGMAS, "wal_autocheckpoint=0"):
            # Some setting PRAGMAs return a row; read it and close the cursor, or the statement
            # stays "in progress" and a later COMMIT fails.
            async with connection.execute(f"PRAGMA {pragma}") as cursor:
                await cursor.fetchall()
        store = cls(connection, path)
        store._scratch = scratch
        await store.migrate()
        await store._writer.open(PRAGMAS)
        store._writer.start_checkpoints(path)
        return store

    async def close(self) -> None:
        await self._writer.close()  # writes already accepted go to disk before the connection closes
        await self._db.close()
        if self._scratch is not None:
            self._scratch.cleanup()

    async def migrate(self) -> int:
        """Apply the migrations not yet applied; returns the schema version."""
        async with self._db.execute("PRAGMA user_version") as cursor:
            (current,) = await cursor.fetchone()  # type: ignore[misc]
        for script in sorted(MIGRATIONS.glob("*.sql")):
            number = int(script.name.split("_", 1)[0])
            if number <= current:
                continue
            await self._db.executescript(
                f"BEGIN;\n{script.read_text()}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
            current = number
        return current

    async def _read(self, plan: Plan[R]) -> R:
        """Run a plan of reads (db/plans.py) on the reads' connection."""
        return await read_sqlite(self._db, plan)

    async def _write(self, plan: Plan[R]) -> R:
        """Run a write plan in the next group transaction."""
        return await self._commit_in_group(Call(run_sqlite, plan))  # type: ignore[no-any-return]

    async def _commit_in_group(self, work: Work) -> Any:
        """Run ``work`` in the next group transaction (writer.py) and return its result."""
        return await self._writer.commit(work)


__all__ = ["DEFAULT_DATABASE_PATH", "HEARTBEAT", "MIGRATIONS", "PRAGMAS", "SqliteStore", "database_path_from_env"]
