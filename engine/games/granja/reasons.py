"""Why a move is refused, in a player's words (``Game.why_illegal``)."""

from __future__ import annotations

from .model import GranjaState, Move
from .notation import format_move
from .rules import legal_moves, to_act


def explain(state: GranjaState, seat: int, move: Move) -> str | None:
    if move in legal_moves(state, seat):
        return None
    if seat not in to_act(state):
        return "It is not your turn."
    return f"{format_move(move)} is not a legal move now."
