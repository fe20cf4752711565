"""What the referee keeps about a table, and what it reports back to front ends."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.core import GameError, Outcome

LOBBY, RUNNING, FINISHED, ABANDONED = "lobby", "running", "finished", "abandoned"


class TableNotFound(GameError):
    pass


class NotInGame(GameError):
    pass


class WrongStatus(GameError):
    """The table is not in a state that allows this (not started yet, already over...)."""


class StaleVersion(GameError):
    """The player acted on a board that has changed since they saw it."""


class LobbyError(GameError):
    pass


class VersionConflict(Exception):
    """The store's version is not the one expected: someone else wrote first (not player-facing)."""


class Seat(msgspec.Struct, kw_only=True):
    index: int
    name: str
    user_id: str | None = None  # a front end's user id (Discord snowflake, or a local name)
    ai_kind: str | None = None  # "random", "greedy"... for AI seats

    @property
    def is_ai(self) -> bool:
        return self.ai_kind is not None


class Table(msgspec.Struct, kw_only=True):
    """A game table from lobby to result. ``version`` counts the moves applied so far."""

    id: int = 0
    game: str
    options: dict[str, Any] = {}
    host: str
    status: str = LOBBY
    seed: int | None = None
    version: int = 0
    seats: list[Seat] = []
    guild_id: str | None = None
    channel_id: str | None = None
    thread_id: str | None = None
    message_id: str | None = None  # lobby or latest board message, for front ends
    created_at: float = 0.0
    updated_at: float = 0.0

    def seat_of(self, user_id: str) -> Seat | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def humans(self) -> list[Seat]:
        return [seat for seat in self.seats if not seat.is_ai]


class Outbox(msgspec.Struct, kw_only=True):
    """What changed after a referee call, for front ends to show. The referee never talks itself."""

    table: Table
    public_log: list[str] = []  # lines anyone may read, names filled in
    private_log: dict[int, list[str]] = {}  # seat -> lines only that seat may read
    board_changed: bool = False
    private_changed: list[int] = []  # human seats whose private view changed
    to_act: list[int] = []  # seats that must act now
    moves_applied: int = 0
    finished: bool = False
    outcome: Outcome | None = None
