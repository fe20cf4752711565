-- Twin of db/migrations/0011_languages.sql: a player's and a server's chosen language.
ALTER TABLE user_settings ADD COLUMN language TEXT;

CREATE TABLE guild_settings (
    guild_id  TEXT PRIMARY KEY,
    language  TEXT
);
