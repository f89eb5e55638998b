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

use crate::{db::DbConnection, error::ApiError, notify::Notifier};

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

/// How long the listener blocks before checking that its server still runs.
const LIVENESS_CHECK: std::time::Duration = std::time::Duration::from_secs(5);
/// The longest pause between two reconnection attempts.
const MAX_BACKOFF: std::time::Duration = std::time::Duration::from_secs(30);

/// Starts this process's listener: a thread with its own PostgreSQL connection that
/// `LISTEN`s on [`CHANNEL`] and publishes every committed entry, from any process, to
/// `notifier`. It reconnects with exponential backoff (logging each failure), and stops once
/// `notifier` is no longer shared, i.e. the server that owned it is gone.
///
/// # Errors
/// When the thread cannot be spawned.
pub fn spawn_listener(url: String, notifier: Notifier) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new().name("catan-listen".into()).spawn(move || listen(&url, &notifier))
}

fn listen(url: &str, notifier: &Notifier) {
    let mut backoff = std::time::Duration::from_millis(100);
    while notifier.is_shared() {
        match postgres::Client::connect(url, postgres::NoTls) {
            Ok(mut client) => match client.batch_execute(&format!("LISTEN {CHANNEL}")) {
                Ok(()) => {
                    tracing::info!(channel = CHANNEL, "listening for commits of every server process");
                    backoff = std::time::Duration::from_millis(100);
                    match relay(&mut client, notifier) {
                        Ok(()) => return,
                        Err(error) => tracing::warn!(%error, "lost the LISTEN connection; reconnecting"),
                    }
                }
                Err(error) => tracing::warn!(%error, "LISTEN failed; retrying"),
            },
            Err(error) => tracing::warn!(%error, retry_in = ?backoff, "cannot open the LISTEN connection"),
        }
        std::thread::sleep(backoff);
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

/// Forwards notifications until the server is gone (`Ok`) or the connection fails.
fn relay(client: &mut postgres::Client, notifier: &Notifier) -> Result<(), postgres::Error> {
    let mut notifications = client.notifications();
    while notifier.is_shared() {
        // Blocks until a notification arrives (or the liveness check is due).
        let mut batch = notifications.timeout_iter(LIVENESS_CHECK);
        while let Some(notification) = postgres::fallible_iterator::FallibleIterator::next(&mut batch)? {
            match parse_payload(notification.payload()) {
                Some((game, seq)) => notifier.publish(game, seq),
                None => tracing::warn!(payload = notification.payload(), "unreadable notification"),
            }
        }
    }
    Ok(())
}
