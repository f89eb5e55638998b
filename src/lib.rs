//! The Catan game server: the rules engine (`catan_engine`) behind an HTTP API with an
//! OpenAPI contract, storing every game as an event-sourced move log.

pub mod api;
pub mod append;
pub mod auth;
pub mod body_timeout;
pub mod bots;
pub mod catch_panic;
pub mod compression;
pub mod config;
pub mod cors;
pub mod db;
pub mod error;
pub mod feed;
pub mod hashing;
pub mod idempotency;
pub mod inflate;
pub mod limits;
pub mod lobby;
pub mod notify;
pub mod picture;
pub mod reads;
pub mod replay;
pub mod revocation;
pub mod schema;
pub mod snapshots;
pub mod sole_server;
pub mod spectator;
pub mod startup;
pub mod store;
pub mod stream_tickets;
pub mod telemetry;
pub mod trades;
pub mod turn_timer;
