//! A seek as its seeker sees it.

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{
    error::ApiError,
    rated::Pool,
    store::seeks::{SeekRow, SeekStatus},
};

use super::utc;

/// The ratings a seeker accepts as opponents (`rating` of the pool, inclusive; a side left out
/// is open).
#[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"min": 20.0, "max": 35.0}))]
pub struct RatingRange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
}

/// A seek: a place in the matchmaking queue, and the game it found.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekResponse {
    pub id: Uuid,
    /// `waiting`, then `matched` (see `game_id`), `cancelled` or `expired`.
    pub status: SeekStatus,
    pub pool: Pool,
    pub players: u8,
    pub rated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<RatingRange>,
    /// The built-in bot that takes the empty seats at `fill_at`, if the seeker asked for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill_bot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill_at: Option<DateTime<Utc>>,
    /// The game, once matched: it has started, with the seeker seated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub links: SeekLinks,
}

/// Where to go from a seek.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekLinks {
    /// This seek (long-poll it with `?wait=`).
    #[serde(rename = "self")]
    pub self_: String,
    /// The game, once matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

/// Renders a seek as of `now`.
///
/// # Errors
/// Unreadable stored data.
pub fn seek_response(seek: &SeekRow, now: NaiveDateTime) -> Result<SeekResponse, ApiError> {
    let id = Uuid::parse_str(&seek.id).map_err(ApiError::internal)?;
    let game_id = seek.game_id.as_deref().map(Uuid::parse_str).transpose().map_err(ApiError::internal)?;
    let rating_range = (seek.rating_min.is_some() || seek.rating_max.is_some())
        .then_some(RatingRange { min: seek.rating_min, max: seek.rating_max });
    Ok(SeekResponse {
        id,
        status: seek.status_at(now),
        pool: Pool::parse(&seek.pool).ok_or_else(|| ApiError::internal(format!("unknown pool {:?}", seek.pool)))?,
        players: u8::try_from(seek.players).map_err(ApiError::internal)?,
        rated: seek.rated,
        rating_range,
        fill_bot: seek.fill_bot.clone(),
        fill_at: seek.fill_at.map(utc),
        game_id,
        created_at: utc(seek.created_at),
        expires_at: utc(seek.expires_at),
        links: SeekLinks {
            self_: format!("/api/v1/seeks/{id}"),
            game: game_id.map(|game| format!("/api/v1/games/{game}")),
        },
    })
}
