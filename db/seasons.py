"""Seasons on SQLite (engine/referee/seasons.py says what they are): a mixin of SqliteStore, and
the functions results.py runs inside a result's transaction (``roll_over`` before the result is
numbered, ``rate_in_season`` with its ratings)."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiosqlite

from engine.referee import ratings as rating_model
from engine.referee import reports
from engine.referee.model import RatingChange, ResultSeat
from engine.referee.ratings import RatedSeat, Rating
from engine.referee.seasons import (
    MANUAL,
    Season,
    SeasonPlan,
    carried_rating,
    next_boundary,
    period_start,
    season_name,
)

from .reads import fetch_all, fetch_column, fetch_one
from .rows import from_row, leaderboard_page
from .writer import Call, Statement, Work

SEASON_FIELDS = (
    "id",
    "guild_id",
    "number",
    "name",
    "started_at",
    "ends_at",
    "ended_at",
    "carry",
    "channel_id",
    "announced",
)
SEASON_COLUMNS = ", ".join(SEASON_FIELDS)


def _season(row: Sequence[Any]) -> Season:
    return from_row(Season, SEASON_FIELDS, (*row[:-1], bool(row[-1])))


class SeasonQueries:
    """Mixed into SqliteStore: ``_db`` and ``_commit_in_group`` are its own."""

    _db: aiosqlite.Connection
    _commit_in_group: Callable[[Work], Awaitable[Any]]

    async def season_plan(self, guild_id: str) -> SeasonPlan | None:
        row = await fetch_one(
            self._db,
            "SELECT guild_id, cadence, carry, channel_id FROM season_plans WHERE guild_id = ?",
            (guild_id,),
        )
        return (
            None if row is None else from_row(SeasonPlan, ("guild_id", "cadence", "carry", "channel_id"), row)
        )

    async def set_season_plan(self, plan: SeasonPlan, now: float) -> Season:
        return await self._commit_in_group(Call(_set_plan, plan, now))

    async def start_season(self, plan: SeasonPlan, now: float) -> Season:
        return await self._commit_in_group(Call(_start_season, plan, now))

    async def roll_over_seasons(self, now: float) -> list[int]:
        # Read first: every clock poll asks, and nearly always nothing is due (no write then).
        due = await fetch_one(
            self._db,
            "SELECT 1 FROM seasons INDEXED BY seasons_due WHERE ended_at IS NULL AND ends_at IS NOT NULL"
            " AND ends_at <= ? LIMIT 1",
            (now,),
        )
        if due is None:
            return []
        return await self._commit_in_group(Call(roll_over, None, now))

    async def seasons(self, guild_id: str) -> list[Season]:
        rows = await fetch_all(
            self._db,
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY number DESC",
            (guild_id,),
        )
        return [_season(row) for row in rows]

    async def seasons_owed(self) -> list[Season]:
        rows = await fetch_all(
            self._db,
            f"SELECT {SEASON_COLUMNS} FROM seasons INDEXED BY seasons_owed"
            " WHERE ended_at IS NOT NULL AND announced = 0 ORDER BY id",
        )
        return [_season(row) for row in rows]

    async def mark_season_announced(self, season_id: int) -> None:
        await self._commit_in_group(Statement("UPDATE seasons SET announced = 1 WHERE id = ?", (season_id,)))

    async def season_games(self, season_id: int) -> list[str]:
        return await fetch_column(
            self._db,
            "SELECT game FROM season_ratings WHERE season_id = ? GROUP BY game ORDER BY SUM(games) DESC, game",
            (season_id,),
        )

    async def season_leaderboard(
        self, season_id: int, game: str, *, offset: int = 0, limit: int = 10
    ) -> reports.LeaderboardPage:
        """Like the all-time leaderboard, over one season's pool and results."""
        season = await fetch_one(
            self._db, "SELECT guild_id, start_seq, end_seq FROM seasons WHERE id = ?", (season_id,)
        )
        assert season is not None
        guild_id, start_seq, end_seq = season
        counted = await fetch_one(
            self._db,
            "SELECT COUNT(*) FROM season_ratings WHERE season_id = ? AND game = ?",
            (season_id, game),
        )
        assert counted is not None
        rows = await fetch_all(
            self._db,
            "SELECT RANK() OVER (ORDER BY r.mu - 3 * r.sigma DESC), r.user_id, r.name, r.mu, r.sigma, r.games,"
            " r.wins,"
            " (SELECT MAX(rs.score) FROM result_seats rs JOIN results res ON res.game_id = rs.game_id"
            "  WHERE res.rated = 1 AND res.game = r.game AND res.guild_id = ? AND res.seq > ?"
            "  AND (? IS NULL OR res.seq <= ?) AND rs.user_id = r.user_id)"
            " FROM season_ratings r WHERE r.season_id = ? AND r.game = ?"
            " ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.user_id LIMIT ? OFFSET ?",
            (guild_id, start_seq, end_seq, end_seq, season_id, game, limit, offset),
        )
        return leaderboard_page(guild_id, game, counted[0], offset, limit, rows)


# ----- inside the writer's transaction ----------------------------------------------------------


def _max_seq(connection: sqlite3.Connection) -> int:
    return int(connection.execute("SELECT COALESCE(MAX(seq), 0) FROM results").fetchone()[0])


def _current(connection: sqlite3.Connection, guild_id: str) -> Season | None:
    row = connection.execute(
        f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
    ).fetchone()
    return None if row is None else _season(row)


def _plan(connection: sqlite3.Connection, guild_id: str) -> SeasonPlan:
    row = connection.execute(
        "SELECT guild_id, cadence, carry, channel_id FROM season_plans WHERE guild_id = ?", (guild_id,)
    ).fetchone()
    if row is None:
        return SeasonPlan(guild_id=guild_id, cadence=MANUAL, carry="continue")
    return from_row(SeasonPlan, ("guild_id", "cadence", "carry", "channel_id"), row)


def _end(connection: sqlite3.Connection, season_id: int, at: float) -> None:
    connection.execute(
        "UPDATE seasons SET ended_at = ?, end_seq = ? WHERE id = ?", (at, _max_seq(connection), season_id)
    )


def _open(connection: sqlite3.Connection, plan: SeasonPlan, start: float) -> Season:
    number = int(
        connection.execute(
            "SELECT COALESCE(MAX(number), 0) + 1 FROM seasons WHERE guild_id = ?", (plan.guild_id,)
        ).fetchone()[0]
    )
    ends_at = None if plan.cadence == MANUAL else next_boundary(plan.cadence, start)
    connection.execute(
        "INSERT INTO seasons (guild_id, number, name, started_at, ends_at, start_seq, carry, channel_id)"
        " VALUES (?,?,?,?,?,?,?,?)",
        (
            plan.guild_id,
            number,
            season_name(number, plan.cadence, start),
            start,
            ends_at,
            _max_seq(connection),
            plan.carry,
            plan.channel_id,
        ),
    )
    season = _current(connection, plan.guild_id)
    assert season is not None
    return season


def roll_over(connection: sqlite3.Connection, guild_id: str | None, now: float) -> list[int]:
    """End the seasons (of one server, or all) whose boundary is at or before ``now``, each at its
    boundary, and open the next at the latest boundary not after ``now``: after a downtime of
    several periods the empty ones in between are not opened. Returns the ids ended."""
    rows = connection.execute(
        "SELECT id, guild_id, ends_at FROM seasons INDEXED BY seasons_due"
        " WHERE ended_at IS NULL AND ends_at IS NOT NULL AND ends_at <= ?"
        + ("" if guild_id is None else " AND guild_id = ?"),
        (now,) if guild_id is None else (now, guild_id),
    ).fetchall()
    for season_id, guild, boundary in rows:
        _end(connection, season_id, boundary)
        plan = _plan(connection, guild)
        if plan.cadence != MANUAL:
            _open(connection, plan, max(boundary, period_start(plan.cadence, now)))
    return [row[0] for row in rows]


def _set_plan(connection: sqlite3.Connection, plan: SeasonPlan, now: float) -> Season:
    roll_over(connection, plan.guild_id, now)
    connection.execute(
        "INSERT INTO season_plans (guild_id, cadence, carry, channel_id) VALUES (?,?,?,?)"
        " ON CONFLICT (guild_id) DO UPDATE SET cadence = excluded.cadence, carry = excluded.carry,"
        " channel_id = excluded.channel_id",
        (plan.guild_id, plan.cadence, plan.carry, plan.channel_id),
    )
    current = _current(connection, plan.guild_id)
    if current is None:
        return _open(connection, plan, now)
    ends_at = None if plan.cadence == MANUAL else next_boundary(plan.cadence, now)
    connection.execute(
        "UPDATE seasons SET ends_at = ?, channel_id = ? WHERE id = ?", (ends_at, plan.channel_id, current.id)
    )
    season = _current(connection, plan.guild_id)
    assert season is not None
    return season


def _start_season(connection: sqlite3.Connection, plan: SeasonPlan, now: float) -> Season:
    roll_over(connection, plan.guild_id, now)
    stored = _plan(connection, plan.guild_id)
    connection.execute(
        "INSERT INTO season_plans (guild_id, cadence, carry, channel_id) VALUES (?,?,?,?)"
        " ON CONFLICT (guild_id) DO UPDATE SET carry = excluded.carry, channel_id = excluded.channel_id",
        (plan.guild_id, stored.cadence, plan.carry, plan.channel_id),
    )
    current = _current(connection, plan.guild_id)
    if current is not None:
        _end(connection, current.id, now)
    return _open(connection, _plan(connection, plan.guild_id), now)


def season_of(connection: sqlite3.Connection, guild_id: str, seq: int) -> Season | None:
    """The season of a server holding the result numbered ``seq``."""
    row = connection.execute(
        f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND start_seq < ?"
        " AND (end_seq IS NULL OR end_seq >= ?)",
        (guild_id, seq, seq),
    ).fetchone()
    return None if row is None else _season(row)


def _entry_rating(
    connection: sqlite3.Connection,
    season: Season,
    game: str,
    user_id: str,
    all_time: Rating | None,
    initial: Rating,
) -> Rating:
    """A player's rating as they enter ``season``: from the latest earlier season they played in,
    else their all-time rating (before this game), carried as the season says."""
    row = connection.execute(
        "SELECT sr.mu, sr.sigma FROM season_ratings sr JOIN seasons s ON s.id = sr.season_id"
        " WHERE s.guild_id = ? AND s.number < ? AND sr.game = ? AND sr.user_id = ?"
        " ORDER BY s.number DESC LIMIT 1",
        (season.guild_id, season.number, game, user_id),
    ).fetchone()
    base = Rating(row[0], row[1]) if row is not None else all_time
    return initial if base is None else carried_rating(base, season.carry, initial)


def rate_in_season(
    connection: sqlite3.Connection,
    season: Season,
    game: str,
    players: list[ResultSeat],
    all_time: dict[str, Rating],
    at: float,
    model: Any | None = None,
) -> list[RatingChange]:
    """Rate one finished game in its season's pool (inside the result's transaction); ``all_time``:
    the players' all-time ratings before the game. Returns the season's rating changes."""
    user_ids = [seat.user_id or "" for seat in players]
    rows = connection.execute(
        f"SELECT user_id, mu, sigma, games FROM season_ratings WHERE season_id = ? AND game = ?"
        f" AND user_id IN ({','.join('?' * len(user_ids))})",
        (season.id, game, *user_ids),
    ).fetchall()
    games = {row[0]: row[3] for row in rows}
    initial = rating_model.initial_rating(model)
    before = {row[0]: Rating(row[1], row[2]) for row in rows}
    for user_id in user_ids:
        if user_id not in before:
            before[user_id] = _entry_rating(connection, season, game, user_id, all_time.get(user_id), initial)
    changes = season_changes(season, game, players, before, games, model)
    connection.executemany(
        "INSERT INTO season_ratings (season_id, game, user_id, name, mu, sigma, games, wins, updated_at)"
        " VALUES (?,?,?,?,?,?,1,?,?) ON CONFLICT (season_id, game, user_id) DO UPDATE SET"
        " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, games = games + 1,"
        " wins = wins + excluded.wins, updated_at = excluded.updated_at",
        season_rating_rows(season, game, changes, at),
    )
    return changes


def season_changes(
    season: Season,
    game: str,
    players: list[ResultSeat],
    before: dict[str, Rating],
    games: dict[str, int],
    model: Any | None,
) -> list[RatingChange]:
    """The season's rating changes of one game, from each player's rating as they enter it
    (``before``) and their games in the season so far: alike on SQLite and PostgreSQL."""
    rated = [RatedSeat(user_id=seat.user_id or "", rank=seat.rank, team=seat.team) for seat in players]
    after = rating_model.rate_game(rated, before, model)
    return [
        RatingChange(
            user_id=seat.user_id or "",
            name=seat.name,
            guild_id=season.guild_id,
            game=game,
            before=before[seat.user_id or ""],
            after=after[seat.user_id or ""],
            rank=seat.rank,
            games=games.get(seat.user_id or "", 0) + 1,
            season=season.name,
        )
        for seat in players
    ]


def season_rating_rows(
    season: Season, game: str, changes: list[RatingChange], at: float
) -> list[tuple[Any, ...]]:
    """The season_ratings upsert's rows: (season, game, user, name, mu, sigma, won, at)."""
    return [
        (season.id, game, c.user_id, c.name, c.after.mu, c.after.sigma, int(c.rank == 1), at) for c in changes
    ]
