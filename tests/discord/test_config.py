"""Configuration and start-up paths of bot.py that need no Discord at all."""

from __future__ import annotations

import logging
import sys
import types
from pathlib import Path

import pytest

import bot
from config import ConfigError, Settings, load_settings

SETTINGS = ("DISCORD_TOKEN", "DATABASE_PATH", "SYNC_COMMANDS", "DEV_GUILD_ID", "LOG_LEVEL", "VACATION_DAYS_PER_YEAR")
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GfakeX.fake-token-for-tests_only0123456789ab"


@pytest.fixture
def no_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No setting in the environment (restored afterwards, even if a .env file set them)."""
    for name in SETTINGS:
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_defaults() -> None:
    settings = load_settings({})
    assert settings == Settings(token=None, database_path="data/referee.sqlite3", sync_commands=False)
    assert settings.log_level == logging.INFO and settings.dev_guild_id is None


def test_every_setting_is_read() -> None:
    settings = load_settings(
        {
            "DISCORD_TOKEN": f" {TOKEN} ",
            "DATABASE_PATH": "/tmp/x.sqlite3",
            "SYNC_COMMANDS": "Yes",
            "DEV_GUILD_ID": "123456789012345678",
            "LOG_LEVEL": "debug",
            "VACATION_DAYS_PER_YEAR": "21",
        }
    )
    assert settings.token == TOKEN and settings.database_path == "/tmp/x.sqlite3"
    assert settings.sync_commands and settings.dev_guild_id == 123456789012345678
    assert settings.log_level == logging.DEBUG and settings.vacation_days_per_year == 21
    assert TOKEN not in repr(settings) and "token=set" in repr(settings)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        (
            "DISCORD_TOKEN",
            f"Bot {TOKEN}",
            "DISCORD_TOKEN starts with 'Bot '; put only the token itself in .env.",
        ),
        ("DISCORD_TOKEN", "not-a-token", "DISCORD_TOKEN does not look like a bot token"),
        ("SYNC_COMMANDS", "maybe", "SYNC_COMMANDS must be true or false, not 'maybe'."),
        ("DEV_GUILD_ID", "my server", "DEV_GUILD_ID must be a server id"),
        ("LOG_LEVEL", "loud", "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, not 'loud'."),
        ("VACATION_DAYS_PER_YEAR", "400", "VACATION_DAYS_PER_YEAR must be a whole number of days from 0 to 365"),
    ],
)
def test_mistakes_are_explained_in_one_line(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings({name: value})
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_without_a_token_the_local_table_starts_after_one_line(
    no_settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[object] = []
    console = types.ModuleType("console")
    console.main = lambda argv=None: calls.append(argv) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "console", console)
    assert bot.main() == 0
    assert calls == [None]
    out = capsys.readouterr().out
    assert out.splitlines() == [bot.NO_TOKEN_MESSAGE] and "DISCORD_TOKEN" in out and ".env" in out


def test_without_a_token_or_a_local_table_the_message_says_so(
    no_settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "console", None)  # as if console/ were not there
    assert bot.main() == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [bot.NO_TOKEN_MESSAGE]
    assert captured.err.splitlines() == [
        "The local table (console/) is not in this checkout yet; set DISCORD_TOKEN to run on Discord."
    ]


def test_a_bad_setting_in_the_env_file_stops_with_one_line(
    no_settings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (no_settings / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nDEV_GUILD_ID=my-server\n")
    assert bot.main() == 2
    captured = capsys.readouterr()
    [line] = captured.err.splitlines()
    assert line.startswith("Configuration problem: DEV_GUILD_ID must be a server id")
    assert TOKEN not in captured.out + captured.err
