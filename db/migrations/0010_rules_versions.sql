-- The rules version a table was started with (engine.core.Game.rules_version): at start-up the
-- referee replays the running games started under another version, and refuses to start if the
-- rules of this code would change any of them. Games before this migration ran version 1.
ALTER TABLE games ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1;
