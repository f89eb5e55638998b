//! A seek as its seeker sees it, and the queue of waiting seeks as everyone sees it.

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{
    error::ApiError,
    rated::{Pool, Rating},
    store::{
        seeks::{QueuedSeek, SeekRow, SeekStatus},
        AccountKind,
    },
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
    let rating_range = rating_range(seek);
    Ok(SeekResponse {
        id,
        status: seek.status_at(now),
        pool: seek.pool()?,
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

/// The seeks waiting now, oldest first: the order the queue matches them in.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekQueueResponse {
    pub seeks: Vec<QueuedSeekResponse>,
}

/// A waiting seek as everyone sees it: what it asks for and who asks.
#[derive(Debug, Serialize, ToSchema)]
pub struct QueuedSeekResponse {
    /// The seek (only its seeker reads or cancels it by this id).
    pub id: Uuid,
    pub pool: Pool,
    pub players: u8,
    pub rated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<RatingRange>,
    pub seeker: QueuedSeeker,
    /// When built-in bots take the seats still empty, if the seeker asked for them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// Who waits behind a seek.
#[derive(Debug, Serialize, ToSchema)]
pub struct QueuedSeeker {
    pub username: String,
    pub kind: AccountKind,
    /// Their rating in the seek's pool; absent before their first rated game there (a new
    /// account is matched as 25).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<Rating>,
}

/// Renders the waiting seeks of the queue.
///
/// # Errors
/// Unreadable stored data.
pub fn queue_response(queued: &[QueuedSeek]) -> Result<SeekQueueResponse, ApiError> {
    let seeks = queued
        .iter()
        .map(|entry| {
            let seek = &entry.seek;
            Ok(QueuedSeekResponse {
                id: Uuid::parse_str(&seek.id).map_err(ApiError::internal)?,
                pool: seek.pool()?,
                players: u8::try_from(seek.players).map_err(ApiError::internal)?,
                rated: seek.rated,
                rating_range: rating_range(seek),
                seeker: QueuedSeeker {
                    username: entry.username.clone(),
                    kind: AccountKind::parse(&entry.kind),
                    rating: entry.rating.map(|(rating, deviation)| Rating { rating, deviation }),
                },
                fill_at: seek.fill_at.map(utc),
                created_at: utc(seek.created_at),
                expires_at: utc(seek.expires_at),
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok(SeekQueueResponse { seeks })
}

/// The rating range a seek was placed with, if any.
fn rating_range(seek: &SeekRow) -> Option<RatingRange> {
    (seek.rating_min.is_some() || seek.rating_max.is_some())
        .then_some(RatingRange { min: seek.rating_min, max: seek.rating_max })
}
