-- The reader's language (engine/i18n): a player's own choice for their private texts, and a
-- server's for its public posts; absent (NULL, no row) means Discord's locale decides.
ALTER TABLE user_settings ADD COLUMN language TEXT;

CREATE TABLE guild_settings (
    guild_id  TEXT PRIMARY KEY,
    language  TEXT
) WITHOUT ROWID;
