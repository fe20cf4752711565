"""Game records: everything needed to replay a game exactly (seed, options and the move log)."""

from __future__ import annotations

from typing import Any

import msgspec

from .errors import GameError
from .game import Event, Game


class RecordedMove(msgspec.Struct, frozen=True):
    seat: int
    move: str  # the game's notation


class ReplayError(Exception):
    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"move {index}: {reason}")
        self.index = index
        self.reason = reason


# The move log's entry for a taken-back move: it takes back the move before it (both stay in the
# log). No game's notation uses parentheses, so it is never read as a move.
UNDO = "(undo)"


def effective_moves(moves: list[RecordedMove]) -> list[RecordedMove]:
    """The moves that stand: each undo entry removes the move before it."""
    standing: list[RecordedMove] = []
    for index, recorded in enumerate(moves):
        if recorded.move == UNDO:
            if not standing:
                raise ReplayError(index, "an undo with no move before it")
            standing.pop()
        else:
            standing.append(recorded)
    return standing


class GameRecord(msgspec.Struct, kw_only=True):
    game: str
    players: int
    seed: int
    options: dict[str, Any] = {}
    moves: list[RecordedMove] = []


def replay(game: Game[Any, Any], record: GameRecord) -> tuple[Any, list[Event]]:
    """Rebuild the state from a record; raises ReplayError at the first move that fails. Taken
    back moves (an undo entry after them) are left out, with their undo."""
    state = game.new_game(record.players, record.seed, record.options)
    events: list[Event] = []
    for index, recorded in enumerate(effective_moves(record.moves)):
        try:
            move = game.parse_move(recorded.move)
            state, new_events = game.apply(state, recorded.seat, move)
        except GameError as error:
            raise ReplayError(index, str(error)) from None
        events.extend(new_events)
    return state, events
