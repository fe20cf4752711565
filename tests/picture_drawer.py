"""A tiny drawer for the test games (Nim in tests/toy_game.py, Sprint in tests/discord/sprint.py),
so the picture path of the front ends is tested without depending on a real game's drawer.

It draws what the views hold, as text on a small Pillow image, and marks each seat, score and
card it drew. ``draw_hand`` marks every card of the seat's hand and writes the seat's secret (a
hand picture is private: the tests check it never reaches a public message). A test switches it
on with ``drawing(monkeypatch, game)``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import pytest
from PIL import Image, ImageDraw

from engine.core import Game, Mark, Picture

DRAWS: list[str] = []  # what was drawn, in order ("board", "hand"): tests count the drawings
WIDTH = 320
LINE = 18


def drawing(monkeypatch: pytest.MonkeyPatch, game: Game[Any, Any]) -> None:
    """Make ``game`` draw with this module for the rest of the test."""
    monkeypatch.setattr(game, "draw_module", __name__)
    DRAWS.clear()


def _picture(lines: list[tuple[str, str]]) -> Picture:
    height = LINE * (len(lines) + 1)
    image = Image.new("RGB", (WIDTH, height), "#f7f5ef")
    pen = ImageDraw.Draw(image)
    marks = []
    for row, (kind, label) in enumerate(lines):
        top = LINE // 2 + row * LINE
        pen.text((8, top), label, fill="#1f1f1f")
        marks.append(Mark(kind, label, (8, top, WIDTH - 8, top + LINE)))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return Picture(buffer.getvalue(), WIDTH, height, tuple(marks))


def draw_board(public_view: dict[str, Any], names: Sequence[str]) -> Picture:
    DRAWS.append("board")
    lines = [("seat", name) for name in names]
    lines += [("score", str(score)) for score in public_view.get("scores", [])]
    lines += [("card", card) for card in public_view.get("pile", [])]
    if "tokens" in public_view:
        lines.append(("tokens", str(public_view["tokens"])))
    return _picture(lines)


def draw_hand(seat_view: dict[str, Any], names: Sequence[str]) -> Picture:
    DRAWS.append("hand")
    lines = [("seat", names[seat_view.get("seat", 0)])]
    lines += [("card", card) for card in seat_view.get("hand", [])]
    for key in ("secret", "charm"):
        if key in seat_view:
            lines.append((key, str(seat_view[key])))
    return _picture(lines)
