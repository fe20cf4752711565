"""The throwaway PostgreSQL server of the tests and the bench (db/postgres/local_server.py): it
starts from the pinned wheel's binaries on a machine without PostgreSQL, as an unprivileged user
when we are root; and in CI a PostgreSQL test that cannot run fails rather than skips."""

from __future__ import annotations

import os
import subprocess
import sys

import asyncpg
import pytest

from db.postgres.local_server import LocalServer, wheel_binaries
from tests.standalone_guard import REPOSITORY

pytestmark = pytest.mark.postgres


async def test_the_pinned_wheel_starts_a_server_by_itself():
    bin_dir = wheel_binaries()
    assert bin_dir is not None, "the pgserver wheel of requirements.txt is not installed"
    server = LocalServer(bin_dir).start()
    try:
        connection = await asyncpg.connect(server.url())
        try:
            assert (await connection.fetchval("SHOW server_version")).startswith("16.")
            owner = await connection.fetchval("SELECT current_setting('data_directory')")
            assert owner == str(server.data)
        finally:
            await connection.close()
        if os.geteuid() == 0:  # PostgreSQL refuses root: the server runs as someone else
            assert os.stat(server.data).st_uid != 0
    finally:
        server.stop()
    assert not server.directory.exists()


def run_pytest(environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """One PostgreSQL test of this suite, in a pytest of its own, as on a machine without
    PostgreSQL binaries."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "postgres",
         "tests/db/test_shared_store.py::test_reopening_finds_every_move_of_every_referee"],
        cwd=REPOSITORY, capture_output=True, text=True, timeout=300,
        env={**os.environ, "TEST_POSTGRES_BINARIES": "none", **environment},
    )  # fmt: skip


def test_without_a_server_postgresql_tests_skip_but_fail_in_ci():
    local = run_pytest({"CI": "false"})
    assert local.returncode == 0 and "1 skipped" in local.stdout, local.stdout[-2000:]
    ci = run_pytest({"CI": "true"})
    assert ci.returncode == 1 and "1 skipped" not in ci.stdout, ci.stdout[-2000:]  # an error at set-up
    assert "CI=true: a PostgreSQL test may not skip" in ci.stdout
