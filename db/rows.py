"""The rows of the store: the columns that mirror the referee's records and the conversions
between them and Python values, shared by the query modules (tables, clocks, results, users).

Nothing here is SQLite's own: a second backend (PostgreSQL) can use these column lists and
conversions as they are."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, TypeVar

import msgspec

from engine.core import Outcome, RecordedMove
from engine.referee import ratings as rating_model
from engine.referee import reports
from engine.referee.clock import QuietHours, SeatClock, Vacation
from engine.referee.model import GameResult, RatingChange, ResultSeat, Seat, Table, TimedSeat
from engine.referee.ratings import RatedSeat

# The columns of ``games`` that mirror Table fields, in one place for INSERT, UPDATE and SELECT.
TABLE_FIELDS = (
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
    "rules_version",
    "abandon_rule",
    "abandon_votes",
    "rematch_of",
    "revision",
)
# The fields stored as JSON text; every other field is stored as it is.
JSON_FIELDS = frozenset({"options", "abandon_votes"})
# Those an UPDATE rewrites: a table never changes its game, and its revision is raised by the
# store itself (``revision = revision + 1``, compare-and-swapped with the version).
UPDATED_FIELDS = tuple(field for field in TABLE_FIELDS if field not in ("game", "revision"))
TABLE_COLUMNS = "id, " + ", ".join(TABLE_FIELDS)
SEAT_COLUMNS = "seat, name, user_id, ai_kind, waiting_since, clock, absent_since, skips, forfeited, ai_played, next_due_at"
RESULT_COLUMNS = "game_id, game, guild_id, speed, rated, board, finished_at, outcome"
# The columns of ``result_seats`` are ResultSeat's fields, by the same names.
RESULT_SEAT_FIELDS = (
    "seat", "name", "user_id", "is_ai", "score", "game_rank", "rank", "team", "forfeited", "ai_played"
)
RESULT_SEAT_COLUMNS = ", ".join(RESULT_SEAT_FIELDS)
# RESULT_COLUMNS as GameResult's fields (``game_id`` is its ``table_id``).
RESULT_FIELDS = ("table_id", "game", "guild_id", "speed", "rated", "board", "finished_at", "outcome")
# The columns a player's recent result is read from, as RecentResult's fields.
RECENT_FIELDS = (
    "table_id", "game", "guild_id", "finished_at", "rank", "players", "score", "forfeited", "rated", "board",
    "rating_change",
)

R = TypeVar("R")

# Ids bound in one IN list at most: SQLite refuses more than 32,766 parameters in a statement.
IN_LIST_LIMIT = 10_000
# Rows per multi-row statement: SQLite binds at most 32,766 values in one statement.
ROWS_PER_STATEMENT = 1_000


def placeholders(rows: list[tuple[Any, ...]]) -> str:
    """``(?,?),(?,?)...``: one group of marks per row."""
    row = "(" + ",".join("?" * len(rows[0])) + ")"
    return ",".join([row] * len(rows))


def chunks(rows: list[tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
    return [rows[start : start + ROWS_PER_STATEMENT] for start in range(0, len(rows), ROWS_PER_STATEMENT)]


def to_json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def updated_values(table: Table) -> list[Any]:
    """The values of UPDATED_FIELDS, in that order."""
    return [to_json(getattr(table, field)) if field in JSON_FIELDS else getattr(table, field) for field in UPDATED_FIELDS]


def table_values(table: Table) -> list[Any]:
    return [to_json(getattr(table, field)) if field in JSON_FIELDS else getattr(table, field) for field in TABLE_FIELDS]


def from_row(cls: type[R], fields: Sequence[str], row: Sequence[Any], **more: Any) -> R:
    """A record (a msgspec Struct) from a row whose columns are its ``fields`` in that order, plus
    the values in ``more``; SQLite's 0 and 1 become the record's booleans, every other value is
    kept as it is."""
    flags = _flags(cls)
    values = {name: bool(value) if name in flags else value for name, value in zip(fields, row, strict=True)}
    return cls(**values, **more)


@functools.cache
def _flags(cls: type[Any]) -> frozenset[str]:
    """The boolean fields of a record."""
    return frozenset(field.name for field in msgspec.structs.fields(cls) if field.type is bool)


def table_from_row(row: Any) -> Table:
    fields = dict(zip(TABLE_FIELDS, row[1:], strict=True))
    for field in JSON_FIELDS:
        fields[field] = msgspec.json.decode(fields[field])
    fields["needs_resume"] = bool(fields["needs_resume"])
    return Table(id=row[0], **fields)


def result_seat_rows(result: GameResult) -> list[tuple[Any, ...]]:
    """The ``result_seats`` rows of a result, in ``game_id, RESULT_SEAT_COLUMNS`` order (both stores)."""
    return [
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
    ]


def rating_pool(guild_id: str | None) -> str:
    """The rating pool of a server; tables outside any server share the pool ''."""
    return guild_id or ""


def where_clause(*conditions: tuple[str, Any]) -> tuple[str, list[Any]]:
    """A WHERE clause from (sql, value) pairs, skipping those whose value is None."""
    used = [(sql, value) for sql, value in conditions if value is not None]
    if not used:
        return "", []
    return " WHERE " + " AND ".join(sql for sql, _ in used), [value for _, value in used]


def seat_values(seat: Seat) -> tuple[Any, ...]:
    return (
        seat.index,
        seat.name,
        seat.user_id,
        seat.ai_kind,
        seat.waiting_since,
        None if seat.clock is None else to_json(seat.clock),
        seat.absent_since,
        seat.skips,
        int(seat.forfeited),
        int(seat.ai_played),
        seat.next_due_at,
    )


def seat_from_row(row: Any) -> Seat:
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


def result_seat_from_row(row: Any) -> ResultSeat:
    return from_row(ResultSeat, RESULT_SEAT_FIELDS, row)


def result_from_row(row: Any, seats: list[ResultSeat]) -> GameResult:
    outcome = msgspec.json.decode(row[-1], type=Outcome)
    return from_row(GameResult, RESULT_FIELDS[:-1], row[:-1], outcome=outcome, seats=seats)


def timed_seat_from_row(row: Sequence[Any]) -> TimedSeat:
    """A seat of a running timed table from (table id, version, speed, the player's time zone and
    quiet hours, their latest vacation's start and end, SEAT_COLUMNS)."""
    return TimedSeat(
        table_id=row[0],
        version=row[1],
        speed=row[2],
        quiet=None if row[3] is None else QuietHours(time_zone=row[3], start_hour=row[4], end_hour=row[5]),
        vacation=None if row[6] is None else Vacation(started_at=row[6], until=row[7]),
        seat=seat_from_row(row[8:]),
    )


def clock_rows(seats: list[TimedSeat]) -> list[tuple[Any, ...]]:
    """(clock, absent since, next due at, table id, seat) of each timed seat: the rows of
    ``UPDATE seats SET clock = ?, absent_since = ?, next_due_at = ? WHERE game_id = ? AND seat = ?``."""
    return [
        (
            None if timed.seat.clock is None else to_json(timed.seat.clock),
            timed.seat.absent_since,
            timed.seat.next_due_at,
            timed.table_id,
            timed.seat.index,
        )
        for timed in seats
    ]


def rating_change_from_row(row: Sequence[Any]) -> RatingChange:
    """A stored rating update from (user, name, pool, game, mu and sigma before, mu and sigma
    after, rank, the player's rated games until then)."""
    return RatingChange(
        user_id=row[0],
        name=row[1],
        guild_id=row[2],
        game=row[3],
        before=rating_model.Rating(row[4], row[5]),
        after=rating_model.Rating(row[6], row[7]),
        rank=row[8],
        games=row[9],
    )


def seat_rows(seats: list[Seat]) -> list[tuple[Any, ...]]:
    return [seat_values(seat) for seat in seats]


class MoveRows:
    """One commit's rows: its game row's values (UPDATED_FIELDS, state, id, expected version and
    revision), its changed seats and its moves (each row starting with the game's id)."""

    __slots__ = ("game", "seats", "moves")

    def __init__(self, game: tuple[Any, ...], seats: list[tuple[Any, ...]], moves: list[tuple[Any, ...]]) -> None:
        self.game, self.seats, self.moves = game, seats, moves

    @property
    def table_id(self) -> int:
        return int(self.game[-3])


def move_rows(
    table: Table,
    expected_version: int,
    moves: Sequence[RecordedMove],
    state: bytes,
    changed_seats: Sequence[int] | None,
) -> MoveRows:
    """The rows a commit of ``moves`` writes (only the ``changed_seats``' when given), built on the
    event loop from a table the caller no longer changes."""
    seats = table.seats if changed_seats is None else [table.seats[index] for index in changed_seats]
    return MoveRows(
        (*updated_values(table), state, table.id, expected_version, table.revision),
        [(table.id, *row) for row in seat_rows(seats)],
        [
            (table.id, expected_version + offset, move.seat, move.move, table.updated_at)
            for offset, move in enumerate(moves)
        ],
    )


def leaderboard_page(
    guild_id: str | None, game: str, total: int, offset: int, limit: int, rows: Sequence[Sequence[Any]]
) -> reports.LeaderboardPage:
    """A leaderboard page from rows of (position, user id, name, mu, sigma, games, wins, best
    score): the all-time one and a season's are read alike."""
    return reports.LeaderboardPage(
        guild_id=guild_id,
        game=game,
        total=total,
        offset=offset,
        limit=limit,
        rows=[
            reports.LeaderboardRow(
                position=row[0],
                user_id=row[1],
                name=row[2],
                rating=rating_model.Rating(row[3], row[4]).ordinal,
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
# ----- rating a finished game: the same computation for every backend -----------------------------


def rated_players(seats: Sequence[ResultSeat]) -> list[ResultSeat]:
    """The seats a result rates: people, not AI seats."""
    return [seat for seat in seats if seat.user_id is not None and not seat.is_ai]


def rating_changes(
    players: list[ResultSeat], current: dict[str, tuple[Any, int]], scope: str, game: str, model: Any | None
) -> list[RatingChange]:
    """Each player's rating change from ``current`` ({user: (Rating, rated games)}; a player not
    in it starts from the model's initial rating)."""
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
    return changes


def rating_event_rows(table_id: int, changes: list[RatingChange], at: float) -> list[tuple[Any, ...]]:
    """``rating_events`` rows: (game_id, guild_id, game, user_id, rank, mu/sigma before and after, at)."""
    return [
        (table_id, c.guild_id, c.game, c.user_id, c.rank, c.before.mu, c.before.sigma, c.after.mu, c.after.sigma, at)
        for c in changes
    ]


def rating_rows(changes: list[RatingChange], at: float) -> list[tuple[Any, ...]]:
    """``ratings`` upsert rows: (guild_id, game, user_id, name, mu, sigma, wins, updated_at)."""
    return [(c.guild_id, c.game, c.user_id, c.name, c.after.mu, c.after.sigma, int(c.rank == 1), at) for c in changes]
