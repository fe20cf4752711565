"""SQLite storage for the referee (aiosqlite, WAL, numbered migrations)."""

from .sqlite_store import DEFAULT_DATABASE_PATH, SqliteStore, database_path_from_env

__all__ = ["DEFAULT_DATABASE_PATH", "SqliteStore", "database_path_from_env"]
