"""The referee's Store on one SQLite file.

WAL mode lets readers go on while a move commits; ``synchronous=FULL`` syncs the log to disk at
every commit, so an accepted move survives a power cut or a host crash too, not only a crash of
the bot. Group commit (``_commit_in_group``) shares that one sync among all the moves that arrive
together, which is what makes it affordable. Schema changes are numbered SQL files under ``migrations/``,
applied in order and tracked with ``PRAGMA user_version``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import aiosqlite
import msgspec

from db.announcements import AnnouncementQueries
from engine.core import Outcome, RecordedMove
from engine.referee import ratings as rating_model
from engine.referee.clock import QuietHours, SeatClock
from engine.referee.model import GameResult, RatingChange, ResultSeat, Seat, Table, TimedSeat, VersionConflict
from engine.referee.ratings import RatedSeat, Rating
from engine.referee.reports import (
    GameStats,
    HighScore,
    LeaderboardPage,
    LeaderboardRow,
    PlayerStats,
    RecentResult,
    TableLinks,
)

from . import wal
from .limits_store import LimitsRows

MIGRATIONS = Path(__file__).with_name("migrations")
DEFAULT_DATABASE_PATH = "data/referee.sqlite3"

# The columns of ``games`` that mirror Table fields, in one place for INSERT, UPDATE and SELECT.
# ``options`` is stored as JSON text; every other field is stored as it is.
_TABLE_FIELDS = (
    "game",
    "options",
    "host",
    "status",
    "seed",
    "version",
    "guild_id",
    "channel_id",
    "thread_id",
    "message_id",
    "created_at",
    "updated_at",
    "speed",
    "needs_resume",
)
# Those an UPDATE rewrites: a table never changes its game.
_UPDATED_FIELDS = tuple(field for field in _TABLE_FIELDS if field != "game")
_TABLE_COLUMNS = "id, " + ", ".join(_TABLE_FIELDS)
_SEAT_COLUMNS = "seat, name, user_id, ai_kind, waiting_since, clock, absent_since, skips, forfeited, ai_played, next_due_at"
_RESULT_COLUMNS = "game_id, game, guild_id, speed, rated, board, finished_at, outcome"
_RESULT_SEAT_COLUMNS = "seat, name, user_id, is_ai, score, game_rank, rank, team, forfeited, ai_played"
HEARTBEAT = "heartbeat"
_SET_HEARTBEAT = (
    "INSERT INTO bot_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)
# Ids bound in one IN list at most: SQLite refuses more than 32,766 parameters in a statement.
_IN_LIST_LIMIT = 10_000


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


class SqliteStore(LimitsRows, AnnouncementQueries):
    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self._db = connection
        self.path = path
        # Group commit (see _commit_in_group): the writes waiting for the next transaction, and
        # whether a drain is queued in the connection's thread; both shared with that thread.
        self._waiting: list[tuple[_Work, asyncio.Future[Any]]] = []
        self._waiting_lock = threading.Lock()
        self._draining = False
        self._stop_checkpoints: threading.Event | None = None
        self._init_marks()  # the announcement marks waiting for the next group (db/announcements.py)

    @classmethod
    async def open(cls, path: str | os.PathLike[str] | None = None) -> SqliteStore:
        path = str(path or database_path_from_env())
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)  # explicit transactions
        for pragma in PRAGMAS:
            # Some setting PRAGMAs return a row; read it and close the cursor, or the statement
            # stays "in progress" and a later COMMIT fails.
            async with connection.execute(f"PRAGMA {pragma}") as cursor:
                await cursor.fetchall()
        store = cls(connection, path)
        await store.migrate()
        if path != ":memory:":
            async with connection.execute("PRAGMA wal_autocheckpoint=0") as cursor:
                await cursor.fetchall()
            store._start_checkpoints(path)
        return store

    async def close(self) -> None:
        while self._draining:  # writes already accepted go to disk before the connection closes
            await asyncio.sleep(0.001)
        if self._stop_checkpoints is not None:
            self._stop_checkpoints.set()
        await self._db.close()

    def _start_checkpoints(self, path: str) -> None:
        """Copy the WAL back into the database file from another thread and connection, so that
        no move's COMMIT waits for a checkpoint (SQLite otherwise runs one inside whichever commit
        crosses 1,000 pages: a latency spike for one unlucky player)."""
        self._stop_checkpoints = threading.Event()
        threading.Thread(
            target=wal.checkpoint_every,
            args=(path, wal.CHECKPOINT_SECONDS, self._stop_checkpoints),
            name="sqlite-checkpoints",
            daemon=True,  # never holds the process open; the last WAL frames are checkpointed at the next open
        ).start()

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

    # ----- tables -------------------------------------------------------------------------------

    async def create_table(self, table: Table) -> int:
        # Rows are built now, on the event loop: the caller's table may change once we wait.
        return await self._commit_in_group(_Call(_create_table, _table_values(table), _seat_rows(table.seats)))

    async def load_table(self, table_id: int) -> Table | None:
        async with self._db.execute(
            f"SELECT {_TABLE_COLUMNS} FROM games WHERE id = ?", (table_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        table = _table_from_row(row)
        table.seats = await self._seats(table_id)
        return table

    async def load_state(self, table_id: int) -> bytes | None:
        async with self._db.execute("SELECT state FROM games WHERE id = ?", (table_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0]

    async def save_table(self, table: Table, expected_version: int) -> None:
        values = _updated_values(table)
        await self._commit_in_group(
            _Call(_save_table, table.id, (*values, table.id, expected_version), _seat_rows(table.seats))
        )

    async def commit_moves(
        self,
        table: Table,
        expected_version: int,
        moves: list[RecordedMove],
        state: bytes,
        outcome: bytes | None = None,
        *,
        result: GameResult | None = None,
        changed_seats: Sequence[int] | None = None,
    ) -> list[RatingChange]:
        """In ONE transaction: the moves, the snapshot, the table and its seats (turn flow and
        clocks; only ``changed_seats`` when given) and, when the game ended, its result with every
        seat and, for a rated game, the rating updates. Either all of it is on disk or none of
        it. Returns the rating changes."""
        # Committed with the other moves that arrive meanwhile, in one hop to the connection's
        # thread (the end of a game too: its result and ratings are part of the same unit).
        return await self._commit_in_group(
            _MoveCommit(table, expected_version, moves, state, changed_seats, outcome, result)
        )

    async def _commit_in_group(self, work: _Work) -> Any:
        """Run ``work`` in the next group transaction and return its result (or raise its error).

        Every write goes this way. A commit costs about the same for one move as for fifty (the
        sync to disk, the hand-over to the connection's thread), so the writes that arrive while
        a transaction is on its way to disk wait and share the next one; see _write_group for how
        one failing write is kept from the others. The first write to arrive when none is being
        written is handed to the connection's thread at once, not at the event loop's next turn:
        the disk then works while the loop goes on with the next moves. With one move at a time
        this is a single hop per move."""
        if not self._db._running:
            raise ValueError("The store is closed.")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        with self._waiting_lock:
            self._waiting.append((work, future))
            start, self._draining = not self._draining, True
        if start:
            self._queue_in_connection_thread(functools.partial(self._drain, loop))
        return await future

    def _queue_in_connection_thread(self, function: Callable[[], None]) -> None:
        """Queue ``function`` in aiosqlite's connection thread without waiting for it (its own
        request queue, as its methods do; the aiosqlite version is pinned). ``function`` must
        never raise: it hands its outcome to the event loop itself."""
        self._db._tx.put_nowait((None, function))

    def _drain(self, loop: asyncio.AbstractEventLoop) -> None:
        """In the connection's thread: write everything waiting as one group, hand the answers to
        the event loop, and queue itself again behind whatever was queued meanwhile (reads get
        their turn between groups); stop when nothing waits."""
        with self._waiting_lock:
            group, self._waiting = self._waiting, []
            if not group:
                self._draining = False
                return
        try:
            answers = _write_group(self._db._conn, [work for work, _ in group])
        except BaseException as error:  # the COMMIT itself failed: nothing of the group is on disk
            answers = [(False, error)] * len(group)
        if self.path != ":memory:":
            # Between two groups, the writer keeps the WAL bounded (wal.py); the moves that
            # arrive meanwhile wait for the next group, as they would for this one's sync.
            wal.restart_if_large(self._db._conn, self.path)
        try:
            loop.call_soon_threadsafe(_deliver, group, answers)
        except RuntimeError:  # the event loop is closed: nobody is waiting any more
            pass
        self._queue_in_connection_thread(functools.partial(self._drain, loop))

    async def _in_connection_thread(self, function: Callable[..., Any], *args: Any) -> Any:
        """Call ``function(connection, *args)`` in aiosqlite's thread with the plain sqlite3
        connection and wait for its result: several reads in one hop."""
        return await self._db._execute(function, self._db._conn, *args)

    async def _seats(self, table_id: int) -> list[Seat]:
        async with self._db.execute(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (table_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [_seat_from_row(row) for row in rows]

    async def move_log(self, table_id: int) -> list[RecordedMove]:
        async with self._db.execute(
            "SELECT seat, move FROM moves WHERE game_id = ? ORDER BY n", (table_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [RecordedMove(row[0], row[1]) for row in rows]

    async def list_tables(
        self,
        *,
        guild_id: str | None = None,
        statuses: tuple[str, ...] | None = None,
        user_id: str | None = None,
        limit: int = 100,
    ) -> list[Table]:
        where: list[str] = []
        values: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            values.append(guild_id)
        if statuses:
            where.append(f"status IN ({','.join('?' * len(statuses))})")
            values.extend(statuses)
        if user_id is not None:
            where.append("id IN (SELECT game_id FROM seats WHERE user_id = ?)")
            values.append(user_id)
        sql = f"SELECT {_TABLE_COLUMNS} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY updated_at DESC LIMIT ?"
        values.append(limit)
        async with self._db.execute(sql, values) as cursor:
            rows = await cursor.fetchall()
        tables = [_table_from_row(row) for row in rows]
        for table in tables:
            table.seats = await self._seats(table.id)
        return tables

    async def result(self, table_id: int) -> bytes | None:
        async with self._db.execute("SELECT outcome FROM results WHERE game_id = ?", (table_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0].encode()

    # ----- results and ratings -------------------------------------------------------------------

    async def rebuild_ratings(self, model: Any | None = None) -> int:
        """Recompute every rating from the stored results, in the order they were recorded, with
        ``model`` (default: the current one); rewrites the rating events. One transaction.
        Returns the number of rated games replayed."""
        return await self._commit_in_group(_Call(_rebuild_ratings, model))

    async def _result_seats(self, table_id: int) -> list[ResultSeat]:
        return await self._in_connection_thread(_read_result_seats, table_id)

    async def game_result(self, table_id: int) -> GameResult | None:
        async with self._db.execute(
            f"SELECT {_RESULT_COLUMNS} FROM results WHERE game_id = ?", (table_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return _result_from_row(row, await self._result_seats(table_id))

    async def ratings(self, guild_id: str | None, game: str) -> dict[str, tuple[Rating, int, int]]:
        """{user_id: (rating, rated games, wins)} of one rating pool."""
        async with self._db.execute(
            "SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ?",
            (_scope(guild_id), game),
        ) as cursor:
            rows = await cursor.fetchall()
        return {row[0]: (Rating(row[1], row[2]), row[3], row[4]) for row in rows}

    async def rating_events(
        self, *, guild_id: str | None = None, game: str | None = None, user_id: str | None = None
    ) -> list[RatingChange]:
        """Stored rating updates in the order they were made (filters optional; guild None: all)."""
        where, values = _filters(
            ("guild_id = ?", None if guild_id is None else _scope(guild_id)),
            ("game = ?", game),
            ("user_id = ?", user_id),
        )
        async with self._db.execute(
            "SELECT e.user_id, COALESCE((SELECT rs.name FROM result_seats rs WHERE rs.game_id = e.game_id"
            " AND rs.user_id = e.user_id), ''), e.guild_id, e.game, e.mu_before, e.sigma_before, e.mu_after,"
            " e.sigma_after, e.rank,"
            " (SELECT COUNT(*) FROM rating_events p WHERE p.guild_id = e.guild_id AND p.game = e.game"
            "  AND p.user_id = e.user_id AND p.id <= e.id)"
            f" FROM rating_events e{where} ORDER BY e.id",
            values,
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            RatingChange(
                user_id=row[0],
                name=row[1],
                guild_id=row[2],
                game=row[3],
                before=Rating(row[4], row[5]),
                after=Rating(row[6], row[7]),
                rank=row[8],
                games=row[9],
            )
            for row in rows
        ]

    async def leaderboard(
        self, guild_id: str | None, game: str, *, offset: int = 0, limit: int = 10
    ) -> LeaderboardPage:
        """Rated players of one pool by rating (mu - 3 sigma); equal ratings share a position.
        Ratings are per server: ``guild_id=None`` (or ``""``) is the pool of tables outside any."""
        scope = _scope(guild_id)
        async with self._db.execute(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (scope, game)
        ) as cursor:
            (total,) = await cursor.fetchone()  # type: ignore[misc]
        async with self._db.execute(
            "SELECT RANK() OVER (ORDER BY r.mu - 3 * r.sigma DESC) AS position, r.user_id, r.name,"
            " r.mu, r.sigma, r.games, r.wins,"
            " (SELECT MAX(rs.score) FROM result_seats rs JOIN results res ON res.game_id = rs.game_id"
            "  WHERE res.rated = 1 AND res.game = r.game AND COALESCE(res.guild_id, '') = r.guild_id"
            "  AND rs.user_id = r.user_id)"
            " FROM ratings r WHERE r.guild_id = ? AND r.game = ?"
            " ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.user_id LIMIT ? OFFSET ?",
            (scope, game, limit, offset),
        ) as cursor:
            rows = await cursor.fetchall()
        return LeaderboardPage(
            guild_id=guild_id,
            game=game,
            total=total,
            offset=offset,
            limit=limit,
            rows=[
                LeaderboardRow(
                    position=row[0],
                    user_id=row[1],
                    name=row[2],
                    rating=Rating(row[3], row[4]).ordinal,
                    mu=row[3],
                    sigma=row[4],
                    games=row[5],
                    wins=row[6],
                    best_score=row[7],
                    provisional=rating_model.is_provisional(row[5]),
                )
                for row in rows
            ],
        )

    async def high_scores(
        self, guild_id: str | None, game: str, board: str, *, limit: int = 10
    ) -> list[HighScore]:
        """Best human scores of one server's board (``solo`` or ``with_ai``; a higher score is better;
        ``guild_id=None``: tables outside any server, like the leaderboard)."""
        async with self._db.execute(
            "SELECT RANK() OVER (ORDER BY rs.score DESC), rs.user_id, rs.name, rs.score, res.game_id,"
            " res.finished_at FROM result_seats rs JOIN results res ON res.game_id = rs.game_id"
            " WHERE COALESCE(res.guild_id, '') = ? AND res.game = ? AND res.board = ? AND NOT rs.is_ai"
            " AND rs.user_id IS NOT NULL ORDER BY rs.score DESC, res.seq LIMIT ?",
            (_scope(guild_id), game, board, limit),
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            HighScore(position=r[0], user_id=r[1], name=r[2], score=r[3], table_id=r[4], finished_at=r[5])
            for r in rows
        ]

    async def player_stats(
        self, user_id: str, guild_id: str | None = None, *, recent: int = 5
    ) -> PlayerStats:
        """Per game: games, wins, average and best score, forfeits and (with a guild) the rating;
        and the latest results. ``guild_id=None``: every server (ratings are per server: none then);
        ``""``: tables outside any server."""
        where, values = _filters(("rs.user_id = ?", user_id), ("COALESCE(res.guild_id, '') = ?", guild_id))
        # A game of one seat has no winner (Draft Cider solo, for one): a score, not a win.
        async with self._db.execute(
            "SELECT res.game, COUNT(*),"
            " SUM(rs.rank = 1 AND EXISTS (SELECT 1 FROM result_seats o WHERE o.game_id = rs.game_id"
            "  AND o.seat != rs.seat)),"
            " AVG(rs.score), MAX(rs.score), SUM(rs.forfeited)"
            f" FROM result_seats rs JOIN results res ON res.game_id = rs.game_id{where} AND NOT rs.is_ai"
            " GROUP BY res.game ORDER BY COUNT(*) DESC, res.game",
            values,
        ) as cursor:
            rows = await cursor.fetchall()
        games = [
            GameStats(game=r[0], games=r[1], wins=r[2], average_score=r[3], best_score=r[4], forfeits=r[5])
            for r in rows
        ]
        if guild_id is not None:
            for stats in games:
                pool = await self.ratings(guild_id, stats.game)
                if user_id in pool:
                    rating, rated_games, _ = pool[user_id]
                    stats.rating, stats.mu, stats.sigma = rating.ordinal, rating.mu, rating.sigma
                    stats.rated_games = rated_games
                    stats.provisional = rating_model.is_provisional(rated_games)
        async with self._db.execute(
            "SELECT res.game_id, res.game, res.guild_id, res.finished_at, rs.rank,"
            " (SELECT COUNT(*) FROM result_seats o WHERE o.game_id = res.game_id), rs.score, rs.forfeited,"
            " res.rated, res.board,"
            " (SELECT (e.mu_after - 3 * e.sigma_after) - (e.mu_before - 3 * e.sigma_before) FROM rating_events e"
            "  WHERE e.game_id = res.game_id AND e.user_id = rs.user_id)"
            f" FROM result_seats rs JOIN results res ON res.game_id = rs.game_id{where} AND NOT rs.is_ai"
            " ORDER BY res.seq DESC LIMIT ?",
            (*values, recent),
        ) as cursor:
            rows = await cursor.fetchall()
        latest = [
            RecentResult(
                table_id=r[0],
                game=r[1],
                guild_id=r[2],
                finished_at=r[3],
                rank=r[4],
                players=r[5],
                score=r[6],
                forfeited=bool(r[7]),
                rated=bool(r[8]),
                board=r[9],
                rating_change=r[10],
            )
            for r in rows
        ]
        return PlayerStats(user_id=user_id, guild_id=guild_id, games=games, recent=latest)

    async def history(
        self, guild_id: str | None = None, *, game: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[GameResult]:
        """Finished games, latest first, with every seat (``guild_id=None``: every server; ``""``:
        tables outside any server)."""
        where, values = _filters(("COALESCE(guild_id, '') = ?", guild_id), ("game = ?", game))
        async with self._db.execute(
            f"SELECT {_RESULT_COLUMNS} FROM results{where} ORDER BY seq DESC LIMIT ? OFFSET ?",
            (*values, limit, offset),
        ) as cursor:
            rows = await cursor.fetchall()
        return [_result_from_row(row, await self._result_seats(row[0])) for row in rows]

    # ----- clocks: due seats, turns waiting, quiet hours, heartbeat --------------------------------

    async def due_table_ids(self, now: float) -> list[int]:
        """Running tables with a seat whose clock needs looking at by ``now``, most overdue first."""
        async with self._db.execute(
            # The due-time index: only the seats due by now are read, not every running game's.
            "SELECT s.game_id FROM seats s INDEXED BY seats_due JOIN games g ON g.id = s.game_id"
            " WHERE s.next_due_at <= ? AND g.status = 'running' GROUP BY s.game_id ORDER BY MIN(s.next_due_at)",
            (now,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [row[0] for row in rows]

    async def next_due_at(self) -> float | None:
        async with self._db.execute(
            "SELECT s.next_due_at FROM seats s INDEXED BY seats_due JOIN games g ON g.id = s.game_id"
            " WHERE s.next_due_at IS NOT NULL AND g.status = 'running' ORDER BY s.next_due_at LIMIT 1"
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0]

    async def running_table_ids_to_resume(self) -> list[int]:
        """Running tables that need resuming (``needs_resume``) or have no thread yet: read from a
        small partial index, without touching the other games."""
        async with self._db.execute(
            "SELECT id FROM games WHERE status = 'running' AND (needs_resume = 1 OR thread_id IS NULL) ORDER BY id"
        ) as cursor:
            rows = await cursor.fetchall()
        return [row[0] for row in rows]

    async def running_timed_table_ids(self) -> list[int]:
        async with self._db.execute(
            "SELECT id FROM games WHERE status = 'running' AND speed != 'untimed' ORDER BY id"
        ) as cursor:
            rows = await cursor.fetchall()
        return [row[0] for row in rows]

    async def running_timed_seats(self) -> list[TimedSeat]:
        """Every seat of a running timed table whose time counts (a running clock, skipped and not
        forfeited, or a next check set), with its table's version and speed and its player's quiet
        hours: one query, no IN list, whatever the number of tables."""
        seat_columns = ", ".join("s." + column.strip() for column in _SEAT_COLUMNS.split(","))
        async with self._db.execute(
            f"SELECT g.id, g.version, g.speed, u.time_zone, u.quiet_start, u.quiet_end, {seat_columns}"
            " FROM games g JOIN seats s ON s.game_id = g.id"
            " LEFT JOIN user_settings u ON u.user_id = s.user_id AND s.ai_kind IS NULL AND u.time_zone IS NOT NULL"
            " WHERE g.status = 'running' AND g.speed != 'untimed' AND (s.next_due_at IS NOT NULL"
            " OR (s.absent_since IS NOT NULL AND NOT s.forfeited)"
            " OR json_extract(s.clock, '$.running_since') IS NOT NULL)"
            " ORDER BY g.id, s.seat"
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            TimedSeat(
                table_id=row[0],
                version=row[1],
                speed=row[2],
                quiet=None if row[3] is None else QuietHours(time_zone=row[3], start_hour=row[4], end_hour=row[5]),
                seat=_seat_from_row(row[6:]),
            )
            for row in rows
        ]

    async def save_timed_seats(self, seats: list[TimedSeat], *, heartbeat: float | None = None) -> list[int]:
        """In ONE transaction: each seat's clock, absence start and next check, for the tables still
        running at the version read (a table that moved on keeps what it has), and the heartbeat
        when given. Returns the ids of the tables left alone."""
        read_at = {seat.table_id: seat.version for seat in seats}
        rows = [
            (
                None if timed.seat.clock is None else _json(timed.seat.clock),
                timed.seat.absent_since,
                timed.seat.next_due_at,
                timed.table_id,
                timed.seat.index,
            )
            for timed in seats
        ]
        return await self._commit_in_group(_Call(_save_timed_seats, read_at, rows, heartbeat))

    async def waiting_seats(
        self, user_id: str, guild_ids: tuple[str, ...] | None = None
    ) -> list[tuple[TableLinks, str, Seat]]:
        """(links, speed, seat) of the running tables where the user must act (and no AI plays for
        them), oldest waiting first. ``guild_ids=None``: every server and none."""
        where = ""
        values: list[Any] = [user_id]
        if guild_ids is not None:
            where = f" AND g.guild_id IN ({','.join('?' * len(guild_ids))})"
            values.extend(guild_ids)
        async with self._db.execute(
            "SELECT g.id, g.game, g.guild_id, g.channel_id, g.thread_id, g.message_id, g.speed,"
            f" {', '.join('s.' + c.strip() for c in _SEAT_COLUMNS.split(','))}"
            " FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND g.status = 'running'"
            f" AND s.waiting_since IS NOT NULL AND s.absent_since IS NULL{where}"
            " ORDER BY s.waiting_since, g.id",
            values,
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            (
                TableLinks(
                    table_id=r[0], game=r[1], guild_id=r[2], channel_id=r[3], thread_id=r[4], message_id=r[5]
                ),
                r[6],
                _seat_from_row(r[7:]),
            )
            for r in rows
        ]

    async def get_quiet_hours(self, user_id: str) -> QuietHours | None:
        return (await self.quiet_hours_of([user_id])).get(user_id)

    async def quiet_hours_of(self, user_ids: list[str]) -> dict[str, QuietHours]:
        found: dict[str, QuietHours] = {}
        for start in range(0, len(user_ids), _IN_LIST_LIMIT):
            chunk = user_ids[start : start + _IN_LIST_LIMIT]
            async with self._db.execute(
                "SELECT user_id, time_zone, quiet_start, quiet_end FROM user_settings"
                f" WHERE time_zone IS NOT NULL AND user_id IN ({','.join('?' * len(chunk))})",
                chunk,
            ) as cursor:
                rows = await cursor.fetchall()
            found.update({r[0]: QuietHours(time_zone=r[1], start_hour=r[2], end_hour=r[3]) for r in rows})
        return found

    async def set_quiet_hours(self, user_id: str, quiet: QuietHours | None) -> None:
        values = (None, None, None) if quiet is None else (quiet.time_zone, quiet.start_hour, quiet.end_hour)
        await self._commit_in_group(_Statement(_SET_QUIET_HOURS, (user_id, *values)))

    async def get_heartbeat(self) -> float | None:
        async with self._db.execute("SELECT value FROM bot_state WHERE key = ?", (HEARTBEAT,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0]

    async def set_heartbeat(self, at: float) -> None:
        await self._commit_in_group(_Statement(_SET_HEARTBEAT, (HEARTBEAT, at)))

    # ----- user flags ---------------------------------------------------------------------------

    async def get_user_flag(self, user_id: str, flag: str) -> bool:
        async with self._db.execute(
            "SELECT value FROM user_flags WHERE user_id = ? AND flag = ?", (user_id, flag)
        ) as cursor:
            row = await cursor.fetchone()
        return bool(row and row[0])

    async def set_user_flag(self, user_id: str, flag: str, value: bool) -> None:
        await self._commit_in_group(_Statement(_SET_USER_FLAG, (user_id, flag, int(value))))


_SEATS_ON_CONFLICT = (
    " ON CONFLICT (game_id, seat) DO UPDATE SET name = excluded.name, user_id = excluded.user_id,"
    " ai_kind = excluded.ai_kind, waiting_since = excluded.waiting_since, clock = excluded.clock,"
    " absent_since = excluded.absent_since, skips = excluded.skips, forfeited = excluded.forfeited,"
    " ai_played = excluded.ai_played, next_due_at = excluded.next_due_at"
)
_INSERT_SEATS = f"INSERT INTO seats (game_id, {_SEAT_COLUMNS}) VALUES "
_UPSERT_SEATS = _INSERT_SEATS + "(?,?,?,?,?,?,?,?,?,?,?,?)" + _SEATS_ON_CONFLICT
_INSERT_MOVE_ROWS = "INSERT INTO moves (game_id, n, seat, move, at) VALUES "
_INSERT_MOVES = _INSERT_MOVE_ROWS + "(?,?,?,?,?)"
_SET_QUIET_HOURS = (
    "INSERT INTO user_settings (user_id, time_zone, quiet_start, quiet_end) VALUES (?,?,?,?)"
    " ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone,"
    " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end"
)
_SET_USER_FLAG = (
    "INSERT INTO user_flags (user_id, flag, value) VALUES (?,?,?)"
    " ON CONFLICT (user_id, flag) DO UPDATE SET value = excluded.value"
)
_SET_TABLE_FIELDS = "UPDATE games SET " + ", ".join(f"{field} = ?" for field in _UPDATED_FIELDS)
_UPDATE_TABLE = _SET_TABLE_FIELDS + " WHERE id = ? AND version = ?"
_INSERT_TABLE = f"INSERT INTO games ({', '.join(_TABLE_FIELDS)}) VALUES ({','.join('?' * len(_TABLE_FIELDS))})"
_UPDATE_GAME = _SET_TABLE_FIELDS + ", state = ? WHERE id = ? AND version = ?"


def _move_rows(table: Table, expected_version: int, moves: list[RecordedMove]) -> list[tuple[Any, ...]]:
    return [
        (table.id, expected_version + offset, move.seat, move.move, table.updated_at)
        for offset, move in enumerate(moves)
    ]


class _Work:
    """One unit of a group transaction: runs in the connection's thread on the plain sqlite3
    connection, inside its own savepoint."""

    def run(self, connection: sqlite3.Connection) -> Any:
        raise NotImplementedError


class _Call(_Work):
    """``function(connection, *args)`` as one unit of a group transaction."""

    def __init__(self, function: Callable[..., Any], *args: Any) -> None:
        self.function = function
        self.args = args

    def run(self, connection: sqlite3.Connection) -> Any:
        return self.function(connection, *self.args)


class _Statement(_Work):
    """One writing statement as one unit of a group transaction."""

    def __init__(self, sql: str, values: Sequence[Any]) -> None:
        self.sql = sql
        self.values = values

    def run(self, connection: sqlite3.Connection) -> None:
        connection.execute(self.sql, self.values)


def _seat_rows(seats: list[Seat]) -> list[tuple[Any, ...]]:
    return [_seat_values(seat) for seat in seats]


def _create_table(connection: sqlite3.Connection, values: list[Any], seat_rows: list[tuple[Any, ...]]) -> int:
    table_id = int(connection.execute(_INSERT_TABLE, values).lastrowid or 0)
    _write_seats(connection, table_id, seat_rows)
    return table_id


def _save_table(
    connection: sqlite3.Connection, table_id: int, values: tuple[Any, ...], seat_rows: list[tuple[Any, ...]]
) -> None:
    """A table's row and seats (lobby changes, seats taken over); ``values`` end with the id and
    the version expected on disk."""
    if connection.execute(_UPDATE_TABLE, values).rowcount != 1:
        raise VersionConflict(f"game {table_id} is no longer at version {values[-1]}")
    _write_seats(connection, table_id, seat_rows)


def _write_seats(connection: sqlite3.Connection, table_id: int, seat_rows: list[tuple[Any, ...]]) -> None:
    """Replace the seats (the lobby may remove some)."""
    connection.execute("DELETE FROM seats WHERE game_id = ?", (table_id,))
    connection.executemany(_UPSERT_SEATS, [(table_id, *row) for row in seat_rows])


def _save_timed_seats(
    connection: sqlite3.Connection, read_at: dict[int, int], rows: list[tuple[Any, ...]], heartbeat: float | None
) -> list[int]:
    # Read inside the transaction: no move can come between this check and the writes.
    current: dict[int, int] = {}
    ids = list(read_at)
    for start in range(0, len(ids), _IN_LIST_LIMIT):
        chunk = ids[start : start + _IN_LIST_LIMIT]
        current.update(
            connection.execute(
                f"SELECT id, version FROM games WHERE status = 'running' AND id IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
        )
    unchanged = {table_id for table_id, version in read_at.items() if current.get(table_id) == version}
    connection.executemany(
        "UPDATE seats SET clock = ?, absent_since = ?, next_due_at = ? WHERE game_id = ? AND seat = ?",
        [row for row in rows if row[3] in unchanged],
    )
    if heartbeat is not None:
        connection.execute(_SET_HEARTBEAT, (HEARTBEAT, heartbeat))
    return sorted(set(read_at) - unchanged)


class _MoveCommit(_Work):
    """A move (or several): snapshot, table row, changed seats, move log and, when the game
    ended, its result and the rating updates (returned). The rows are built here, on the event
    loop, from a table the caller no longer changes."""

    def __init__(
        self,
        table: Table,
        expected_version: int,
        moves: list[RecordedMove],
        state: bytes,
        changed_seats: Sequence[int] | None = None,
        outcome: bytes | None = None,
        result: GameResult | None = None,
    ) -> None:
        values = _updated_values(table)
        self.table = table
        self.outcome = outcome
        self.result = result
        self.table_id = table.id
        self.expected_version = expected_version
        self.game_values = (*values, state, table.id, expected_version)
        seats = table.seats if changed_seats is None else [table.seats[index] for index in changed_seats]
        self.seat_rows = [(table.id, *row) for row in _seat_rows(seats)]
        self.move_rows = _move_rows(table, expected_version, moves)

    def run(self, connection: sqlite3.Connection) -> list[RatingChange]:
        if connection.execute(_UPDATE_GAME, self.game_values).rowcount != 1:
            raise VersionConflict(f"game {self.table_id} is no longer at version {self.expected_version}")
        if self.seat_rows:
            connection.executemany(_UPSERT_SEATS, self.seat_rows)
        if self.move_rows:
            connection.executemany(_INSERT_MOVES, self.move_rows)
        if self.result is not None:
            return _insert_result(connection, self.result)
        if self.outcome is not None:
            _insert_bare_result(connection, self.table, self.outcome)
        return []


def _next_result_seq(connection: sqlite3.Connection) -> int:
    return int(connection.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM results").fetchone()[0])


def _insert_bare_result(connection: sqlite3.Connection, table: Table, outcome: bytes) -> None:
    """A result without seat details (callers that predate GameResult)."""
    connection.execute(
        "INSERT OR REPLACE INTO results (game_id, outcome, finished_at, seq, game, guild_id, speed)"
        " VALUES (?,?,?,?,?,?,?)",
        (
            table.id,
            outcome.decode(),
            table.updated_at,
            _next_result_seq(connection),
            table.game,
            table.guild_id,
            table.speed,
        ),
    )


def _insert_result(connection: sqlite3.Connection, result: GameResult) -> list[RatingChange]:
    connection.execute(
        "INSERT INTO results (game_id, outcome, finished_at, seq, game, guild_id, speed, rated, board,"
        " forfeits, ai_played) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        (
            result.table_id,
            _json(result.outcome),
            result.finished_at,
            _next_result_seq(connection),
            result.game,
            result.guild_id,
            result.speed,
            int(result.rated),
            result.board,
            result.forfeits,
            int(result.ai_played),
        ),
    )
    connection.executemany(
        f"INSERT INTO result_seats (game_id, {_RESULT_SEAT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        [
            (
                result.table_id,
                seat.seat,
                seat.name,
                seat.user_id,
                int(seat.is_ai),
                seat.score,
                seat.game_rank,
                seat.rank,
                seat.team,
                int(seat.forfeited),
                int(seat.ai_played),
            )
            for seat in result.seats
        ],
    )
    if not result.rated:
        return []
    return _apply_ratings(connection, result.table_id, result.guild_id, result.game, result.seats, result.finished_at)


def _apply_ratings(
    connection: sqlite3.Connection,
    table_id: int,
    guild_id: str | None,
    game: str,
    seats: list[ResultSeat],
    at: float,
    model: Any | None = None,
) -> list[RatingChange]:
    """Rate one finished game inside the caller's transaction: read the current ratings, write
    one event per player and the new ratings. Used alike by game end and by rebuilds."""
    scope = _scope(guild_id)
    players = [seat for seat in seats if seat.user_id is not None and not seat.is_ai]
    user_ids = [seat.user_id for seat in players]
    current: dict[str, tuple[Rating, int]] = {}
    if user_ids:
        rows = connection.execute(
            f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND game = ?"
            f" AND user_id IN ({','.join('?' * len(user_ids))})",
            (scope, game, *user_ids),
        ).fetchall()
        for user_id, mu, sigma, games in rows:
            current[user_id] = (Rating(mu, sigma), games)
    rated = [RatedSeat(user_id=seat.user_id or "", rank=seat.rank, team=seat.team) for seat in players]
    after = rating_model.rate_game(rated, {user: rating for user, (rating, _) in current.items()}, model)
    changes: list[RatingChange] = []
    for seat in players:
        user_id = seat.user_id or ""
        before, games = current.get(user_id, (rating_model.initial_rating(model), 0))
        changes.append(
            RatingChange(
                user_id=user_id,
                name=seat.name,
                guild_id=scope,
                game=game,
                before=before,
                after=after[user_id],
                rank=seat.rank,
                games=games + 1,
            )
        )
    connection.executemany(
        "INSERT INTO rating_events (game_id, guild_id, game, user_id, rank, mu_before, sigma_before,"
        " mu_after, sigma_after, at) VALUES (?,?,?,?,?,?,?,?,?,?)",
        [
            (table_id, scope, game, c.user_id, c.rank, c.before.mu, c.before.sigma, c.after.mu, c.after.sigma, at)
            for c in changes
        ],
    )
    connection.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, games, wins, updated_at)"
        " VALUES (?,?,?,?,?,?,1,?,?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
        " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, games = games + 1,"
        " wins = wins + excluded.wins, updated_at = excluded.updated_at",
        [(scope, game, c.user_id, c.name, c.after.mu, c.after.sigma, int(c.rank == 1), at) for c in changes],
    )
    return changes


@contextlib.contextmanager
def _transaction(connection: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT on a plain connection, rolled back if anything fails."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def _read_result_seats(connection: sqlite3.Connection, table_id: int) -> list[ResultSeat]:
    rows = connection.execute(
        f"SELECT {_RESULT_SEAT_COLUMNS} FROM result_seats WHERE game_id = ? ORDER BY seat", (table_id,)
    ).fetchall()
    return [_result_seat_from_row(row) for row in rows]


def _rebuild_ratings(connection: sqlite3.Connection, model: Any | None) -> int:
    connection.execute("DELETE FROM ratings")
    connection.execute("DELETE FROM rating_events")
    games = connection.execute(
        "SELECT game_id, guild_id, game, finished_at FROM results WHERE rated = 1 ORDER BY seq"
    ).fetchall()
    for table_id, guild_id, game, finished_at in games:
        seats = _read_result_seats(connection, table_id)
        _apply_ratings(connection, table_id, guild_id, game, seats, finished_at, model)
    return len(games)


def _write_group(connection: sqlite3.Connection, works: list[_Work]) -> list[tuple[bool, Any]]:
    """One transaction for a group of works; returns (ok, result or error) per work. Raises (and
    rolls back everything) only if the transaction itself fails.

    Plain moves of distinct games go first, all together in a few multi-row statements
    (``_write_moves_together``; if one of them is stale, the transaction starts again without
    them); the rest (a game's end, any other write, or every work when
    that fails) one by one, each in its own savepoint, so that one failing work (a stale version)
    is undone alone and the others still commit."""
    answers: dict[int, tuple[bool, Any]] = {}
    with _transaction(connection):
        together = _plain_moves_of_distinct_games(works)
        if len(together) > 1:
            if _write_moves_together(connection, together):
                answers.update((id(work), (True, [])) for work in together)
            else:  # a stale game: undo what was written (nothing else was yet) and go one by one
                connection.execute("ROLLBACK")
                connection.execute("BEGIN IMMEDIATE")
        for work in works:
            if id(work) in answers:
                continue
            connection.execute("SAVEPOINT work")
            try:
                answers[id(work)] = (True, work.run(connection))
            except Exception as error:
                connection.execute("ROLLBACK TO work")
                answers[id(work)] = (False, error)
            connection.execute("RELEASE work")
    return [answers[id(work)] for work in works]


def _plain_moves_of_distinct_games(works: list[_Work]) -> list[_MoveCommit]:
    seen: set[int] = set()
    plain: list[_MoveCommit] = []
    for work in works:
        if isinstance(work, _MoveCommit) and work.result is None and work.outcome is None and work.table_id not in seen:
            seen.add(work.table_id)
            plain.append(work)
    return plain


# Rows per multi-row statement: SQLite binds at most 32,766 values in one statement.
_ROWS_PER_STATEMENT = 1_000
# A game row as _MoveCommit.game_values lists it.
_GAME_VALUE_NAMES = [*_UPDATED_FIELDS, "state", "id", "expected"]
_UPDATE_GAMES_FROM_V = (
    " UPDATE games SET "
    + ", ".join(f"{name} = v.{name}" for name in _GAME_VALUE_NAMES[:-2])
    + " FROM v WHERE games.id = v.id AND games.version = v.expected"
)


def _write_moves_together(connection: sqlite3.Connection, works: list[_MoveCommit]) -> bool:
    """The works' game rows, seats and moves in three multi-row statements instead of three
    statements a move. Why: each statement hands over to SQLite's C code, which runs without
    Python's interpreter lock, and takes the lock back when done; with the event loop busy in
    another thread, every taking back waits. Returns False (and writes nothing) if a game is no
    longer at the expected version, having written only game rows (the caller undoes them): it
    then writes the works one by one, to refuse only that one. No savepoint of its own: every
    statement more is one more wait for the interpreter lock."""
    changes = connection.total_changes
    for rows in _chunks([work.game_values for work in works]):
        connection.execute(
            f"WITH v({', '.join(_GAME_VALUE_NAMES)}) AS (VALUES {_placeholders(rows)})" + _UPDATE_GAMES_FROM_V,
            [value for row in rows for value in row],
        )
    if connection.total_changes - changes != len(works):
        return False
    for rows in _chunks([row for work in works for row in work.seat_rows]):
        connection.execute(
            _INSERT_SEATS + _placeholders(rows) + _SEATS_ON_CONFLICT, [value for row in rows for value in row]
        )
    for rows in _chunks([row for work in works for row in work.move_rows]):
        connection.execute(_INSERT_MOVE_ROWS + _placeholders(rows), [value for row in rows for value in row])
    return True


def _placeholders(rows: list[tuple[Any, ...]]) -> str:
    """``(?,?),(?,?)...``: one group of marks per row."""
    row = "(" + ",".join("?" * len(rows[0])) + ")"
    return ",".join([row] * len(rows))


def _chunks(rows: list[tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
    return [rows[start : start + _ROWS_PER_STATEMENT] for start in range(0, len(rows), _ROWS_PER_STATEMENT)]


def _deliver(group: list[tuple[_Work, asyncio.Future[Any]]], answers: list[tuple[bool, Any]]) -> None:
    """On the event loop: each waiting write gets its result or its error."""
    for (_, future), (ok, value) in zip(group, answers, strict=True):
        if future.done():  # its caller gave up waiting (cancelled); the write stands
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _updated_values(table: Table) -> list[Any]:
    """The values of _UPDATED_FIELDS, in that order."""
    return [value for field, value in zip(_TABLE_FIELDS, _table_values(table), strict=True) if field != "game"]


def _table_values(table: Table) -> list[Any]:
    return [_json(table.options) if field == "options" else getattr(table, field) for field in _TABLE_FIELDS]


def _table_from_row(row: Any) -> Table:
    fields = dict(zip(_TABLE_FIELDS, row[1:], strict=True))
    fields["options"] = msgspec.json.decode(fields["options"])
    fields["needs_resume"] = bool(fields["needs_resume"])
    return Table(id=row[0], **fields)


def _scope(guild_id: str | None) -> str:
    """The rating pool of a server; tables outside any server share the pool ''."""
    return guild_id or ""


def _filters(*conditions: tuple[str, Any]) -> tuple[str, list[Any]]:
    """A WHERE clause from (sql, value) pairs, skipping those whose value is None."""
    used = [(sql, value) for sql, value in conditions if value is not None]
    if not used:
        return "", []
    return " WHERE " + " AND ".join(sql for sql, _ in used), [value for _, value in used]


def _seat_values(seat: Seat) -> tuple[Any, ...]:
    return (
        seat.index,
        seat.name,
        seat.user_id,
        seat.ai_kind,
        seat.waiting_since,
        None if seat.clock is None else _json(seat.clock),
        seat.absent_since,
        seat.skips,
        int(seat.forfeited),
        int(seat.ai_played),
        seat.next_due_at,
    )


def _seat_from_row(row: Any) -> Seat:
    return Seat(
        index=row[0],
        name=row[1],
        user_id=row[2],
        ai_kind=row[3],
        waiting_since=row[4],
        clock=None if row[5] is None else msgspec.json.decode(row[5], type=SeatClock),
        absent_since=row[6],
        skips=row[7],
        forfeited=bool(row[8]),
        ai_played=bool(row[9]),
        next_due_at=row[10],
    )


def _result_seat_from_row(row: Any) -> ResultSeat:
    return ResultSeat(
        seat=row[0],
        name=row[1],
        user_id=row[2],
        is_ai=bool(row[3]),
        score=row[4],
        game_rank=row[5],
        rank=row[6],
        team=row[7],
        forfeited=bool(row[8]),
        ai_played=bool(row[9]),
    )


def _result_from_row(row: Any, seats: list[ResultSeat]) -> GameResult:
    return GameResult(
        table_id=row[0],
        game=row[1],
        guild_id=row[2],
        speed=row[3],
        rated=bool(row[4]),
        board=row[5],
        finished_at=row[6],
        outcome=msgspec.json.decode(row[7], type=Outcome),
        seats=seats,
    )
