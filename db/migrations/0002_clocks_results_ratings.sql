-- Turn clocks, absent players, full results, ratings, quiet hours and the heartbeat.

-- A table's speed preset (engine/referee/clock.py SPEEDS).
ALTER TABLE games ADD COLUMN speed TEXT NOT NULL DEFAULT 'untimed';

-- Per-seat turn flow, written in the same transaction as each move.
ALTER TABLE seats ADD COLUMN waiting_since REAL;   -- the seat must act since then (NULL: not to act)
ALTER TABLE seats ADD COLUMN clock TEXT;           -- JSON SeatClock; NULL when untimed or an AI seat
ALTER TABLE seats ADD COLUMN absent_since REAL;    -- skipped: an AI plays this human seat since then
ALTER TABLE seats ADD COLUMN skips INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN forfeited INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN ai_played INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN next_due_at REAL;     -- next reminder, flag fall or forfeit to check
CREATE INDEX seats_due ON seats (next_due_at) WHERE next_due_at IS NOT NULL;
CREATE INDEX seats_waiting ON seats (user_id, waiting_since) WHERE waiting_since IS NOT NULL;

-- Results: one row per finished game (written with the last move), one row per seat.
-- On PostgreSQL they are numbered by a sequence: several processes record results at once, and
-- MAX + 1 would hand two of them the same number.
-- postgresql only: CREATE SEQUENCE results_seq;
ALTER TABLE results ADD COLUMN seq INTEGER;        -- order in which results were recorded
ALTER TABLE results ADD COLUMN game TEXT;
ALTER TABLE results ADD COLUMN guild_id TEXT;
ALTER TABLE results ADD COLUMN speed TEXT NOT NULL DEFAULT 'untimed';
ALTER TABLE results ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN board TEXT;         -- rated, friendly, solo, with_ai; NULL: AI only
ALTER TABLE results ADD COLUMN forfeits INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN ai_played INTEGER NOT NULL DEFAULT 0;

CREATE TABLE result_seats (
    game_id    INTEGER NOT NULL REFERENCES results (game_id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    user_id    TEXT,
    name       TEXT    NOT NULL,
    is_ai      INTEGER NOT NULL,       -- an AI seat from the lobby
    score      REAL    NOT NULL,
    game_rank  INTEGER NOT NULL,       -- as the rules ranked it
    rank       INTEGER NOT NULL,       -- final: forfeited seats last
    team       INTEGER,
    forfeited  INTEGER NOT NULL DEFAULT 0,
    ai_played  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX result_seats_by_user ON result_seats (user_id, game_id);

-- Results recorded before this migration: order, game, server, seats and a board from the seats.
-- (A PostgreSQL database starts at this schema, with nothing to back-fill.)
-- sqlite only: begin
UPDATE results SET
    seq = game_id,
    game = (SELECT g.game FROM games g WHERE g.id = results.game_id),
    guild_id = (SELECT g.guild_id FROM games g WHERE g.id = results.game_id);
INSERT INTO result_seats (game_id, seat, user_id, name, is_ai, score, game_rank, rank, ai_played)
    SELECT r.game_id, s.seat, s.user_id, s.name, s.ai_kind IS NOT NULL,
           json_extract(r.outcome, '$.scores[' || s.seat || ']'),
           json_extract(r.outcome, '$.ranks[' || s.seat || ']'),
           json_extract(r.outcome, '$.ranks[' || s.seat || ']'),
           s.ai_kind IS NOT NULL
    FROM results r JOIN seats s ON s.game_id = r.game_id;
UPDATE results SET
    ai_played = EXISTS (SELECT 1 FROM result_seats rs WHERE rs.game_id = results.game_id AND rs.is_ai),
    board = CASE
        WHEN NOT EXISTS (SELECT 1 FROM result_seats rs WHERE rs.game_id = results.game_id AND NOT rs.is_ai) THEN NULL
        WHEN EXISTS (SELECT 1 FROM result_seats rs WHERE rs.game_id = results.game_id AND rs.is_ai) THEN 'with_ai'
        WHEN (SELECT COUNT(*) FROM result_seats rs WHERE rs.game_id = results.game_id) = 1 THEN 'solo'
        ELSE 'friendly' END;
-- sqlite only: end
CREATE UNIQUE INDEX results_by_seq ON results (seq);
CREATE INDEX results_by_guild ON results (guild_id, seq);

-- Current ratings per server ('' outside servers), game and player; derived from rating_events
-- (and so from results): rebuilt entirely when the rating model changes.
CREATE TABLE ratings (
    guild_id    TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    name        TEXT    NOT NULL,      -- as seated in their latest rated game
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_by_board ON ratings (guild_id, game, mu);

CREATE TABLE rating_events (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id       INTEGER NOT NULL REFERENCES results (game_id) ON DELETE CASCADE,
    guild_id      TEXT    NOT NULL,
    game          TEXT    NOT NULL,
    user_id       TEXT    NOT NULL,
    rank          INTEGER NOT NULL,
    mu_before     REAL    NOT NULL,
    sigma_before  REAL    NOT NULL,
    mu_after      REAL    NOT NULL,
    sigma_after   REAL    NOT NULL,
    at            REAL    NOT NULL
);
CREATE INDEX rating_events_by_player ON rating_events (guild_id, game, user_id, id);
CREATE INDEX rating_events_by_game ON rating_events (game_id);

-- A player's quiet hours, in their own time zone.
CREATE TABLE user_settings (
    user_id      TEXT PRIMARY KEY,
    time_zone    TEXT,
    quiet_start  INTEGER,
    quiet_end    INTEGER
) WITHOUT ROWID;

-- Small facts about the bot itself, such as the heartbeat used to measure downtime at start-up.
CREATE TABLE bot_state (
    key    TEXT PRIMARY KEY,
    value  REAL NOT NULL
) WITHOUT ROWID;
