-- PostgreSQL twin of db/migrations/0009_rematch_abandon_vacation.sql: abandon by vote, rematches
-- and vacations.
ALTER TABLE games ADD COLUMN abandon_rule TEXT NOT NULL DEFAULT 'unanimous';
ALTER TABLE games ADD COLUMN abandon_votes TEXT NOT NULL DEFAULT '[]';
ALTER TABLE games ADD COLUMN rematch_of BIGINT;
CREATE INDEX games_by_rematch_of ON games (rematch_of) WHERE rematch_of IS NOT NULL;

CREATE TABLE vacations (
    user_id    TEXT NOT NULL,
    started_at DOUBLE PRECISION NOT NULL,
    until      DOUBLE PRECISION NOT NULL CHECK (until >= started_at),
    PRIMARY KEY (user_id, started_at)
);
