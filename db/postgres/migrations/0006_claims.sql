-- PostgreSQL twin of db/migrations/0006_claims.sql: leases on work that must happen once across
-- processes, and a revision raised by every write of a table (engine/referee/claims.py).
CREATE TABLE claims (
    kind        TEXT    NOT NULL,
    table_id    BIGINT  NOT NULL,
    owner       TEXT    NOT NULL,
    expires_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (kind, table_id)
);

ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
