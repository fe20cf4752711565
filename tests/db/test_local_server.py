"""The throwaway PostgreSQL server of the tests and the bench (db/postgres/local_server.py): it
starts from the pinned wheel's binaries on a machine without PostgreSQL, as an unprivileged user
when we are root; and in CI a PostgreSQL test that cannot run fails rather than skips."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from db.postgres.local_server import LocalServer, wheel_binaries
from db.postgres.watchdog import alive, stop_server
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


# A process that starts a server and waits to be killed: prints the server's directory, then
# sleeps without ever reaching stop().
_OWNER = """
import sys, time
from db.postgres.local_server import LocalServer, find_binaries
server = LocalServer(find_binaries("wheel")).start()
print(server.directory, flush=True)
time.sleep(600)
"""


@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGKILL])
def test_a_killed_owner_does_not_leave_its_server_running(signal_number):
    """A test run stopped by SIGTERM (which skips pytest's clean-up) or SIGKILL: the watchdog
    stops the server and removes its directory."""
    assert wheel_binaries() is not None, "the pgserver wheel of requirements.txt is not installed"
    owner = subprocess.Popen(
        [sys.executable, "-c", _OWNER], cwd=REPOSITORY, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    pid = 0
    directory = None
    try:
        assert owner.stdout is not None
        directory = Path(owner.stdout.readline().strip())
        pid = int((directory / "data" / "postmaster.pid").read_text().split()[0])
        assert alive(pid)
        owner.send_signal(signal_number)
        owner.wait(timeout=30)
        deadline = time.monotonic() + 60  # a generous bound for a loaded machine, not a speed check
        while (alive(pid) or directory.exists()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(pid), "the server outlived the process that started it"
        assert not directory.exists(), "the server's directory outlived the process that started it"
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
        if pid and directory is not None and (alive(pid) or directory.exists()):
            stop_server(pid, str(directory))  # what the watchdog should have done: leave no server behind


def test_stop_does_not_wait_for_a_forked_child_holding_the_watchdog_pipe():
    """A process forked from the owner (a worker pool, say) inherits the watchdog's pipe: the
    owner's stop() must still end the watchdog at once, and the server must stay stopped."""
    bin_dir = wheel_binaries()
    assert bin_dir is not None, "the pgserver wheel of requirements.txt is not installed"
    server = LocalServer(bin_dir).start()
    child = os.fork()
    if child == 0:  # holds every descriptor of the owner, the pipe's write end among them
        time.sleep(60)
        os._exit(0)
    try:
        server.stop()
        # Killed (-9) means it sat waiting for the child's end of the pipe until stop() gave up.
        assert server.watchdog_exit == 0, "the watchdog was killed, not told"
        assert not server.directory.exists()
    finally:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
