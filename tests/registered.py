"""Registering a test-only game for one test: the shared body of the toy-game fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine.games import REGISTRY, get_game


def registered_game(monkeypatch: pytest.MonkeyPatch, name: str, module: str) -> Iterator[Any]:
    """Yield the game `module` registered as `name`; the lookup cache is cleared on both sides so
    that no other test sees it (monkeypatch takes the registry entry back)."""
    monkeypatch.setitem(REGISTRY, name, module)
    get_game.cache_clear()
    yield get_game(name)
    get_game.cache_clear()
