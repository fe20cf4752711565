"""Fixtures of the language tests."""

from __future__ import annotations

from typing import Any

import pytest

from engine.pictures.canvas import Canvas


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the pictures write (Canvas.write draws each line of text)."""
    written: list[str] = []
    original = Canvas.write

    def write(self: Canvas, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> None:
        written.append(text)
        original(self, x, y, text, *args, **kwargs)

    monkeypatch.setattr(Canvas, "write", write)
    return written
