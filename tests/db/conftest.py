"""Fixtures of the store tests (the simultaneous "bids" game of the referee tests)."""

import pytest

from tests.referee.conftest import bids_game  # noqa: F401


@pytest.fixture(autouse=True)
def _backend(store_backend: str) -> str:
    """Every store test opens its store on ``store_backend``'s backend (tests/stores.py)."""
    return store_backend
