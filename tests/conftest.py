"""Shared fixtures, and the guard that keeps the suite from reading anything beside the repository."""

from __future__ import annotations

import os

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


# ----- the two store backends (tests/stores.py) -------------------------------------------------


def pytest_configure(config: pytest.Config) -> None:
    # The tests expect English unless they choose a language themselves: the terminal of the
    # machine running them (its LANG, LANGUAGE...) must not choose for the local table's processes.
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        os.environ.pop(variable, None)
    os.environ["LANG"] = "C.UTF-8"
    config.addinivalue_line("markers", "postgres: needs the PostgreSQL server (pytest -m postgres runs them alone)")
    config.addinivalue_line("markers", "both_backends: run each test on SQLite and on PostgreSQL (tests/stores.py)")
    config.addinivalue_line("markers", "sqlite_only: a test of SQLite's own files or connection (one run only)")
    config.addinivalue_line("markers", "postgres_only: a test of the PostgreSQL store's own workings (one run only)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "store_backend" not in metafunc.fixturenames:
        return
    if metafunc.definition.get_closest_marker("both_backends") is None:
        return
    if metafunc.definition.get_closest_marker("sqlite_only") is not None:
        return
    postgres = pytest.param("postgres", marks=pytest.mark.postgres)
    only = metafunc.definition.get_closest_marker("postgres_only") is not None
    metafunc.parametrize("store_backend", [postgres] if only else ["sqlite", postgres], indirect=True)


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """In CI, a PostgreSQL test that would skip fails instead: a missing server must not pass
    unnoticed."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and _in_ci() and item.get_closest_marker("postgres") is not None:
        report.outcome = "failed"
        report.longrepr = f"CI=true: a PostgreSQL test may not skip ({report.longrepr})"


@pytest.fixture(scope="session")
def pg_server():
    """One PostgreSQL server for the session, started when a test first needs it."""
    from db.postgres.local_server import LocalServer, find_binaries

    from .stores import make_template, run_aside

    # TEST_POSTGRES_BINARIES: "wheel" (only the pinned wheel's), "none" (as on a machine without
    # any: how tests/db/test_local_server.py checks the CI rule), else the system's, then the wheel's.
    prefer = os.environ.get("TEST_POSTGRES_BINARIES", "system")
    bin_dir = None if prefer == "none" else find_binaries(prefer)
    if bin_dir is None:
        pytest.skip("no PostgreSQL binaries (neither installed nor from the pgserver wheel)")
    server = LocalServer(bin_dir).start()
    try:
        run_aside(make_template(server))
        yield server
    finally:
        server.stop()


@pytest.fixture
def store_backend(request: pytest.FixtureRequest):
    """``sqlite`` (the default) or ``postgres`` (parametrised by pytest_generate_tests): which
    store ``tests.stores.open_test_store`` opens during this test."""
    from . import stores
    from .stores import run_aside

    name = getattr(request, "param", "sqlite")
    if name != "postgres":
        yield name
        return
    backend = stores.PostgresBackend(request.getfixturevalue("pg_server"))
    stores.current = backend
    try:
        yield name
    finally:
        stores.current = None
        run_aside(backend.drop_all())
