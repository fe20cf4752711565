"""A page to draw on: text, panels and card sprites, every item recorded as a ``Mark``, then
encoded to a small PNG.

    page = Canvas()
    y = page.title(y, "Figures · hand 3")
    page.sprite(italian_card("7c"), x, y, "card", "7c")   # pasted and recorded
    return page.finish()                                  # cropped to what was drawn, PNG

Pictures are at most ``WIDTH`` pixels wide and their text at least ``SMALL`` pixels high, so a
phone showing them 400 pixels wide still reads them. The page is drawn in RGB and reduced to the
fixed palette (a lookup, about a millisecond) before the PNG is written.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.core.picture import Mark, Picture

from .fonts import fit, text_mask, text_width, wrap
from .palette import (
    FELT,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    RGB,
    SEAT_COLOURS,
    blend,
    ink_on,
    palette_image,
)

WIDTH = 640  # every picture is at most this wide: shown 400 wide, text shrinks by under 40 %
PAD = 12
TEXT = 18  # body text
SMALL = 15  # small text
# No text below this: 13 px at 640 wide is 8 px on a phone showing the picture 400 wide.
MIN_TEXT = 13
BIG = 22
LINE = TEXT + 7
HEIGHT = 1600  # the page's first height; it grows (doubling) when something is drawn lower
# zlib level: 3 writes a palette PNG several times faster than 6 for a file about a third
# bigger, still a few tens of KB (limit 300 KB).
COMPRESSION = 3


class Canvas:
    """An RGB page on the felt; ``finish`` crops it below the lowest thing drawn."""

    def __init__(self, width: int = WIDTH, height: int = HEIGHT, background: RGB = FELT) -> None:
        self.width = width
        self.background = background
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)
        self.marks: list[Mark] = []
        self.bottom = 0

    # ----- recording ------------------------------------------------------------------------

    def mark(self, kind: str, label: str, box: tuple[int, int, int, int]) -> None:
        self.marks.append(Mark(kind, label, box))
        self.bottom = max(self.bottom, box[3])

    def room(self, bottom: float) -> None:
        """Make the page reach at least ``bottom`` (plus a margin), before drawing down there: the
        page doubles, what is drawn is kept. Every drawing method calls it; a drawer drawing
        with ``self.draw`` directly does so inside a panel or sprite, which has already."""
        if bottom + PAD <= self.image.height:
            return
        taller = Image.new("RGB", (self.width, max(int(bottom) + PAD, 2 * self.image.height)), self.background)
        taller.paste(self.image, (0, 0))
        self.image = taller
        self.draw = ImageDraw.Draw(taller)

    def _reach(self, bottom: int) -> None:
        self.bottom = max(self.bottom, bottom)

    # ----- text -----------------------------------------------------------------------------

    def text(
        self,
        x: int,
        y: int,
        text: str,
        *,
        size: int = TEXT,
        bold: bool = False,
        fill: RGB = INK,
        width: int | None = None,
        align: str = "left",
        kind: str | None = None,
        label: str | None = None,
    ) -> int:
        """One line at (x, y), cut to ``width`` (default: to the page's edge); returns the x
        after it. With ``kind``, records a mark labelled ``label`` (default: the text)."""
        room = width if width is not None else self.width - PAD - x
        shown = fit(text, size, room, bold)
        length = text_width(shown, size, bold)
        left = x
        if align == "right":
            left = x + room - length
        elif align == "center":
            left = x + (room - length) // 2
        self.write(left, y, shown, size, bold, fill)
        box = (left, y, left + length, y + size + 4)
        if kind is not None:
            self.mark(kind, text if label is None else label, box)
        else:
            self._reach(box[3])
        return left + length

    def write(self, x: float, y: float, text: str, size: int, bold: bool, fill: RGB, anchor: str = "la") -> None:
        """Paint ``text`` with its cached mask; ``anchor`` "la" (left, top) or "mm" (centred)."""
        if size < MIN_TEXT:
            raise ValueError(f"text of {size} px is unreadable on a phone (at least {MIN_TEXT})")
        mask = text_mask(text, size, bold)
        if anchor == "mm":
            x, y = x - mask.width / 2, y - (size * 0.55)
        self.room(y + mask.height)
        self.image.paste(fill, (round(x), round(y)), mask)

    def paragraph(
        self, x: int, y: int, text: str, *, size: int = TEXT, fill: RGB = MUTED, width: int | None = None
    ) -> int:
        """Wrapped text; returns the y below it."""
        room = width if width is not None else self.width - PAD - x
        for line in wrap(text, size, room):
            self.text(x, y, line, size=size, fill=fill, width=room)
            y += size + 6
        return y

    def title(self, y: int, text: str, *, kind: str = "title") -> int:
        """A heading across the page; returns the y below it."""
        self.text(PAD, y, text, size=BIG, bold=True, kind=kind)
        return y + BIG + 10

    # ----- shapes and sprites ---------------------------------------------------------------

    def panel(self, box: tuple[int, int, int, int], *, fill: RGB = PANEL, outline: RGB | None = None) -> None:
        self.room(box[3])
        self.draw.rounded_rectangle(box, radius=8, fill=fill, outline=outline, width=3 if outline else 0)
        self._reach(box[3])

    def chip(
        self, x: int, y: int, text: str, *, fill: RGB, ink: RGB, size: int = SMALL, bold: bool = True
    ) -> int:
        """A small rounded label (a seat number, a code); returns the x after it."""
        image, mask = _chip(text, fill, ink, size, bold)
        self.room(y + image.height)
        self.image.paste(image, (x, y), mask)
        self._reach(y + image.height)
        return x + image.width

    def sprite(self, image: Image.Image, x: int, y: int, kind: str | None = None, label: str = "") -> None:
        """Paste a (cached, never modified) sprite and record it."""
        self.room(y + image.height)
        self.image.paste(image, (x, y))
        box = (x, y, x + image.width, y + image.height)
        if kind is not None:
            self.mark(kind, label, box)
        else:
            self._reach(box[3])

    def highlight(self, box: tuple[int, int, int, int], label: str, *, kind: str = "playable") -> None:
        """The playable mark: a thick ring around ``box`` and a check badge on its corner (a shape,
        not a colour alone)."""
        left, top, right, bottom = box
        self.room(bottom + 4)
        self.draw.rounded_rectangle((left - 4, top - 4, right + 3, bottom + 3), radius=9, outline=HIGHLIGHT, width=4)
        badge = 22
        bx, by = right - badge + 6, top - 8
        self.draw.ellipse((bx, by, bx + badge, by + badge), fill=HIGHLIGHT, outline=FELT, width=2)
        self.draw.line((bx + 5, by + 11, bx + 9, by + 16, bx + 17, by + 6), fill=FELT, width=3)
        self.mark(kind, label, (left - 4, top - 8, right + 6, bottom + 3))

    def pointer(self, x: int, y: int, label: str, size: int = 16) -> None:
        """The player to act: a solid triangle pointing right (a shape, beside the name)."""
        self.room(y + size)
        self.draw.polygon([(x, y), (x + size, y + size // 2), (x, y + size)], fill=HIGHLIGHT)
        self.mark("turn", label, (x, y, x + size, y + size))

    def seat_chip(self, x: int, y: int, number: int, *, size: int = SMALL) -> int:
        """A seat's number on its seat colour (the number carries the meaning; the colour helps)."""
        colour = SEAT_COLOURS[(number - 1) % len(SEAT_COLOURS)]
        return self.chip(x, y, str(number), fill=colour, ink=ink_on(colour), size=size)

    def dim(self, box: tuple[int, int, int, int], share: float = 0.55) -> None:
        """Fade what is inside ``box`` towards the felt (a card that cannot be played now)."""
        region = self.image.crop(box)
        self.image.paste(Image.blend(region, Image.new("RGB", region.size, FELT), share), box[:2])

    def ruler(self, y: int) -> int:
        self.draw.line((PAD, y, self.width - PAD, y), fill=blend(FELT, MUTED, 0.35), width=1)
        return y + 8

    # ----- the end ----------------------------------------------------------------------------

    def finish(self) -> Picture:
        height = min(self.image.height, self.bottom + PAD)
        image = self.image.crop((0, 0, self.width, height)) if height < self.image.height else self.image
        return Picture(png=encode_png(image), width=image.width, height=image.height, marks=tuple(self.marks))


@lru_cache(maxsize=2048)
def _chip(text: str, fill: RGB, ink: RGB, size: int, bold: bool) -> tuple[Image.Image, Image.Image]:
    """A chip drawn once: its image and the mask of its rounded shape (pasted on any ground)."""
    width, height = text_width(text, size, bold) + 10, size + 8
    mask = Image.new("L", (width + 1, height + 1), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width, height), radius=6, fill=255)
    image = Image.new("RGB", mask.size, fill)
    image.paste(ink, (5, 3), text_mask(text, size, bold))
    return image, mask


def encode_png(image: Image.Image) -> bytes:
    """The image reduced to the fixed palette (no dithering: flat colours stay flat) as a PNG."""
    reduced = image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    reduced.save(out, "PNG", compress_level=COMPRESSION)
    return out.getvalue()


def flow(widths: Sequence[int], room: int, gap: int = 8) -> list[tuple[int, int]]:
    """Lay items of these widths left to right, wrapping at ``room``: each one's (column x, row
    index), x from 0."""
    places: list[tuple[int, int]] = []
    x = row = 0
    for width in widths:
        if x and x + width > room:
            x, row = 0, row + 1
        places.append((x, row))
        x += width + gap
    return places


def columns(count: int, room: int, gap: int = 8) -> list[tuple[int, int]]:
    """``room`` split into ``count`` equal columns: each one's (x, width), x from 0."""
    width = (room - gap * (count - 1)) // max(1, count)
    return [(index * (width + gap), width) for index in range(count)]
