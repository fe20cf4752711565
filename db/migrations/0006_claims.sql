-- Several bot processes over one database (engine/referee/claims.py): work that must happen once
-- in total, not once per process, is claimed first, and every write of a table is
-- compare-and-swapped on a revision, so a process's stale cached copy never overwrites another's.

-- Who is acting on a table for one kind of work ('clock': its due reminders, timeouts, skips and
-- forfeits; 'announce': posting its board), until when. A claim past its expiry belongs to nobody:
-- the work of a process that died is taken over by another once the lease runs out.
CREATE TABLE claims (
    kind        TEXT    NOT NULL,
    table_id    INTEGER NOT NULL,
    owner       TEXT    NOT NULL,
    expires_at  REAL    NOT NULL,
    PRIMARY KEY (kind, table_id)
) WITHOUT ROWID;

-- Every write of a table (a move, or seats changed without one: a reminder sent, a skip, a
-- return, a link) raises it; ``version`` counts only the moves, so it cannot tell those apart.
ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
