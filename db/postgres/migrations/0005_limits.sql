-- PostgreSQL twin of db/migrations/0005_limits.sql: server limits and the purge of old lobbies.
CREATE TABLE guild_limits (
    guild_id  TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    value     INTEGER NOT NULL CHECK (value > 0),
    PRIMARY KEY (guild_id, name)
);
CREATE INDEX games_lobbies_by_host ON games (host, guild_id) WHERE status = 'lobby';
CREATE INDEX games_unstarted_by_age ON games (status, updated_at) WHERE seed IS NULL;
