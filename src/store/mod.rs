//! Storage: rows, and the queries the handlers need, written once for both backends.
//! Every function takes the connection first and runs synchronously (call it through
//! [`crate::store::db::with_conn`]).

pub mod append;
pub mod db;
pub mod games;
pub mod holders;
pub mod idempotency;
pub mod imports;
pub mod lobby;
pub mod log;
pub mod moves;
pub mod ratings;
pub mod replicas;
pub mod rows;
pub mod schema;
pub mod seats;
pub mod seeks;
pub mod snapshots;
pub mod sole_server;
pub mod trades;
pub mod upgrades;
pub mod users;

use chrono::{NaiveDateTime, Timelike, Utc};

pub use self::{games::*, holders::*, imports::*, log::*, moves::*, rows::*, seats::*, upgrades::*, users::*};

/// Returns the current time, truncated to microseconds (what both backends store).
pub fn now() -> NaiveDateTime {
    to_micros(Utc::now().naive_utc())
}

/// Returns `at` truncated to microseconds, as both backends store a time.
pub fn to_micros(at: NaiveDateTime) -> NaiveDateTime {
    at.with_nanosecond(at.nanosecond() / 1_000 * 1_000).unwrap_or(at)
}
