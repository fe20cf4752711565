"""Fixtures of the store tests (the simultaneous "bids" game of the referee tests)."""

from tests.referee.conftest import bids_game  # noqa: F401
