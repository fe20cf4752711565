"""The colours every picture uses, and the fixed palette the PNG is reduced to.

Pictures sit on an opaque felt of their own, so they read the same on Discord's dark and light
themes. Colours that carry meaning come from the Okabe-Ito set, chosen to stay apart under
protanopia, deuteranopia and tritanopia, and colour never carries meaning alone: every suit,
family, good or seat colour is drawn with its letter, number or shape beside it
(tests/pictures/test_palette.py checks the contrasts under simulated colour blindness).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

RGB = tuple[int, int, int]

# Grounds: the felt, the panels on it, and the face of a card.
FELT: RGB = (22, 48, 40)
PANEL: RGB = (34, 70, 58)
CARD: RGB = (250, 246, 236)
# Text on the felt and panels, and on card faces.
INK: RGB = (246, 246, 240)
MUTED: RGB = (186, 206, 196)
CARD_INK: RGB = (20, 20, 24)
EDGE: RGB = (60, 60, 66)
# The playable mark (with a check badge, so it is never colour alone), the player on turn.
HIGHLIGHT: RGB = (255, 210, 40)
BACK: RGB = (52, 86, 150)
BACK_LINE: RGB = (150, 180, 230)

# Okabe-Ito: distinguishable under the common colour deficiencies.
ORANGE: RGB = (230, 159, 0)
SKY: RGB = (86, 180, 233)
GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILLION: RGB = (180, 70, 0)  # darker than Okabe-Ito's, so white text on it reads under protanopia
PURPLE: RGB = (204, 121, 167)
BLACK: RGB = (30, 30, 30)
GREY: RGB = (150, 150, 150)
WHITE: RGB = (255, 255, 255)
PINK: RGB = (240, 168, 188)
BROWN: RGB = (150, 98, 52)

# Seat colours (each always beside the seat's number or name).
SEAT_COLOURS: tuple[RGB, ...] = (SKY, ORANGE, PURPLE, GREEN, YELLOW, VERMILLION)

BASE: tuple[RGB, ...] = (
    FELT, PANEL, CARD, INK, MUTED, CARD_INK, EDGE, HIGHLIGHT, BACK, BACK_LINE,
    ORANGE, SKY, GREEN, YELLOW, BLUE, VERMILLION, PURPLE, BLACK, GREY, WHITE, PINK, BROWN,
)  # fmt: skip
GROUNDS: tuple[RGB, ...] = (FELT, PANEL, CARD)


def blend(first: RGB, second: RGB, share: float) -> RGB:
    """``share`` of ``second`` over ``first``."""
    return (
        round(first[0] + (second[0] - first[0]) * share),
        round(first[1] + (second[1] - first[1]) * share),
        round(first[2] + (second[2] - first[2]) * share),
    )


def palette_colours() -> list[RGB]:
    """The base colours and, for the anti-aliased edges, each blended into every ground at a
    quarter, a half and three quarters (at most 256 entries: one PNG palette)."""
    colours: list[RGB] = list(BASE)
    for ground in GROUNDS:
        for colour in BASE:
            for share in (0.25, 0.5, 0.75):
                mixed = blend(ground, colour, share)
                if mixed not in colours:
                    colours.append(mixed)
    return colours[:256]


@cache
def palette_image() -> Image.Image:
    """A one-pixel "P" image carrying the palette, for ``Image.quantize(palette=...)``."""
    from PIL import Image

    image = Image.new("P", (1, 1))
    flat = [channel for colour in palette_colours() for channel in colour]
    image.putpalette(flat + [0] * (768 - len(flat)))
    return image


def _linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def luminance(colour: RGB) -> float:
    """Relative luminance (WCAG 2)."""
    red, green, blue = (_linear(channel) for channel in colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: RGB, second: RGB) -> float:
    """WCAG contrast ratio, 1 to 21."""
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def ink_on(colour: RGB) -> RGB:
    """The text colour that reads best on ``colour``: near-black or white."""
    return CARD_INK if contrast(CARD_INK, colour) >= contrast(WHITE, colour) else WHITE


def with_ink(colours: dict[str, RGB]) -> dict[str, tuple[RGB, RGB]]:
    """Each key's fill with the ink that reads on it (the letters always drawn on a colour)."""
    return {key: (colour, ink_on(colour)) for key, colour in colours.items()}
