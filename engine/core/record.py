"""Game records: everything needed to replay a game exactly (seed, options and the move log)."""

from __future__ import annotations

from typing import Any

import msgspec

from .errors import GameError
from .game import Event, Game


class RecordedMove(msgspec.Struct, frozen=True):
    seat: int
    move: str  # the game's notation


class GameRecord(msgspec.Struct, kw_only=True):
    game: str
    players: int
    seed: int
    options: dict[str, Any] = {}
    moves: list[RecordedMove] = []


class ReplayError(Exception):
    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"move {index}: {reason}")
        self.index = index
        self.reason = reason


def replay(game: Game[Any, Any], record: GameRecord) -> tuple[Any, list[Event]]:
    """Rebuild the state from a record; raises ReplayError at the first move that fails."""
    state = game.new_game(record.players, record.seed, record.options)
    events: list[Event] = []
    for index, recorded in enumerate(record.moves):
        try:
            move = game.parse_move(recorded.move)
            state, new_events = game.apply(state, recorded.seat, move)
        except GameError as error:
            raise ReplayError(index, str(error)) from None
        events.extend(new_events)
    return state, events
