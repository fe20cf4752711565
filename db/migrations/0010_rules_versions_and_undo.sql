-- The rules version a table was started with (engine.core.Game.rules_version): at start-up the
-- referee replays the running games started under another version, and refuses to start if the
-- rules of this code would change any of them. Games before this migration ran version 1.
ALTER TABLE games ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1;

-- A rated game's request to take a move back, waiting for the other players (engine/referee/undo.py):
-- it names the version it was made at and lapses when the table moves on.
CREATE TABLE undo_requests (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version   INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    consents  TEXT    NOT NULL DEFAULT ''   -- the seats that agreed, comma-separated
);
