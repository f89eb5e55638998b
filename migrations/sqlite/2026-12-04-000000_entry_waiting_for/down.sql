ALTER TABLE game_moves DROP COLUMN waiting_for;
ALTER TABLE game_moves DROP COLUMN phase;
