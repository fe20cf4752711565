"""The referee's storage: SQLite (aiosqlite, WAL, numbered migrations) by default, PostgreSQL
(db/postgres/, asyncpg) when ``DATABASE_URL`` names one; ``open_store`` picks."""

from .factory import StoreOpenError, database_url_from_env, is_postgres_url, open_store, redacted
from .sqlite_store import DEFAULT_DATABASE_PATH, SqliteStore, database_path_from_env

__all__ = [
    "DEFAULT_DATABASE_PATH",
    "SqliteStore",
    "StoreOpenError",
    "database_path_from_env",
    "database_url_from_env",
    "is_postgres_url",
    "open_store",
    "redacted",
]
