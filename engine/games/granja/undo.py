"""Which moves a player may take back (the undo rulings) in La Granja.

A move in a step where one player acts alone can be taken back when it showed nothing hidden and
drew nothing: buying from the market, delivering, moving goods, a die's action that draws no card.
Never an answer to a simultaneous step (the farm cards played, the donkey marker: secret choices
revealed together), a card drawn or played from the hand, a roof revealed, or the dice rolled.
"""

from __future__ import annotations

from .model import GranjaState, Move
from .rules import to_act


def undoable(before: GranjaState, seat: int, move: Move, after: GranjaState) -> bool:
    if to_act(before) != (seat,):
        return False  # a simultaneous step, or a move out of turn
    return _hidden(before) == _hidden(after)


def _hidden(state: GranjaState) -> tuple[object, ...]:
    return (
        [farm.hand for farm in state.farms],
        state.choices,
        state.deck,
        state.roofs_future,
        state.dice,
        state.rng,
    )
