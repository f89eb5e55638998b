DELETE FROM games WHERE imported_from IS NOT NULL;
CREATE TABLE game_players_old (
    game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    user_id   TEXT REFERENCES users (id),
    joined_at TIMESTAMP NOT NULL,
    bot       TEXT,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id),
    CHECK ((user_id IS NULL) <> (bot IS NULL))
);
INSERT INTO game_players_old (game_id, seat, user_id, joined_at, bot)
    SELECT game_id, seat, user_id, joined_at, bot FROM game_players WHERE imported_name IS NULL;
DROP TABLE game_players;
ALTER TABLE game_players_old RENAME TO game_players;
CREATE INDEX game_players_bots ON game_players (game_id) WHERE bot IS NOT NULL;
ALTER TABLE games DROP COLUMN imported_from;
