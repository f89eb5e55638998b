-- Sandbox games (issue 31): a game may start from a prepared position, kept here until it
-- starts (then its log's first entry holds it); and a move whose chance was not drawn from
-- the game's seed (dice named in a sandbox, or an imported sandbox game's) keeps its chance:
-- the draws and outcomes as JSON, which the game's record shows. Null when the seed drew it.
ALTER TABLE games ADD COLUMN position TEXT;
ALTER TABLE game_moves ADD COLUMN chance TEXT;
