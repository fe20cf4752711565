"""Card sprites drawn from geometry and text: an Italian-suited card, a generic labelled card and a
card back. Each is drawn once at twice its size, reduced (smooth edges) and cached; callers paste
them and never modify them.

Colour is never alone: an Italian card shows its rank and suit letter (its move notation) and
its suit's shape (denari a coin, coppe a cup, spade a sword, bastoni a club); a labelled card
shows its code.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from .fonts import fit, font, text_width
from .palette import (
    BACK,
    BACK_LINE,
    BLUE,
    BROWN,
    CARD,
    CARD_INK,
    EDGE,
    ORANGE,
    RGB,
    VERMILLION,
    WHITE,
    YELLOW,
    blend,
)

SCALE = 2  # sprites are drawn at twice their size, then reduced
# Bastoni are wooden clubs: brown (a green staff was too close to the blue swords under tritanopia).
SUIT_COLOURS: dict[str, RGB] = {"d": ORANGE, "c": VERMILLION, "s": BLUE, "b": BROWN}
FIGURE_RANKS = "JNK"


def _face(width: int, height: int, fill: RGB = CARD, edge: RGB = EDGE) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width * SCALE, height * SCALE), fill)
    draw = ImageDraw.Draw(image)
    return image, draw


def _reduce(image: Image.Image, width: int, height: int, background: RGB) -> Image.Image:
    """Shrink to size and round the corners onto ``background`` (the ground it is pasted on)."""
    small = image.resize((width, height), Image.Resampling.LANCZOS)
    mask = Image.new("L", (width * SCALE, height * SCALE), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width * SCALE - 1, height * SCALE - 1), radius=7 * SCALE, fill=255)
    ground = Image.new("RGB", (width, height), background)
    ground.paste(small, (0, 0), mask.resize((width, height), Image.Resampling.LANCZOS))
    return ground


def _outline(draw: ImageDraw.ImageDraw, width: int, height: int, edge: RGB = EDGE) -> None:
    draw.rounded_rectangle((1, 1, width * SCALE - 2, height * SCALE - 2), radius=7 * SCALE, outline=edge, width=2 * SCALE)


# ----- the four Italian suits, centred on (x, y) within a square of side s --------------------------


def _coin(draw: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    r = s / 2
    draw.ellipse((x - r, y - r, x + r, y + r), fill=ORANGE, outline=CARD_INK, width=max(2, int(s / 16)))
    inner = r * 0.62
    draw.ellipse((x - inner, y - inner, x + inner, y + inner), outline=YELLOW, width=max(2, int(s / 12)))
    dot = r * 0.2
    draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=CARD_INK)


def _cup(draw: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    line = max(2, int(s / 18))
    rim, top = s * 0.5, y - s * 0.5
    draw.pieslice((x - rim, top - s * 0.5, x + rim, top + s * 0.6), 0, 180, fill=VERMILLION, outline=CARD_INK, width=line)
    draw.rectangle((x - s * 0.08, top + s * 0.56, x + s * 0.08, y + s * 0.36), fill=VERMILLION, outline=CARD_INK, width=line)
    draw.ellipse((x - s * 0.34, y + s * 0.28, x + s * 0.34, y + s * 0.52), fill=VERMILLION, outline=CARD_INK, width=line)


def _sword(draw: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    line = max(2, int(s / 18))
    blade = [(x, y - s * 0.6), (x + s * 0.12, y - s * 0.42), (x + s * 0.1, y + s * 0.16), (x - s * 0.1, y + s * 0.16), (x - s * 0.12, y - s * 0.42)]
    draw.polygon(blade, fill=BLUE, outline=CARD_INK, width=line)
    draw.rectangle((x - s * 0.36, y + s * 0.14, x + s * 0.36, y + s * 0.26), fill=BLUE, outline=CARD_INK, width=line)
    draw.rectangle((x - s * 0.06, y + s * 0.26, x + s * 0.06, y + s * 0.44), fill=CARD_INK)
    draw.ellipse((x - s * 0.1, y + s * 0.42, x + s * 0.1, y + s * 0.6), fill=BLUE, outline=CARD_INK, width=line)


def _club(draw: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    line = max(2, int(s / 18))
    # A knotted staff leaning right, thicker at the head, with stubs of cut branches.
    stick = [(x + s * 0.12, y - s * 0.6), (x + s * 0.4, y - s * 0.46), (x - s * 0.14, y + s * 0.6), (x - s * 0.34, y + s * 0.52)]
    for t, side in ((0.3, -1), (0.55, 1), (0.8, -1)):
        kx = x + s * 0.26 - t * s * 0.56
        ky = y - s * 0.53 + t * s * 1.1
        stub = [(kx, ky - s * 0.06), (kx + side * s * 0.26, ky - s * 0.02 * side - s * 0.06), (kx + side * s * 0.26, ky + s * 0.06), (kx, ky + s * 0.08)]
        draw.polygon(stub, fill=BROWN, outline=CARD_INK, width=line)
    draw.polygon(stick, fill=BROWN, outline=CARD_INK, width=line)


SUIT_SHAPES = {"d": _coin, "c": _cup, "s": _sword, "b": _club}


def suit_symbol(draw: ImageDraw.ImageDraw, suit: str, x: float, y: float, size: float) -> None:
    SUIT_SHAPES[suit](draw, x, y, size)


@lru_cache(maxsize=512)
def italian_card(code: str, width: int = 64, height: int = 96, background: RGB = CARD) -> Image.Image:
    """An Italian-suited card: its code in two corners (``7`` big, ``c`` small), its suit's shape in
    the middle, and an inner frame on the figures (J fante, N cavallo, K re)."""
    rank, suit = code[0], code[1]
    image, draw = _face(width, height)
    w, h = width * SCALE, height * SCALE
    colour = SUIT_COLOURS[suit]
    if rank in FIGURE_RANKS:
        inset = 5 * SCALE
        draw.rounded_rectangle((inset, inset, w - inset, h - inset), radius=5 * SCALE, outline=blend(CARD, colour, 0.8), width=3 * SCALE)
    big, small = font(int(width * 0.34) * SCALE, True), font(int(width * 0.22) * SCALE, True)
    left = 8 * SCALE
    draw.text((left, 5 * SCALE), rank, font=big, fill=CARD_INK)
    draw.text((left + int(big.getlength(rank)) + SCALE, 5 * SCALE + int(width * 0.11) * SCALE), suit, font=small, fill=CARD_INK)
    size = min(w, h) * 0.56
    suit_symbol(draw, suit, w / 2, h * 0.58, size)
    corner = big.getlength(rank) + small.getlength(suit)
    draw.text((w - left - corner, h - int(width * 0.4) * SCALE), rank, font=big, fill=CARD_INK)
    draw.text((w - left - small.getlength(suit), h - int(width * 0.29) * SCALE), suit, font=small, fill=CARD_INK)
    _outline(draw, width, height)
    return _reduce(image, width, height, background)


@lru_cache(maxsize=1024)
def labelled_card(
    main: str,
    band: str,
    accent: RGB,
    band_ink: RGB,
    width: int = 60,
    height: int = 84,
    foot: str = "",
    background: RGB = CARD,
) -> Image.Image:
    """A generic card: a band in its ``accent`` colour naming it (``band``, in ``band_ink``), the big
    ``main`` label, and an optional ``foot`` line."""
    image, draw = _face(width, height)
    w, h = width * SCALE, height * SCALE
    band_height = int(h * 0.3)
    draw.rectangle((0, 0, w, band_height), fill=accent)
    band_size = max(11, int(min(width * 0.22, height * 0.2)))
    shown = fit(band, band_size, width - 6, True)
    draw.text(((w - text_width(shown, band_size, True) * SCALE) / 2, (band_height - band_size * SCALE) / 2 - SCALE),
              shown, font=font(band_size * SCALE, True, shown), fill=band_ink)  # fmt: skip
    main_size = max(12, min(int(width * 0.36), int(height * 0.34)))
    while main_size > 10 and text_width(main, main_size, True) > width - 6:
        main_size -= 1
    body_bottom = h - (int(h * 0.22) if foot else 0)
    y = band_height + (body_bottom - band_height - main_size * SCALE) / 2 - 2 * SCALE
    draw.text(((w - text_width(main, main_size, True) * SCALE) / 2, y), main, font=font(main_size * SCALE, True, main), fill=CARD_INK)
    if foot:
        foot_size = max(10, int(height * 0.16))
        shown = fit(foot, foot_size, width - 6)
        draw.text(((w - text_width(shown, foot_size) * SCALE) / 2, h - int(h * 0.22)), shown, font=font(foot_size * SCALE, False, shown), fill=CARD_INK)
    _outline(draw, width, height)
    return _reduce(image, width, height, background)


@lru_cache(maxsize=64)
def card_back(width: int = 40, height: int = 56, label: str = "", background: RGB = CARD) -> Image.Image:
    """A card back: a lattice on blue, and ``label`` (a count) in a white disc when given."""
    image, draw = _face(width, height, BACK)
    w, h = width * SCALE, height * SCALE
    step = 8 * SCALE
    for offset in range(-h, w + h, step):
        draw.line((offset, 0, offset + h, h), fill=blend(BACK, BACK_LINE, 0.5), width=SCALE)
        draw.line((offset + h, 0, offset, h), fill=blend(BACK, BACK_LINE, 0.5), width=SCALE)
    if label:
        size = max(12, int(min(width, height) * 0.38))
        r = (text_width(label, size, True) / 2 + 6) * SCALE
        r = max(r, size * 0.75 * SCALE)
        draw.ellipse((w / 2 - r, h / 2 - r * 0.8, w / 2 + r, h / 2 + r * 0.8), fill=WHITE, outline=CARD_INK, width=SCALE)
        draw.text((w / 2, h / 2), label, font=font(size * SCALE, True, label), fill=CARD_INK, anchor="mm")
    _outline(draw, width, height, BACK_LINE)
    return _reduce(image, width, height, background)
