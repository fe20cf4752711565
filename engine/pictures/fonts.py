"""Fonts: DejaVu Sans from the pinned matplotlib package, and IPAex Gothic from the pinned
matplotlib-fontja package for what DejaVu cannot draw (Japanese text, a Japanese player's name in
an English game); nothing fetched at run time, each face loaded once per size.

Every text is drawn with the first face that has a glyph for each of its characters (DejaVu Sans
first: the pictures look as they always did in English, Italian and Portuguese), so that no text
shows the "tofu" boxes of a missing glyph; what neither face has (emoji in a player's name) is
left out (``drawable``). The same two faces serve the matplotlib charts
(``chart_families``), whose own font fallback picks one per character.
"""

from __future__ import annotations

import importlib.util
import logging
import math
import re
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont


@cache
def font_folder() -> Path | None:
    """matplotlib's bundled TrueType folder, found without importing matplotlib (slow to import)."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(list(spec.submodule_search_locations)[0]) / "mpl-data" / "fonts" / "ttf"
    return folder if folder.is_dir() else None


# The Japanese face of matplotlib-fontja (its ``get_font_ttf_path()``), and the family name
# matplotlib knows it by. Found without importing the package: importing it changes matplotlib's
# global default font (``japanize``), which the charts must not depend on.
JAPANESE_FAMILY = "IPAexGothic"
_JAPANESE_FILE = ("fonts", "ipaexg.ttf")
LATIN_FAMILY = "DejaVu Sans"
CJK_START = 0x2E80  # from here on (CJK radicals, kana, ideographs, full-width forms) a line may break anywhere
_NO_LINE_START = frozenset("、。，．・：；？！ー）」』】〉》ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
# Spaces, a CJK character alone, or a run of other characters (a word, digits).
_UNITS = re.compile("\\s+|[\u2e80-\U0010ffff]|[^\\s\u2e80-\U0010ffff]+")


@cache
def japanese_font_file() -> Path | None:
    """IPAex Gothic, shipped by the pinned matplotlib-fontja package (None if it is missing)."""
    spec = importlib.util.find_spec("matplotlib_fontja")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]).joinpath(*_JAPANESE_FILE)
    return path if path.is_file() else None


def _latin_file(bold: bool) -> Path | None:
    folder = font_folder()
    if folder is None:
        return None
    path = folder / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return path if path.is_file() else None


@cache
def coverage(path: Path) -> frozenset[int]:
    """The code points a font file has glyphs for (its best Unicode cmap, read with fontTools)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    with TTFont(str(path), lazy=True) as face:
        table = face.getBestCmap() or {}
    return frozenset(table)


def _needs(text: str) -> frozenset[int]:
    # Spaces and control characters draw nothing, whatever the face.
    return frozenset(ord(char) for char in text if char.isprintable() and not char.isspace())


@lru_cache(maxsize=8192)
def font_file(text: str, bold: bool = False) -> Path | None:
    """The first face that draws every character of ``text``: DejaVu Sans (bold), else IPAex
    Gothic (which has no bold: its regular weight), else DejaVu anyway (nothing draws it all)."""
    latin = _latin_file(bold)
    needed = _needs(text)
    if latin is None or needed <= coverage(latin):
        return latin
    japanese = japanese_font_file()
    if japanese is not None and needed <= coverage(japanese) | coverage(latin):
        if needed <= coverage(japanese):
            return japanese
        # Mixed text neither face draws alone (a rare symbol of DejaVu's beside kana): the face
        # that draws more of it.
        missing_latin = len(needed - coverage(latin))
        return japanese if len(needed - coverage(japanese)) < missing_latin else latin
    return latin


@cache
def _drawn_anywhere() -> frozenset[int]:
    """The code points one of the two faces has a glyph for."""
    covered: frozenset[int] = frozenset()
    for path in (_latin_file(False), _latin_file(True), japanese_font_file()):
        if path is not None:
            covered |= coverage(path)
    return covered


@lru_cache(maxsize=8192)
def drawable(text: str) -> str:
    """``text`` without the characters neither face draws (the emoji of a Discord name, with
    their joiners and variation selectors; a script of neither face): each would be a tofu box.
    The spaces they leave are closed up; a text of nothing else becomes "?"."""
    covered = _drawn_anywhere()
    if not covered:  # no face file at all: Pillow's default face draws what it can
        return text
    kept = "".join(char for char in text if char.isspace() or ord(char) in covered)
    if len(kept) == len(text):
        return text
    kept = " ".join(kept.split())
    return kept if _needs(kept) else "?"


@cache
def _face(path: Path | None, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    if path is None:
        return ImageFont.load_default(size)
    return ImageFont.truetype(str(path), size)


def font(size: int, bold: bool = False, text: str = "") -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The face for ``text`` (``font_file``) at ``size`` pixels; DejaVu Sans (bold) without a
    text; Pillow's own scalable default if DejaVu is missing."""
    return _face(font_file(text, bold), size)


def chart_families() -> list[str]:
    """The font families of the matplotlib charts, in the order matplotlib falls back through
    them per character; registers IPAex Gothic with matplotlib once."""
    _register_japanese()
    return [LATIN_FAMILY, JAPANESE_FAMILY]


class _NoBoldJapanese(logging.Filter):
    """IPAex Gothic has one weight: matplotlib draws a bold title in it with the regular one and
    says so at every drawing; that is expected, not worth a log line each time."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not (JAPANESE_FAMILY in message and "Failed to find font weight" in message)


@cache
def _register_japanese() -> None:
    path = japanese_font_file()
    if path is not None:
        from matplotlib import font_manager

        font_manager.fontManager.addfont(str(path))
        logging.getLogger("matplotlib.font_manager").addFilter(_NoBoldJapanese())


def missing_glyphs(text: str, faces: Iterable[Path | None]) -> str:
    """The characters of ``text`` none of ``faces`` has a glyph for (tests: no tofu)."""
    covered: frozenset[int] = frozenset()
    for path in faces:
        if path is not None:
            covered |= coverage(path)
    return "".join(sorted({chr(point) for point in _needs(text) - covered}))


@lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> int:
    text = drawable(text)
    return int(font(size, bold, text).getlength(text)) + 1


@lru_cache(maxsize=4096)
def text_mask(text: str, size: int, bold: bool = False) -> Image.Image:
    """The text's coverage as an "L" image, drawn once: pasting a colour through it is several
    times faster than laying the glyphs out again (board labels repeat from picture to picture)."""
    text = drawable(text)
    face = font(size, bold, text)
    _, _, right, bottom = face.getbbox(text)
    mask = Image.new("L", (max(1, math.ceil(right)), max(1, math.ceil(bottom))), 0)
    ImageDraw.Draw(mask).text((0, 0), text, font=face, fill=255)
    return mask


def fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` pixels."""
    if text_width(text, size, bold) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        middle = (low + high + 1) // 2
        if text_width(text[:middle] + "…", size, bold) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low] + "…"


def _units(text: str) -> list[tuple[str, bool]]:
    """What a line may break between, each with whether a space comes before it: words, and each
    character of CJK text (Japanese writes no spaces between words: it breaks between any two
    characters)."""
    units: list[tuple[str, bool]] = []
    spaced = False
    for match in _UNITS.finditer(text):
        piece = match.group()
        if piece.isspace():
            spaced = True
            continue
        units.append((piece, spaced))
        spaced = False
    return units


def wrap(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """``text`` broken into lines of at most ``width`` pixels, at spaces and between CJK
    characters (a word too long is cut)."""
    lines: list[str] = []
    current = ""
    for unit, spaced in _units(text):
        candidate = (f"{current} {unit}" if spaced else current + unit) if current else unit
        if text_width(candidate, size, bold) <= width:
            current = candidate
            continue
        if unit in _NO_LINE_START and not spaced and len(current) > 1 and ord(current[-1]) >= CJK_START:
            # Japanese never starts a line with a closing mark or a small kana: the character
            # before it comes along.
            lines.append(current[:-1])
            current = current[-1] + unit
            continue
        if current:
            lines.append(current)
        current = fit(unit, size, width, bold)
    if current:
        lines.append(current)
    return lines
