"""Which store the bot opens: PostgreSQL when ``DATABASE_URL`` names one, else the SQLite file.

``DATABASE_URL=postgresql://user:password@host:5432/referee`` selects PostgreSQL (db/postgres/),
which several bot processes can share; without it, SQLite at ``DATABASE_PATH`` as before. asyncpg
is imported only when PostgreSQL is asked for."""

from __future__ import annotations

import os
from typing import Any

from .sqlite_store import SqliteStore, database_path_from_env

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(url: str | None) -> bool:
    return bool(url) and str(url).startswith(POSTGRES_SCHEMES)


def database_url_from_env() -> str | None:
    """``DATABASE_URL`` when it names PostgreSQL, else None (``sqlite:///path`` is read as a path)."""
    url = (os.environ.get("DATABASE_URL") or "").strip()
    return url if is_postgres_url(url) else None


def sqlite_path_of(target: str) -> str:
    """``sqlite:///data/x.sqlite3`` (or a plain path) -> the file's path."""
    return target.removeprefix("sqlite://").removeprefix("/") if target.startswith("sqlite:///") else target


class StoreOpenError(Exception):
    """The PostgreSQL server named by ``DATABASE_URL`` could not be reached or refused us."""


def redacted(target: str) -> str:
    """``target`` fit to show or log: a URL's password replaced by ``***``."""
    scheme, found, rest = target.partition("://")
    if not found or "@" not in rest:
        return target
    credentials, _, place = rest.rpartition("@")
    user, has_password, _ = credentials.partition(":")
    return f"{scheme}://{user}{':***' if has_password else ''}@{place}"


async def open_store(target: str | os.PathLike[str] | None = None) -> Any:
    """Open (and migrate) the store ``target`` names: a PostgreSQL URL, ``sqlite:///path`` or a
    SQLite path; None: ``DATABASE_URL``, else ``DATABASE_PATH``."""
    if target is None:
        target = database_url_from_env() or database_path_from_env()
    target = str(target)
    if is_postgres_url(target):
        import asyncpg

        from .postgres.store import PostgresStore

        try:
            return await PostgresStore.open(target)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StoreOpenError(f"{redacted(target)}: {error}") from error
    return await SqliteStore.open(sqlite_path_of(target))
