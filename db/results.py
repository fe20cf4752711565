"""Results, ratings, leaderboards, statistics and history (``ResultStore``) on both backends: a
mixin of SqliteStore and PostgresStore, whose reads and writes are plans (db/plans.py) each store
runs its own way. A game's result and its rating updates are written inside the move's
transaction (tables.py runs ``insert_result``).

Several PostgreSQL processes may record results of one rating pool at once, each reading the
players' current ratings and writing new ones: without care, the second would overwrite the
first's update. So the ratings of one pool (server and game) are changed under a lock of that pool
(``plans.lock``: PostgreSQL's advisory lock of the transaction; SQLite's one writer needs none),
taken before the result is numbered: the rating events of a pool are in the order they were
applied, which is the order of ``seq`` that ``rebuild_ratings`` replays."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from engine.referee import ratings as rating_model
from engine.referee import reports
from engine.referee.model import GameResult, RatingChange, ResultSeat, Table
from engine.referee.ratings import Rating

from . import seasons
from .plans import Plan, execute, execute_many, fetch, fetch_row, fetch_value, lock, marks, rows_of, value_of
from .rows import (
    RECENT_FIELDS,
    RESULT_COLUMNS,
    RESULT_SEAT_COLUMNS,
    from_row,
    leaderboard_page,
    rated_players,
    rating_change_from_row,
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

# The number of the next result: SQLite's one writer counts on; PostgreSQL's processes share a
# sequence (MAX + 1 would hand two of them the same number).
_NEXT_SEQ = "SELECT COALESCE(MAX(seq), 0) + 1 FROM results"
_NEXT_SEQ_PG = "SELECT nextval('results_seq')"


class ResultQueries:
    _read: Callable[[Plan[Any]], Awaitable[Any]]
    _write: Callable[[Plan[Any]], Awaitable[Any]]

    async def result(self, table_id: int) -> bytes | None:
        outcome = await self._read(value_of("SELECT outcome FROM results WHERE game_id = ?", table_id))
        return None if outcome is None else str(outcome).encode()

    async def rebuild_ratings(self, model: Any | None = None) -> int:
        """Recompute every rating from the stored results, in the order they were recorded, with
        ``model`` (default: the current one); rewrites the rating events. One transaction (on
        PostgreSQL it holds every pool's ratings: no result is rated meanwhile). Returns the
        number of rated games replayed."""
        return int(await self._write(_rebuild_ratings(model)))

    async def game_result(self, table_id: int) -> GameResult | None:
        return await self._read(_game_result(table_id))  # type: ignore[no-any-return]

    async def ratings(self, guild_id: str | None, game: str) -> dict[str, tuple[Rating, int, int]]:
        """{user_id: (rating, rated games, wins)} of one rating pool."""
        rows = await self._read(rows_of(_POOL_RATINGS, rating_pool(guild_id), game))
        return {row[0]: (Rating(row[1], row[2]), row[3], row[4]) for row in rows}

    async def rating_events(
        self, *, guild_id: str | None = None, game: str | None = None, user_id: str | None = None
    ) -> list[RatingChange]:
        """Stored rating updates in the order they were made (filters optional; guild None: all)."""
        where, values = where_clause(
            ("e.guild_id = ?", None if guild_id is None else rating_pool(guild_id)),
            ("e.game = ?", game),
            ("e.user_id = ?", user_id),
        )
        rows = await self._read(
            rows_of(
                "SELECT e.user_id, COALESCE((SELECT rs.name FROM result_seats rs WHERE rs.game_id = e.game_id"
                " AND rs.user_id = e.user_id), ''), e.guild_id, e.game, e.mu_before, e.sigma_before, e.mu_after,"
                " e.sigma_after, e.rank,"
                " (SELECT COUNT(*) FROM rating_events p WHERE p.guild_id = e.guild_id AND p.game = e.game"
                "  AND p.user_id = e.user_id AND p.id <= e.id)"
                f" FROM rating_events e{where} ORDER BY e.id",
                *values,
            )
        )
        return [rating_change_from_row(row) for row in rows]

    async def leaderboard(
        self, guild_id: str | None, game: str, *, offset: int = 0, limit: int = 10
    ) -> reports.LeaderboardPage:
        """Rated players of one pool by rating (mu - 3 sigma); equal ratings share a position.
        Ratings are per server: ``guild_id=None`` (or ``""``) is the pool of tables outside any."""
        return await self._read(_leaderboard(guild_id, game, offset, limit))  # type: ignore[no-any-return]

    async def high_scores(
        self, guild_id: str | None, game: str, board: str, *, limit: int = 10
    ) -> list[reports.HighScore]:
        """Best human scores of one server's board (``solo`` or ``with_ai``; a higher score is better;
        ``guild_id=None``: tables outside any server, like the leaderboard)."""
        rows = await self._read(
            rows_of(
                "SELECT RANK() OVER (ORDER BY rs.score DESC), rs.user_id, rs.name, rs.score, res.game_id,"
                " res.finished_at FROM result_seats rs JOIN results res ON res.game_id = rs.game_id"
                " WHERE COALESCE(res.guild_id, '') = ? AND res.game = ? AND res.board = ? AND rs.is_ai = 0"
                " AND rs.user_id IS NOT NULL ORDER BY rs.score DESC, res.seq LIMIT ?",
                rating_pool(guild_id),
                game,
                board,
                limit,
            )
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
        games, latest = await self._read(_player_stats(user_id, guild_id, recent))
        if guild_id is not None:
            for stats in games:
                pool = await self.ratings(guild_id, stats.game)
                if user_id in pool:
                    rating, rated_games, _ = pool[user_id]
                    stats.rating, stats.mu, stats.sigma = rating.ordinal, rating.mu, rating.sigma
                    stats.rated_games = rated_games
                    stats.provisional = rating_model.is_provisional(rated_games)
        return reports.PlayerStats(user_id=user_id, guild_id=guild_id, games=games, recent=latest)

    async def history(
        self, guild_id: str | None = None, *, game: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[GameResult]:
        """Finished games, latest first, with every seat (``guild_id=None``: every server; ``""``:
        tables outside any server)."""
        return await self._read(_history(guild_id, game, limit, offset))  # type: ignore[no-any-return]


_POOL_RATINGS = "SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ?"




def _result_seats(table_id: int) -> Plan[list[ResultSeat]]:
    rows = yield fetch(
        f"SELECT {RESULT_SEAT_COLUMNS} FROM result_seats WHERE game_id = ? ORDER BY seat", table_id
    )
    return [result_seat_from_row(row) for row in rows]


def _game_result(table_id: int) -> Plan[GameResult | None]:
    row = yield fetch_row(f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ?", table_id)
    if row is None:
        return None
    return result_from_row(row, (yield from _result_seats(table_id)))


def _leaderboard(guild_id: str | None, game: str, offset: int, limit: int) -> Plan[reports.LeaderboardPage]:
    scope = rating_pool(guild_id)
    total = yield fetch_value("SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", scope, game)
    rows = yield fetch(
        "SELECT RANK() OVER (ORDER BY r.mu - 3 * r.sigma DESC) AS position, r.user_id, r.name,"
        " r.mu, r.sigma, r.games, r.wins,"
        " (SELECT MAX(rs.score) FROM result_seats rs JOIN results res ON res.game_id = rs.game_id"
        "  WHERE res.rated = 1 AND res.game = r.game AND COALESCE(res.guild_id, '') = r.guild_id"
        "  AND rs.user_id = r.user_id)"
        " FROM ratings r WHERE r.guild_id = ? AND r.game = ?"
        " ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.user_id LIMIT ? OFFSET ?",
        scope,
        game,
        limit,
        offset,
    )
    return leaderboard_page(guild_id, game, total, offset, limit, rows)


def _player_stats(
    user_id: str, guild_id: str | None, recent: int
) -> Plan[tuple[list[reports.GameStats], list[reports.RecentResult]]]:
    where, values = where_clause(("rs.user_id = ?", user_id), ("COALESCE(res.guild_id, '') = ?", guild_id))
    # A game of one seat has no winner (Draft Cider solo, for one): a score, not a win.
    rows = yield fetch(
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
        reports.GameStats(game=r[0], games=r[1], wins=r[2], average_score=r[3], best_score=r[4], forfeits=r[5])
        for r in rows
    ]
    rows = yield fetch(
        "SELECT res.game_id, res.game, res.guild_id, res.finished_at, rs.rank,"
        " (SELECT COUNT(*) FROM result_seats o WHERE o.game_id = res.game_id), rs.score, rs.forfeited,"
        " res.rated, res.board,"
        " (SELECT (e.mu_after - 3 * e.sigma_after) - (e.mu_before - 3 * e.sigma_before) FROM rating_events e"
        "  WHERE e.game_id = res.game_id AND e.user_id = rs.user_id)"
        f" FROM result_seats rs JOIN results res ON res.game_id = rs.game_id{where} AND rs.is_ai = 0"
        " ORDER BY res.seq DESC LIMIT ?",
        *values,
        recent,
    )
    return games, [from_row(reports.RecentResult, RECENT_FIELDS, row) for row in rows]


def _history(guild_id: str | None, game: str | None, limit: int, offset: int) -> Plan[list[GameResult]]:
    where, values = where_clause(("COALESCE(guild_id, '') = ?", guild_id), ("game = ?", game))
    rows = yield fetch(
        f"SELECT {RESULT_COLUMNS} FROM results{where} ORDER BY seq DESC LIMIT ? OFFSET ?", *values, limit, offset
    )
    results = []
    for row in rows:
        results.append(result_from_row(row, (yield from _result_seats(row[0]))))
    return results


# ----- inside the move's transaction --------------------------------------------------------------


def insert_bare_result(table: Table, outcome: bytes) -> Plan[None]:
    """A result without seat details (callers that predate GameResult)."""
    seq = yield fetch_value(_NEXT_SEQ, postgresql=_NEXT_SEQ_PG)
    yield execute(
        "INSERT INTO results (game_id, outcome, finished_at, seq, game, guild_id, speed) VALUES (?,?,?,?,?,?,?)"
        " ON CONFLICT (game_id) DO UPDATE SET outcome = excluded.outcome, finished_at = excluded.finished_at,"
        " seq = excluded.seq, game = excluded.game, guild_id = excluded.guild_id, speed = excluded.speed",
        table.id,
        outcome.decode(),
        table.updated_at,
        seq,
        table.game,
        table.guild_id,
        table.speed,
    )


def insert_result(result: GameResult) -> Plan[list[RatingChange]]:
    if result.rated:
        yield lock("ratings", rating_pool(result.guild_id), result.game)
    if result.guild_id is not None:  # a season whose boundary has passed ends before this result
        yield from seasons.roll_over(result.guild_id, result.finished_at)
    seq = yield fetch_value(_NEXT_SEQ, postgresql=_NEXT_SEQ_PG)
    yield execute(
        "INSERT INTO results (game_id, outcome, finished_at, seq, game, guild_id, speed, rated, board,"
        " forfeits, ai_played) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
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
    )
    yield execute_many(
        f"INSERT INTO result_seats (game_id, {RESULT_SEAT_COLUMNS}) VALUES ({marks(11)})", result_seat_rows(result)
    )
    if not result.rated:
        return []
    return (
        yield from _apply_ratings(
            result.table_id, result.guild_id, result.game, result.seats, result.finished_at, seq
        )
    )


def _apply_ratings(
    table_id: int,
    guild_id: str | None,
    game: str,
    seats: list[ResultSeat],
    at: float,
    seq: int,
    model: Any | None = None,
) -> Plan[list[RatingChange]]:
    """Rate one finished game inside the caller's transaction (which holds the pool's lock): read
    the current ratings, write one event per player and the new ratings; and the same in the pool
    of its season, if its server has one (db/seasons.py). Used alike by game end and by rebuilds.
    Returns the season's changes when there is a season, else the all-time ones."""
    scope = rating_pool(guild_id)
    players = rated_players(seats)
    user_ids = [seat.user_id for seat in players]
    current: dict[str, tuple[Rating, int]] = {}
    if user_ids:
        rows = yield fetch(
            f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND game = ?"
            f" AND user_id IN ({marks(len(user_ids))})",
            scope,
            game,
            *user_ids,
        )
        for user_id, mu, sigma, games in rows:
            current[user_id] = (Rating(mu, sigma), games)
    changes = rating_changes(players, current, scope, game, model)
    yield execute_many(
        "INSERT INTO rating_events (game_id, guild_id, game, user_id, rank, mu_before, sigma_before,"
        " mu_after, sigma_after, at) VALUES (?,?,?,?,?,?,?,?,?,?)",
        rating_event_rows(table_id, changes, at),
    )
    yield execute_many(
        "INSERT INTO ratings AS r (guild_id, game, user_id, name, mu, sigma, games, wins, updated_at)"
        " VALUES (?,?,?,?,?,?,1,?,?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
        " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, games = r.games + 1,"
        " wins = r.wins + excluded.wins, updated_at = excluded.updated_at",
        rating_rows(changes, at),
    )
    season = (yield from seasons.season_of(guild_id, seq)) if guild_id is not None and players else None
    if season is None:
        return changes
    all_time = {user: rating for user, (rating, _) in current.items()}
    return (yield from seasons.rate_in_season(season, game, players, all_time, at, model))


def _rebuild_ratings(model: Any | None) -> Plan[int]:
    yield execute("", postgresql="LOCK TABLE ratings, rating_events, season_ratings IN EXCLUSIVE MODE")
    yield execute("DELETE FROM ratings")
    yield execute("DELETE FROM rating_events")
    yield execute("DELETE FROM season_ratings")
    games = yield fetch("SELECT game_id, guild_id, game, finished_at, seq FROM results WHERE rated = 1 ORDER BY seq")
    for table_id, guild_id, game, finished_at, seq in games:
        seats = yield from _result_seats(table_id)
        yield from _apply_ratings(table_id, guild_id, game, seats, finished_at, seq, model)
    return len(games)
