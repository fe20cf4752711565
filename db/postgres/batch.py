"""Group commit on PostgreSQL: the plain moves that arrive while others are on their way to the
server go together, in one statement and one transaction (one WAL flush), as the SQLite store's
group writer does (db/writer.py).

One statement for a whole group: the rows of every move as arrays, ``UPDATE games ... FROM`` them
where each game is still at its expected version (the compare-and-swap, game by game), then the
seats and the moves of the games that matched only. It answers the ids that matched; a move whose
game had moved on gets VersionConflict, the others are committed. Should the statement itself fail
(a deadlock between two processes' groups, a constraint), each move of the group is committed on
its own (``single``), so that one move never takes the others down."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

from ..rows import SEAT_COLUMNS, UPDATED_FIELDS, MoveRows
from ..tables import _SEATS_ON_CONFLICT

# The types of UPDATED_FIELDS, then of the state, the id, the expected version and revision.
_GAME_TYPES = {
    "options": "text", "host": "text", "status": "text", "seed": "int8", "version": "int4",
    "guild_id": "text", "channel_id": "text", "thread_id": "text", "message_id": "text",
    "created_at": "float8", "updated_at": "float8", "speed": "text", "needs_resume": "int4",
    "rules_version": "int4", "abandon_rule": "text", "abandon_votes": "text", "rematch_of": "int8",
}  # fmt: skip
_GAME_COLUMNS = [*UPDATED_FIELDS, "state", "id", "expected", "expected_revision"]
_GAME_KINDS = [*(_GAME_TYPES[field] for field in UPDATED_FIELDS), "bytea", "int8", "int4", "int4"]
_SEAT_NAMES = ["game_id", *(column.strip() for column in SEAT_COLUMNS.split(","))]
_SEAT_KINDS = ["int8", "int4", "text", "text", "text", "float8", "text", "float8", "int4", "int4", "int4", "float8"]
_MOVE_NAMES = ["game_id", "n", "seat", "move", "at"]
_MOVE_KINDS = ["int8", "int4", "int4", "text", "float8"]


def _unnest(names: list[str], kinds: list[str], first: int, alias: str) -> str:
    arrays = ", ".join(f"${first + offset}::{kind}[]" for offset, kind in enumerate(kinds))
    return f"unnest({arrays}) AS {alias}({', '.join(names)})"


_SEATS_FROM = 1 + len(_GAME_KINDS)
_MOVES_FROM = _SEATS_FROM + len(_SEAT_KINDS)
GROUP_SQL = (
    f"WITH v AS (SELECT * FROM {_unnest(_GAME_COLUMNS, _GAME_KINDS, 1, 'v')}),"
    " g AS (UPDATE games SET "
    + ", ".join(f"{name} = v.{name}" for name in [*UPDATED_FIELDS, "state"])
    + ", revision = games.revision + 1 FROM v WHERE games.id = v.id AND games.version = v.expected"
    " AND games.revision = v.expected_revision RETURNING games.id),"
    f" s AS (INSERT INTO seats ({', '.join(_SEAT_NAMES)}) SELECT x.* FROM"
    f" {_unnest(_SEAT_NAMES, _SEAT_KINDS, _SEATS_FROM, 'x')} JOIN g ON g.id = x.game_id{_SEATS_ON_CONFLICT}),"
    f" m AS (INSERT INTO moves ({', '.join(_MOVE_NAMES)}) SELECT x.* FROM"
    f" {_unnest(_MOVE_NAMES, _MOVE_KINDS, _MOVES_FROM, 'x')} JOIN g ON g.id = x.game_id)"
    " SELECT id FROM g"
)


def _columns(rows: list[tuple[Any, ...]], width: int) -> list[list[Any]]:
    return [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in range(width)]


class GroupCommitter:
    """Sends plain moves to the server in groups. At most ``in_flight`` groups are on their way at
    once (each holds a pooled connection until its commit is flushed); the moves that arrive
    meanwhile wait and go together in the next group."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        single: Callable[[MoveRows], Awaitable[bool]],
        *,
        in_flight: int = 4,
        largest: int = 500,
    ) -> None:
        self._pool = pool
        self._single = single
        self._in_flight = in_flight
        self._largest = largest
        self._sending = 0
        self._waiting: list[tuple[MoveRows, asyncio.Future[bool]]] = []

    async def commit(self, move: MoveRows) -> bool:
        """True once committed; False if its game was no longer at the expected version."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((move, future))
        if self._sending < self._in_flight:
            self._sending += 1
            asyncio.get_running_loop().create_task(self._send_groups())
        return await future

    async def _send_groups(self) -> None:
        try:
            while self._waiting:
                group, rest, seen = [], [], set()
                for entry in self._waiting:  # one move per game in a group (never two, but be sure)
                    if len(group) < self._largest and entry[0].table_id not in seen:
                        seen.add(entry[0].table_id)
                        group.append(entry)
                    else:
                        rest.append(entry)
                self._waiting = rest
                await self._send(group)
        finally:
            self._sending -= 1

    async def _send(self, group: list[tuple[MoveRows, asyncio.Future[bool]]]) -> None:
        # In id order, as the announcement marks (clocks.py) and the other processes' groups take
        # the same rows: statements that lock games in one order wait for each other instead of
        # deadlocking (a deadlock costs the server's deadlock_timeout, a second, then one by one).
        group = sorted(group, key=lambda entry: entry[0].table_id)
        moves = [move for move, _ in group]
        answers: list[Any]
        try:
            if len(moves) == 1:
                answers = [await self._single(moves[0])]
            else:
                values = [
                    *_columns([move.game for move in moves], len(_GAME_KINDS)),
                    *_columns([row for move in moves for row in move.seats], len(_SEAT_KINDS)),
                    *_columns([row for move in moves for row in move.moves], len(_MOVE_KINDS)),
                ]
                try:
                    matched = {row[0] for row in await self._pool.fetch(GROUP_SQL, *values)}
                    answers = [move.table_id in matched for move in moves]
                except asyncpg.PostgresError:  # a deadlock between groups, a constraint: one by one
                    answers = list(
                        await asyncio.gather(*(self._single(move) for move in moves), return_exceptions=True)
                    )
        except BaseException as error:
            for _, future in group:
                if not future.done():
                    future.set_exception(error)
            if not isinstance(error, Exception):
                raise
            return
        for (_, future), answer in zip(group, answers, strict=True):
            if future.done():
                continue
            if isinstance(answer, BaseException):
                future.set_exception(answer)
            else:
                future.set_result(answer)
