"""Seasons on PostgreSQL (engine/referee/seasons.py says what they are): a mixin of PostgresStore,
and the functions results.py runs inside a result's transaction (``roll_over`` before the result
is numbered, ``rate_in_season`` with its ratings), as db/seasons.py does on SQLite.

Several processes share the database: the seasons of one server change under a transaction-scoped
advisory lock of that server (``lock_seasons``), which a result of that server also takes before
it is numbered. A season ending therefore waits for the server's results under way, and its
``end_seq`` (the highest result number then) holds every one of them."""

from __future__ import annotations

from typing import Any

import asyncpg

from engine.referee import ratings as rating_model
from engine.referee import reports
from engine.referee.model import RatingChange, ResultSeat
from engine.referee.ratings import Rating
from engine.referee.seasons import (
    MANUAL,
    Season,
    SeasonPlan,
    carried_rating,
    next_boundary,
    period_start,
    season_name,
)

from ..rows import from_row, leaderboard_page
from ..seasons import SEASON_COLUMNS, SEASON_FIELDS, season_changes, season_rating_rows

_PLAN_FIELDS = ("guild_id", "cadence", "carry", "channel_id")


def _season(row: Any) -> Season:
    return from_row(Season, SEASON_FIELDS, (*tuple(row)[:-1], bool(row[-1])))


class PgSeasons:
    _pool: asyncpg.Pool

    async def season_plan(self, guild_id: str) -> SeasonPlan | None:
        row = await self._pool.fetchrow(
            "SELECT guild_id, cadence, carry, channel_id FROM season_plans WHERE guild_id = $1", guild_id
        )
        return None if row is None else from_row(SeasonPlan, _PLAN_FIELDS, tuple(row))

    async def set_season_plan(self, plan: SeasonPlan, now: float) -> Season:
        async with self._pool.acquire() as connection, connection.transaction():
            return await _set_plan(connection, plan, now)

    async def start_season(self, plan: SeasonPlan, now: float) -> Season:
        async with self._pool.acquire() as connection, connection.transaction():
            return await _start_season(connection, plan, now)

    async def roll_over_seasons(self, now: float) -> list[int]:
        # Read first: every clock poll asks, and nearly always nothing is due (no write then).
        guilds = await self._pool.fetch(
            "SELECT DISTINCT guild_id FROM seasons WHERE ended_at IS NULL AND ends_at IS NOT NULL AND ends_at <= $1",
            now,
        )
        ended: list[int] = []
        for (guild_id,) in guilds:
            async with self._pool.acquire() as connection, connection.transaction():
                ended += await roll_over(connection, guild_id, now)
        return sorted(ended)

    async def seasons(self, guild_id: str) -> list[Season]:
        rows = await self._pool.fetch(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = $1 ORDER BY number DESC", guild_id
        )
        return [_season(row) for row in rows]

    async def seasons_owed(self) -> list[Season]:
        rows = await self._pool.fetch(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE ended_at IS NOT NULL AND announced = 0 ORDER BY id"
        )
        return [_season(row) for row in rows]

    async def mark_season_announced(self, season_id: int) -> None:
        await self._pool.execute("UPDATE seasons SET announced = 1 WHERE id = $1", season_id)

    async def season_games(self, season_id: int) -> list[str]:
        rows = await self._pool.fetch(
            "SELECT game FROM season_ratings WHERE season_id = $1 GROUP BY game ORDER BY SUM(games) DESC, game",
            season_id,
        )
        return [row[0] for row in rows]

    async def season_leaderboard(
        self, season_id: int, game: str, *, offset: int = 0, limit: int = 10
    ) -> reports.LeaderboardPage:
        """Like the all-time leaderboard, over one season's pool and results."""
        async with self._pool.acquire() as connection:
            season = await connection.fetchrow(
                "SELECT guild_id, start_seq, end_seq FROM seasons WHERE id = $1", season_id
            )
            assert season is not None
            guild_id, start_seq, end_seq = season
            total = await connection.fetchval(
                "SELECT COUNT(*) FROM season_ratings WHERE season_id = $1 AND game = $2", season_id, game
            )
            rows = await connection.fetch(
                "SELECT RANK() OVER (ORDER BY r.mu - 3 * r.sigma DESC), r.user_id, r.name, r.mu, r.sigma,"
                " r.games, r.wins,"
                " (SELECT MAX(rs.score) FROM result_seats rs JOIN results res ON res.game_id = rs.game_id"
                "  WHERE res.rated = 1 AND res.game = r.game AND res.guild_id = $1 AND res.seq > $2"
                "  AND ($3::bigint IS NULL OR res.seq <= $3) AND rs.user_id = r.user_id)"
                " FROM season_ratings r WHERE r.season_id = $4 AND r.game = $5"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.user_id LIMIT $6 OFFSET $7",
                guild_id,
                start_seq,
                end_seq,
                season_id,
                game,
                limit,
                offset,
            )
        return leaderboard_page(guild_id, game, total, offset, limit, [tuple(row) for row in rows])


# ----- inside a transaction ---------------------------------------------------------------------


async def lock_seasons(connection: asyncpg.Connection, guild_id: str) -> None:
    """Until the transaction ends, this process alone changes the seasons of this server (and
    numbers its results)."""
    await connection.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", f"seasons\x1f{guild_id}"
    )


async def _max_seq(connection: asyncpg.Connection) -> int:
    return int(await connection.fetchval("SELECT COALESCE(MAX(seq), 0) FROM results"))


async def _current(connection: asyncpg.Connection, guild_id: str) -> Season | None:
    row = await connection.fetchrow(
        f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = $1 AND ended_at IS NULL", guild_id
    )
    return None if row is None else _season(row)


async def _plan(connection: asyncpg.Connection, guild_id: str) -> SeasonPlan:
    row = await connection.fetchrow(
        "SELECT guild_id, cadence, carry, channel_id FROM season_plans WHERE guild_id = $1", guild_id
    )
    if row is None:
        return SeasonPlan(guild_id=guild_id, cadence=MANUAL, carry="continue")
    return from_row(SeasonPlan, _PLAN_FIELDS, tuple(row))


async def _end(connection: asyncpg.Connection, season_id: int, at: float) -> None:
    await connection.execute(
        "UPDATE seasons SET ended_at = $1, end_seq = $2 WHERE id = $3",
        at,
        await _max_seq(connection),
        season_id,
    )


async def _open(connection: asyncpg.Connection, plan: SeasonPlan, start: float) -> Season:
    number = int(
        await connection.fetchval(
            "SELECT COALESCE(MAX(number), 0) + 1 FROM seasons WHERE guild_id = $1", plan.guild_id
        )
    )
    ends_at = None if plan.cadence == MANUAL else next_boundary(plan.cadence, start)
    await connection.execute(
        "INSERT INTO seasons (guild_id, number, name, started_at, ends_at, start_seq, carry, channel_id)"
        " VALUES ($1,$2,$3,$4,$5,$6,$7,$8)",
        plan.guild_id,
        number,
        season_name(number, plan.cadence, start),
        start,
        ends_at,
        await _max_seq(connection),
        plan.carry,
        plan.channel_id,
    )
    season = await _current(connection, plan.guild_id)
    assert season is not None
    return season


async def roll_over(connection: asyncpg.Connection, guild_id: str, now: float) -> list[int]:
    """End the server's season if its boundary is at or before ``now`` (at its boundary) and open
    the next at the latest boundary not after ``now``, as db/seasons.py's. Returns the ids ended."""
    await lock_seasons(connection, guild_id)
    rows = await connection.fetch(
        "SELECT id, ends_at FROM seasons WHERE ended_at IS NULL AND ends_at IS NOT NULL AND ends_at <= $1"
        " AND guild_id = $2",
        now,
        guild_id,
    )
    for season_id, boundary in rows:
        await _end(connection, season_id, boundary)
        plan = await _plan(connection, guild_id)
        if plan.cadence != MANUAL:
            await _open(connection, plan, max(boundary, period_start(plan.cadence, now)))
    return [row[0] for row in rows]


async def _set_plan(connection: asyncpg.Connection, plan: SeasonPlan, now: float) -> Season:
    await roll_over(connection, plan.guild_id, now)
    await connection.execute(
        "INSERT INTO season_plans (guild_id, cadence, carry, channel_id) VALUES ($1,$2,$3,$4)"
        " ON CONFLICT (guild_id) DO UPDATE SET cadence = excluded.cadence, carry = excluded.carry,"
        " channel_id = excluded.channel_id",
        plan.guild_id,
        plan.cadence,
        plan.carry,
        plan.channel_id,
    )
    current = await _current(connection, plan.guild_id)
    if current is None:
        return await _open(connection, plan, now)
    ends_at = None if plan.cadence == MANUAL else next_boundary(plan.cadence, now)
    await connection.execute(
        "UPDATE seasons SET ends_at = $1, channel_id = $2 WHERE id = $3", ends_at, plan.channel_id, current.id
    )
    season = await _current(connection, plan.guild_id)
    assert season is not None
    return season


async def _start_season(connection: asyncpg.Connection, plan: SeasonPlan, now: float) -> Season:
    await roll_over(connection, plan.guild_id, now)
    stored = await _plan(connection, plan.guild_id)
    await connection.execute(
        "INSERT INTO season_plans (guild_id, cadence, carry, channel_id) VALUES ($1,$2,$3,$4)"
        " ON CONFLICT (guild_id) DO UPDATE SET carry = excluded.carry, channel_id = excluded.channel_id",
        plan.guild_id,
        stored.cadence,
        plan.carry,
        plan.channel_id,
    )
    current = await _current(connection, plan.guild_id)
    if current is not None:
        await _end(connection, current.id, now)
    return await _open(connection, await _plan(connection, plan.guild_id), now)


async def season_of(connection: asyncpg.Connection, guild_id: str, seq: int) -> Season | None:
    """The season of a server holding the result numbered ``seq``."""
    row = await connection.fetchrow(
        f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = $1 AND start_seq < $2"
        " AND (end_seq IS NULL OR end_seq >= $2)",
        guild_id,
        seq,
    )
    return None if row is None else _season(row)


async def _entry_rating(
    connection: asyncpg.Connection,
    season: Season,
    game: str,
    user_id: str,
    all_time: Rating | None,
    initial: Rating,
) -> Rating:
    """A player's rating as they enter ``season`` (db/seasons.py's rule)."""
    row = await connection.fetchrow(
        "SELECT sr.mu, sr.sigma FROM season_ratings sr JOIN seasons s ON s.id = sr.season_id"
        " WHERE s.guild_id = $1 AND s.number < $2 AND sr.game = $3 AND sr.user_id = $4"
        " ORDER BY s.number DESC LIMIT 1",
        season.guild_id,
        season.number,
        game,
        user_id,
    )
    base = Rating(row[0], row[1]) if row is not None else all_time
    return initial if base is None else carried_rating(base, season.carry, initial)


async def rate_in_season(
    connection: asyncpg.Connection,
    season: Season,
    game: str,
    players: list[ResultSeat],
    all_time: dict[str, Rating],
    at: float,
    model: Any | None = None,
) -> list[RatingChange]:
    """Rate one finished game in its season's pool (inside the result's transaction, which holds
    the pool's lock); ``all_time``: the players' all-time ratings before the game."""
    user_ids = [seat.user_id or "" for seat in players]
    rows = await connection.fetch(
        "SELECT user_id, mu, sigma, games FROM season_ratings WHERE season_id = $1 AND game = $2"
        " AND user_id = ANY($3::text[])",
        season.id,
        game,
        user_ids,
    )
    games = {row[0]: row[3] for row in rows}
    initial = rating_model.initial_rating(model)
    before = {row[0]: Rating(row[1], row[2]) for row in rows}
    for user_id in user_ids:
        if user_id not in before:
            before[user_id] = await _entry_rating(
                connection, season, game, user_id, all_time.get(user_id), initial
            )
    changes = season_changes(season, game, players, before, games, model)
    await connection.executemany(
        "INSERT INTO season_ratings AS r (season_id, game, user_id, name, mu, sigma, games, wins, updated_at)"
        " VALUES ($1,$2,$3,$4,$5,$6,1,$7,$8) ON CONFLICT (season_id, game, user_id) DO UPDATE SET"
        " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, games = r.games + 1,"
        " wins = r.wins + excluded.wins, updated_at = excluded.updated_at",
        season_rating_rows(season, game, changes, at),
    )
    return changes
