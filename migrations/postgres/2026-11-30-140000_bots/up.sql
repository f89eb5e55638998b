-- Built-in bots: a seat is held by a user or by a bot (`bot` names its kind), and a log
-- entry made by a bot says so.

ALTER TABLE game_players ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE game_players ADD COLUMN bot TEXT;
ALTER TABLE game_players ADD CONSTRAINT game_players_user_or_bot CHECK ((user_id IS NULL) <> (bot IS NULL));

ALTER TABLE game_moves ADD COLUMN bot TEXT;   -- the bot kind, for entries played by a bot

-- Finding the games a bot may have to move in, on startup.
CREATE INDEX game_players_bots ON game_players (game_id) WHERE bot IS NOT NULL;
