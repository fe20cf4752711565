"""Shared fixtures, and the guard that keeps the suite from reading anything beside the repository."""

from __future__ import annotations

import pytest

from .registered import registered_game
from .standalone_guard import StandaloneGuard, install

# Installed when pytest loads this file, before any test module is imported, for the whole session.
GUARD: StandaloneGuard = install()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the session if anything beside the repository was opened or listed (see standalone_guard)."""
    if GUARD.outside:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if GUARD.outside:
        terminalreporter.section("paths outside the repository", red=True, bold=True)
        for path, event in sorted(GUARD.outside.items()):
            terminalreporter.write_line(f"{event}: {path}")
        terminalreporter.write_line("The project must stand alone: put what the tests need inside the repository.")


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch):
    """Register the tiny Nim game from tests/toy_game.py for the duration of a test."""
    yield from registered_game(monkeypatch, "nim", "tests.toy_game")
