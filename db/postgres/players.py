"""Forgetting a player, vacations and rematches on PostgreSQL: mixins of PostgresStore, doing
what db/forget.py and db/vacations.py do on SQLite (the columns that name a player are listed
once, in db/forget.py, for both)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import asyncpg

from engine.referee.clock import Vacation
from engine.referee.model import Table

from ..forget import PLAYER_COLUMNS, PLAYER_ROWS


class PgForget:
    _pool: asyncpg.Pool

    async def new_former_player(self, now: float) -> int:
        return int(
            await self._pool.fetchval(
                "INSERT INTO former_players (forgotten_at) VALUES ($1) RETURNING number", now
            )
        )

    async def forget_rows(self, user_id: str, stand_in: str, name: str) -> list[int]:
        """One transaction, as on SQLite: the player's own rows go, the rest name the stand-in."""
        async with self._pool.acquire() as connection, connection.transaction():
            rows = await connection.fetch(
                "SELECT game_id FROM seats WHERE user_id = $1 UNION SELECT id FROM games WHERE host = $1",
                user_id,
            )
            # Every table rewritten below has its revision raised, as any write (db/forget.py).
            await connection.execute(
                "UPDATE games SET revision = revision + 1 WHERE id = ANY($1::bigint[])", [row[0] for row in rows]
            )
            # Lobbies they host without a seat: the first person seated hosts them now; with
            # nobody seated they are cancelled (db/forget.py).
            person = (
                "SELECT s.user_id FROM seats s WHERE s.game_id = games.id AND s.user_id IS NOT NULL"
                " AND s.ai_kind IS NULL"
            )
            await connection.execute(
                f"UPDATE games SET host = ({person} ORDER BY s.seat LIMIT 1) WHERE host = $1 AND status = 'lobby'"
                f" AND EXISTS ({person})",
                user_id,
            )
            await connection.execute(
                "UPDATE games SET status = 'abandoned' WHERE host = $1 AND status = 'lobby'", user_id
            )
            for table, column in PLAYER_ROWS:
                await connection.execute(f"DELETE FROM {table} WHERE {column} = $1", user_id)
            for table, column, name_column in PLAYER_COLUMNS:
                if name_column is None:
                    await connection.execute(
                        f"UPDATE {table} SET {column} = $1 WHERE {column} = $2", stand_in, user_id
                    )
                else:
                    await connection.execute(
                        f"UPDATE {table} SET {column} = $1, {name_column} = $2 WHERE {column} = $3",
                        stand_in,
                        name,
                        user_id,
                    )
        return sorted({row[0] for row in rows})


class PgVacations:
    _pool: asyncpg.Pool
    load_table: Callable[[int], Awaitable[Table | None]]  # PgTables'

    async def vacations_of(self, user_ids: list[str]) -> dict[str, Vacation]:
        rows = await self._pool.fetch(
            "SELECT DISTINCT ON (user_id) user_id, started_at, until FROM vacations"
            " WHERE user_id = ANY($1::text[]) ORDER BY user_id, started_at DESC",
            user_ids,
        )
        return {r[0]: Vacation(started_at=r[1], until=r[2]) for r in rows}

    async def vacations_since(self, user_id: str, since: float) -> list[Vacation]:
        rows = await self._pool.fetch(
            "SELECT started_at, until FROM vacations WHERE user_id = $1 AND started_at >= $2 ORDER BY started_at",
            user_id,
            since,
        )
        return [Vacation(started_at=r[0], until=r[1]) for r in rows]

    async def save_vacation(self, user_id: str, vacation: Vacation) -> None:
        await self._pool.execute(
            "INSERT INTO vacations (user_id, started_at, until) VALUES ($1,$2,$3)"
            " ON CONFLICT (user_id, started_at) DO UPDATE SET until = excluded.until",
            user_id,
            vacation.started_at,
            vacation.until,
        )

    async def rematch_of(self, table_id: int) -> Table | None:
        found = await self._pool.fetchval(
            "SELECT id FROM games WHERE rematch_of = $1 AND status IN ('lobby', 'running') ORDER BY id DESC LIMIT 1",
            table_id,
        )
        return None if found is None else await self.load_table(found)
