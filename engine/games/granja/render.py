"""Plain-text rendering of the board and of one seat's private part (placeholder)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def render_board(view: dict[str, Any], names: Sequence[str]) -> str:
    return f"Granja round {view['round']} {view['phase_name']}"


def render_private(view: dict[str, Any], names: Sequence[str]) -> str:
    return "\n".join(view.get("options", []))
