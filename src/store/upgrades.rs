//! Snapshots rebuilt from the log: upgrading those stored in an older format at start-up, and
//! checking a game's snapshot against its whole log.

use catan_engine::{protocol::versioned, Game};
use diesel::prelude::*;
use uuid::Uuid;

use crate::error::ApiError;

use super::{
    db::DbConnection,
    games::find_game,
    log::{load_moves, replay_log},
    rows::{game_not_found, GameRow},
    schema::games,
};

/// Rewrites every snapshot stored in an older format, rebuilt from its log, so that reads
/// never have to (run at start-up, after the migrations). A game that moves meanwhile keeps
/// its newer snapshot: each rewrite only applies at the version it was rebuilt from.
///
/// # Errors
/// A database error, or a log that cannot be read or replayed.
pub fn upgrade_snapshots(conn: &mut DbConnection) -> Result<usize, ApiError> {
    let current = format!("{{\"format\":{},%", versioned::FORMAT);
    let outdated: Vec<String> = games::table
        .filter(games::snapshot.is_not_null())
        .filter(diesel::dsl::not(games::snapshot.assume_not_null().like(&current)))
        .select(games::id)
        .load(conn)?;
    if !outdated.is_empty() {
        tracing::info!(
            games = outdated.len(),
            format = versioned::FORMAT,
            "rebuilding snapshots stored in an older format"
        );
    }
    for (done, id) in outdated.iter().enumerate() {
        let Some(row) = games::table.find(id).select(GameRow::as_select()).first(conn).optional()? else {
            continue;
        };
        let game = replay_log(conn, &row)?;
        diesel::update(games::table.find(id).filter(games::version.eq(row.version)))
            .set(games::snapshot.eq(Some(versioned::encode_snapshot(&game))))
            .execute(conn)?;
        if (done + 1) % 100 == 0 {
            tracing::info!(done = done + 1, of = outdated.len(), "snapshots rebuilt");
        }
    }
    Ok(outdated.len())
}

/// A stored entry or snapshot the engine cannot read: written by a newer server, or damaged.
/// What [`check_replay`] found.
#[derive(Debug)]
pub struct ReplayCheck {
    pub version: i64,
    pub entries: usize,
    /// Whether the seqs run 1, 2, ... version with no gap or duplicate.
    pub contiguous: bool,
    /// Whether replaying the whole log gives exactly the stored snapshot.
    pub matches_snapshot: bool,
}

/// Replays a game's whole log and compares the result with the stored snapshot: the proof
/// that the log is the source of truth.
///
/// # Errors
/// `not_found`, an unreadable row, or a database error.
pub fn check_replay(conn: &mut DbConnection, game_id: Uuid) -> Result<ReplayCheck, ApiError> {
    let row = find_game(conn, game_id)?.ok_or_else(|| game_not_found(game_id))?;
    let entries = load_moves(conn, game_id, 0, i64::MAX)?;
    let contiguous =
        entries.iter().enumerate().all(|(i, e)| e.seq == i as i64 + 1) && entries.len() as i64 == row.version;
    let mut events = Vec::new();
    for entry in &entries {
        events.extend(entry.events()?);
    }
    let matches_snapshot = match row.game()? {
        None => entries.is_empty(),
        Some(snapshot) => Game::replay(row.config()?, &events).map(|replayed| replayed == *snapshot).unwrap_or(false),
    };
    Ok(ReplayCheck { version: row.version, entries: entries.len(), contiguous, matches_snapshot })
}
