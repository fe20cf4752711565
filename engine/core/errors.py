"""Errors the engine raises. Every message is written for the player who caused it."""


class GameError(Exception):
    """Base of every refusal; ``str(error)`` is safe to show to the player."""


class BadNotation(GameError):
    """The move text could not be read at all."""


class IllegalMove(GameError):
    """The move is well formed but the rules do not allow it now."""


class NotYourTurn(IllegalMove):
    """The seat is not among those that must act now."""


class SetupError(GameError):
    """Bad player count or options for a new game."""
