"""A simple result picture: the final scores by rank with the winners marked, the teams where
the game has them, and each seat's score over the game as a line chart drawn with Pillow.

The Discord desk's richer result picture (matplotlib chart) keeps this function's name and
arguments, so callers do not change when it replaces this one.

    picture = draw_result(["Alice", "Bob"], outcome, [[0, 0], [3, 0], [3, 5]])
    picture.labels("winner")   # ["Bob"]
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Outcome
from engine.core.picture import Picture

from .canvas import BIG, LINE, PAD, SMALL, Canvas
from .palette import HIGHLIGHT, INK, MUTED, PANEL, SEAT_COLOURS, ink_on

TITLE = "Final scores"
CHART_HEIGHT = 220


def _format(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def draw_result(names: Sequence[str], outcome: Outcome, score_history: Sequence[Sequence[float]]) -> Picture:
    page = Canvas()
    y = page.title(PAD, TITLE)
    order = list(outcome.seating) if outcome.seating else list(range(len(names)))
    standing = sorted(order, key=lambda seat: (outcome.ranks[seat], order.index(seat)))
    for seat in standing:
        winner = outcome.ranks[seat] == 1
        page.panel((PAD, y, page.width - PAD, y + 40), outline=HIGHLIGHT if winner else None)
        page.text(PAD + 10, y + 9, f"{outcome.ranks[seat]}.", bold=True, width=40)
        x = page.seat_chip(PAD + 50, y + 9, order.index(seat) + 1)
        page.text(x + 10, y + 9, names[seat], bold=True, width=300, kind="seat", label=str(seat))
        if winner:
            page.text(page.width - PAD - 190, y + 11, "★ winner", size=SMALL, bold=True, fill=HIGHLIGHT, kind="winner", label=names[seat])
        page.text(page.width - PAD - 90, y + 6, _format(outcome.scores[seat]), size=BIG, bold=True, width=80, align="right", kind="score", label=f"{seat}:{_format(outcome.scores[seat])}")
        y += 46
    for index, team in enumerate(outcome.teams or []):
        members = " + ".join(names[seat] for seat in team)
        page.text(PAD, y, f"Team {index + 1}: {members}", size=SMALL, fill=MUTED, kind="team", label=",".join(map(str, team)))
        y += LINE
    if len(score_history) > 1:
        _chart(page, names, order, score_history, y + 10)
    return page.finish()


def _chart(page: Canvas, names: Sequence[str], order: list[int], history: Sequence[Sequence[float]], y: int) -> None:
    """Each seat's score after every move: one line a seat in its seat colour, its number at the
    end of its line (the number, not the colour, says whose it is)."""
    left, right = PAD + 40, page.width - PAD - 30
    top, bottom = y + 34, y + CHART_HEIGHT
    page.panel((PAD, y, page.width - PAD, bottom + 26), fill=PANEL)
    values = [value for row in history for value in row]
    low, high = min(0.0, min(values)), max(1.0, max(values))
    steps = len(history) - 1

    def point(step: int, value: float) -> tuple[float, float]:
        return left + (right - left) * step / steps, bottom - (bottom - top) * (value - low) / (high - low)

    page.draw.line((left, bottom, right, bottom), fill=MUTED, width=1)
    page.draw.line((left, top, left, bottom), fill=MUTED, width=1)
    for value in (low, high):
        page.text(PAD + 4, int(point(0, value)[1]) - 9, _format(value), size=SMALL - 2, fill=MUTED, width=32, align="right")
    page.text(left, bottom + 4, "moves →", size=SMALL - 2, fill=MUTED)
    for seat in order:
        colour = SEAT_COLOURS[order.index(seat) % len(SEAT_COLOURS)]
        line = [point(step, row[seat]) for step, row in enumerate(history) if seat < len(row)]
        page.draw.line(line, fill=colour, width=3)
        end_x, end_y = line[-1]
        page.chip(int(end_x) + 4, int(end_y) - 10, str(order.index(seat) + 1), fill=colour, ink=ink_on(colour), size=SMALL - 2)
        page.mark("line", str(seat), (left, top, right, bottom))
    page.text(PAD + 8, y + 4, "Score over the game", size=SMALL - 2, fill=INK)
