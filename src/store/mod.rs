//! Storage: rows, and the queries the handlers need, written once for both backends.
//! Every function takes the connection first and runs synchronously (call it through
//! [`crate::store::db::with_conn`]).

pub mod append;
pub mod db;
pub mod games;
pub mod holders;
pub mod idempotency;
pub mod lobby;
pub mod log;
pub mod moves;
pub mod rows;
pub mod schema;
pub mod seats;
pub mod snapshots;
pub mod sole_server;
pub mod trades;
pub mod upgrades;
pub mod users;

use chrono::{NaiveDateTime, Timelike, Utc};

pub use self::{games::*, holders::*, log::*, moves::*, rows::*, seats::*, upgrades::*, users::*};

/// Returns the current time, truncated to microseconds (what both backends store).
pub fn now() -> NaiveDateTime {
    let now = Utc::now().naive_utc();
    now.with_nanosecond(now.nanosecond() / 1_000 * 1_000).unwrap_or(now)
}
