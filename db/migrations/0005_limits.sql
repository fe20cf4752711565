-- What one player or server may have open at once (engine/referee/limits.py): the limits a
-- server changed from the defaults, and the reads that check them and purge old lobbies.

-- One row per limit a server changed; a limit not listed is the default.
CREATE TABLE guild_limits (
    guild_id  TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    value     INTEGER NOT NULL CHECK (value > 0),
    PRIMARY KEY (guild_id, name)
) WITHOUT ROWID;

-- The lobbies a player hosts, without reading their other tables.
CREATE INDEX games_lobbies_by_host ON games (host, guild_id) WHERE status = 'lobby';
-- Lobbies never started, cancelled or not, by age: what the purge deletes.
CREATE INDEX games_unstarted_by_age ON games (status, updated_at) WHERE seed IS NULL;
