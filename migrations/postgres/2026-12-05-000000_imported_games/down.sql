DELETE FROM games WHERE imported_from IS NOT NULL;
ALTER TABLE game_players DROP CONSTRAINT game_players_one_holder;
ALTER TABLE game_players ADD CONSTRAINT game_players_user_or_bot CHECK ((user_id IS NULL) <> (bot IS NULL));
ALTER TABLE game_players DROP COLUMN imported_name;
ALTER TABLE games DROP COLUMN imported_from;
