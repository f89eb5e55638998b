//! Reads from the read replicas (`DATABASE_READ_URL`, docs/cluster.md): a game's read goes
//! to a replica only when the replica holds the game's latest version, else to the leader.

use actix_web::web;
use uuid::Uuid;

use crate::error::ApiError;

use super::{
    db::{lost, with_conn, DbConnection, DbPool},
    games::game_version,
};

/// Runs a read of game `game` on a replica when one holds at least version `latest` of it (the
/// newest version this server knows: read from the leader just before, or heard of through
/// its commits), else on the leader ([`with_conn`]). So a client never reads a version older
/// than one the server has told anyone about, and the replica serves the reads of games it has
/// caught up with; a replica that is down, or lags, costs a fallback, not an error.
///
/// # Errors
/// `f`'s error, or [`ApiError::Unavailable`] when the leader cannot be reached either.
pub async fn with_read_conn<T, F>(
    pool: &DbPool,
    replicas: Option<&DbPool>,
    game: Uuid,
    latest: Option<i64>,
    f: F,
) -> Result<T, ApiError>
where
    F: FnOnce(&mut DbConnection) -> Result<T, ApiError> + Clone + Send + 'static,
    T: Send + 'static,
{
    let (Some(replicas), Some(latest)) = (replicas, latest) else {
        return with_conn(pool, f).await;
    };
    let replicas = replicas.clone();
    let on_replica = f.clone();
    let served = web::block(move || {
        let mut conn = replicas.get().ok()?;
        lost::checked_out();
        let caught_up = game_version(&mut conn, game).ok()??.0 >= latest;
        caught_up.then(|| on_replica(&mut conn))
    })
    .await
    .ok()
    .flatten();
    match served {
        // An error of the replica's own (it went away mid-read) is retried on the leader; a
        // rule's answer (not found, forbidden) is the same on both.
        Some(Err(ApiError::Unavailable | ApiError::Internal(_))) | None => with_conn(pool, f).await,
        Some(answer) => answer,
    }
}
