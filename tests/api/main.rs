//! Integration tests: the real server over HTTP against real databases (SQLite and a
//! throwaway PostgreSQL cluster). One binary, one module per concern.

mod conformance;
mod helpers;

mod board_picture;
mod bot_loop;
mod bots;
mod cities_knights;
mod ck_seafarers;
mod compression;
mod concurrency;
mod cors;
mod errors;
mod every_game_ends;
mod exported_positions;
mod full_game;
mod games;
mod holding;
mod idempotency;
mod imports;
mod ladder;
mod limits;
mod lobby;
mod moves;
mod openapi;
mod positions;
mod processes;
mod rated;
mod reads;
mod records;
mod recovery;
mod replicas;
mod requests;
mod sandbox;
mod seafarers;
mod spectator;
mod stored_games;
mod stream;
mod sweep;
mod tokens;
mod trades;
mod users;
mod wonders;
