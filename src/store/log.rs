//! The move log (table `game_moves`): its entries, what appending one did, and reading them
//! back, down to rebuilding a game from its whole log.

use catan_engine::{protocol::versioned, Event, Game, Move, Seat};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use uuid::Uuid;

use crate::error::ApiError;

use super::{
    db::DbConnection,
    idempotency::Claim,
    now,
    rows::{stored_format_error, GameRow, GameStatus},
    schema::game_moves,
};

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_moves)]
pub struct MoveRow {
    pub game_id: String,
    pub seq: i64,
    pub seat: Option<i32>,
    pub kind: String,
    pub move_body: Option<String>,
    pub events: String,
    pub idempotency_key: Option<String>,
    pub created_at: NaiveDateTime,
    /// The bot kind, when a built-in bot made the move.
    pub bot: Option<String>,
}

impl MoveRow {
    /// The log entry `seq` of game `game_id`: `seat`'s move `mv` and the events it caused,
    /// made now by a user without an `Idempotency-Key` (set `idempotency_key` and `bot`
    /// otherwise).
    ///
    /// # Errors
    /// When the move or the events cannot be serialized.
    pub fn new(game_id: &str, seq: i64, seat: Seat, mv: &Move, events: &[Event]) -> Result<MoveRow, ApiError> {
        Ok(MoveRow {
            game_id: game_id.to_owned(),
            seq,
            seat: Some(i32::from(seat.0)),
            kind: mv.kind().to_owned(),
            move_body: Some(serde_json::to_string(mv)?),
            events: versioned::encode_events(events),
            idempotency_key: None,
            created_at: now(),
            bot: None,
        })
    }

    /// Returns the entry's events.
    ///
    /// # Errors
    /// When the stored JSON is unreadable.
    pub fn events(&self) -> Result<Vec<Event>, ApiError> {
        versioned::decode_events(&self.events).map_err(stored_format_error)
    }

    /// Returns the entry's move, if it was a move.
    ///
    /// # Errors
    /// When the stored JSON is unreadable.
    pub fn mv(&self) -> Result<Option<Move>, ApiError> {
        self.move_body.as_deref().map(versioned::decode_move).transpose().map_err(stored_format_error)
    }
}

/// What a move did: the new version and the log entry it wrote.
#[derive(Debug, Clone)]
pub struct Applied {
    pub version: i64,
    pub entry: MoveRow,
    pub status: GameStatus,
    /// The seats that must act next (empty once the game is over).
    pub waiting_for: Vec<Seat>,
}

impl Applied {
    /// What writing `entry` did, `game` being the game's state after it.
    pub fn new(entry: MoveRow, game: &Game) -> Applied {
        Applied { version: entry.seq, status: GameStatus::of(game), waiting_for: game.waiting_for(), entry }
    }
}

/// A move as submitted.
#[derive(Debug, Clone)]
pub struct MoveRequest {
    pub mv: Move,
    /// `If-Match`: play only at this version.
    pub if_match: Option<i64>,
    /// `Idempotency-Key`: a retry with the same key and request returns the first response.
    pub idempotency: Option<Claim>,
}

/// Loads log entries after `after`, oldest first, at most `limit`.
///
/// # Errors
/// A database error.
pub fn load_moves(conn: &mut DbConnection, game_id: Uuid, after: i64, limit: i64) -> Result<Vec<MoveRow>, ApiError> {
    Ok(game_moves::table
        .filter(game_moves::game_id.eq(game_id.to_string()))
        .filter(game_moves::seq.gt(after))
        .order(game_moves::seq.asc())
        .limit(limit)
        .select(MoveRow::as_select())
        .load(conn)?)
}

/// Rebuilds a game from its whole log.
pub fn replay_log(conn: &mut DbConnection, row: &GameRow) -> Result<Game, ApiError> {
    let id = Uuid::parse_str(&row.id).map_err(ApiError::internal)?;
    let mut events = Vec::new();
    for entry in load_moves(conn, id, 0, i64::MAX)? {
        events.extend(entry.events()?);
    }
    Ok(Game::replay(row.config()?, &events)?)
}
