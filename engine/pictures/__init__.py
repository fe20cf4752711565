"""Pictures of boards, hands and results, drawn from the views the games hand out.

A drawer returns a ``Picture``: the PNG bytes and the ``marks`` it placed (every card, seat and
score it drew, with its box), so tests assert on what was drawn rather than on pixels alone.
Drawing is pure (no clock, no randomness) and its text goes through the same strings as the text
boards. Pillow is imported only when something is drawn, so importing the games stays cheap.
"""

from __future__ import annotations

from engine.core.picture import Mark, Picture

__all__ = ["Mark", "Picture"]
