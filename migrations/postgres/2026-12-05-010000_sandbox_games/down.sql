ALTER TABLE game_moves DROP COLUMN chance;
ALTER TABLE games DROP COLUMN position;
