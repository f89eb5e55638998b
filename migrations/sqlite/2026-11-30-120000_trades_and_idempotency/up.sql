-- Domestic trade offers as a projection of the move log, and stored results of requests
-- sent with an Idempotency-Key. Same SQL for PostgreSQL and SQLite (see the init migration).

-- One row per offer the engine made (`trade_offered`), updated by every later trade event
-- in the same transaction as the log entry, so it always agrees with the log.
CREATE TABLE trade_offers (
    game_id        TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    offer_id       BIGINT NOT NULL,             -- the engine's offer id (per game)
    from_seat      INTEGER NOT NULL,
    to_seats       TEXT NOT NULL,               -- JSON array of seats
    give           TEXT NOT NULL,               -- catan_engine::Resources as JSON
    get            TEXT NOT NULL,
    counter_to     BIGINT,                      -- the offer this one answers
    status         TEXT NOT NULL CHECK (status IN
                       ('open', 'accepted', 'declined', 'completed', 'withdrawn', 'expired')),
    accepted_by    TEXT NOT NULL,               -- JSON array of seats, in order of acceptance
    declined_by    TEXT NOT NULL,               -- JSON array of seats
    completed_with INTEGER,                     -- the accepter the offerer confirmed
    offered_seq    BIGINT NOT NULL,             -- log entry that made the offer
    updated_seq    BIGINT NOT NULL,             -- log entry that last changed it
    created_at     TIMESTAMP NOT NULL,
    updated_at     TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, offer_id)
);

CREATE INDEX trade_offers_status ON trade_offers (game_id, status);

-- The first result of a request sent with an Idempotency-Key, per caller. A move's key is
-- written in the move's own transaction; other requests reserve the key first (`status`
-- null while the first request runs) and store the result when done.
CREATE TABLE idempotency_keys (
    scope       TEXT NOT NULL,                  -- the caller: a user id
    idem_key    TEXT NOT NULL,
    request     TEXT NOT NULL,                  -- method, path and canonical JSON body
    status      INTEGER,                        -- HTTP status of the first response
    body        TEXT,                           -- its body
    created_at  TIMESTAMP NOT NULL,             -- keys expire after 24 hours
    PRIMARY KEY (scope, idem_key)
);

CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);

-- Keys are now per caller in idempotency_keys; game_moves.idempotency_key only records
-- which key wrote an entry.
DROP INDEX game_moves_idempotency_key;
