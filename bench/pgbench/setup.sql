-- Tables for bench/pgbench/move.sql and one-statement.sql: the server's `games`,
-- `game_players` and `game_moves` columns and keys, and one representative payload. :games is the number of pgbench clients.
SET client_min_messages = warning;
DROP TABLE IF EXISTS bench_moves, bench_players, bench_games, bench_payload;
CREATE TABLE bench_games (
    id          TEXT PRIMARY KEY,
    created_by  TEXT NOT NULL,
    status      TEXT NOT NULL,
    max_players INTEGER NOT NULL,
    config      TEXT NOT NULL,
    seed        BIGINT NOT NULL,
    version     BIGINT NOT NULL DEFAULT 0,
    snapshot    TEXT,
    created_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);
CREATE TABLE bench_moves (
    game_id    TEXT NOT NULL REFERENCES bench_games (id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL CHECK (seq >= 1),
    seat       INTEGER,
    kind       TEXT NOT NULL,
    move_body  TEXT,
    events     TEXT NOT NULL,
    idempotency_key TEXT,
    created_at TIMESTAMP NOT NULL,
    bot        TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE bench_players (
    game_id   TEXT NOT NULL REFERENCES bench_games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    user_id   TEXT,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE TABLE bench_payload (snapshot TEXT NOT NULL, events TEXT NOT NULL, move_body TEXT NOT NULL);
