"""Pictures of the Vege tables board and hand for 3 to 5 players (engine.pictures); the 2-player
game's are in ``duo.draw``, which shares the field, the seat rows and the hand drawn here.

The board: the status line, the 4x4 field (each cell's top card, its stack as five slot pips,
``T`` for a Tractor, a closed sequence ringed and labelled, a face-down card as a back), then
each seat: score, hidden cards and well as backs with their counts, Farmland and exposed cards
(dead ones crossed), then the dead cards and the discard pile. The hand: the seat's cards by
family, the playable ones ticked, those playable right after a Tractor marked "+".
Words come from ``render`` (family names, the status line, the title).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.picture import Picture
from engine.i18n import tr, tr_ctx
from engine.pictures.canvas import BIG, LINE, PAD, SMALL, TEXT, Canvas, flow
from engine.pictures.cards import card_back, labelled_card
from engine.pictures.fonts import font, text_width
from engine.pictures.palette import (
    BLACK,
    CARD_INK,
    FELT,
    GREEN,
    GREY,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    RGB,
    SKY,
    VERMILLION,
    WHITE,
    YELLOW,
    with_ink,
)

from .cards import FAMILIES, SLOTS, family_name, tractor_name
from .render import _name, _status_and_field, board_title, hand_title, removed_family_line
from .views import seat_prompt, table_prompt

FAMILY_COLOURS: dict[str, tuple[RGB, RGB]] = with_ink({"K": BLACK, "G": GREEN, "R": VERMILLION, "Y": YELLOW, "T": SKY})
FIELD_CARD = (58, 78)
MINI = (46, 60)
HAND_CARD = (60, 82)
LABEL_WIDTH = 78


def veg_card(code: str, size: tuple[int, int], background: RGB = FELT) -> Any:
    """A Vege tables card: its code big, its family's colour in the band with the family's name
    when the card is wide enough."""
    accent, ink = FAMILY_COLOURS[code[0]]
    band = (tractor_name() if code[0] == "T" else family_name(code[0])) if size[0] >= 56 else ""
    return labelled_card(code, band, accent, ink, size[0], size[1], "", background)


def cross(page: Canvas, box: tuple[int, int, int, int], label: str) -> None:
    """A dead card: struck through corner to corner (a shape; the code stays readable)."""
    left, top, right, bottom = box
    page.draw.line((left + 3, bottom - 3, right - 3, top + 3), fill=VERMILLION, width=3)
    page.draw.line((left + 3, bottom - 4, left + 15, bottom - 4), fill=VERMILLION, width=3)
    page.mark("dead", label, box)


def plus_badge(page: Canvas, box: tuple[int, int, int, int], label: str) -> None:
    """Playable right after a Tractor: a "+" disc on the corner (not a ring: a different shape)."""
    left, top, right, _ = box
    x, y = right - 16, top - 8
    page.draw.ellipse((x, y, x + 22, y + 22), fill=WHITE, outline=CARD_INK, width=2)
    page.draw.line((x + 5, y + 11, x + 17, y + 11), fill=CARD_INK, width=3)
    page.draw.line((x + 11, y + 5, x + 11, y + 17), fill=CARD_INK, width=3)
    page.mark("after_tractor", label, (left, y, right + 6, box[3]))


def card_row(
    page: Canvas,
    x: int,
    y: int,
    cards: Sequence[str],
    kind: str,
    *,
    size: tuple[int, int] = MINI,
    dead: frozenset[str] | set[str] = frozenset(),
    room: int | None = None,
    decorate: Callable[[Canvas, str, tuple[int, int, int, int]], None] | None = None,
    background: RGB = PANEL,
) -> int:
    """Cards left to right from (x, y), wrapping within ``room``; returns the y below them."""
    room = room if room is not None else page.width - PAD - x
    places = flow([size[0]] * len(cards), room, gap=6 if decorate is None else 12)
    for code, (dx, row) in zip(cards, places, strict=True):
        left, top = x + dx, y + row * (size[1] + (8 if decorate is None else 16))
        page.sprite(veg_card(code, size, background), left, top, kind, code)
        box = (left, top, left + size[0], top + size[1])
        if code in dead:
            cross(page, box, code)
        if decorate is not None:
            decorate(page, code, box)
    if not cards:
        return y
    return y + (places[-1][1] + 1) * (size[1] + (8 if decorate is None else 16))


def field(page: Canvas, view: dict[str, Any], y: int) -> int:
    """The 4x4 field, a row per family; returns the y below it."""
    families = [family_name(row["family"]) if row["family"] else "-" for row in view["rows"]]
    # The labels' column is as wide as the longest family name of the reader's language needs.
    label_width = max(LABEL_WIDTH, *(text_width(family, SMALL, True) + 18 for family in families))
    cell_width = (page.width - 2 * PAD - label_width) // 4
    for column in range(4):
        page.text(PAD + label_width + column * cell_width, y, str(column + 1), size=SMALL, fill=MUTED, width=cell_width, align="center")
    y += SMALL + 8
    row_height = FIELD_CARD[1] + 12
    for row, family in zip(view["rows"], families, strict=True):
        top = y + (row["row"] - 1) * row_height
        page.panel((PAD, top, page.width - PAD, top + row_height - 4))
        page.text(PAD + 8, top + row_height // 2 - 12, family, size=SMALL, bold=True, width=label_width - 10, kind="row", label=row["family"] or "-")
        for cell in row["cells"]:
            left = PAD + label_width + (cell["column"] - 1) * cell_width + 6
            _cell(page, cell, left, top + 4, f"{row['row']}.{cell['column']}")
    return y + len(view["rows"]) * row_height + 4


def _cell(page: Canvas, cell: dict[str, Any], left: int, top: int, where: str) -> None:
    stack, width, height = cell["stack"], FIELD_CARD[0], FIELD_CARD[1]
    name = cell["sequence"] or "-"
    if stack:
        page.sprite(veg_card(cell["top"], FIELD_CARD, PANEL), left, top, "card", cell["top"])
    elif cell.get("face_down"):
        page.sprite(card_back(width, height, "", PANEL), left, top, "face_down", where)
    else:
        page.draw.rounded_rectangle((left, top, left + width, top + height), radius=7, outline=GREY, width=2)
    if cell["closed"]:
        page.draw.rounded_rectangle((left - 3, top - 3, left + width + 2, top + height + 2), radius=9, outline=HIGHLIGHT, width=3)
        page.mark("closed", name, (left, top, left + width, top + height))
    # The stack, bottom slot lowest: a filled pip per card, "T" in a Tractor's.
    pip = 13
    x = left + width + 6
    for slot in range(SLOTS):
        y = top + height - (slot + 1) * (pip + 2)
        box = (x, y, x + pip, y + pip)
        if slot < len(stack):
            code = stack[slot]
            tractor = code[0] == "T"
            page.draw.ellipse(box, fill=SKY if tractor else INK, outline=CARD_INK)
            if tractor:
                page.draw.text((x + pip // 2 + 1, y + pip // 2), "T", fill=CARD_INK, anchor="mm", font=_pip_font())
            page.mark("stack", code, box)
        else:
            page.draw.ellipse(box, outline=MUTED, width=1)


def _pip_font() -> Any:
    return font(11, True)


def seat_panel(
    page: Canvas, view: dict[str, Any], info: dict[str, Any], names: Sequence[str], y: int,
    counts: Sequence[tuple[str, str, str]], rows: Sequence[tuple[str, str, Sequence[str]]],
) -> int:
    """A seat: pointer, number, name, score; ``counts`` as backs (kind, caption, count text);
    ``rows`` of face-up cards (kind, caption, cards). Returns the y below the panel."""
    seat = info["seat"]
    dead = set(view["dead"])
    top = y
    inner = top + 8
    if not view["over"] and seat == view["turn"]:
        page.pointer(PAD + 6, inner + 4, str(seat))
    x = page.seat_chip(PAD + 28, inner, seat + 1)
    page.text(x + 8, inner, _name(names, seat), bold=True, width=150, kind="seat", label=str(seat))
    right = page.width - PAD
    page.text(right - 110, inner - 2, str(info["score"]), size=BIG, bold=True, width=60, align="right", kind="score", label=f"{seat}:{info['score']}")
    # Translators: after a score in the pictures ("35 pts"); 4 characters at most.
    page.text(right - 46, inner + 3, tr_ctx("vegetables", "pts"), size=SMALL, fill=MUTED)
    x = PAD + 215
    for kind, caption, count in counts:
        page.sprite(card_back(30, 40, count if len(count) <= 3 else "", PANEL), x, inner - 6, kind, f"{seat}:{count}")
        x = page.text(x + 35, inner + 3, caption, size=SMALL, fill=MUTED, width=right - 115 - x - 35) + 12
    line = inner + 40
    if info["passes"]:
        page.text(PAD + 28, line, tr("passes {count}", count=info["passes"]), size=SMALL, fill=MUTED)
        line += LINE
    for kind, caption, cards in rows:
        if not cards:
            continue
        page.text(PAD + 28, line + MINI[1] // 2 - 10, caption, size=SMALL, fill=MUTED, width=92)
        line = card_row(page, PAD + 122, line, cards, kind, dead=dead) + 2
    return line + 10


def draw_board(view: dict[str, Any], names: Sequence[str]) -> Picture:
    page = Canvas()
    y = page.title(PAD, board_title(view))
    if view["removed_family"]:
        y = page.paragraph(PAD, y, removed_family_line(view), size=SMALL)
    status, *_ = _status_and_field(view, names, "", table_prompt(view))
    y = page.paragraph(PAD, y, status, size=SMALL, fill=INK) + 4
    y = field(page, view, y)
    y = closed_line(page, view, y)
    for info in view["seats"]:
        # The count "taken" is too long to be drawn on the back: it is only the mark's label.
        taken = info["well_taken"]
        well = ("well", tr_ctx("vegetables", "well taken") if taken else tr_ctx("vegetables", "well"), "taken" if taken else str(info["well"]))
        y = seat(page, view, info, names, y, [("hidden", tr_ctx("vegetables", "hidden"), str(info["hidden"])), well],
                 [("farmland", tr_ctx("vegetables", "Farmland"), info["farmland"]), ("exposed", tr_ctx("vegetables", "exposed"), info["exposed"])])  # fmt: skip
    return piles(page, view, y).finish()


def closed_line(page: Canvas, view: dict[str, Any], y: int) -> int:
    """How many sequences are closed, under the field; returns the y below it."""
    page.text(PAD, y, tr("closed {closed}/{sequences}", closed=view["closed"], sequences=view["sequences"]), size=SMALL, fill=MUTED)
    return y + LINE


def seat(
    page: Canvas, view: dict[str, Any], info: dict[str, Any], names: Sequence[str], y: int,
    counts: Sequence[tuple[str, str, str]], rows: Sequence[tuple[str, str, Sequence[str]]],
) -> int:
    """A seat's panel, measured first (its card rows wrap), then its content on it."""
    height = 8 + 40 + (LINE if info["passes"] else 0)
    for _, _, cards in rows:
        if cards:
            places = flow([MINI[0]] * len(cards), page.width - PAD - (PAD + 122), gap=6)
            height += (places[-1][1] + 1) * (MINI[1] + 8) + 2
    page.panel((PAD, y, page.width - PAD, y + height + 4))
    return seat_panel(page, view, info, names, y, counts, rows)


def piles(page: Canvas, view: dict[str, Any], y: int) -> Canvas:
    """The dead cards and the discard pile, under the seats."""
    for kind, caption, cards in (("dead_card", tr_ctx("vegetables", "Dead cards"), view["dead"]), ("discard", tr_ctx("vegetables", "Discard pile"), view["discard"])):
        if cards:
            page.text(PAD, y, caption, size=SMALL, fill=MUTED)
            y = card_row(page, PAD, y + LINE - 4, cards, kind, background=FELT) + 6
    return page


def hand_cards(page: Canvas, view: dict[str, Any], cards: Sequence[str], kind: str, y: int, caption: str) -> int:
    """A row of the seat's own cards with their marks: ticked playable, "+" after a Tractor,
    crossed dead, faded when being discarded."""
    playable = set(view["playable"])
    after = set(view["playable_after_tractor"])
    pending = set(view["pending"])
    dead = set(view["dead"])

    def decorate(canvas: Canvas, code: str, box: tuple[int, int, int, int]) -> None:
        if code in pending:
            canvas.dim(box)
            canvas.mark("pending", code, box)
        elif code in dead:
            cross(canvas, box, code)
        elif code in playable:
            canvas.highlight(box, code)
        elif code in after:
            plus_badge(canvas, box, code)

    page.text(PAD, y, caption, size=SMALL, bold=True, fill=MUTED)
    y += LINE
    if not cards:
        page.text(PAD + 8, y, tr_ctx("vegetables", "(none)"), size=SMALL, fill=MUTED)
        return y + LINE
    return card_row(page, PAD + 6, y + 6, cards, kind, size=HAND_CARD, decorate=decorate, background=FELT) + 4


def hand_by_family(page: Canvas, view: dict[str, Any], y: int) -> int:
    hand = view["hand"]
    order = [code for family in (*FAMILIES, "T") for code in hand if code[0] == family]
    return hand_cards(page, view, order, "card", y, tr("Hand ({count})", count=len(hand)))


def legend(page: Canvas, y: int, your_turn: bool) -> int:
    """What the marks mean, in the text view's words."""
    first = tr_ctx("vegetables", "playable now") if your_turn else tr("fits the field now")
    after = tr("playable right after a Tractor") if your_turn else tr("fits right after a Tractor")
    x = page.text(PAD, y, "✓ " + first, size=SMALL, fill=MUTED)
    x = page.text(x + 16, y, "+ " + after, size=SMALL, fill=MUTED)
    page.text(x + 16, y, "/ " + tr_ctx("vegetables", "dead"), size=SMALL, fill=MUTED)
    return y + LINE


def hand_head(page: Canvas, view: dict[str, Any], names: Sequence[str], title: str, row: tuple[str, str]) -> int:
    """The private picture's start: whose hand, the hand by family, then the seat's own face-up
    row (``row``: its key and caption, Farmland or Grounds) and its exposed cards."""
    y = page.title(PAD, f"{_name(names, view['seat'])} - {title}")
    y = hand_by_family(page, view, y)
    own = view["seats"][view["seat"]]
    y = hand_cards(page, view, own[row[0]], row[0], y, row[1])
    if own["exposed"]:
        y = hand_cards(page, view, own["exposed"], "exposed", y, tr_ctx("vegetables", "Exposed"))
    return y


def draw_hand(view: dict[str, Any], names: Sequence[str]) -> Picture:
    page = Canvas()
    y = hand_head(page, view, names, hand_title(view), ("farmland", tr_ctx("vegetables", "Farmland")))
    own = view["seats"][view["seat"]]
    if own["well_taken"]:
        page.text(PAD, y, tr("Well: taken"), size=SMALL, fill=MUTED)
        y += LINE + 4
    else:
        page.sprite(card_back(30, 40, str(own["well"]), FELT), PAD, y, "well", f"{view['seat']}:{own['well']}")
        text = tr(
            "Well: unseen; you take it after a play with fewer than {threshold} hidden cards (worth {points} now)",
            threshold=view["well_threshold"], points=view["next_well_points"],
        )  # fmt: skip
        below = page.paragraph(PAD + 40, y + 2, text, size=SMALL)
        y = max(y + 48, below + 6)
    y = legend(page, y, view["your_turn"])
    page.paragraph(PAD, y, seat_prompt(view), size=TEXT - 2, fill=INK)
    return page.finish()
