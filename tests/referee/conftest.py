"""Fixtures of the referee tests: the simultaneous "bids" game next to the shared toy Nim."""

from __future__ import annotations

import pytest

from ..registered import registered_game


@pytest.fixture
def bids_game(monkeypatch: pytest.MonkeyPatch):
    yield from registered_game(monkeypatch, "bids", "tests.referee.bids_game")
