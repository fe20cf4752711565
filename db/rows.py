"""The rows of the store: the columns that mirror the referee's records and the conversions
between them and Python values, shared by the query modules (tables, clocks, results, users).

Nothing here is SQLite's own: a second backend (PostgreSQL) can use these column lists and
conversions as they are."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, TypeVar

import msgspec

from engine.core import Outcome
from engine.referee import ratings as rating_model
from engine.referee import reports
from engine.referee.clock import SeatClock
from engine.referee.model import GameResult, ResultSeat, Seat, Table

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
)
# The fields stored as JSON text; every other field is stored as it is.
JSON_FIELDS = frozenset({"options", "abandon_votes"})
# Those an UPDATE rewrites: a table never changes its game.
UPDATED_FIELDS = tuple(field for field in TABLE_FIELDS if field != "game")
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
    return [value for field, value in zip(TABLE_FIELDS, table_values(table), strict=True) if field != "game"]


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


def seat_rows(seats: list[Seat]) -> list[tuple[Any, ...]]:
    return [seat_values(seat) for seat in seats]


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
