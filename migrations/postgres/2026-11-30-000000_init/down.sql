DROP TABLE game_moves;
DROP TABLE game_players;
DROP TABLE games;
DROP TABLE users;
