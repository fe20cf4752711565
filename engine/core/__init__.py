"""The game contract and shared types. Nothing here knows Discord, SQL, clocks or I/O."""

from .ai import GreedyPlayer, Player, RandomPlayer
from .errors import BadNotation, GameError, IllegalMove, NotYourTurn, SetupError
from .game import Event, Game, Option, Outcome, format_event, ranks_from_keys
from .picture import Mark, Picture
from .record import UNDO, GameRecord, RecordedMove, ReplayError, effective_moves, replay, standing_moves
from .rng import Rng
from .stacking import STACKING_OPTIONS

__all__ = [
    "BadNotation",
    "Event",
    "Game",
    "GameError",
    "GameRecord",
    "GreedyPlayer",
    "IllegalMove",
    "Mark",
    "NotYourTurn",
    "Option",
    "Outcome",
    "Picture",
    "Player",
    "RandomPlayer",
    "RecordedMove",
    "ReplayError",
    "Rng",
    "STACKING_OPTIONS",
    "UNDO",
    "SetupError",
    "effective_moves",
    "format_event",
    "ranks_from_keys",
    "replay",
    "standing_moves",
]
