"""The storage interface the referee needs; db/ implements it with SQLite."""

from __future__ import annotations

from typing import Protocol

from engine.core import RecordedMove

from .model import Table


class Store(Protocol):
    async def create_table(self, table: Table) -> int:
        """Insert a new table (lobby) with its seats; returns its id."""

    async def load_table(self, table_id: int) -> Table | None: ...

    async def load_state(self, table_id: int) -> bytes | None:
        """The latest state snapshot (JSON), or None before the start."""

    async def save_table(self, table: Table, expected_version: int) -> None:
        """Save a table's fields and seats (lobby changes, start, cancel, links).

        Raises VersionConflict if the stored version is not ``expected_version``.
        """

    async def commit_moves(
        self,
        table: Table,
        expected_version: int,
        moves: list[RecordedMove],
        state: bytes,
        outcome: bytes | None = None,
    ) -> None:
        """In ONE transaction: append the moves to the log, replace the snapshot, store the table
        (new version and status) and, when the game ended, its result. Raises VersionConflict if
        the stored version is not ``expected_version``."""

    async def move_log(self, table_id: int) -> list[RecordedMove]: ...

    async def list_tables(
        self,
        *,
        guild_id: str | None = None,
        statuses: tuple[str, ...] | None = None,
        user_id: str | None = None,
        limit: int = 100,
    ) -> list[Table]: ...

    async def get_user_flag(self, user_id: str, flag: str) -> bool: ...

    async def set_user_flag(self, user_id: str, flag: str, value: bool) -> None: ...

    async def close(self) -> None: ...
