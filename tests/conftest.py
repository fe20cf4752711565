"""Shared fixtures."""

from __future__ import annotations

import pytest

from engine.games import REGISTRY, get_game


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch):
    """Register the tiny Nim game from tests/toy_game.py for the duration of a test."""
    monkeypatch.setitem(REGISTRY, "nim", "tests.toy_game")
    get_game.cache_clear()
    yield get_game("nim")
    get_game.cache_clear()
