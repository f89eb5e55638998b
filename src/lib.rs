//! The Catan game server: the rules engine (`catan_engine`) behind an HTTP API with an
//! OpenAPI contract, storing every game as an event-sourced move log.
//!
//! # Layers
//!
//! The top-level modules are layers, listed here from the bottom up. A module may import
//! modules of the layers below it and of its own layer, never one of a layer above; and
//! neither the imports between top-level modules nor those between files form a cycle.
//! `tests/layering.rs` checks this from the paths of `src/` (`docs/architecture.md` draws the
//! picture).
//!
//! | Layer | Modules | Holds |
//! |---|---|---|
//! | foundation | [`error`], [`telemetry`] | the one error enum and its problem bodies; logging |
//! | rating | [`rated`] | the rules of rated play: the rating pools, the Weng-Lin model and finish orders, which seeks make a game |
//! | storage | [`store`] | the database, the schema, the rows and queries, the write path of moves, snapshots, idempotency, the trade book |
//! | reads | [`reads`] | what each reader sees, served from memory; replays of past positions |
//! | live | [`live`] | waking readers when a move commits, in this process and across processes |
//! | play | [`play`] | the built-in bots, the turn limit and the turn timer |
//! | views | [`views`] | the game resource and summaries, the board picture, the spectator page |
//! | edges | [`auth`], [`http`] | tokens, password hashing, revocation, stream tickets; middleware, rate limits, `405`s |
//! | state | [`app`] | `AppState`, what every request sees |
//! | handlers | [`api`] | the handlers, one resource per file, their routes and the OpenAPI document |
//! | wiring | [`config`], [`startup`] | configuration from the environment; building and running the server |
//!
//! The binary (`src/main.rs`) sees the library from outside, like the tests.

pub mod api;
pub mod app;
pub mod auth;
pub mod config;
pub mod error;
pub mod http;
pub mod live;
pub mod play;
pub mod rated;
pub mod reads;
pub mod startup;
pub mod store;
pub mod telemetry;
pub mod views;
