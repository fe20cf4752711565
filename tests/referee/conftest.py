"""Fixtures of the referee tests: the simultaneous "bids" game next to the shared toy Nim, and the
hand-driven clock and the referee on it that the clock tests share (a module with another set-up
defines its own ``referee``)."""

from __future__ import annotations

import pytest

from ..registered import registered_game
from .helpers import MONDAY, ManualClock, open_referee


@pytest.fixture
def bids_game(monkeypatch: pytest.MonkeyPatch):
    yield from registered_game(monkeypatch, "bids", "tests.referee.bids_game")


@pytest.fixture
def clock() -> ManualClock:
    """Monday morning, moved only by the test."""
    return ManualClock(MONDAY)


@pytest.fixture
async def referee(tmp_path, clock: ManualClock):
    ref = await open_referee(tmp_path / "referee.sqlite3", clock)
    yield ref
    await ref.store.close()


@pytest.fixture(autouse=True)
def _backend(store_backend: str) -> str:
    """Every referee test opens its store on ``store_backend``'s backend (tests/stores.py)."""
    return store_backend
