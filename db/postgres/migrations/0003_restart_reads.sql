-- PostgreSQL twin of db/migrations/0003_restart_reads.sql: the running games to resume.
ALTER TABLE games ADD COLUMN needs_resume INTEGER NOT NULL DEFAULT 0;
UPDATE games SET needs_resume = 1 WHERE status = 'running';
CREATE INDEX games_to_resume ON games (status) WHERE needs_resume = 1 OR thread_id IS NULL;
CREATE INDEX games_by_status_speed ON games (status, speed);
DROP INDEX games_by_status;
