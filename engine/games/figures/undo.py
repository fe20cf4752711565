"""Which moves a player may take back (the undo rulings): none in Figures.

Every discard (one card, or the three kings) shows cards that were hidden in a hand, and the
table has seen them; a pass is allowed only when nothing can be discarded, so it is never a slip
of the hand either.
"""

from __future__ import annotations

from .model import FiguresMove, FiguresState


def undoable(before: FiguresState, seat: int, move: FiguresMove, after: FiguresState) -> bool:
    return False
