"""Which moves a player may take back (the undo rulings) in Vege tables, 3 to 5 players.

A move can be taken back when it showed nothing hidden and drew nothing: a card played from the
Farmland row or from the exposed cards (face up already) and ending a turn that collects no well.
A card played from the hand (hidden until then), a card taken from a face-down field cell, a well
collected, a dead card asked to be discarded (its holder is secret) cannot.
"""

from __future__ import annotations

from .model import Move, VegetablesState


def undoable(before: VegetablesState, seat: int, move: Move, after: VegetablesState) -> bool:
    return _hidden(before) == _hidden(after)


def _hidden(state: VegetablesState) -> tuple[object, ...]:
    """Everything someone cannot see: hands, pending discards, wells, face-down cells, the deal's
    randomness."""
    return (
        [(player.hand, player.pending, player.well) for player in state.seats],
        state.cells,
        state.rng,
    )
