//! Public profiles and leaderboards: ratings are public, like the finished games they come from;
//! nothing here reads a game's hidden state.

use actix_web::{
    http::header::{self, ContentType, HeaderMap},
    HttpResponse,
};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{
    error::ApiError,
    rated::Pool,
    store::{
        ratings::{HistoryRow, RatingRow},
        AccountKind,
    },
};

use super::{game::if_none_match, utc};

/// How long a shared cache may keep a profile or a leaderboard page: ratings change only when a
/// rated game ends.
pub const PUBLIC_MAX_AGE_SECONDS: u32 = 10;

/// An account's rating in one pool.
#[derive(Debug, Serialize, ToSchema)]
pub struct PoolRating {
    pub pool: Pool,
    /// The estimated skill (Weng-Lin mu; a new account has 25).
    pub rating: f64,
    /// Its uncertainty (sigma; 25/3 for a new account, smaller with every game).
    pub deviation: f64,
    /// `rating - 3 * deviation`: what leaderboards sort by.
    pub score: f64,
    /// Rated games played in the pool.
    pub games: i32,
    pub updated_at: DateTime<Utc>,
}

impl PoolRating {
    fn of(row: &RatingRow) -> Option<PoolRating> {
        Some(PoolRating {
            pool: Pool::parse(&row.pool)?,
            rating: row.rating,
            deviation: row.deviation,
            score: row.score,
            games: row.games,
            updated_at: utc(row.updated_at),
        })
    }
}

/// One rated game of an account and what it did to the rating.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatedGame {
    pub game_id: Uuid,
    pub pool: Pool,
    /// 1 is first; tied seats share a place.
    pub place: i32,
    pub players: i32,
    /// The seat was on the turn timer's autoplay when the game ended: it finished last.
    pub abandoned: bool,
    pub rating_before: f64,
    pub deviation_before: f64,
    pub rating: f64,
    pub deviation: f64,
    pub at: DateTime<Utc>,
}

/// A public profile.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileResponse {
    pub username: String,
    pub kind: AccountKind,
    pub created_at: DateTime<Utc>,
    /// Finished games the account sat in, rated or not.
    pub games_played: i64,
    /// Rated games, over every pool.
    pub rated_games: i64,
    /// One per pool the account has a rated game in.
    pub ratings: Vec<PoolRating>,
    /// The latest rated games (up to 50), newest first.
    pub rating_history: Vec<RatedGame>,
}

/// Builds a profile.
///
/// # Errors
/// Unreadable stored data.
pub fn profile(
    user: &crate::store::UserRow,
    games_played: i64,
    ratings: &[RatingRow],
    history: &[HistoryRow],
) -> Result<ProfileResponse, ApiError> {
    let rating_history = history
        .iter()
        .filter_map(|h| {
            Some(Ok(RatedGame {
                game_id: match Uuid::parse_str(&h.game_id) {
                    Ok(id) => id,
                    Err(e) => return Some(Err(ApiError::internal(e))),
                },
                pool: Pool::parse(&h.pool)?,
                place: h.place,
                players: h.players,
                abandoned: h.abandoned,
                rating_before: h.rating_before,
                deviation_before: h.deviation_before,
                rating: h.rating,
                deviation: h.deviation,
                at: utc(h.created_at),
            }))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ProfileResponse {
        username: user.username.clone(),
        kind: AccountKind::parse(&user.kind),
        created_at: utc(user.created_at),
        games_played,
        rated_games: ratings.iter().map(|r| i64::from(r.games)).sum(),
        ratings: ratings.iter().filter_map(PoolRating::of).collect(),
        rating_history,
    })
}

/// One place on a leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub struct LeaderboardEntry {
    /// 1 is the best score; equal scores get consecutive ranks (ordered by account id).
    pub rank: i64,
    pub username: String,
    pub kind: AccountKind,
    pub rating: f64,
    pub deviation: f64,
    pub score: f64,
    pub games: i32,
}

/// A page of a pool's leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub struct LeaderboardPage {
    pub pool: Pool,
    /// The rating model and its parameters.
    pub model: String,
    pub entries: Vec<LeaderboardEntry>,
    /// Pass as `cursor` for the next page; null on the last.
    pub next_cursor: Option<String>,
}

/// A public JSON read with an entity tag from its bytes: 304 when the client has it, and
/// cacheable by shared caches for [`PUBLIC_MAX_AGE_SECONDS`].
pub fn public_json(headers: &HeaderMap, body: &impl Serialize) -> Result<HttpResponse, ApiError> {
    use std::hash::{Hash, Hasher};
    let bytes = serde_json::to_vec(body)?;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    let tag = format!("\"r{:016x}\"", hasher.finish());
    let cache = format!("public, max-age={PUBLIC_MAX_AGE_SECONDS}");
    if if_none_match(headers, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, cache))
            .finish());
    }
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, tag))
        .insert_header((header::CACHE_CONTROL, cache))
        .content_type(ContentType::json())
        .body(bytes))
}
