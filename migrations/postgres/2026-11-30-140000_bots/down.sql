DROP INDEX game_players_bots;
ALTER TABLE game_moves DROP COLUMN bot;
DELETE FROM game_players WHERE user_id IS NULL;
ALTER TABLE game_players DROP CONSTRAINT game_players_user_or_bot;
ALTER TABLE game_players DROP COLUMN bot;
ALTER TABLE game_players ALTER COLUMN user_id SET NOT NULL;
