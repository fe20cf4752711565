"""Fonts: DejaVu Sans from the pinned matplotlib package (nothing fetched, nothing installed apart),
loaded once per size."""

from __future__ import annotations

import importlib.util
import math
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


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans (bold) at ``size`` pixels; Pillow's own scalable default if DejaVu is missing."""
    folder = font_folder()
    if folder is not None:
        path = folder / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
        if path.is_file():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size)


@lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> int:
    return int(font(size, bold).getlength(text)) + 1


@lru_cache(maxsize=4096)
def text_mask(text: str, size: int, bold: bool = False) -> Image.Image:
    """The text's coverage as an "L" image, drawn once: pasting a colour through it is several
    times faster than laying the glyphs out again (board labels repeat from picture to picture)."""
    face = font(size, bold)
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


def wrap(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """``text`` broken into lines of at most ``width`` pixels, at spaces (a word too long is cut)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size, bold) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = fit(word, size, width, bold)
    if current:
        lines.append(current)
    return lines
