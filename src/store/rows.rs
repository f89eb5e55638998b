//! The rows of `games` as both backends store them, what their columns mean, and the errors
//! of reading them back.

use std::sync::Arc;

use catan_engine::{protocol::versioned, Game, GameConfig};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use uuid::Uuid;

use crate::error::ApiError;

use super::schema::games;

/// The lifecycle of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Waiting for players; not started.
    Open,
    /// Started; moves are being played.
    Playing,
    /// Someone has won.
    Finished,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Playing => "playing",
            GameStatus::Finished => "finished",
        }
    }

    /// The status of a started game whose state is `game`.
    pub fn of(game: &Game) -> GameStatus {
        if game.is_over() {
            GameStatus::Finished
        } else {
            GameStatus::Playing
        }
    }

    pub fn parse(s: &str) -> Option<GameStatus> {
        match s {
            "open" => Some(GameStatus::Open),
            "playing" => Some(GameStatus::Playing),
            "finished" => Some(GameStatus::Finished),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: String,
    pub created_by: String,
    pub status: String,
    pub max_players: i32,
    pub config: String,
    pub seed: i64,
    pub version: i64,
    pub snapshot: Option<String>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// The creator chose the seed: no other human may join (the dice could be known).
    pub seeded: bool,
    /// For a game imported from a record (`POST /games/import`): the id it had where it was
    /// played.
    pub imported_from: Option<String>,
    /// For a game created from a prepared position (`POST /games` with `position`): the
    /// position, as JSON (the engine's `Setup`), from which it starts.
    pub position: Option<String>,
    /// A rated game: its players' ratings in `pool` change when it finishes.
    pub rated: bool,
    /// The rating pool of a rated game (`crate::rated::Pool`'s name).
    pub pool: Option<String>,
}

impl GameRow {
    pub fn status(&self) -> GameStatus {
        GameStatus::parse(&self.status).unwrap_or(GameStatus::Open)
    }

    /// Returns the stored configuration.
    ///
    /// # Errors
    /// When the stored JSON is unreadable.
    pub fn config(&self) -> Result<GameConfig, ApiError> {
        Ok(serde_json::from_str(&self.config)?)
    }

    /// Returns the latest snapshot, if the game has started.
    ///
    /// # Errors
    /// When the stored JSON is unreadable.
    pub fn game(&self) -> Result<Option<Arc<Game>>, ApiError> {
        let parse = |json: &str| crate::store::snapshots::game(&self.id, self.version, json);
        self.snapshot.as_deref().map(parse).transpose()
    }

    pub fn seed(&self) -> u64 {
        self.seed as u64
    }
}

pub fn game_not_found(id: Uuid) -> ApiError {
    ApiError::NotFound(format!("there is no game {id}"))
}

/// A stored snapshot, log entry or move that this version cannot read.
pub(super) fn stored_format_error(error: versioned::FormatError) -> ApiError {
    ApiError::internal(format!("stored game data is unreadable: {error}"))
}
