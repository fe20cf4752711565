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
# host crash may take back moves the players were told were accepted.
PRAGMAS = ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=5000")


def database_path_from_env() -> str:
    return os.environ.get("DATABASE_PATH") or DEFAULT_DATABASE_PATH


def _serialised(method):
    """Run a writing method under the store's lock.

    Every game shares one connection, and a connection has one transaction at a time: without
    the lock, a second game's BEGIN while another game's transaction is open fails ("cannot start
    a transaction within a transaction"), and a lone write issued meanwhile would join, and could
    be rolled back with, someone else's transaction."""

    @functools.wraps(method)
    async def locked(self, *args, **kwargs):
        async with self._write_lock:
            return await method(self, *args, **kwargs)

    return locked


class SqliteStore:
    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self._db = connection
        self.path = path
        self._write_lock = asyncio.Lock()
        # Group commit: moves that arrive while a transaction is on its way to disk wait here and
        # go together in the next one (see _commit_in_group).
        self._waiting_moves: list[tuple[_Work, asyncio.Future[Any]]] = []
        self._group_writer: asyncio.Task[None] | None = None
        self._stop_checkpoints: threading.Event | None = None

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
        if self._group_writer is not None:
            await asyncio.gather(self._group_writer, return_exceptions=True)
        if self._stop_checkpoints is not None:
            self._stop_checkpoints.set()
        await self._db.close()

    def _start_checkpoints(self, path: str) -> None:
        """Copy the WAL back into the database file from another thread and connection, so that
        no move's COMMIT waits for a checkpoint (SQLite otherwise runs one inside whichever commit
        crosses 1,000 pages: a latency spike for one unlucky player)."""
        self._stop_checkpoints = threading.Event()
        threading.Thread(
            target=_checkpoint_every,
            args=(path, CHECKPOINT_SECONDS, self._stop_checkpoints),
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

    @_serialised
    async def create_table(self, table: Table) -> int:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            cursor = await self._db.execute(
                f"INSERT INTO games ({', '.join(_TABLE_FIELDS)}) VALUES ({','.join('?' * len(_TABLE_FIELDS))})",
                _table_values(table),
            )
            table_id = int(cursor.lastrowid or 0)
            await self._write_seats(table_id, table.seats)
            await self._db.execute("COMMIT")
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        return table_id

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

    @_serialised
    async def save_table(self, table: Table, expected_version: int) -> None:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            await self._update_table(table, expected_version)
            await self._write_seats(table.id, table.seats)
            await self._db.execute("COMMIT")
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise

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

        A commit costs about the same for one move as for fifty; most of a move's cost is the hop
        to the connection's thread and the COMMIT. Moves that arrive while a group is being
        written queue up and share the next transaction; each runs inside its own SAVEPOINT, so
        one that fails (a stale version) is undone alone and the others still commit. With one
        move at a time this is a single hop per move, as before."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting_moves.append((work, future))
        if self._group_writer is None or self._group_writer.done():
            self._group_writer = asyncio.create_task(self._write_groups())
        return await future

    async def _in_connection_thread(self, function: Callable[..., Any], *args: Any) -> Any:
        """Call ``function(connection, *args)`` in aiosqlite's thread with the plain sqlite3
        connection: a whole transaction in one hop instead of one hop per statement.
        (aiosqlite's own methods are built on this ``_execute``; its version is pinned.)"""
        return await self._db._execute(function, self._db._conn, *args)

    async def _write_groups(self) -> None:
        while self._waiting_moves:
            async with self._write_lock:
                group, self._waiting_moves = self._waiting_moves, []
                try:
                    answers = await self._in_connection_thread(_write_group, [work for work, _ in group])
                except BaseException as error:  # the COMMIT itself failed: nothing of the group is on disk
                    answers = [(False, error)] * len(group)
            for (_, future), (ok, value) in zip(group, answers, strict=True):
                if future.done():  # its caller gave up waiting (cancelled); the write stands
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    async def _update_table(self, table: Table, expected_version: int, *, state: bytes | None = None) -> None:
        assignments = ", ".join(f"{field} = ?" for field in _TABLE_FIELDS if field != "game")
        values: list[Any] = [
            value for field, value in zip(_TABLE_FIELDS, _table_values(table), strict=True) if field != "game"
        ]
        if state is not None:
            assignments += ", state = ?"
            values.append(state)
        cursor = await self._db.execute(
            f"UPDATE games SET {assignments} WHERE id = ? AND version = ?",
            (*values, table.id, expected_version),
        )
        if cursor.rowcount != 1:
            raise VersionConflict(f"game {table.id} is no longer at version {expected_version}")

    async def _write_seats(self, table_id: int, seats: list[Seat]) -> None:
        """Replace the seats (the lobby may remove some)."""
        await self._db.execute("DELETE FROM seats WHERE game_id = ?", (table_id,))
        await self._upsert_seats(table_id, seats)

    async def _upsert_seats(self, table_id: int, seats: list[Seat]) -> None:
        await self._db.executemany(_UPSERT_SEATS, [(table_id, *_seat_values(seat)) for seat in seats])

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

    @_serialised
    async def rebuild_ratings(self, model: Any | None = None) -> int:
        """Recompute every rating from the stored results, in the order they were recorded, with
        ``model`` (default: the current one); rewrites the rating events. One transaction.
        Returns the number of rated games replayed."""
        return await self._in_connection_thread(_rebuild_ratings, model)

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
        async with self._db.execute(
            "SELECT res.game, COUNT(*), SUM(rs.rank = 1), AVG(rs.score), MAX(rs.score), SUM(rs.forfeited)"
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

    @_serialised
    async def save_timed_seats(self, seats: list[TimedSeat], *, heartbeat: float | None = None) -> list[int]:
        """In ONE transaction: each seat's clock, absence start and next check, for the tables still
        running at the version read (a table that moved on keeps what it has), and the heartbeat
        when given. Returns the ids of the tables left alone."""
        read_at = {seat.table_id: seat.version for seat in seats}
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            # Read inside the transaction: no move can come between this check and the writes.
            current: dict[int, int] = {}
            ids = list(read_at)
            for start in range(0, len(ids), _IN_LIST_LIMIT):
                chunk = ids[start : start + _IN_LIST_LIMIT]
                async with self._db.execute(
                    f"SELECT id, version FROM games WHERE status = 'running' AND id IN ({','.join('?' * len(chunk))})",
                    chunk,
                ) as cursor:
                    current.update(await cursor.fetchall())
            unchanged = {table_id for table_id, version in read_at.items() if current.get(table_id) == version}
            await self._db.executemany(
                "UPDATE seats SET clock = ?, absent_since = ?, next_due_at = ? WHERE game_id = ? AND seat = ?",
                [
                    (
                        None if timed.seat.clock is None else _json(timed.seat.clock),
                        timed.seat.absent_since,
                        timed.seat.next_due_at,
                        timed.table_id,
                        timed.seat.index,
                    )
                    for timed in seats
                    if timed.table_id in unchanged
                ],
            )
            if heartbeat is not None:
                await self._db.execute(_SET_HEARTBEAT, (HEARTBEAT, heartbeat))
            await self._db.execute("COMMIT")
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        return sorted(set(read_at) - unchanged)

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

    @_serialised
    async def set_quiet_hours(self, user_id: str, quiet: QuietHours | None) -> None:
        values = (None, None, None) if quiet is None else (quiet.time_zone, quiet.start_hour, quiet.end_hour)
        await self._db.execute(
            "INSERT INTO user_settings (user_id, time_zone, quiet_start, quiet_end) VALUES (?,?,?,?)"
            " ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone,"
            " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end",
            (user_id, *values),
        )

    async def get_heartbeat(self) -> float | None:
        async with self._db.execute("SELECT value FROM bot_state WHERE key = ?", (HEARTBEAT,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0]

    @_serialised
    async def set_heartbeat(self, at: float) -> None:
        await self._db.execute(_SET_HEARTBEAT, (HEARTBEAT, at))

    # ----- user flags ---------------------------------------------------------------------------

    async def get_user_flag(self, user_id: str, flag: str) -> bool:
        async with self._db.execute(
            "SELECT value FROM user_flags WHERE user_id = ? AND flag = ?", (user_id, flag)
        ) as cursor:
            row = await cursor.fetchone()
        return bool(row and row[0])

    @_serialised
    async def set_user_flag(self, user_id: str, flag: str, value: bool) -> None:
        await self._db.execute(
            "INSERT INTO user_flags (user_id, flag, value) VALUES (?,?,?)"
            " ON CONFLICT (user_id, flag) DO UPDATE SET value = excluded.value",
            (user_id, flag, int(value)),
        )


_UPSERT_SEATS = (
    f"INSERT INTO seats (game_id, {_SEAT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
    " ON CONFLICT (game_id, seat) DO UPDATE SET name = excluded.name, user_id = excluded.user_id,"
    " ai_kind = excluded.ai_kind, waiting_since = excluded.waiting_since, clock = excluded.clock,"
    " absent_since = excluded.absent_since, skips = excluded.skips, forfeited = excluded.forfeited,"
    " ai_played = excluded.ai_played, next_due_at = excluded.next_due_at"
)
_INSERT_MOVES = "INSERT INTO moves (game_id, n, seat, move, at) VALUES (?,?,?,?,?)"
_UPDATE_GAME = (
    "UPDATE games SET "
    + ", ".join(f"{field} = ?" for field in _TABLE_FIELDS if field != "game")
    + ", state = ? WHERE id = ? AND version = ?"
)
CHECKPOINT_SECONDS = 1.0


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
        values = [value for field, value in zip(_TABLE_FIELDS, _table_values(table), strict=True) if field != "game"]
        self.table = table
        self.outcome = outcome
        self.result = result
        self.table_id = table.id
        self.expected_version = expected_version
        self.game_values = (*values, state, table.id, expected_version)
        seats = table.seats if changed_seats is None else [table.seats[index] for index in changed_seats]
        self.seat_rows = [(table.id, *_seat_values(seat)) for seat in seats]
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
    with _transaction(connection):
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
    """One transaction for a group of works, each in its own savepoint; returns (ok, result or
    error) per work. Raises (and rolls back everything) only if the transaction itself fails."""
    answers: list[tuple[bool, Any]] = []
    with _transaction(connection):
        for work in works:
            connection.execute("SAVEPOINT work")
            try:
                answers.append((True, work.run(connection)))
            except Exception as error:
                connection.execute("ROLLBACK TO work")
                answers.append((False, error))
            connection.execute("RELEASE work")
    return answers


def _checkpoint_every(path: str, seconds: float, stop: threading.Event) -> None:
    """Checkpoint the WAL every ``seconds`` until ``stop``. PASSIVE never blocks the writer nor
    waits for readers; what it cannot copy now it copies next time."""
    try:
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error:
        return
    try:
        connection.execute("PRAGMA busy_timeout=5000")
        while not stop.wait(seconds):
            try:
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            except sqlite3.Error:
                continue  # busy or a transient error: try again next time
    finally:
        connection.close()


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


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
