//! The one way a move is played over HTTP, shared by `POST .../moves` and the trade
//! endpoints: the transactional pipeline of [`store::submit_move`], retried when it lost a
//! race (without `If-Match`), and the long-poll/stream waiters woken once it committed.

use serde::Serialize;
use uuid::Uuid;

use crate::{
    app::AppState,
    error::ApiError,
    store::db::{with_conn, DbConnection},
    store::{self, Applied, MoveRequest, Submitted},
};

/// Internal retries of a move that lost a race without `If-Match`.
const MOVE_RETRIES: usize = 3;

/// Plays `request` for `user`; `respond` builds the response inside the move's transaction
/// (so that it can be stored with an `Idempotency-Key`).
///
/// # Errors
/// The pipeline's errors (see [`store::submit_move`]).
pub async fn play<R, F>(
    state: &AppState,
    game_id: Uuid,
    user: Uuid,
    request: MoveRequest,
    respond: F,
) -> Result<Submitted<R>, ApiError>
where
    R: Serialize + Send + 'static,
    F: Fn(&mut DbConnection, &Applied) -> Result<(u16, R), ApiError> + Clone + Send + 'static,
{
    // Per account, on every endpoint that plays a move (built-in bots do not come here); a
    // move that is played costs nothing, so the limit bites only on what does not advance
    // the game (issue 31).
    let counted_before = crate::http::limits::counts_before_playing(&request.mv);
    if counted_before {
        state.limits.play(user).await?;
    }
    let if_match = request.if_match;
    let mut attempt = 0;
    let submitted = loop {
        attempt += 1;
        let request = request.clone();
        let respond = respond.clone();
        let notifier = state.notifier.clone();
        let result = with_conn(&state.pool, move |conn| {
            let submitted = store::submit_move(conn, game_id, user, &request, respond)?;
            // Wake the waiters right after the commit, on this thread: even when the client
            // has gone and the handler is dropped, the entry is announced.
            if let Submitted::Played { applied, .. } = &submitted {
                notifier.publish(game_id, applied.version);
            }
            Ok(submitted)
        })
        .await;
        match result {
            Err(ApiError::Conflict { code: "version_conflict", .. })
                if if_match.is_none() && attempt < MOVE_RETRIES =>
            {
                continue
            }
            other => break other,
        }
    };
    match &submitted {
        Ok(Submitted::Played { .. }) => state.bots.poke(game_id),
        // A retry answered from its stored response, or a refusal: counted now, and over
        // the limit answered 429 instead (after the refusal delay).
        Ok(Submitted::Replayed(_)) if !counted_before => state.limits.play(user).await?,
        Err(error) if !counted_before && error.is_client_error() => state.limits.play(user).await?,
        _ => {}
    }
    submitted
}
