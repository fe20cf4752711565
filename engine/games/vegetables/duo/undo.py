"""Which moves a player may take back (the undo rulings) in Vege tables for two.

As with more players: a move that showed nothing hidden and drew nothing (a card played from the
Grounds row or the exposed cards, a Tractor from the public reserve, a turn ended without a
draw); not a card from the hand, a silo or well card, a draw or a dead-card request.
"""

from __future__ import annotations

from .model import DuoMove, DuoState


def undoable(before: DuoState, seat: int, move: DuoMove, after: DuoState) -> bool:
    return _hidden(before) == _hidden(after)


def _hidden(state: DuoState) -> tuple[object, ...]:
    return ([(player.hand, player.pending) for player in state.seats], state.silos, state.wells, state.revealed)
