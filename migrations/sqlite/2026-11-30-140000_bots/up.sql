-- Built-in bots: a seat is held by a user or by a bot (`bot` names its kind), and a log
-- entry made by a bot says so. SQLite cannot drop NOT NULL in place: rebuild game_players
-- (nothing references it).

CREATE TABLE game_players_new (
    game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    user_id   TEXT REFERENCES users (id),
    joined_at TIMESTAMP NOT NULL,
    bot       TEXT,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id),
    CHECK ((user_id IS NULL) <> (bot IS NULL))
);
INSERT INTO game_players_new (game_id, seat, user_id, joined_at, bot)
    SELECT game_id, seat, user_id, joined_at, NULL FROM game_players;
DROP TABLE game_players;
ALTER TABLE game_players_new RENAME TO game_players;

ALTER TABLE game_moves ADD COLUMN bot TEXT;   -- the bot kind, for entries played by a bot

CREATE INDEX game_players_bots ON game_players (game_id) WHERE bot IS NOT NULL;
