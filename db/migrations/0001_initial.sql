-- Tables (game tables, from lobby to result), their seats, the append-only move log, results,
-- and per-user flags (such as "DMs are closed").
CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game         TEXT    NOT NULL,
    options      TEXT    NOT NULL DEFAULT '{}',
    host         TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
    seed         INTEGER,
    version      INTEGER NOT NULL DEFAULT 0,
    state        BLOB,
    guild_id     TEXT,
    channel_id   TEXT,
    thread_id    TEXT,
    message_id   TEXT,
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL
);
CREATE INDEX games_by_guild_status ON games (guild_id, status, updated_at);
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    user_id  TEXT,
    ai_kind  TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE moves (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n        INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    move     TEXT    NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;

CREATE TABLE results (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    outcome     TEXT NOT NULL,
    finished_at REAL NOT NULL
);

CREATE TABLE user_flags (
    user_id  TEXT NOT NULL,
    flag     TEXT NOT NULL,
    value    INTEGER NOT NULL,
    PRIMARY KEY (user_id, flag)
) WITHOUT ROWID;
