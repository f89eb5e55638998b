-- Imported games (POST /games/import, issue 31): a game rebuilt from a record gets an id of its
-- own and keeps the one it had where it was played (`imported_from`), and each of its seats
-- the name it had there. That name is no
-- account of this server (someone else may hold it here), so a seat is now held by a user, a
-- bot or an imported name: exactly one.
ALTER TABLE games ADD COLUMN imported_from TEXT;
ALTER TABLE game_players ADD COLUMN imported_name TEXT;
ALTER TABLE game_players DROP CONSTRAINT game_players_user_or_bot;
ALTER TABLE game_players ADD CONSTRAINT game_players_one_holder
    CHECK (num_nonnulls(user_id, bot, imported_name) = 1);
