DROP INDEX game_players_bots;
ALTER TABLE game_moves DROP COLUMN bot;
DELETE FROM game_players WHERE user_id IS NULL;
CREATE TABLE game_players_old (
    game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    user_id   TEXT NOT NULL REFERENCES users (id),
    joined_at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
INSERT INTO game_players_old (game_id, seat, user_id, joined_at)
    SELECT game_id, seat, user_id, joined_at FROM game_players;
DROP TABLE game_players;
ALTER TABLE game_players_old RENAME TO game_players;
