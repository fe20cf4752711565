"""Configuration and start-up paths of bot.py that need no Discord at all."""

from __future__ import annotations

import logging
import re
import sys
import types
from pathlib import Path

import pytest

import bot
from config import ConfigError, Settings, load_settings

SETTINGS = (
    "DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "SYNC_COMMANDS", "DEV_GUILD_ID", "LOG_LEVEL", "SHARD_COUNT",
    "SHARD_IDS", "VACATION_DAYS_PER_YEAR",
)  # fmt: skip
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


def test_shards_of_this_process_are_read_as_ranges_and_lists() -> None:
    assert load_settings({}).shard_count is None and not load_settings({}).shares_store
    settings = load_settings({"SHARD_COUNT": "8", "SHARD_IDS": "0-3"})
    assert (settings.shard_count, settings.shard_ids, settings.shares_store) == (8, (0, 1, 2, 3), True)
    assert load_settings({"SHARD_COUNT": "8", "SHARD_IDS": " 5, 0,2 "}).shard_ids == (0, 2, 5)
    assert load_settings({"SHARD_COUNT": "8", "SHARD_IDS": "6-7,0-1"}).shard_ids == (0, 1, 6, 7)
    # Every shard in one process: nobody else shares the database.
    alone = load_settings({"SHARD_COUNT": "2"})
    assert (alone.shard_count, alone.shard_ids, alone.shares_store) == (2, None, False)
    assert not load_settings({"SHARD_COUNT": "2", "SHARD_IDS": "0-1"}).shares_store


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"SHARD_IDS": "0-3"}, "SHARD_IDS=0-3 needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be the bot's total number of shards"),
        ({"SHARD_COUNT": "eight"}, "not 'eight'"),
        ({"SHARD_COUNT": "123456789012345678"}, "from 1 to 100,000"),
        ({"SHARD_COUNT": "8", "SHARD_IDS": "0-3x"}, "like 0-3 or 0,2,5, not '0-3x'"),
        ({"SHARD_COUNT": "8", "SHARD_IDS": "0,,2"}, "like 0-3 or 0,2,5"),
        ({"SHARD_COUNT": "8", "SHARD_IDS": "-1"}, "like 0-3 or 0,2,5"),
        ({"SHARD_COUNT": "8", "SHARD_IDS": "5-2"}, "goes backwards; write it 2-5"),
        ({"SHARD_COUNT": "8", "SHARD_IDS": "4-8"}, "names shard 8, but with SHARD_COUNT=8 the shards are 0 to 7"),
        ({"SHARD_COUNT": "8", "SHARD_IDS": "0-3,3"}, "lists shard 3 twice"),
    ],
)
def test_bad_shard_settings_say_how_to_fix_them(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_settings(environ)


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


def test_database_url_selects_postgresql_and_its_password_is_never_shown() -> None:
    assert load_settings({}).database == "data/referee.sqlite3"  # SQLite without DATABASE_URL
    settings = load_settings({"DATABASE_URL": " postgresql://bot:s3cret@db.example:5432/referee "})
    assert settings.database_url == "postgresql://bot:s3cret@db.example:5432/referee"
    assert settings.database == settings.database_url
    assert "s3cret" not in repr(settings) and "postgresql://bot:***@db.example:5432/referee" in repr(settings)
    with pytest.raises(ConfigError, match="DATABASE_URL must name a PostgreSQL database"):
        load_settings({"DATABASE_URL": "mysql://x@y/z"})


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
