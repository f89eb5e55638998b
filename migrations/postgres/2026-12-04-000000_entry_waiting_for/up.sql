-- What the game waits for after each log entry (issue 31): its phase's name and the seats
-- that must act, comma-separated. Null on entries written before; the server fills those in
-- by replay when it reads them.
ALTER TABLE game_moves ADD COLUMN phase TEXT;
ALTER TABLE game_moves ADD COLUMN waiting_for TEXT;
