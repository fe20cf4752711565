"""Results, ratings, leaderboards, statistics and history on SQLite (``ResultStore``): a
mixin of SqliteStore. A game's result and its rating updates are written inside the move's
transaction (tables.py calls ``_insert_result``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

import aiosqlite

from engine.referee import ratings as rating_model
from engine.referee import reports
from engine.referee.model import GameResult, RatingChange, ResultSeat, Table
from engine.referee.ratings import Rating

from . import seasons
from .reads import fetch_all, fetch_one, fetch_records
from .rows import (
    RECENT_FIELDS,
    RESULT_COLUMNS,
    RESULT_SEAT_COLUMNS,
    from_row,
    leaderboard_page,
    rated_players,
    rating_changes,
    rating_event_rows,
    rating_pool,
    rating_rows,
    result_from_row,
    result_seat_from_row,
    result_seat_rows,
    to_json,
    where_clause,
)
from .writer import Call, Work


class ResultQueries:
    _db: aiosqlite.Connection
    _commit_in_group: Callable[[Work], Awaitable[Any]]

    async def result(self, table_id: int) -> bytes | None:
        row = await fetch_one(self._db, "SELECT outcome FROM results WHERE game_id = ?", (table_id,))
        return None if row is None else row[0].encode()

    async def rebuild_ratings(self, model: Any | None = None) -> int:
        """Recompute every rating from the stored results, in the order they were recorded, with
        ``model`` (default: the current one); rewrites the rating events. One transaction.
        Returns the number of rated games replayed."""
        return await self._commit_in_group(Call(_rebuild_ratings, model))

    async def _result_seats(self, table_id: int) -> list[ResultSeat]:
        return await fetch_records(
            self._db,
            result_seat_from_row,
            f"SELECT {RESULT_SEAT_COLUMNS} FROM result_seats WHERE game_id = ? ORDER BY seat",
            (table_id,),
        )

    async def game_result(self, table_id: int) -> GameResult | None:
        row = await fetch_one(
            self._db,
            f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ?",
            (table_id,),
        )
        if row is None:
            return None
        return result_from_row(row, await self._result_seats(table_id))

    async def ratings(self, guild_id: str | None, game: str) -> dict[str, tuple[Rating, int, int]]:
        """{user_id: (rating, rated games, wins)} of one rating pool."""
        rows = await fetch_all(
            self._db,
            "SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ?",
            (rating_pool(guild_id), game),
        )
        return {row[0]: (Rating(row[1], row[2]), row[3], row[4]) for row in rows}

    async def rating_events(
        self, *, guild_id: str | None = None, game: str | None = None, user_id: str | None = None
    ) -> list[RatingChange]:
        """Stored rating updates in the order they were made (filters optional; guild None: all)."""
        where, values = where_clause(
            ("guild_id = ?", None if guild_id is None else rating_pool(guild_id)),
            ("game = ?", game),
            ("user_id = ?", user_id),
        )
        rows = await fetch_all(
            self._db,
            "SELECT e.user_id, COALESCE((SELECT rs.name FROM result_seats rs WHERE rs.game_id = e.game_id"
            " AND rs.user_id = e.user_id), ''), e.guild_id, e.game, e.mu_before, e.sigma_before, e.mu_after,"
            " e.sigma_after, e.rank,"
            " (SELECT COUNT(*) FROM rating_events p WHERE p.guild_id = e.guild_id AND p.game = e.game"
            "  AND p.user_id = e.user_id AND p.id <= e.id)"
            f" FROM rating_events e{where} ORDER BY e.id",
            values,
        )
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
    ) -> reports.LeaderboardPage:
        """Rated players of one pool by rating (mu - 3 sigma); equal ratings share a position.
        Ratings are per server: ``guild_id=None`` (or ``""``) is the pool of tables outside any."""
        scope = rating_pool(guild_id)
        counted = await fetch_one(
            self._db, "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (scope, game)
        )
        total = counted[0]
        rows = await fetch_all(
            self._db,
            "SELECT RANK() OVER (ORDER BY r.mu - 3 * r.sigma DESC) AS position, r.user_id, r.name,"
            " r.mu, r.sigma, r.games, r.wins,"
            " (SELECT MAX(rs.score) FROM result_seats rs JOIN results res ON res.game_id = rs.game_id"
            "  WHERE res.rated = 1 AND res.game = r.game AND COALESCE(res.guild_id, '') = r.guild_id"
            "  AND rs.user_id = r.user_id)"
            " FROM ratings r WHERE r.guild_id = ? AND r.game = ?"
            " ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.user_id LIMIT ? OFFSET ?",
            (scope, game, limit, offset),
        )
        return leaderboard_page(guild_id, game, total, offset, limit, rows)

    async def high_scores(
        self, guild_id: str | None, game: str, board: str, *, limit: int = 10
    ) -> list[reports.HighScore]:
        """Best human scores of one server's board (``solo`` or ``with_ai``; a higher score is better;
        ``guild_id=None``: tables outside any server, like the leaderboard)."""
        rows = await fetch_all(
            self._db,
            "SELECT RANK() OVER (ORDER BY rs.score DESC), rs.user_id, rs.name, rs.score, res.game_id,"
            " res.finished_at FROM result_seats rs JOIN results res ON res.game_id = rs.game_id"
            " WHERE COALESCE(res.guild_id, '') = ? AND res.game = ? AND res.board = ? AND NOT rs.is_ai"
            " AND rs.user_id IS NOT NULL ORDER BY rs.score DESC, res.seq LIMIT ?",
            (rating_pool(guild_id), game, board, limit),
        )
        return [
            reports.HighScore(position=r[0], user_id=r[1], name=r[2], score=r[3], table_id=r[4], finished_at=r[5])
            for r in rows
        ]

    async def player_stats(
        self, user_id: str, guild_id: str | None = None, *, recent: int = 5
    ) -> reports.PlayerStats:
        """Per game: games, wins, average and best score, forfeits and (with a guild) the rating;
        and the latest results. ``guild_id=None``: every server (ratings are per server: none then);
        ``""``: tables outside any server."""
        where, values = where_clause(("rs.user_id = ?", user_id), ("COALESCE(res.guild_id, '') = ?", guild_id))
        # A game of one seat has no winner (Draft Cider solo, for one): a score, not a win.
        rows = await fetch_all(
            self._db,
            "SELECT res.game, COUNT(*),"
            " SUM(rs.rank = 1 AND EXISTS (SELECT 1 FROM result_seats o WHERE o.game_id = rs.game_id"
            "  AND o.seat != rs.seat)),"
            " AVG(rs.score), MAX(rs.score), SUM(rs.forfeited)"
            f" FROM result_seats rs JOIN results res ON res.game_id = rs.game_id{where} AND NOT rs.is_ai"
            # An abandoned game shows among the latest games, never in the counts (abandon.py).
            " AND COALESCE(res.board, '') != 'abandoned'"
            " GROUP BY res.game ORDER BY COUNT(*) DESC, res.game",
            values,
        )
        games = [
            reports.GameStats(game=r[0], games=r[1], wins=r[2], average_score=r[3], best_score=r[4], forfeits=r[5])
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
        rows = await fetch_all(
            self._db,
            "SELECT res.game_id, res.game, res.guild_id, res.finished_at, rs.rank,"
            " (SELECT COUNT(*) FROM result_seats o WHERE o.game_id = res.game_id), rs.score, rs.forfeited,"
            " res.rated, res.board,"
            " (SELECT (e.mu_after - 3 * e.sigma_after) - (e.mu_before - 3 * e.sigma_before) FROM rating_events e"
            "  WHERE e.game_id = res.game_id AND e.user_id = rs.user_id)"
            f" FROM result_seats rs JOIN results res ON res.game_id = rs.game_id{where} AND NOT rs.is_ai"
            " ORDER BY res.seq DESC LIMIT ?",
            (*values, recent),
        )
        latest = [from_row(reports.RecentResult, RECENT_FIELDS, row) for row in rows]
        return reports.PlayerStats(user_id=user_id, guild_id=guild_id, games=games, recent=latest)

    async def history(
        self, guild_id: str | None = None, *, game: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[GameResult]:
        """Finished games, latest first, with every seat (``guild_id=None``: every server; ``""``:
        tables outside any server)."""
        where, values = where_clause(("COALESCE(guild_id, '') = ?", guild_id), ("game = ?", game))
        rows = await fetch_all(
            self._db,
            f"SELECT {RESULT_COLUMNS} FROM results{where} ORDER BY seq DESC LIMIT ? OFFSET ?",
            (*values, limit, offset),
        )
        return [result_from_row(row, await self._result_seats(row[0])) for row in rows]


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
    if result.guild_id is not None:  # a season whose boundary has passed ends before this result
        seasons.roll_over(connection, result.guild_id, result.finished_at)
    seq = _next_result_seq(connection)
    connection.execute(
        "INSERT INTO results (game_id, outcome, finished_at, seq, game, guild_id, speed, rated, board,"
        " forfeits, ai_played) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        (
            result.table_id,
            to_json(result.outcome),
            result.finished_at,
            seq,
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
        f"INSERT INTO result_seats (game_id, {RESULT_SEAT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        result_seat_rows(result),
    )
    if not result.rated:
        return []
    return _apply_ratings(
        connection, result.table_id, result.guild_id, result.game, result.seats, result.finished_at, seq
    )


def _apply_ratings(
    connection: sqlite3.Connection,
    table_id: int,
    guild_id: str | None,
    game: str,
    seats: list[ResultSeat],
    at: float,
    seq: int,
    model: Any | None = None,
) -> list[RatingChange]:
    """Rate one finished game inside the caller's transaction: read the current ratings, write
    one event per player and the new ratings; and the same in the pool of its season, if its
    server has one (db/seasons.py). Used alike by game end and by rebuilds. Returns the season's
    changes when there is a season, else the all-time ones."""
    scope = rating_pool(guild_id)
    players = rated_players(seats)
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
    changes = rating_changes(players, current, scope, game, model)
    connection.executemany(
        "INSERT INTO rating_events (game_id, guild_id, game, user_id, rank, mu_before, sigma_before,"
        " mu_after, sigma_after, at) VALUES (?,?,?,?,?,?,?,?,?,?)",
        rating_event_rows(table_id, changes, at),
    )
    connection.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, games, wins, updated_at)"
        " VALUES (?,?,?,?,?,?,1,?,?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
        " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, games = games + 1,"
        " wins = wins + excluded.wins, updated_at = excluded.updated_at",
        rating_rows(changes, at),
    )
    season = seasons.season_of(connection, guild_id, seq) if guild_id is not None and players else None
    if season is None:
        return changes
    all_time = {user: rating for user, (rating, _) in current.items()}
    return seasons.rate_in_season(connection, season, game, players, all_time, at, model)


def _read_result_seats(connection: sqlite3.Connection, table_id: int) -> list[ResultSeat]:
    rows = connection.execute(
        f"SELECT {RESULT_SEAT_COLUMNS} FROM result_seats WHERE game_id = ? ORDER BY seat", (table_id,)
    ).fetchall()
    return [result_seat_from_row(row) for row in rows]


def _rebuild_ratings(connection: sqlite3.Connection, model: Any | None) -> int:
    connection.execute("DELETE FROM ratings")
    connection.execute("DELETE FROM rating_events")
    connection.execute("DELETE FROM season_ratings")
    games = connection.execute(
        "SELECT game_id, guild_id, game, finished_at, seq FROM results WHERE rated = 1 ORDER BY seq"
    ).fetchall()
    for table_id, guild_id, game, finished_at, seq in games:
        seats = _read_result_seats(connection, table_id)
        _apply_ratings(connection, table_id, guild_id, game, seats, finished_at, seq, model)
    return len(games)
