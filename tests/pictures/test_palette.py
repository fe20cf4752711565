"""The palette under the common colour deficiencies: text stays readable on its ground, the
playable mark stands out from the felt, and the colours that tell suits, families, apples and
goods apart stay apart (they are paired with a letter or a shape as well, asserted per game).

Simulation: Machado, Oliveira and Fernandes (2009), severity 1, applied in linear RGB.
"""

from __future__ import annotations

import itertools

import pytest

from engine.games.granja.draw import GOOD_COLOURS
from engine.games.orchard.draw import COLOUR_STYLE
from engine.games.vegetables.draw import FAMILY_COLOURS
from engine.pictures import palette
from engine.pictures.cards import SUIT_COLOURS
from engine.pictures.palette import (
    CARD,
    CARD_INK,
    FELT,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    SEAT_COLOURS,
    contrast,
    ink_on,
)

MACHADO = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _to_linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def _to_srgb(value: float) -> int:
    value = min(1.0, max(0.0, value))
    return round(255 * (value * 12.92 if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055))


def seen(colour, deficiency):
    linear = [_to_linear(channel) for channel in colour]
    return tuple(_to_srgb(sum(m * c for m, c in zip(row, linear, strict=True))) for row in MACHADO[deficiency])


def distance(first, second):
    return sum((a - b) ** 2 for a, b in zip(first, second, strict=True)) ** 0.5


ACCENTS = [*SUIT_COLOURS.values(), *(c for c, _ in FAMILY_COLOURS.values()), *(c for c, _, _ in COLOUR_STYLE.values()),
           *(c for c, _ in GOOD_COLOURS.values()), *SEAT_COLOURS]  # fmt: skip


@pytest.mark.parametrize("deficiency", list(MACHADO))
def test_text_reads_on_its_ground(deficiency):
    for ink, ground in ((INK, FELT), (INK, PANEL), (MUTED, FELT), (MUTED, PANEL), (CARD_INK, CARD)):
        assert contrast(seen(ink, deficiency), seen(ground, deficiency)) >= 4.5, (ink, ground)
    for accent in ACCENTS:  # the code or number written on a coloured band, chip or token
        assert contrast(seen(ink_on(accent), deficiency), seen(accent, deficiency)) >= 4.5, accent


@pytest.mark.parametrize("deficiency", list(MACHADO))
def test_the_playable_mark_stands_out(deficiency):
    assert contrast(seen(HIGHLIGHT, deficiency), seen(FELT, deficiency)) >= 3.0
    assert contrast(seen(HIGHLIGHT, deficiency), seen(PANEL, deficiency)) >= 3.0


@pytest.mark.parametrize("deficiency", list(MACHADO))
@pytest.mark.parametrize("name, colours", [
    ("suits", list(SUIT_COLOURS.values())),
    ("families", [c for c, _ in FAMILY_COLOURS.values()]),
    ("apples", [c for c, _, _ in COLOUR_STYLE.values()]),
])  # fmt: skip
def test_small_sets_stay_apart(deficiency, name, colours):
    """Four suits, five families, three apples: each pair differs by a visible step even when
    seen with a deficiency (the letters and shapes say it anyway)."""
    for first, second in itertools.combinations(colours, 2):
        assert distance(seen(first, deficiency), seen(second, deficiency)) >= 40, (name, first, second)


def test_the_palette_fits_one_png_palette():
    assert len(palette.palette_colours()) <= 256


def test_text_too_small_for_a_phone_is_refused():
    from engine.pictures.canvas import MIN_TEXT, WIDTH, Canvas

    assert WIDTH <= 800 and MIN_TEXT * 400 / WIDTH >= 8  # at least 8 px when shown 400 wide
    with pytest.raises(ValueError):
        Canvas().text(0, 0, "tiny", size=MIN_TEXT - 1)


def test_the_page_grows_when_drawn_lower_and_keeps_what_was_drawn():
    from engine.pictures.canvas import HEIGHT, Canvas

    page = Canvas()
    page.text(10, 10, "top", kind="title")
    page.panel((10, HEIGHT + 500, 200, HEIGHT + 560))
    page.text(20, HEIGHT + 520, "far below", kind="note")
    picture = page.finish()
    assert picture.height > HEIGHT + 560
    assert picture.labels("title") == ["top"] and picture.labels("note") == ["far below"]
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(picture.png)).convert("RGB")
    assert image.getpixel((12, 14)) != image.getpixel((5, 5))  # the first text survived the growth
