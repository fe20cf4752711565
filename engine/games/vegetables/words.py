"""Lists in the reader's language, written as Vege tables has always written them in English.

Babel's lists (``engine.i18n.join_or``) put a comma before the last English "or"; these keep the
game's English texts as they were ("1, 2 or 3") and let each catalogue say how its language joins
the last item.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.i18n import tr_ctx


def any_of(items: Sequence[str]) -> str:
    """Alternatives: "1", "1 or 2", "1, 2 or 3"."""
    if len(items) < 2:
        return "".join(items)
    # Translators: the end of a list of alternatives, "1, 2 or 3": {items} is "1, 2", {last} is "3".
    # The comma between the other items is the next message.
    return tr_ctx("vegetables", "{items} or {last}", items=tr_ctx("vegetables", ", ").join(items[:-1]), last=items[-1])


def all_of(items: Sequence[str]) -> str:
    """Items together, such as the players sharing a win: "Ada", "Ada and Bo", "Ada and Bo and Cy"
    (English repeats "and"; a language may put a comma between the first ones)."""
    if len(items) < 2:
        return "".join(items)
    # Translators: what joins the last two names of players sharing a win ("Ada and Bo"), spaces included.
    last = tr_ctx("vegetables", " and ")
    # Translators: what joins the other names of players sharing a win: "Ada and Bo and Cy" in
    # English, where a language may write "Ada, Bo and Cy" (spaces included).
    middle = tr_ctx("vegetables list", " and ")
    return middle.join(items[:-1]) + last + items[-1]
