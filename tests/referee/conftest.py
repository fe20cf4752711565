"""Fixtures of the referee tests: the simultaneous "bids" game next to the shared toy Nim."""

from __future__ import annotations

import pytest

from engine.games import REGISTRY, get_game


@pytest.fixture
def bids_game(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(REGISTRY, "bids", "tests.referee.bids_game")
    get_game.cache_clear()
    yield get_game("bids")
    get_game.cache_clear()
