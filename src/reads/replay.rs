//! Replays: a game as it was after one entry of its move log, rebuilt from the log (the log
//! is the source of truth; snapshots only hold the latest position).
//!
//! A position never changes once its entry has committed, so what each reader sees of it is
//! served from the read cache ([`crate::reads`]) after the first rebuild. A rebuild reads the
//! entries up to `seq` and applies their events from `game_started` on: the cost grows with
//! `seq` (docs/following-a-game.md, "Replays", gives the figure for a late position of a long game).

use catan_engine::{Event, Game, VictoryCondition};
use uuid::Uuid;

use crate::{
    error::ApiError,
    store::db::DbConnection,
    store::{self, GameRow, GameStatus},
};

/// A position rebuilt from the log.
#[derive(Debug)]
pub struct Position {
    pub game: Game,
    /// How the game was won, when this position is its end.
    pub won_by: Option<VictoryCondition>,
}

/// Refuses a `seq` the game's log does not have: 422 `seq_out_of_range`.
///
/// # Errors
/// `seq_out_of_range` unless `1 <= seq <= version` of a started game.
pub fn check_seq(row: &GameRow, seq: i64) -> Result<(), ApiError> {
    if row.status() == GameStatus::Open {
        return Err(ApiError::unprocessable(
            "seq_out_of_range",
            format!("the game has not started: its log is empty, there is no entry {seq}"),
        ));
    }
    if !(1..=row.version).contains(&seq) {
        return Err(ApiError::unprocessable(
            "seq_out_of_range",
            format!("the log runs from entry 1 to {}; there is no entry {seq}", row.version),
        ));
    }
    Ok(())
}

/// Rebuilds `row`'s game as it was after log entry `seq`, which [`check_seq`] accepted.
///
/// # Errors
/// A database error, or a log that cannot be read or replayed.
pub fn position_at(conn: &mut DbConnection, row: &GameRow, seq: i64) -> Result<Position, ApiError> {
    let id = Uuid::parse_str(&row.id).map_err(ApiError::internal)?;
    let mut events: Vec<Event> = Vec::new();
    for entry in store::load_moves(conn, id, 0, seq)? {
        events.extend(entry.events()?);
    }
    let game = Game::replay(row.config()?, &events)?;
    let won_by = events.iter().rev().find_map(|event| match event {
        Event::GameWon { condition, .. } => Some(*condition),
        _ => None,
    });
    Ok(Position { won_by: won_by.filter(|_| game.is_over()), game })
}
