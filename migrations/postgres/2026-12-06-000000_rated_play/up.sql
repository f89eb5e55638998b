-- Rated play (issue 34): account kinds, the built-in bots' accounts, rated games and their
-- pool, ratings per pool with their history, and the matchmaking queue.

-- 'human' or 'bot' (chosen at registration, changeable once before a rated game), or
-- 'builtin' for the built-in bots' own accounts below.
ALTER TABLE users ADD COLUMN kind TEXT NOT NULL DEFAULT 'human';
ALTER TABLE users ADD COLUMN kind_changed_at TIMESTAMP;

-- The built-in bots as accounts, so that they have ratings (fixed reference points). Nobody
-- can log in as them: '!' is no password hash, and ':' no character a username may have.
INSERT INTO users (id, username, password_hash, created_at, username_key, kind) VALUES
    ('00000000-0000-4000-8000-00000000b001', 'builtin:random', '!', '2026-12-06 00:00:00', 'builtin:random', 'builtin'),
    ('00000000-0000-4000-8000-00000000b002', 'builtin:heuristic', '!', '2026-12-06 00:00:00', 'builtin:heuristic', 'builtin');

-- A rated game's pool (src/rated/pools.rs); its ratings change when it finishes.
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN pool TEXT;

CREATE TABLE ratings (
    user_id    TEXT NOT NULL REFERENCES users (id),
    pool       TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,       -- Weng-Lin mu
    deviation  DOUBLE PRECISION NOT NULL,       -- Weng-Lin sigma
    score      DOUBLE PRECISION NOT NULL,       -- rating - 3 * deviation: what leaderboards sort by
    games      INTEGER NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, pool)
);
CREATE INDEX ratings_leaderboard ON ratings (pool, score DESC, user_id);

-- One row per account and rated game: where it finished and what that did to its rating.
CREATE TABLE rating_history (
    user_id          TEXT NOT NULL REFERENCES users (id),
    game_id          TEXT NOT NULL REFERENCES games (id),
    pool             TEXT NOT NULL,
    place            INTEGER NOT NULL,
    players          INTEGER NOT NULL,
    abandoned        BOOLEAN NOT NULL,
    rating_before    DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    rating           DOUBLE PRECISION NOT NULL,
    deviation        DOUBLE PRECISION NOT NULL,
    created_at       TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX rating_history_by_user ON rating_history (user_id, created_at);

CREATE TABLE seeks (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id),
    pool        TEXT NOT NULL,
    players     INTEGER NOT NULL CHECK (players BETWEEN 2 AND 6),
    rated       BOOLEAN NOT NULL,
    rating_min  DOUBLE PRECISION,
    rating_max  DOUBLE PRECISION,
    fill_bot    TEXT,               -- the built-in bot that fills empty seats at fill_at
    fill_at     TIMESTAMP,
    status      TEXT NOT NULL CHECK (status IN ('waiting', 'matched', 'cancelled', 'expired')),
    game_id     TEXT REFERENCES games (id),
    created_at  TIMESTAMP NOT NULL,
    expires_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);
CREATE INDEX seeks_waiting ON seeks (status, pool, created_at);
-- One waiting seek per account: no seeker can be matched into two games.
CREATE UNIQUE INDEX seeks_one_waiting_per_user ON seeks (user_id) WHERE status = 'waiting';

-- Matching takes this row's lock first, so that two servers never match the same seeks.
CREATE TABLE matchmaking_lock (
    name  TEXT PRIMARY KEY,
    turns BIGINT NOT NULL
);
INSERT INTO matchmaking_lock (name, turns) VALUES ('seeks', 0);
