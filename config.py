"""Configuration of the Discord bot, read from the environment (and a .env file loaded by bot.py).

Every setting is checked here, once, so that a mistake ends the start-up with one sentence that
says what is wrong and how to fix it, instead of a traceback later on.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from db import DEFAULT_DATABASE_PATH, is_postgres_url, redacted

DEVELOPER_PORTAL = "https://discord.com/developers/applications"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off", "")


class ConfigError(Exception):
    """A setting is missing or malformed; ``str(error)`` is one line saying how to fix it."""


@dataclass(frozen=True)
class Settings:
    token: str | None  # None: no Discord bot, bot.py starts the local terminal table instead
    database_path: str = DEFAULT_DATABASE_PATH
    sync_commands: bool = False
    dev_guild_id: int | None = None
    log_level: int = logging.INFO
    database_url: str | None = None  # PostgreSQL (DATABASE_URL); None: the SQLite file above

    @property
    def database(self) -> str:
        """What the store opens: the PostgreSQL URL when set, else the SQLite file."""
        return self.database_url or self.database_path

    def __repr__(self) -> str:
        # The token must never end up in a log line or a traceback.
        token = "set" if self.token else "unset"
        return (
            f"Settings(token={token}, database_path={self.database_path!r}, "
            f"database_url={None if self.database_url is None else redacted(self.database_url)!r}, "
            f"sync_commands={self.sync_commands}, dev_guild_id={self.dev_guild_id}, "
            f"log_level={logging.getLevelName(self.log_level)})"
        )


def load_settings(environ: Mapping[str, str]) -> Settings:
    """Read and check every setting; raises ConfigError with a one-line fix."""
    return Settings(
        token=_token(environ.get("DISCORD_TOKEN", "")),
        database_path=environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH,
        sync_commands=_flag(environ, "SYNC_COMMANDS"),
        dev_guild_id=_snowflake(environ, "DEV_GUILD_ID"),
        log_level=_log_level(environ.get("LOG_LEVEL", "")),
        database_url=_database_url(environ.get("DATABASE_URL", "")),
    )


def _database_url(raw: str) -> str | None:
    url = raw.strip().strip('"').strip("'")
    if not url:
        return None
    if not is_postgres_url(url):
        raise ConfigError(
            "DATABASE_URL must name a PostgreSQL database (postgresql://user:password@host:5432/name); "
            "leave it empty to use the SQLite file of DATABASE_PATH."
        )
    return url


def _token(raw: str) -> str | None:
    token = raw.strip().strip('"').strip("'")
    if not token:
        return None
    if token.lower().startswith("bot "):
        raise ConfigError("DISCORD_TOKEN starts with 'Bot '; put only the token itself in .env.")
    if any(char.isspace() for char in token) or token.count(".") != 2:
        raise ConfigError(
            "DISCORD_TOKEN does not look like a bot token (three parts separated by dots); copy it from "
            f"{DEVELOPER_PORTAL} > your application > Bot > Reset Token."
        )
    return token


def _flag(environ: Mapping[str, str], name: str) -> bool:
    raw = environ.get(name, "").strip().lower()
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ConfigError(f"{name} must be true or false, not {raw!r}.")


def _snowflake(environ: Mapping[str, str], name: str) -> int | None:
    raw = environ.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise ConfigError(
            f"{name} must be a server id (digits; right-click the server with Developer Mode on, then "
            f"Copy Server ID), not {raw!r}."
        )
    return int(raw)


def _log_level(raw: str) -> int:
    name = raw.strip().upper() or "INFO"
    if name not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw.strip()!r}.")
    return getattr(logging, name)
