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

/// What [`check_every_game`] found: every game checked, and those whose log or snapshot is
/// wrong.
#[derive(Debug, Default)]
pub struct StoreCheck {
    pub games: usize,
    pub entries: usize,
    /// The games whose seqs do not run 1..version, or whose snapshot is not the replay of
    /// their log, with what was wrong.
    pub faults: Vec<(Uuid, String)>,
}

/// Checks every stored game with [`check_replay`] (`catan-server verify`): after a failover,
/// the proof that no game lost part of its log or kept a snapshot its log does not give.
/// Calls `progress` with the games done and the total now and then.
///
/// # Errors
/// A database error. A game whose rows cannot be read is a fault, not an error.
pub fn check_every_game(conn: &mut DbConnection, progress: impl Fn(usize, usize)) -> Result<StoreCheck, ApiError> {
    let ids: Vec<String> = games::table.select(games::id).order(games::id.asc()).load(conn)?;
    let mut check = StoreCheck::default();
    for (done, id) in ids.iter().enumerate() {
        let Ok(game_id) = Uuid::parse_str(id) else {
            check.faults.push((Uuid::nil(), format!("a game id that is no UUID: {id:?}")));
            continue;
        };
        match check_replay(conn, game_id) {
            Ok(found) => {
                check.entries += found.entries;
                if !found.contiguous {
                    let detail =
                        format!("{} entries for version {}, or a gap or a duplicate seq", found.entries, found.version);
                    check.faults.push((game_id, detail));
                } else if !found.matches_snapshot {
                    check.faults.push((
                        game_id,
                        format!("the snapshot at version {} is not the replay of its log", found.version),
                    ));
                }
            }
            // Gone meanwhile (a game is never deleted, but a test database may be dropped).
            Err(ApiError::NotFound(_)) => continue,
            Err(ApiError::Internal(detail)) => check.faults.push((game_id, format!("unreadable: {detail}"))),
            Err(other) => return Err(other),
        }
        check.games += 1;
        if (done + 1) % 500 == 0 {
            progress(done + 1, ids.len());
        }
    }
    Ok(check)
}
