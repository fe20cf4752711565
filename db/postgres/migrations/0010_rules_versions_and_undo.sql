-- PostgreSQL twin of db/migrations/0010_rules_versions_and_undo.sql: the rules version a table
-- was started with, and a rated game's request to take a move back.
ALTER TABLE games ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1;

CREATE TABLE undo_requests (
    game_id   BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version   INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    consents  TEXT    NOT NULL DEFAULT ''
);
