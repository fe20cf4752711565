"""Configuration of the Discord bot, read from the environment (and a .env file loaded by bot.py).

Every setting is checked here, once, so that a mistake ends the start-up with one sentence that
says what is wrong and how to fix it, instead of a traceback later on.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from db import DEFAULT_DATABASE_PATH, is_postgres_url, redacted
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
    database_url: str | None = None  # PostgreSQL (DATABASE_URL); None: the SQLite file above
    # Gateway sharding (bot.py runs an AutoShardedBot): the bot's total number of shards, and the
    # ones this process runs (None: all of them). Neither set: one process, one shard, as always.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None

    @property
    def database(self) -> str:
        """What the store opens: the PostgreSQL URL when set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def shares_store(self) -> bool:
        """Other processes run the bot's other shards over the same database."""
        return self.shard_count is not None and self.shard_ids is not None and len(self.shard_ids) < self.shard_count

    def __repr__(self) -> str:
        # The token must never end up in a log line or a traceback.
        token = "set" if self.token else "unset"
        return (
            f"Settings(token={token}, database_path={self.database_path!r}, "
            f"database_url={None if self.database_url is None else redacted(self.database_url)!r}, "
            f"sync_commands={self.sync_commands}, dev_guild_id={self.dev_guild_id}, "
            f"log_level={logging.getLevelName(self.log_level)}, shard_count={self.shard_count}, "
            f"shard_ids={self.shard_ids}, ai_normal_ms={self.ai_normal_ms:g}, "
            f"ai_strong_ms={self.ai_strong_ms:g}, ai_workers={self.ai_workers}, ai_iterations={self.ai_iterations}, "
            f"vacation_days_per_year={self.vacation_days_per_year})"
        )


def load_settings(environ: Mapping[str, str]) -> Settings:
    """Read and check every setting; raises ConfigError with a one-line fix."""
    shard_count, shard_ids = _shards(environ)
    return Settings(
        shard_count=shard_count,
        shard_ids=shard_ids,
        token=_token(environ.get("DISCORD_TOKEN", "")),
        database_path=environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH,
        sync_commands=_flag(environ, "SYNC_COMMANDS"),
        dev_guild_id=_snowflake(environ, "DEV_GUILD_ID"),
        log_level=_log_level(environ.get("LOG_LEVEL", "")),
        vacation_days_per_year=_days(environ, "VACATION_DAYS_PER_YEAR", default=30),
        database_url=_database_url(environ.get("DATABASE_URL", "")),
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


# Far beyond any real bot (one shard per 1,000 to 2,500 servers): the bound only catches a typo,
# such as a server id pasted into SHARD_COUNT.
MAX_SHARDS = 100_000


def _shards(environ: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT (the bot's total) and SHARD_IDS (this process's: ``0-3``, ``0,2,5``, ``0-3,8``)."""
    raw_count = environ.get("SHARD_COUNT", "").strip()
    raw_ids = environ.get("SHARD_IDS", "").strip()
    if not raw_count:
        if raw_ids:
            raise ConfigError(
                f"SHARD_IDS={raw_ids} needs SHARD_COUNT, the bot's total number of shards (the same in every "
                "process), for example SHARD_COUNT=8."
            )
        return None, None
    if not raw_count.isdigit() or not 1 <= int(raw_count) <= MAX_SHARDS:
        raise ConfigError(
            f"SHARD_COUNT must be the bot's total number of shards, a whole number from 1 to {MAX_SHARDS:,} "
            f"(Discord wants one shard per 2,500 servers at most), not {raw_count!r}."
        )
    count = int(raw_count)
    if not raw_ids:
        return count, None  # this process runs every shard
    ids: list[int] = []
    for part in raw_ids.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
            raise ConfigError(
                f"SHARD_IDS must list shard numbers and ranges, like 0-3 or 0,2,5, not {raw_ids!r}."
            )
        low, high = int(first), int(last) if dash else int(first)
        if low > high:
            raise ConfigError(f"SHARD_IDS: the range {part.strip()} goes backwards; write it {high}-{low}.")
        ids.extend(range(low, high + 1))
    beyond = [shard for shard in ids if shard >= count]
    if beyond:
        raise ConfigError(
            f"SHARD_IDS names shard {beyond[0]}, but with SHARD_COUNT={count} the shards are 0 to {count - 1}."
        )
    repeated = sorted(shard for shard, times in Counter(ids).items() if times > 1)
    if repeated:
        raise ConfigError(f"SHARD_IDS lists shard {repeated[0]} twice; each shard belongs to one process.")
    return count, tuple(sorted(ids))
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
