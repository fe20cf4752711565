"""Forgetting a player on SQLite (engine/referee/forget.py says what goes and why): a mixin of
SqliteStore. Every column that names a player is listed here, once; a new table that stores a
user id or a player's name must be added (tests/referee/test_forget.py scans every table)."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from .writer import Call, Work

# Deleted outright: what only serves the player themself.
PLAYER_ROWS = (("user_flags", "user_id"), ("user_settings", "user_id"), ("vacations", "user_id"))
# Rewritten to the stand-in: what other players' games, rankings and histories rest on.
# (table, the user id's column, the player's name column or None)
PLAYER_COLUMNS = (
    ("seats", "user_id", "name"),
    ("result_seats", "user_id", "name"),
    ("ratings", "user_id", "name"),
    ("season_ratings", "user_id", "name"),
    ("rating_events", "user_id", None),
    ("games", "host", None),
)


class ForgetRows:
    """Mixed into SqliteStore: ``_commit_in_group`` is its own."""

    _commit_in_group: Callable[[Work], Awaitable[Any]]

    async def new_former_player(self, now: float) -> int:
        return int(await self._commit_in_group(Call(_new_number, now)))

    async def forget_rows(self, user_id: str, stand_in: str, name: str) -> list[int]:
        return list(await self._commit_in_group(Call(_forget, user_id, stand_in, name)))


def _new_number(connection: sqlite3.Connection, now: float) -> int:
    cursor = connection.execute("INSERT INTO former_players (forgotten_at) VALUES (?)", (now,))
    return int(cursor.lastrowid or 0)


def _forget(connection: sqlite3.Connection, user_id: str, stand_in: str, name: str) -> list[int]:
    tables = {
        row[0]
        for row in connection.execute(
            "SELECT game_id FROM seats WHERE user_id = ?1 UNION SELECT id FROM games WHERE host = ?1",
            (user_id,),
        )
    }
    # Every table rewritten below is written as any write is, its revision raised: another
    # process's cached copy (its host, its seats) can no longer be written over it.
    connection.execute(
        "UPDATE games SET revision = revision + 1 WHERE host = ?1 OR id IN (SELECT game_id FROM seats WHERE user_id = ?1)",
        (user_id,),
    )
    # Lobbies they host without a seat (the referee's rooms handled those where they sit): the
    # first person seated hosts them now; with nobody seated they are cancelled.
    person = "SELECT s.user_id FROM seats s WHERE s.game_id = games.id AND s.user_id IS NOT NULL AND s.ai_kind IS NULL"
    connection.execute(
        f"UPDATE games SET host = ({person} ORDER BY s.seat LIMIT 1) WHERE host = ? AND status = 'lobby'"
        f" AND EXISTS ({person})",
        (user_id,),
    )
    connection.execute(
        "UPDATE games SET status = 'abandoned' WHERE host = ? AND status = 'lobby'", (user_id,)
    )
    for table, column in PLAYER_ROWS:
        connection.execute(f"DELETE FROM {table} WHERE {column} = ?", (user_id,))
    for table, column, name_column in PLAYER_COLUMNS:
        if name_column is None:
            connection.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (stand_in, user_id))
        else:
            connection.execute(
                f"UPDATE {table} SET {column} = ?, {name_column} = ? WHERE {column} = ?",
                (stand_in, name, user_id),
            )
    return sorted(tables)
