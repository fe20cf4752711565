-- PostgreSQL twin of db/migrations/0004_announcements.sql: the announcement outbox.
ALTER TABLE games ADD COLUMN announced_version INTEGER NOT NULL DEFAULT -1;
ALTER TABLE games ADD COLUMN notified_version INTEGER NOT NULL DEFAULT -1;
ALTER TABLE games ADD COLUMN unreachable_since DOUBLE PRECISION;
UPDATE games SET announced_version = version, notified_version = version WHERE status != 'lobby';
CREATE INDEX games_unannounced ON games (id, version, announced_version, notified_version)
    WHERE status IN ('running', 'finished') AND (announced_version < version OR notified_version < version);
CREATE INDEX games_unreachable ON games (id) WHERE unreachable_since IS NOT NULL;
