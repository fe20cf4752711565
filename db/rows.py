"""The rows of the store: the columns that mirror the referee's records and the conversions
between them and Python values, shared by the query modules (tables, clocks, results, users).

Nothing here is SQLite's own: a second backend (PostgreSQL) can use these column lists and
conversions as they are."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.core import Outcome
from engine.referee.clock import SeatClock
from engine.referee.model import GameResult, ResultSeat, Seat, Table

# The columns of ``games`` that mirror Table fields, in one place for INSERT, UPDATE and SELECT.
# ``options`` is stored as JSON text; every other field is stored as it is.
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
    "revision",
)
# Those an UPDATE rewrites: a table never changes its game, and its revision is raised by the
# store itself (``revision = revision + 1``, compare-and-swapped with the version).
UPDATED_FIELDS = tuple(field for field in TABLE_FIELDS if field not in ("game", "revision"))
TABLE_COLUMNS = "id, " + ", ".join(TABLE_FIELDS)
SEAT_COLUMNS = "seat, name, user_id, ai_kind, waiting_since, clock, absent_since, skips, forfeited, ai_played, next_due_at"
RESULT_COLUMNS = "game_id, game, guild_id, speed, rated, board, finished_at, outcome"
RESULT_SEAT_COLUMNS = "seat, name, user_id, is_ai, score, game_rank, rank, team, forfeited, ai_played"

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
    return [getattr(table, field) if field != "options" else to_json(table.options) for field in UPDATED_FIELDS]


def table_values(table: Table) -> list[Any]:
    return [to_json(table.options) if field == "options" else getattr(table, field) for field in TABLE_FIELDS]


def table_from_row(row: Any) -> Table:
    fields = dict(zip(TABLE_FIELDS, row[1:], strict=True))
    fields["options"] = msgspec.json.decode(fields["options"])
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


def result_from_row(row: Any, seats: list[ResultSeat]) -> GameResult:
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


def seat_rows(seats: list[Seat]) -> list[tuple[Any, ...]]:
    return [seat_values(seat) for seat in seats]
