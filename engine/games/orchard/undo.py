"""Which moves a player may take back (the undo rulings) in Draft Cider.

Everything is public but the order of the undrawn deck, so a pick from the pool into a batch
reveals nothing: it can be taken back, unless it emptied the pool and the next cards were drawn
from the deck (the draw showed new cards to everyone).
"""

from __future__ import annotations

from .model import OrchardState, Place


def undoable(before: OrchardState, seat: int, move: Place, after: OrchardState) -> bool:
    return before.deck == after.deck and before.rng == after.rng
