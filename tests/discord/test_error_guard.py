"""The guard that fails any Discord test whose bot logged an error sees every phase of the test."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

GUARDED = '''
import logging
import pytest
from tests.discord.helpers import errors_logged

@pytest.fixture
def guarded(caplog):
    yield
    errors = errors_logged(caplog)
    assert not errors, f"the bot logged errors: {errors}"

def test_logs_an_error_while_it_runs(guarded):
    logging.getLogger("bot").error("command /leaderboard failed")
'''


def test_an_error_logged_during_the_test_fails_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_guarded=GUARDED)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:asyncio")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*AssertionError: the bot logged errors: *command /leaderboard failed*"])
