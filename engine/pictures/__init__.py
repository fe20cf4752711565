"""Pictures of boards, hands and results, drawn from the views the games hand out.

A drawer returns a ``Picture``: the PNG bytes and the ``marks`` it placed (every card, seat and
score it drew, with its box), so tests assert on what was drawn rather than on pixels alone.
Drawing is pure (no clock, no randomness) and its text goes through the same strings as the text
boards. Pillow is imported only when something is drawn, so importing the games stays cheap.

The kit, one job a module: ``palette`` (colours, checked under colour blindness, and the PNG
palette), ``fonts`` (DejaVu from matplotlib, cached; fitting and wrapping text), ``cards`` (an
Italian-suited card, a labelled card, a card back, drawn once and cached), ``canvas`` (the page:
text, panels, chips, sprites, the playable mark, layout helpers, PNG encoding, every item recorded
as a ``Mark``) and ``result`` (the end-of-game picture). Each game draws in its own ``draw.py``
(``Game.draw_module``), from its views and with its text board's words.
"""

from __future__ import annotations

from engine.core.picture import Mark, Picture

__all__ = ["Mark", "Picture"]
