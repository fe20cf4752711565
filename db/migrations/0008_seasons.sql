-- Seasons (engine/referee/seasons.py): how each server runs them, the seasons themselves (views
-- over the results by their order of recording, never deleting any), and each season's own
-- rating pool beside the all-time one (ratings). Also: the data deletion's anonymous names.

CREATE TABLE season_plans (
    guild_id    TEXT PRIMARY KEY,
    cadence     TEXT NOT NULL CHECK (cadence IN ('manual', 'monthly', 'quarterly')),
    carry       TEXT NOT NULL CHECK (carry IN ('continue', 'soft')),
    channel_id  TEXT                   -- where final standings are posted
) WITHOUT ROWID;

CREATE TABLE seasons (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    TEXT    NOT NULL,
    number      INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    started_at  REAL    NOT NULL,
    ends_at     REAL,                  -- its scheduled boundary; NULL: ended by hand
    ended_at    REAL,                  -- NULL: the server's current season
    start_seq   INTEGER NOT NULL,      -- it holds the results with start_seq < seq <= end_seq
    end_seq     INTEGER,
    carry       TEXT    NOT NULL,
    channel_id  TEXT,
    announced   INTEGER NOT NULL DEFAULT 0,  -- its final standings were posted
    UNIQUE (guild_id, number)
);
CREATE UNIQUE INDEX seasons_current ON seasons (guild_id) WHERE ended_at IS NULL;
CREATE INDEX seasons_due ON seasons (ends_at) WHERE ended_at IS NULL AND ends_at IS NOT NULL;
CREATE INDEX seasons_owed ON seasons (id) WHERE ended_at IS NOT NULL AND announced = 0;

-- A season's ratings, written with each rated result of the season (rebuilt with the others).
CREATE TABLE season_ratings (
    season_id   INTEGER NOT NULL REFERENCES seasons (id),
    game        TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (season_id, game, user_id)
) WITHOUT ROWID;
CREATE INDEX season_ratings_by_player ON season_ratings (user_id);

-- Data deletion (engine/referee/forget.py): a forgotten user's stand-in id, "former:<n>", and
-- its number, stable per user so that rankings and histories stay right.
CREATE TABLE former_players (
    number     INTEGER PRIMARY KEY AUTOINCREMENT,
    forgotten_at REAL NOT NULL
);
