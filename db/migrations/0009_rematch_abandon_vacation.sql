-- Issue 20's table features: abandon by vote (engine/referee/abandon.py), rematches
-- (engine/referee/rematch.py) and vacations (engine/referee/vacation.py).

-- How a running game is abandoned by vote ('unanimous' or 'host-majority', chosen with the
-- table), and the seats that voted so far (a JSON list of seat indexes).
ALTER TABLE games ADD COLUMN abandon_rule TEXT NOT NULL DEFAULT 'unanimous';
ALTER TABLE games ADD COLUMN abandon_votes TEXT NOT NULL DEFAULT '[]';
-- The finished game a lobby is the rematch of: a second click on Rematch finds it.
ALTER TABLE games ADD COLUMN rematch_of INTEGER;
CREATE INDEX games_by_rematch_of ON games (rematch_of) WHERE rematch_of IS NOT NULL;

-- Every vacation a player took (the latest one may be under way): their clocks do not run from
-- started_at to until; the yearly allowance counts the days of those that began in the last year.
CREATE TABLE vacations (
    user_id    TEXT NOT NULL,
    started_at REAL NOT NULL,
    until      REAL NOT NULL CHECK (until >= started_at),
    PRIMARY KEY (user_id, started_at)
) WITHOUT ROWID;
