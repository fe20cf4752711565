"""What a drawer hands back: the image and a record of what it drew."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mark:
    """One thing drawn: its kind ("card", "seat", "score", "field", ...), the words or notation it
    shows (a card's notation, a seat's name...) and its box (left, top, right, bottom) in pixels."""

    kind: str
    label: str
    box: tuple[int, int, int, int]


@dataclass(frozen=True)
class Picture:
    """A PNG image with the marks that were drawn on it."""

    png: bytes
    width: int
    height: int
    marks: tuple[Mark, ...] = ()

    def labels(self, kind: str) -> list[str]:
        """The labels of every mark of one kind, in drawing order."""
        return [mark.label for mark in self.marks if mark.kind == kind]
