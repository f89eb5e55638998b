//! Telling every server process that a log entry committed, so that long-poll and SSE
//! waiters wake at once wherever the move was played.
//!
//! Within one process, [`crate::notify::Notifier`] wakes the waiters. Across processes on one
//! PostgreSQL, the move's transaction runs `pg_notify('catan_moves', '<game_id>:<seq>')`
//! ([`announce`]), which PostgreSQL delivers when (and only if) the transaction commits; each
//! process runs one [`listen`] thread on a dedicated connection that `LISTEN`s on that channel
//! and forwards every notification to its own notifier. SQLite is single-process, so the
//! in-process notifier is all it needs.

use diesel::{sql_types::Text, RunQueryDsl};
use uuid::Uuid;

use crate::{db::DbConnection, error::ApiError};

/// The PostgreSQL channel that carries `<game_id>:<seq>` for every committed log entry.
pub const CHANNEL: &str = "catan_moves";

/// Announces, inside the transaction that wrote it, that entry `seq` of `game_id` exists:
/// a `pg_notify` on PostgreSQL (delivered on commit), nothing on SQLite.
///
/// # Errors
/// A database error.
pub fn announce(conn: &mut DbConnection, game_id: Uuid, seq: i64) -> Result<(), ApiError> {
    if let DbConnection::Pg(pg) = conn {
        diesel::sql_query("SELECT pg_notify($1, $2)")
            .bind::<Text, _>(CHANNEL)
            .bind::<Text, _>(format!("{game_id}:{seq}"))
            .execute(pg)?;
    }
    Ok(())
}

/// Parses a notification payload `<game_id>:<seq>`.
pub fn parse_payload(payload: &str) -> Option<(Uuid, i64)> {
    let (game, seq) = payload.split_once(':')?;
    Some((Uuid::parse_str(game).ok()?, seq.parse().ok()?))
}
