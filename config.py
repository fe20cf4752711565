"""Configuration of the Discord bot, read from the environment (and a .env file loaded by bot.py).

Every setting is checked here, once, so that a mistake ends the start-up with one sentence that
says what is wrong and how to fix it, instead of a traceback later on.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from db import DEFAULT_DATABASE_PATH
from engine.referee import Budget, InlineThinker, PoolThinker, Thinker

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
    # AI seats that search (normal, strong) and hints: CPU milliseconds per move (0: the level's
    # own fixed playouts), worker processes (0: think in a thread of the bot's process), and a
    # fixed number of playouts for every level instead (None: the time budgets), which makes every
    # AI move reproducible from the game's seed.
    ai_normal_ms: float = 100.0
    ai_strong_ms: float = 1000.0
    ai_workers: int = 2
    ai_iterations: int | None = None
    # Vacation days a player may take over any 365 days (engine/referee/vacation.py).
    vacation_days_per_year: int = 30

    def __repr__(self) -> str:
        # The token must never end up in a log line or a traceback.
        token = "set" if self.token else "unset"
        return (
            f"Settings(token={token}, database_path={self.database_path!r}, "
            f"sync_commands={self.sync_commands}, dev_guild_id={self.dev_guild_id}, "
            f"log_level={logging.getLevelName(self.log_level)}, ai_normal_ms={self.ai_normal_ms:g}, "
            f"ai_strong_ms={self.ai_strong_ms:g}, ai_workers={self.ai_workers}, ai_iterations={self.ai_iterations}, "
            f"vacation_days_per_year={self.vacation_days_per_year})"
        )


def load_settings(environ: Mapping[str, str]) -> Settings:
    """Read and check every setting; raises ConfigError with a one-line fix."""
    return Settings(
        token=_token(environ.get("DISCORD_TOKEN", "")),
        database_path=environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH,
        sync_commands=_flag(environ, "SYNC_COMMANDS"),
        dev_guild_id=_snowflake(environ, "DEV_GUILD_ID"),
        log_level=_log_level(environ.get("LOG_LEVEL", "")),
        vacation_days_per_year=_days(environ, "VACATION_DAYS_PER_YEAR", default=30),
        **ai_settings(environ),
    )


def ai_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """The AI settings alone (the local table reads them too): AI_NORMAL_MS, AI_STRONG_MS,
    AI_WORKERS, AI_ITERATIONS; ConfigError with a one-line fix."""
    iterations = _number(environ, "AI_ITERATIONS", 1, 1_000_000)
    return {
        "ai_normal_ms": float(_number(environ, "AI_NORMAL_MS", 0, 60_000, default=100)),
        "ai_strong_ms": float(_number(environ, "AI_STRONG_MS", 0, 60_000, default=1000)),
        "ai_workers": _number(environ, "AI_WORKERS", 0, 64, default=2),
        "ai_iterations": iterations,
    }


def thinker_for(settings: Settings) -> Thinker:
    """The thinker of the AI seats and hints these settings ask for (the caller closes it)."""
    budgets = {
        level: Budget(iterations=settings.ai_iterations)
        if settings.ai_iterations is not None
        else Budget(cpu_ms=ms or None)
        for level, ms in (("normal", settings.ai_normal_ms), ("strong", settings.ai_strong_ms))
    }
    if settings.ai_workers == 0:
        return InlineThinker(budgets)
    return PoolThinker(budgets, workers=settings.ai_workers)


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


def _number(environ: Mapping[str, str], name: str, low: int, high: int, default: int | None = None) -> Any:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise ConfigError(f"{name} must be a whole number from {low} to {high:,}, not {raw!r}.")
    return int(raw)


def _log_level(raw: str) -> int:
    name = raw.strip().upper() or "INFO"
    if name not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw.strip()!r}.")
    return getattr(logging, name)


def _days(environ: Mapping[str, str], name: str, *, default: int) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) > 365:
        raise ConfigError(f"{name} must be a whole number of days from 0 to 365, not {raw!r}.")
    return int(raw)
