"""Results, ratings, leaderboards, statistics and history on PostgreSQL (``ResultStore``): a
mixin of PostgresStore. A game's result and its rating updates are written inside the move's
transaction (tables.py calls ``insert_result``).

Several processes may record results of one rating pool at once, each reading the players'
current ratings and writing new ones: without care, the second would overwrite the first's update
(or both would insert a player's first rating). So the ratings of one pool (server and game) are
changed under a transaction-scoped advisory lock of that pool, taken before the result is numbered:
the rating events of a pool are in the order they were applied, which is the order of ``seq`` that
``rebuild_ratings`` replays."""

from __future__ import annotations

from typing import Any

import asyncpg

from engine.referee import ratings as rating_model
from engine.referee.model import GameResult, RatingChange, ResultSeat, Table
from engine.referee.ratings import Rating
from engine.referee.reports import (
    GameStats,
    HighScore,
    LeaderboardPage,
    PlayerStats,
    RecentResult,
)

from ..rows import (
    RESULT_COLUMNS,
    RESULT_SEAT_COLUMNS,
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
)
from . import seasons


def _where(*conditions: tuple[str, Any]) -> tuple[str, list[Any]]:
    """A WHERE clause from (sql with one ``{}`` for its parameter, value), skipping None values."""
    used = [(sql, value) for sql, value in conditions if value is not None]
    if not used:
        return "", []
    parts = [sql.format(f"${number}") for number, (sql, _) in enumerate(used, 1)]
    return " WHERE " + " AND ".join(parts), [value for _, value in used]


class PgResults:
    _pool: asyncpg.Pool

    async def result(self, table_id: int) -> bytes | None:
        outcome = await self._pool.fetchval("SELECT outcome FROM results WHERE game_id = $1", table_id)
        return None if outcome is None else str(outcome).encode()

    async def rebuild_ratings(self, model: Any | None = None) -> int:
        """Recompute every rating from the stored results in their order, in one transaction
        (which holds every pool's ratings: no result is rated meanwhile)."""
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute("LOCK TABLE ratings, rating_events, season_ratings IN EXCLUSIVE MODE")
            await connection.execute("DELETE FROM ratings")
            await connection.execute("DELETE FROM rating_events")
            await connection.execute("DELETE FROM season_ratings")
            games = await connection.fetch(
                "SELECT game_id, guild_id, game, finished_at, seq FROM results WHERE rated = 1 ORDER BY seq"
            )
            for table_id, guild_id, game, finished_at, seq in games:
                seats = await _read_result_seats(connection, table_id)
                await _apply_ratings(connection, table_id, guild_id, game, seats, finished_at, seq, model)
        return len(games)

    async def game_result(self, table_id: int) -> GameResult | None:
        async with self._pool.acquire() as connection:
            row = await connection.fetchrow(
                f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = $1", table_id
            )
            if row is None:
                return None
            return result_from_row(row, await _read_result_seats(connection, table_id))

    async def ratings(self, guild_id: str | None, game: str) -> dict[str, tuple[Rating, int, int]]:
        rows = await self._pool.fetch(
            "SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = $1 AND game = $2",
            rating_pool(guild_id),
            game,
        )
        return {row[0]: (Rating(row[1], row[2]), row[3], row[4]) for row in rows}

    async def rating_events(
        self, *, guild_id: str | None = None, game: str | None = None, user_id: str | None = None
    ) -> list[RatingChange]:
        where, values = _where(
            ("e.guild_id = {}", None if guild_id is None else rating_pool(guild_id)),
            ("e.game = {}", game),
            ("e.user_id = {}", user_id),
        )
        rows = await self._pool.fetch(
            "SELECT e.user_id, COALESCE((SELECT rs.name FROM result_seats rs WHERE rs.game_id = e.game_id"
            " AND rs.user_id = e.user_id), ''), e.guild_id, e.game, e.mu_before, e.sigma_before, e.mu_after,"
            " e.sigma_after, e.rank,"
            " (SELECT COUNT(*) FROM rating_events p WHERE p.guild_id = e.guild_id AND p.game = e.game"
            "  AND p.user_id = e.user_id AND p.id <= e.id)"
            f" FROM rating_events e{where} ORDER BY e.id",
            *values,
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
    ) -> LeaderboardPage:
        scope = rating_pool(guild_id)
        async with self._pool.acquire() as connection:
            total = await connection.fetchval(
                "SELECT COUNT(*) FROM ratings WHERE guild_id = $1 AND game = $2", scope, game
            )
            rows = await connection.fetch(
                "SELECT RANK() OVER (ORDER BY r.mu - 3 * r.sigma DESC) AS position, r.user_id, r.name,"
                " r.mu, r.sigma, r.games, r.wins,"
                " (SELECT MAX(rs.score) FROM result_seats rs JOIN results res ON res.game_id = rs.game_id"
                "  WHERE res.rated = 1 AND res.game = r.game AND COALESCE(res.guild_id, '') = r.guild_id"
                "  AND rs.user_id = r.user_id)"
                " FROM ratings r WHERE r.guild_id = $1 AND r.game = $2"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.user_id LIMIT $3 OFFSET $4",
                scope,
                game,
                limit,
                offset,
            )
        return leaderboard_page(guild_id, game, total, offset, limit, [tuple(row) for row in rows])

    async def high_scores(
        self, guild_id: str | None, game: str, board: str, *, limit: int = 10
    ) -> list[HighScore]:
        rows = await self._pool.fetch(
            "SELECT RANK() OVER (ORDER BY rs.score DESC), rs.user_id, rs.name, rs.score, res.game_id,"
            " res.finished_at FROM result_seats rs JOIN results res ON res.game_id = rs.game_id"
            " WHERE COALESCE(res.guild_id, '') = $1 AND res.game = $2 AND res.board = $3 AND rs.is_ai = 0"
            " AND rs.user_id IS NOT NULL ORDER BY rs.score DESC, res.seq LIMIT $4",
            rating_pool(guild_id),
            game,
            board,
            limit,
        )
        return [
            HighScore(position=r[0], user_id=r[1], name=r[2], score=r[3], table_id=r[4], finished_at=r[5])
            for r in rows
        ]

    async def player_stats(
        self, user_id: str, guild_id: str | None = None, *, recent: int = 5
    ) -> PlayerStats:
        where, values = _where(("rs.user_id = {}", user_id), ("COALESCE(res.guild_id, '') = {}", guild_id))
        rows = await self._pool.fetch(
            "SELECT res.game, COUNT(*),"
            " SUM(CASE WHEN rs.rank = 1 AND EXISTS (SELECT 1 FROM result_seats o WHERE o.game_id = rs.game_id"
            "  AND o.seat != rs.seat) THEN 1 ELSE 0 END),"
            " AVG(rs.score), MAX(rs.score), SUM(rs.forfeited)"
            f" FROM result_seats rs JOIN results res ON res.game_id = rs.game_id{where} AND rs.is_ai = 0"
            # An abandoned game shows among the latest games, never in the counts (abandon.py).
            " AND COALESCE(res.board, '') != 'abandoned'"
            " GROUP BY res.game ORDER BY COUNT(*) DESC, res.game",
            *values,
        )
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
        rows = await self._pool.fetch(
            "SELECT res.game_id, res.game, res.guild_id, res.finished_at, rs.rank,"
            " (SELECT COUNT(*) FROM result_seats o WHERE o.game_id = res.game_id), rs.score, rs.forfeited,"
            " res.rated, res.board,"
            " (SELECT (e.mu_after - 3 * e.sigma_after) - (e.mu_before - 3 * e.sigma_before) FROM rating_events e"
            "  WHERE e.game_id = res.game_id AND e.user_id = rs.user_id)"
            f" FROM result_seats rs JOIN results res ON res.game_id = rs.game_id{where} AND rs.is_ai = 0"
            f" ORDER BY res.seq DESC LIMIT ${len(values) + 1}",
            *values,
            recent,
        )
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
        where, values = _where(("COALESCE(guild_id, '') = {}", guild_id), ("game = {}", game))
        count = len(values)
        async with self._pool.acquire() as connection:
            rows = await connection.fetch(
                f"SELECT {RESULT_COLUMNS} FROM results{where} ORDER BY seq DESC LIMIT ${count + 1} OFFSET ${count + 2}",
                *values,
                limit,
                offset,
            )
            return [result_from_row(row, await _read_result_seats(connection, row[0])) for row in rows]


async def insert_bare_result(connection: asyncpg.Connection, table: Table, outcome: bytes) -> None:
    """A result without seat details (callers that predate GameResult)."""
    await connection.execute(
        "INSERT INTO results (game_id, outcome, finished_at, seq, game, guild_id, speed)"
        " VALUES ($1,$2,$3,nextval('results_seq'),$4,$5,$6) ON CONFLICT (game_id) DO UPDATE SET"
        " outcome = excluded.outcome, finished_at = excluded.finished_at, seq = excluded.seq,"
        " game = excluded.game, guild_id = excluded.guild_id, speed = excluded.speed",
        table.id,
        outcome.decode(),
        table.updated_at,
        table.game,
        table.guild_id,
        table.speed,
    )


async def _lock_pool(connection: asyncpg.Connection, guild_id: str | None, game: str) -> None:
    """Until the transaction ends, this process alone changes the ratings of this pool."""
    await connection.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
        f"ratings\x1f{rating_pool(guild_id)}\x1f{game}",
    )


async def insert_result(connection: asyncpg.Connection, result: GameResult) -> list[RatingChange]:
    if result.rated:
        await _lock_pool(connection, result.guild_id, result.game)
    if result.guild_id is not None:  # a season whose boundary has passed ends before this result
        await seasons.roll_over(connection, result.guild_id, result.finished_at)
    seq = await connection.fetchval(
        "INSERT INTO results (game_id, outcome, finished_at, seq, game, guild_id, speed, rated, board,"
        " forfeits, ai_played) VALUES ($1,$2,$3,nextval('results_seq'),$4,$5,$6,$7,$8,$9,$10) RETURNING seq",
        result.table_id,
        to_json(result.outcome),
        result.finished_at,
        result.game,
        result.guild_id,
        result.speed,
        int(result.rated),
        result.board,
        result.forfeits,
        int(result.ai_played),
    )
    await connection.executemany(
        f"INSERT INTO result_seats (game_id, {RESULT_SEAT_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)",
        result_seat_rows(result),
    )
    if not result.rated:
        return []
    return await _apply_ratings(
        connection, result.table_id, result.guild_id, result.game, result.seats, result.finished_at, seq
    )


async def _apply_ratings(
    connection: asyncpg.Connection,
    table_id: int,
    guild_id: str | None,
    game: str,
    seats: list[ResultSeat],
    at: float,
    seq: int,
    model: Any | None = None,
) -> list[RatingChange]:
    """Rate one finished game inside the caller's transaction (which holds the pool's lock), and
    the same in the pool of its season, if its server has one (seasons.py). Returns the season's
    changes when there is a season, else the all-time ones."""
    scope = rating_pool(guild_id)
    players = rated_players(seats)
    user_ids = [seat.user_id for seat in players]
    current: dict[str, tuple[Rating, int]] = {}
    if user_ids:
        rows = await connection.fetch(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = $1 AND game = $2"
            " AND user_id = ANY($3::text[])",
            scope,
            game,
            user_ids,
        )
        for user_id, mu, sigma, games in rows:
            current[user_id] = (Rating(mu, sigma), games)
    changes = rating_changes(players, current, scope, game, model)
    if not changes:
        return changes
    await connection.executemany(
        "INSERT INTO rating_events (game_id, guild_id, game, user_id, rank, mu_before, sigma_before,"
        " mu_after, sigma_after, at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)",
        rating_event_rows(table_id, changes, at),
    )
    await connection.executemany(
        "INSERT INTO ratings AS r (guild_id, game, user_id, name, mu, sigma, games, wins, updated_at)"
        " VALUES ($1,$2,$3,$4,$5,$6,1,$7,$8) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
        " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, games = r.games + 1,"
        " wins = r.wins + excluded.wins, updated_at = excluded.updated_at",
        rating_rows(changes, at),
    )
    season = await seasons.season_of(connection, guild_id, seq) if guild_id is not None and players else None
    if season is None:
        return changes
    all_time = {user: rating for user, (rating, _) in current.items()}
    return await seasons.rate_in_season(connection, season, game, players, all_time, at, model)


async def _read_result_seats(connection: asyncpg.Connection, table_id: int) -> list[ResultSeat]:
    rows = await connection.fetch(
        f"SELECT {RESULT_SEAT_COLUMNS} FROM result_seats WHERE game_id = $1 ORDER BY seat", table_id
    )
    return [result_seat_from_row(row) for row in rows]
