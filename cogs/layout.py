"""Which buttons and select menus to offer for a list of legal moves, within Discord's limits.

Pure functions over move notations, so the choice is easy to test and identical for every game:

- a few short moves: one button each;
- up to 25 moves: one select menu;
- more: the moves are grouped by the first word of their notation (``play 7c``, ``discard 7c``;
  one-word moves such as ``7c`` or ``pass`` share one group), groups larger than a select are
  cut into pages, and each page gets its own select when they
  all fit in a message (5 rows); otherwise the player first picks a group, then a move.

Moves whose notation cannot fit in a custom id or a select value are left out of the controls;
``/play`` (with autocomplete) still accepts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.i18n import N_, tr, tr_ctx

MAX_ROWS = 5  # action rows in one message
MAX_BUTTONS = 5  # moves shown as buttons (one row)
MAX_SELECT_OPTIONS = 25
SHORT_LABEL = 20  # a button label longer than this makes a select more readable
MAX_MOVE_TEXT = 75  # room left for a move in a 100-character custom id (see components.py)
SINGLE_WORD_GROUP = N_("Moves")  # the label of one-word moves when moves are grouped


@dataclass(frozen=True)
class MoveGroup:
    """Moves shown together in one select menu (at most 25)."""

    label: str
    moves: tuple[str, ...]


@dataclass(frozen=True)
class ControlPlan:
    """``kind`` is "none", "buttons", "select" (one or several menus, each one row) or "two_step"."""

    kind: str
    buttons: tuple[str, ...] = ()
    groups: tuple[MoveGroup, ...] = field(default_factory=tuple)
    left_out: int = 0  # moves too long for a control (playable with /play)

    @property
    def offered(self) -> int:
        return len(self.buttons) + sum(len(group.moves) for group in self.groups)


def plan_controls(moves: Sequence[str], *, reserved: int = 0) -> ControlPlan:
    """Lay out controls for ``moves`` (legal moves in notation, in the game's order), leaving
    ``reserved`` rows of the message free (for a Hint button)."""
    usable = [move for move in dict.fromkeys(moves) if 0 < len(move) <= MAX_MOVE_TEXT]
    left_out = len(moves) - len(usable)
    if not usable:
        return ControlPlan("none", left_out=left_out)
    if len(usable) <= MAX_BUTTONS and all(len(move) <= SHORT_LABEL for move in usable):
        return ControlPlan("buttons", buttons=tuple(usable), left_out=left_out)
    if len(usable) <= MAX_SELECT_OPTIONS:
        return ControlPlan(
            "select", groups=(MoveGroup(tr_ctx("select", "Choose your move"), tuple(usable)),), left_out=left_out
        )
    pages = paged_groups(usable)
    if len(pages) > MAX_SELECT_OPTIONS:
        # More groups than one menu can list (many different first words): plain pages instead.
        pages = tuple(
            MoveGroup(
                _page_label(tr(SINGLE_WORD_GROUP), index, len(usable)),
                tuple(usable[start : start + MAX_SELECT_OPTIONS]),
            )
            for index, start in enumerate(range(0, len(usable), MAX_SELECT_OPTIONS))
        )
    if len(pages) <= MAX_ROWS - reserved:
        return ControlPlan("select", groups=pages, left_out=left_out)
    kept = pages[:MAX_SELECT_OPTIONS]
    dropped = sum(len(page.moves) for page in pages[MAX_SELECT_OPTIONS:])
    return ControlPlan("two_step", groups=kept, left_out=left_out + dropped)


def paged_groups(moves: Sequence[str]) -> tuple[MoveGroup, ...]:
    """Group by first word, keeping the game's order; cut groups above 25 into numbered pages.

    One-word moves go together: grouping ``7c`` by its "first word" would give groups of one.
    """
    by_word: dict[str, list[str]] = {}
    for move in moves:
        words = move.split(maxsplit=1)
        by_word.setdefault(words[0] if len(words) > 1 else "", []).append(move)
    pages: list[MoveGroup] = []
    for key, group in by_word.items():
        word = key or tr(SINGLE_WORD_GROUP)
        if len(group) <= MAX_SELECT_OPTIONS:
            pages.append(MoveGroup(word, tuple(group)))
            continue
        for index, start in enumerate(range(0, len(group), MAX_SELECT_OPTIONS)):
            chunk = tuple(group[start : start + MAX_SELECT_OPTIONS])
            pages.append(MoveGroup(_page_label(word, index, len(group)), chunk))
    return tuple(pages)


def _page_label(word: str, index: int, total: int) -> str:
    first = index * MAX_SELECT_OPTIONS + 1
    last = min(total, first + MAX_SELECT_OPTIONS - 1)
    return tr_ctx("select", "{word} ({first}-{last} of {total})", word=word, first=first, last=last, total=total)
