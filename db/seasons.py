"""Seasons (engine/referee/seasons.py says what they are) on both backends: a mixin of
SqliteStore and PostgresStore whose reads and writes are plans (db/plans.py), and the plans
results.py runs inside a result's transaction (``roll_over`` before the result is numbered,
``rate_in_season`` with its ratings).

Several PostgreSQL processes may share the database: the seasons of one server change under a
lock of that server (``plans.lock``, taken by ``roll_over``, which a result of that server also
runs before it is numbered). A season ending therefore waits for the server's results under way,
and its ``end_seq`` (the highest result number then) holds every one of them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

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

from .plans import Plan, execute, execute_many, fetch, fetch_row, fetch_value, lock, marks, rows_of, statement
from .rows import from_row, leaderboard_page

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
_PLAN_FIELDS = ("guild_id", "cadence", "carry", "channel_id")


def _season(row: Sequence[Any]) -> Season:
    return from_row(Season, SEASON_FIELDS, (*row[:-1], bool(row[-1])))


class SeasonQueries:
    _read: Callable[[Plan[Any]], Awaitable[Any]]
    _write: Callable[[Plan[Any]], Awaitable[Any]]

    async def season_plan(self, guild_id: str) -> SeasonPlan | None:
        return await self._read(_stored_plan(guild_id))  # type: ignore[no-any-return]

    async def set_season_plan(self, plan: SeasonPlan, now: float) -> Season:
        return await self._write(_set_plan(plan, now))  # type: ignore[no-any-return]

    async def start_season(self, plan: SeasonPlan, now: float) -> Season:
        return await self._write(_start_season(plan, now))  # type: ignore[no-any-return]

    async def roll_over_seasons(self, now: float) -> list[int]:
        # Read first: every clock poll asks, and nearly always nothing is due (no write then).
        guilds = await self._read(
            rows_of(
                "SELECT DISTINCT guild_id FROM seasons INDEXED BY seasons_due WHERE ended_at IS NULL"
                " AND ends_at IS NOT NULL AND ends_at <= ?",
                now,
            )
        )
        ended: list[int] = []
        for (guild_id,) in guilds:  # one transaction a server: each under its server's lock
            ended += await self._write(roll_over(guild_id, now))
        return sorted(ended)

    async def seasons(self, guild_id: str) -> list[Season]:
        rows = await self._read(
            rows_of(f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY number DESC", guild_id)
        )
        return [_season(row) for row in rows]

    async def seasons_owed(self) -> list[Season]:
        rows = await self._read(
            rows_of(
                f"SELECT {SEASON_COLUMNS} FROM seasons INDEXED BY seasons_owed"
                " WHERE ended_at IS NOT NULL AND announced = 0 ORDER BY id"
            )
        )
        return [_season(row) for row in rows]

    async def mark_season_announced(self, season_id: int) -> None:
        await self._write(statement("UPDATE seasons SET announced = 1 WHERE id = ?", season_id))

    async def season_games(self, season_id: int) -> list[str]:
        rows = await self._read(
            rows_of(
                "SELECT game FROM season_ratings WHERE season_id = ? GROUP BY game ORDER BY SUM(games) DESC, game",
                season_id,
            )
        )
        return [row[0] for row in rows]

    async def season_leaderboard(
        self, season_id: int, game: str, *, offset: int = 0, limit: int = 10
    ) -> reports.LeaderboardPage:
        """Like the all-time leaderboard, over one season's pool and results."""
        return await self._read(_season_leaderboard(season_id, game, offset, limit))  # type: ignore[no-any-return]




def _season_leaderboard(season_id: int, game: str, offset: int, limit: int) -> Plan[reports.LeaderboardPage]:
    season = yield fetch_row("SELECT guild_id, start_seq, end_seq FROM seasons WHERE id = ?", season_id)
    assert season is not None
    guild_id, start_seq, end_seq = season
    total = yield fetch_value(
        "SELECT COUNT(*) FROM season_ratings WHERE season_id = ? AND game = ?", season_id, game
    )
    rows = yield fetch(
        "SELECT RANK() OVER (ORDER BY r.mu - 3 * r.sigma DESC), r.user_id, r.name, r.mu, r.sigma, r.games,"
        " r.wins,"
        " (SELECT MAX(rs.score) FROM result_seats rs JOIN results res ON res.game_id = rs.game_id"
        "  WHERE res.rated = 1 AND res.game = r.game AND res.guild_id = ? AND res.seq > ?"
        # The current season has no end yet (NULL): every later result is in it.
        "  AND res.seq <= COALESCE(?, res.seq) AND rs.user_id = r.user_id)"
        " FROM season_ratings r WHERE r.season_id = ? AND r.game = ?"
        " ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.user_id LIMIT ? OFFSET ?",
        guild_id,
        start_seq,
        end_seq,
        season_id,
        game,
        limit,
        offset,
    )
    return leaderboard_page(guild_id, game, total, offset, limit, rows)


# ----- inside a write's transaction ---------------------------------------------------------------


def _max_seq() -> Plan[int]:
    return int((yield fetch_value("SELECT COALESCE(MAX(seq), 0) FROM results")))


def _current(guild_id: str) -> Plan[Season | None]:
    row = yield fetch_row(f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND ended_at IS NULL", guild_id)
    return None if row is None else _season(row)


def _stored_plan(guild_id: str) -> Plan[SeasonPlan | None]:
    row = yield fetch_row(f"SELECT {', '.join(_PLAN_FIELDS)} FROM season_plans WHERE guild_id = ?", guild_id)
    return None if row is None else from_row(SeasonPlan, _PLAN_FIELDS, row)


def _plan(guild_id: str) -> Plan[SeasonPlan]:
    plan = yield from _stored_plan(guild_id)
    return SeasonPlan(guild_id=guild_id, cadence=MANUAL, carry="continue") if plan is None else plan


def _end(season_id: int, at: float) -> Plan[None]:
    end_seq = yield from _max_seq()
    yield execute("UPDATE seasons SET ended_at = ?, end_seq = ? WHERE id = ?", at, end_seq, season_id)


def _open(plan: SeasonPlan, start: float) -> Plan[Season]:
    number = int((yield fetch_value("SELECT COALESCE(MAX(number), 0) + 1 FROM seasons WHERE guild_id = ?", plan.guild_id)))
    ends_at = None if plan.cadence == MANUAL else next_boundary(plan.cadence, start)
    start_seq = yield from _max_seq()
    yield execute(
        "INSERT INTO seasons (guild_id, number, name, started_at, ends_at, start_seq, carry, channel_id)"
        " VALUES (?,?,?,?,?,?,?,?)",
        plan.guild_id,
        number,
        season_name(number, plan.cadence, start),
        start,
        ends_at,
        start_seq,
        plan.carry,
        plan.channel_id,
    )
    season = yield from _current(plan.guild_id)
    assert season is not None
    return season


def roll_over(guild_id: str, now: float) -> Plan[list[int]]:
    """End the server's season if its boundary is at or before ``now`` (at its boundary), and open
    the next at the latest boundary not after ``now``: after a downtime of several periods the
    empty ones in between are not opened. Returns the ids ended."""
    yield lock("seasons", guild_id)
    rows = yield fetch(
        "SELECT id, ends_at FROM seasons INDEXED BY seasons_due"
        " WHERE ended_at IS NULL AND ends_at IS NOT NULL AND ends_at <= ? AND guild_id = ?",
        now,
        guild_id,
    )
    for season_id, boundary in rows:
        yield from _end(season_id, boundary)
        plan = yield from _plan(guild_id)
        if plan.cadence != MANUAL:
            yield from _open(plan, max(boundary, period_start(plan.cadence, now)))
    return [row[0] for row in rows]


def _set_plan(plan: SeasonPlan, now: float) -> Plan[Season]:
    yield from roll_over(plan.guild_id, now)
    yield execute(
        "INSERT INTO season_plans (guild_id, cadence, carry, channel_id) VALUES (?,?,?,?)"
        " ON CONFLICT (guild_id) DO UPDATE SET cadence = excluded.cadence, carry = excluded.carry,"
        " channel_id = excluded.channel_id",
        plan.guild_id,
        plan.cadence,
        plan.carry,
        plan.channel_id,
    )
    current = yield from _current(plan.guild_id)
    if current is None:
        return (yield from _open(plan, now))
    ends_at = None if plan.cadence == MANUAL else next_boundary(plan.cadence, now)
    yield execute("UPDATE seasons SET ends_at = ?, channel_id = ? WHERE id = ?", ends_at, plan.channel_id, current.id)
    season = yield from _current(plan.guild_id)
    assert season is not None
    return season


def _start_season(plan: SeasonPlan, now: float) -> Plan[Season]:
    yield from roll_over(plan.guild_id, now)
    stored = yield from _plan(plan.guild_id)
    yield execute(
        "INSERT INTO season_plans (guild_id, cadence, carry, channel_id) VALUES (?,?,?,?)"
        " ON CONFLICT (guild_id) DO UPDATE SET carry = excluded.carry, channel_id = excluded.channel_id",
        plan.guild_id,
        stored.cadence,
        plan.carry,
        plan.channel_id,
    )
    current = yield from _current(plan.guild_id)
    if current is not None:
        yield from _end(current.id, now)
    return (yield from _open((yield from _plan(plan.guild_id)), now))


def season_of(guild_id: str, seq: int) -> Plan[Season | None]:
    """The season of a server holding the result numbered ``seq``."""
    row = yield fetch_row(
        f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND start_seq < ?"
        " AND (end_seq IS NULL OR end_seq >= ?)",
        guild_id,
        seq,
        seq,
    )
    return None if row is None else _season(row)


def _entry_rating(
    season: Season, game: str, user_id: str, all_time: Rating | None, initial: Rating
) -> Plan[Rating]:
    """A player's rating as they enter ``season``: from the latest earlier season they played in,
    else their all-time rating (before this game), carried as the season says."""
    row = yield fetch_row(
        "SELECT sr.mu, sr.sigma FROM season_ratings sr JOIN seasons s ON s.id = sr.season_id"
        " WHERE s.guild_id = ? AND s.number < ? AND sr.game = ? AND sr.user_id = ?"
        " ORDER BY s.number DESC LIMIT 1",
        season.guild_id,
        season.number,
        game,
        user_id,
    )
    base = Rating(row[0], row[1]) if row is not None else all_time
    return initial if base is None else carried_rating(base, season.carry, initial)


def rate_in_season(
    season: Season,
    game: str,
    players: list[ResultSeat],
    all_time: dict[str, Rating],
    at: float,
    model: Any | None = None,
) -> Plan[list[RatingChange]]:
    """Rate one finished game in its season's pool (inside the result's transaction, which holds
    the pool's lock); ``all_time``: the players' all-time ratings before the game. Returns the
    season's rating changes."""
    user_ids = [seat.user_id or "" for seat in players]
    rows = yield fetch(
        f"SELECT user_id, mu, sigma, games FROM season_ratings WHERE season_id = ? AND game = ?"
        f" AND user_id IN ({marks(len(user_ids))})",
        season.id,
        game,
        *user_ids,
    )
    games = {row[0]: row[3] for row in rows}
    initial = rating_model.initial_rating(model)
    before = {row[0]: Rating(row[1], row[2]) for row in rows}
    for user_id in user_ids:
        if user_id not in before:
            before[user_id] = yield from _entry_rating(season, game, user_id, all_time.get(user_id), initial)
    changes = season_changes(season, game, players, before, games, model)
    yield execute_many(
        "INSERT INTO season_ratings AS r (season_id, game, user_id, name, mu, sigma, games, wins, updated_at)"
        " VALUES (?,?,?,?,?,?,1,?,?) ON CONFLICT (season_id, game, user_id) DO UPDATE SET"
        " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, games = r.games + 1,"
        " wins = r.wins + excluded.wins, updated_at = excluded.updated_at",
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
    (``before``) and their games in the season so far."""
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
