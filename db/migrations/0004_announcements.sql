-- The announcement outbox: what of each game was told to its players. A move is committed before
-- anything about it is posted; these columns say how far the posting got, so that a board lost to
-- a crash, a refused thread or a Discord outage is posted later (once), and a table nobody can be
-- told about is shown as such. Written after a delivery, never by a move (a move leaves them behind).

-- The last version whose board was posted (-1: not even the deal's).
ALTER TABLE games ADD COLUMN announced_version INTEGER NOT NULL DEFAULT -1;
-- The last version whose private notices (hands changed by others' moves, private lines) were sent.
ALTER TABLE games ADD COLUMN notified_version INTEGER NOT NULL DEFAULT -1;
-- Since when neither the board could be posted nor the player to act reached by DM (NULL: fine).
ALTER TABLE games ADD COLUMN unreachable_since REAL;
-- Games from before this migration were announced as they went.
UPDATE games SET announced_version = version, notified_version = version WHERE status != 'lobby';
-- The games behind, read at start-up and at every clock poll without touching the others. A game
-- enters it with each move and leaves it once the move is announced.
CREATE INDEX games_unannounced ON games (id, version, announced_version, notified_version)
    WHERE status IN ('running', 'finished') AND (announced_version < version OR notified_version < version);
CREATE INDEX games_unreachable ON games (id) WHERE unreachable_since IS NOT NULL;
