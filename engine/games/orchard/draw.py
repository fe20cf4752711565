"""Pictures of the Draft Cider board and of a seat's choices (engine.pictures), from the views
and the words of ``render``.

An apple is drawn as its colour with a shape of its own (Green a triangle, Gold a diamond, Red
a disc: colour is never alone) and its height and sweetness (``h2 s5``, the card's notation).
The board: the round line, who picks, the pool, and every seat's eight batches with each
batch's running score and the seat's total. The hand: each pool card with the batches it may go
in now and what each would add.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.core.picture import Picture
from engine.i18n import tr, tr_ctx
from engine.pictures.canvas import BIG, LINE, PAD, SMALL, TEXT, Canvas, columns, flow
from engine.pictures.cards import labelled_card
from engine.pictures.fonts import font, text_width
from engine.pictures.palette import (
    CARD,
    CARD_INK,
    EDGE,
    FELT,
    GREEN,
    INK,
    MUTED,
    ORANGE,
    PANEL,
    RGB,
    VERMILLION,
    ink_on,
)

from .cards import BATCH_IDS, GOLD, RED, colour_name
from .cards import GREEN as GREEN_APPLE
from .render import _name, cards_key, game_over_line, header_parts, nothing_to_place, to_pick_line
from .views import prompt_of

COLOUR_STYLE: dict[str, tuple[RGB, RGB, str]] = {
    "Green": (GREEN, ink_on(GREEN), "triangle"), "Gold": (ORANGE, ink_on(ORANGE), "diamond"),
    "Red": (VERMILLION, ink_on(VERMILLION), "disc"),
}  # fmt: skip
COLOUR_INDEX = {"Green": GREEN_APPLE, "Gold": GOLD, "Red": RED}  # the code's colour word -> colour
POOL_CARD = (70, 92)
STRIP = (70, 26)


def _parts(code: str) -> tuple[str, str, str]:
    colour, height, sweetness = code.split("-")
    return colour, height, sweetness


def _shape(draw: ImageDraw.ImageDraw, kind: str, box: tuple[float, float, float, float], fill: RGB) -> None:
    left, top, right, bottom = box
    middle = (left + right) / 2
    if kind == "triangle":
        draw.polygon([(middle, top), (right, bottom), (left, bottom)], fill=fill, outline=CARD_INK)
    elif kind == "diamond":
        draw.polygon([(middle, top), (right, (top + bottom) / 2), (middle, bottom), (left, (top + bottom) / 2)], fill=fill, outline=CARD_INK)
    else:
        draw.ellipse(box, fill=fill, outline=CARD_INK)


@lru_cache(maxsize=256)
def apple_strip(code: str, background: RGB = PANEL) -> Image.Image:
    """A batch's card, small: its colour's shape, then ``2 5`` (height, sweetness)."""
    colour, height, sweetness = _parts(code)
    accent, _, shape = COLOUR_STYLE[colour]
    image = Image.new("RGB", STRIP, background)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, STRIP[0] - 1, STRIP[1] - 1), radius=5, fill=CARD, outline=EDGE)
    _shape(draw, shape, (3, 5, 18, 20), accent)
    draw.text((STRIP[0] - 4, STRIP[1] // 2), f"{height} {sweetness}", font=font(SMALL - 1, True), fill=CARD_INK, anchor="rm")
    return image


@lru_cache(maxsize=128)
def apple_card(code: str, background: RGB = FELT) -> Image.Image:
    """A pool card: its colour named in the band, height and sweetness below, and its shape."""
    colour, height, sweetness = _parts(code)
    accent, ink, shape = COLOUR_STYLE[colour]
    image = labelled_card(f"{height} {sweetness}", colour, accent, ink, POOL_CARD[0], POOL_CARD[1], "", background).copy()
    _shape(ImageDraw.Draw(image), shape, (POOL_CARD[0] - 22, POOL_CARD[1] - 22, POOL_CARD[0] - 8, POOL_CARD[1] - 8), accent)
    return image


def draw_board(view: dict[str, Any], names: Sequence[str]) -> Picture:
    page = Canvas()
    parts = header_parts(view)
    cut = 2 if not view["over"] else 1  # round and pick in the title; deck and easy mode below it
    y = page.title(PAD, " · ".join([tr("Draft Cider"), *parts[:cut]]))
    page.text(PAD, y, " · ".join(parts[cut:]), size=SMALL, fill=MUTED)
    y += LINE
    if view["over"]:
        y = page.paragraph(PAD, y, game_over_line(view, names), size=TEXT, fill=INK)
    else:
        y = page.paragraph(PAD, y, to_pick_line(view, names), size=SMALL, fill=INK)
        y = pool(page, view["pool"], y + 4)
    for seat in range(view["players"]):
        y = orchard(page, view, seat, names, y + 6)
    y = legend(page, y + 4)
    return page.finish()


def pool(page: Canvas, cards: Sequence[str], y: int, playable: set[str] | None = None) -> int:
    page.text(PAD, y, tr_ctx("orchard", "Pool"), size=SMALL, bold=True, fill=MUTED)
    y += LINE
    places = flow([POOL_CARD[0]] * len(cards), page.width - 2 * PAD, gap=12)
    for code, (x, row) in zip(cards, places, strict=True):
        left, top = PAD + 4 + x, y + 6 + row * (POOL_CARD[1] + 14)
        page.sprite(apple_card(code), left, top, "pool", code)
        if playable is not None and code in playable:
            page.highlight((left, top, left + POOL_CARD[0], top + POOL_CARD[1]), code)
    rows = places[-1][1] + 1 if cards else 0
    return y + 6 + rows * (POOL_CARD[1] + 14)


def orchard(page: Canvas, view: dict[str, Any], seat: int, names: Sequence[str], y: int) -> int:
    """A seat's orchard: name and total, then its eight batches side by side, each with its
    score above its cards."""
    data = view["orchards"][seat]
    tallest = max((len(cards) for cards in data["batches"].values()), default=0)
    height = 36 + 2 * (SMALL + 6) + max(1, tallest) * (STRIP[1] + 4) + 10
    page.panel((PAD, y, page.width - PAD, y + height))
    if seat == view["turn"]:
        page.pointer(PAD + 6, y + 10, str(seat))
    x = page.seat_chip(PAD + 28, y + 7, seat + 1)
    page.text(x + 8, y + 6, _name(names, seat), bold=True, width=300, kind="seat", label=str(seat))
    page.text(page.width - PAD - 140, y + 3, str(data["total"]), size=BIG, bold=True, width=80, align="right", kind="score", label=f"{seat}:{data['total']}")
    page.text(page.width - PAD - 54, y + 8, tr_ctx("orchard", "points"), size=SMALL, fill=MUTED)
    top = y + 36
    for batch_id, (dx, width) in zip(BATCH_IDS, columns(8, page.width - 2 * PAD - 12, gap=4), strict=True):
        left = PAD + 6 + dx
        label = batch_id if batch_id != "unlucky" or not data["batches"][batch_id] else f"unlucky ({data['unlucky_sum']})"  # ids are notation
        page.text(left, top, label if len(label) <= 8 else batch_id, size=SMALL - 2, fill=MUTED, width=width, align="center")
        score = data["scores"][batch_id]
        page.text(left, top + SMALL + 4, str(score), size=SMALL + 1, bold=True, width=width, align="center", kind="batch_score", label=f"{seat}:{batch_id}:{score}")
        for index, code in enumerate(data["batches"][batch_id]):
            page.sprite(apple_strip(code), left + (width - STRIP[0]) // 2, top + 2 * (SMALL + 6) + index * (STRIP[1] + 4), "batch_card", f"{seat}:{batch_id}:{code}")
    return y + height


def legend(page: Canvas, y: int) -> int:
    """The shapes and the numbers, in the text view's words."""
    x = PAD
    for colour, (accent, _, shape) in COLOUR_STYLE.items():
        _shape(page.draw, shape, (x, y + 2, x + 16, y + 18), accent)
        x = page.text(x + 20, y, colour_name(COLOUR_INDEX[colour]), size=SMALL, fill=MUTED) + 14
    page.text(x, y, cards_key(), size=SMALL, fill=MUTED)
    return y + LINE


def draw_hand(view: dict[str, Any], names: Sequence[str]) -> Picture:
    page = Canvas()
    seat = view["seat"]
    placements: dict[str, dict[str, int]] = view.get("placements") or {}
    heading = tr("Your pick") if view.get("your_turn") else tr("If you picked now")
    y = page.title(PAD, f"{_name(names, seat)} · {heading}")
    if not placements:
        y = page.paragraph(PAD, y, nothing_to_place(view), size=TEXT, fill=INK)
    for code, gains in placements.items():
        row_top = y
        page.sprite(apple_card(code), PAD + 4, y + 6, "card", code)
        if view.get("your_turn") and gains:
            page.highlight((PAD + 4, y + 6, PAD + 4 + POOL_CARD[0], y + 6 + POOL_CARD[1]), code)
        chips = [f"{batch} {gain:+d}" for batch, gain in gains.items()]
        x0 = PAD + POOL_CARD[0] + 22
        places = flow([_chip_width(text) for text in chips], page.width - PAD - x0, gap=8)
        for (batch, gain), text, (dx, row) in zip(gains.items(), chips, places, strict=True):
            page.chip(x0 + dx, y + 10 + row * 30, text, fill=PANEL if gain <= 0 else GREEN, ink=INK if gain <= 0 else ink_on(GREEN))
            page.mark("placement", f"{code}:{batch}:{gain}", (x0 + dx, y + 10 + row * 30, x0 + dx + _chip_width(text), y + 33 + row * 30))
        rows = places[-1][1] + 1 if chips else 1
        y = max(row_top + POOL_CARD[1] + 16, y + 10 + rows * 30 + 6)
    if placements:
        y = page.paragraph(PAD, y, tr("Each card: the batches it may go in now and the change in your total."), size=SMALL)
    y = orchard(page, view, seat, names, y + 6)
    if view.get("your_turn"):
        page.paragraph(PAD, y + 6, prompt_of(view), size=SMALL, fill=INK)
    return page.finish()


def _chip_width(text: str) -> int:
    return text_width(text, SMALL, True) + 10
