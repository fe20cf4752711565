-- A restart without reading every game: which running games the referee must resume, and indexes
-- for the reads made at start-up (running timed tables to re-arm, games to resume).

-- The referee has moves of its own to make at this table (an AI or skipped seat must act, or an
-- automatic move is pending), stored with every change of the state or of who plays a seat. At
-- rest it is set only where a call was interrupted (a crash between two of the referee's moves).
ALTER TABLE games ADD COLUMN needs_resume INTEGER NOT NULL DEFAULT 0;
-- Running games from before this column are unknown: the next start looks at each of them once.
UPDATE games SET needs_resume = 1 WHERE status = 'running';
-- Small: running games are dealt (they have a thread) and at rest.
CREATE INDEX games_to_resume ON games (status) WHERE needs_resume = 1 OR thread_id IS NULL;
-- Reads the running timed tables without their rows (and serves every lookup by status).
CREATE INDEX games_by_status_speed ON games (status, speed);
DROP INDEX games_by_status;
