-- Imported games (POST /games/import, issue 31): a game rebuilt from a record gets an id of its
-- own and keeps the one it had where it was played (`imported_from`), and each of its seats
-- the name it had there. That name is no
-- account of this server (someone else may hold it here), so a seat is now held by a user, a
-- bot or an imported name: exactly one. SQLite cannot change a CHECK in place: rebuild
-- game_players (nothing references it), as the bots migration did.
ALTER TABLE games ADD COLUMN imported_from TEXT;

CREATE TABLE game_players_new (
    game_id       TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    user_id       TEXT REFERENCES users (id),
    joined_at     TIMESTAMP NOT NULL,
    bot           TEXT,
    imported_name TEXT,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id),
    CHECK ((user_id IS NOT NULL) + (bot IS NOT NULL) + (imported_name IS NOT NULL) = 1)
);
INSERT INTO game_players_new (game_id, seat, user_id, joined_at, bot, imported_name)
    SELECT game_id, seat, user_id, joined_at, bot, NULL FROM game_players;
DROP TABLE game_players;
ALTER TABLE game_players_new RENAME TO game_players;
CREATE INDEX game_players_bots ON game_players (game_id) WHERE bot IS NOT NULL;
