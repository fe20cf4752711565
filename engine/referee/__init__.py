"""The async referee over the pure engine: tables, seats, turn flow, persistence, outbox."""

from .model import (
    ABANDONED,
    FINISHED,
    LOBBY,
    RUNNING,
    LobbyError,
    NotInGame,
    Outbox,
    Seat,
    StaleVersion,
    Table,
    TableNotFound,
    VersionConflict,
    WrongStatus,
)
from .referee import Referee
from .store import Store

__all__ = [
    "ABANDONED",
    "FINISHED",
    "LOBBY",
    "RUNNING",
    "LobbyError",
    "NotInGame",
    "Outbox",
    "Referee",
    "Seat",
    "StaleVersion",
    "Store",
    "Table",
    "TableNotFound",
    "VersionConflict",
    "WrongStatus",
]
