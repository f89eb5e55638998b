-- Users, games, seats, and the event-sourced move log (PostgreSQL).
-- Ids are UUID strings and payloads JSON text, so that one diesel schema serves
-- PostgreSQL and SQLite alike (see README, "Storage").

CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    username      TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL
);

CREATE TABLE games (
    id          TEXT PRIMARY KEY,           -- UUIDv7: ordering by id is ordering by creation
    created_by  TEXT NOT NULL REFERENCES users (id),
    status      TEXT NOT NULL CHECK (status IN ('open', 'playing', 'finished')),
    max_players INTEGER NOT NULL CHECK (max_players BETWEEN 2 AND 6),
    config      TEXT NOT NULL,              -- catan_engine::GameConfig as JSON
    seed        BIGINT NOT NULL,            -- secret until the game is over
    version     BIGINT NOT NULL DEFAULT 0,  -- seq of the latest log entry
    snapshot    TEXT,                       -- catan_engine::Game as JSON, once started
    created_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);

CREATE INDEX games_status_id ON games (status, id);

CREATE TABLE game_players (
    game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    user_id   TEXT NOT NULL REFERENCES users (id),
    joined_at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

CREATE TABLE game_moves (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL CHECK (seq >= 1),
    seat       INTEGER,                     -- null for the entry that starts the game
    kind       TEXT NOT NULL,               -- 'start' or the move's type
    move_body  TEXT,                        -- catan_engine::Move as JSON
    events     TEXT NOT NULL,               -- JSON array of catan_engine::Event
    idempotency_key TEXT,                   -- the client's Idempotency-Key, if sent
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- A retried POST with the same key finds its first result instead of moving twice.
CREATE UNIQUE INDEX game_moves_idempotency_key ON game_moves (game_id, idempotency_key);
