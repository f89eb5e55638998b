//! Seeks: matchmaking. Put yourself in a pool's queue, learn your game by long-polling the
//! seek, or cancel it; see who waits in the queue.

use std::{sync::Arc, time::Duration};

use actix_web::{delete, get, http::header, post, web, HttpRequest, HttpResponse};
use catan_engine::bots::BotKind;
use chrono::Duration as Span;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::{
    app::AppState,
    auth::{AuthUser, MaybeAuthUser},
    error::{ApiError, Problem},
    http::json::{in_range, Json},
    play::seeks::POLL,
    rated::Pool,
    store::{
        self,
        db::with_conn,
        idempotency::{self, Keyed},
        seeks::{SeekRow, SeekStatus, Started},
    },
    views::seeks::{queue_response, seek_response, RatingRange, SeekQueueResponse, SeekResponse},
};

/// The longest a seek may wait, and how long it waits unless told.
const MAX_EXPIRY_SECONDS: u32 = 86_400;
const DEFAULT_EXPIRY_SECONDS: u32 = 600;
/// The longest a long-poll of a seek holds its request.
const MAX_WAIT_SECONDS: u64 = 60;

/// A place in the matchmaking queue.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"pool": "base", "players": 4, "rated": true, "fill_with_bots_after": 30}))]
pub struct SeekRequest {
    /// The rating pool, which fixes the rules: `base` (random board), `five_six`, `seafarers`
    /// (New Shores), `wonders`, `cities_and_knights`.
    pub pool: Pool,
    /// Seats: within the pool's (base 2-4, five_six 5-6, the others 3-4); default the most
    /// (4, or 6 for five_six). Only seeks of the same seat count meet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<u8>,
    /// Whether the game is rated (default true). Only seeks that agree meet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    /// The ratings (in the pool) this seeker accepts as opponents; others' ranges must accept
    /// this seeker's rating too. Open when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<RatingRange>,
    /// Seconds (0 to 86,400) after which the seats no seeker has taken are given to built-in
    /// bots (`fill_bot`) and the game starts. Absent: wait for people and bots over the API only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 86400)]
    pub fill_with_bots_after: Option<u32>,
    /// The built-in bot that fills: `heuristic` (default) or `random`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill_bot: Option<BotKind>,
    /// Seconds (10 to 86,400, default 600) after which an unmatched seek expires.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 10, maximum = 86400)]
    pub expires_after: Option<u32>,
}

/// How long to wait for a seek to change.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SeekQuery {
    /// Seconds (0 to 60) to hold the request while the seek is waiting; it answers as soon as
    /// the seek is matched, cancelled or expired.
    #[param(minimum = 0, maximum = 60)]
    pub wait: Option<u64>,
}

/// Which waiting seeks to list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SeekQueueQuery {
    /// Only this pool's seeks.
    pub pool: Option<Pool>,
    /// How many at most, 1 to 100 (default 50): the oldest first.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
}

fn invalid(field: &str, why: impl Into<String>) -> ApiError {
    let why = why.into();
    ApiError::unprocessable("invalid_seek", why.clone()).at(format!("#/{field}"), why)
}

/// Checks a seek and makes its row.
fn new_seek(request: &SeekRequest, user: Uuid, sandbox: bool) -> Result<SeekRow, ApiError> {
    let pool = request.pool;
    let seats = pool.players();
    let players = request.players.unwrap_or(*seats.end());
    if !seats.contains(&players) {
        return Err(invalid(
            "players",
            format!("a {pool} game has {} to {} players, not {players}", seats.start(), seats.end()),
        ));
    }
    let rated = request.rated.unwrap_or(true);
    if rated && sandbox {
        return Err(ApiError::unprocessable(
            "rated_game_not_allowed",
            "a sandbox server plays no rated games: moves there may name their dice",
        )
        .at_field("#/rated"));
    }
    let range = request.rating_range.unwrap_or(RatingRange { min: None, max: None });
    let bounds = [range.min, range.max];
    if bounds.iter().flatten().any(|r| !r.is_finite()) || range.min.zip(range.max).is_some_and(|(lo, hi)| lo > hi) {
        return Err(invalid("rating_range", "a rating range is two finite numbers, min no more than max"));
    }
    let expires_after = request.expires_after.unwrap_or(DEFAULT_EXPIRY_SECONDS);
    if !(10..=MAX_EXPIRY_SECONDS).contains(&expires_after) {
        return Err(invalid("expires_after", format!("expires_after is 10 to {MAX_EXPIRY_SECONDS} seconds")));
    }
    if let Some(after) = request.fill_with_bots_after {
        if after >= expires_after {
            return Err(invalid(
                "fill_with_bots_after",
                format!("the bots would come after the seek expires ({expires_after} s): fill sooner or wait longer"),
            ));
        }
    } else if request.fill_bot.is_some() {
        return Err(invalid("fill_bot", "a fill bot needs `fill_with_bots_after`"));
    }
    let now = store::now();
    Ok(SeekRow {
        id: Uuid::now_v7().to_string(),
        user_id: user.to_string(),
        pool: pool.name().to_owned(),
        players: i32::from(players),
        rated,
        rating_min: range.min,
        rating_max: range.max,
        fill_bot: request
            .fill_with_bots_after
            .map(|_| request.fill_bot.unwrap_or(BotKind::Heuristic).name().to_owned()),
        fill_at: request.fill_with_bots_after.map(|after| now + Span::seconds(i64::from(after))),
        status: SeekStatus::Waiting.as_str().into(),
        game_id: None,
        created_at: now,
        expires_at: now + Span::seconds(i64::from(expires_after)),
        updated_at: now,
    })
}

/// Seek a game: join a pool's matchmaking queue.
///
/// When enough compatible seekers wait (the same `pool`, `players` and `rated`, each inside the
/// others' `rating_range`), the server creates their game, seats them in a random order and
/// starts it: the seek becomes `matched` with its `game_id` (at once, if this seek completed
/// the game). Long-poll `GET /api/v1/seeks/{id}?wait=60` to learn it. With
/// `fill_with_bots_after`, the seats still empty after that many seconds go to built-in bots.
/// An account has one waiting seek at a time. A rated game gets the turn timer of rated games
/// (120 s): a seat left to the timer's autoplay to the end finishes last. Seeks count against
/// the limits of creating games (429) and the open-games cap (409 `too_many_games`).
#[utoipa::path(
    tag = "seeks",
    params(("Idempotency-Key" = Option<String>, Header, description = "Retrying with the same key and body returns the first response (`Idempotent-Replayed: true`); the same key with another request is 422 `idempotency_key_reused`")),
    request_body = SeekRequest,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "In the queue (`waiting`), or already `matched`", body = SeekResponse,
         headers(("Location" = String, description = "The seek"))),
        (status = 400, description = "Malformed body (`malformed_body`, e.g. an unknown pool; `errors` names the field)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`already_seeking` (the account has a waiting seek) or `too_many_games`", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_seek` (seats outside the pool's, a bad rating range, expiry or fill time; `errors` names the field), `rated_game_not_allowed` (a rated seek on a sandbox server) or `idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 503, response = crate::api::responses::ServerBusy),
    )
)]
#[post("/seeks")]
pub async fn create_seek(
    state: web::Data<AppState>,
    user: AuthUser,
    req: HttpRequest,
    body: Json<SeekRequest>,
) -> Result<HttpResponse, ApiError> {
    state.limits.create_game(user.id).await?;
    let request = body.into_inner();
    let row = new_seek(&request, user.id, state.sandbox)?;
    let claim = idempotency::claim(&req, user.id, &request)?;
    let (limits, user_id) = (Arc::clone(&state.limits), user.id);
    let written = with_conn(&state.pool, move |conn| {
        idempotency::once(conn, claim.as_ref(), 201, |conn| {
            limits.check_open_games(conn, user_id)?;
            let (seek, started) = store::seeks::place(conn, &row)?;
            let body = serde_json::to_string(&seek_response(&seek, store::now())?)?;
            Ok(((seek.id, started), body))
        })
    })
    .await?;
    Ok(match written {
        Keyed::Replay(first) => first.replay(),
        Keyed::Done((id, started), body) => {
            state.matchmaker.committed(&started.into_iter().collect::<Vec<Started>>());
            HttpResponse::Created()
                .insert_header((header::LOCATION, format!("/api/v1/seeks/{id}")))
                .content_type("application/json")
                .body(body)
        }
    })
}

fn seek_id(path: web::Path<String>) -> Result<String, ApiError> {
    let raw = path.into_inner();
    Uuid::parse_str(&raw).map(|id| id.to_string()).map_err(|_| store::seeks::no_seek(&raw))
}

/// Get one of your seeks; long-poll it with `wait`.
///
/// While the seek is `waiting`, `wait` holds the request up to that many seconds and answers as
/// soon as the seek is matched (then `game_id` names the started game), cancelled or expired.
#[utoipa::path(
    tag = "seeks",
    params(("seek_id" = Uuid, Path, description = "The seek"), SeekQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The seek", body = SeekResponse),
        (status = 400, description = "Bad query (`invalid_query`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "You have no such seek", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/seeks/{seek_id}")]
pub async fn get_seek(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    query: crate::http::query::Query<SeekQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = seek_id(path)?;
    let wait = Duration::from_secs(in_range("wait", query.wait.unwrap_or(0), 0, MAX_WAIT_SECONDS)?);
    let deadline = tokio::time::Instant::now() + wait;
    let owner = user.id.to_string();
    loop {
        // Listen before reading, so that a change between the read and the wait still wakes.
        let changed = state.matchmaker.changed();
        let (id, owner) = (id.clone(), owner.clone());
        let seek = with_conn(&state.pool, move |conn| {
            store::seeks::find(conn, &id)?.filter(|s| s.user_id == owner).ok_or_else(|| store::seeks::no_seek(&id))
        })
        .await?;
        let now = tokio::time::Instant::now();
        if seek.status_at(store::now()) != SeekStatus::Waiting || now >= deadline {
            return Ok(HttpResponse::Ok().json(seek_response(&seek, store::now())?));
        }
        let _ = tokio::time::timeout((deadline - now).min(POLL), changed).await;
    }
}

/// List the seeks waiting now.
///
/// The matchmaking queue as everyone may see it, oldest first (the order it matches in): each
/// seek's pool, seats, ratedness and rating range, its seeker with their rating in the pool, and
/// when it fills with bots or expires. A seek that would fit one of these joins its game at
/// once. No token needed; not cached (`Cache-Control: no-cache`): the queue changes every second.
#[utoipa::path(
    tag = "seeks",
    params(SeekQueueQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The waiting seeks", body = SeekQueueResponse,
         headers(("Cache-Control" = String, description = "`no-cache`"))),
        (status = 400, description = "Bad query (`invalid_query`, naming the parameter): an unknown pool or a `limit` outside 1 to 100", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
    )
)]
#[get("/seeks")]
pub async fn list_seeks(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    query: crate::http::query::Query<SeekQueueQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limits.read(&req, user.0.as_ref().map(|u| u.id)).await?;
    let limit = i64::from(in_range("limit", query.limit.unwrap_or(50), 1, 100)?);
    let pool = query.pool;
    let queued = with_conn(&state.pool, move |conn| store::seeks::queue(conn, pool, limit)).await?;
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(queue_response(&queued)?))
}

/// Cancel one of your seeks.
///
/// A waiting seek leaves the queue (`cancelled`); a seek already cancelled or expired is
/// answered as it is; a matched seek cannot be cancelled (409 `seek_matched`: play or leave its
/// game).
#[utoipa::path(
    tag = "seeks",
    params(("seek_id" = Uuid, Path, description = "The seek")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The seek, cancelled", body = SeekResponse),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "You have no such seek", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`seek_matched`: the seek has its game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/seeks/{seek_id}")]
pub async fn cancel_seek(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = seek_id(path)?;
    let owner = user.id.to_string();
    let seek = with_conn(&state.pool, move |conn| store::seeks::cancel(conn, &id, &owner)).await?;
    state.matchmaker.committed(&[]);
    Ok(HttpResponse::Ok().json(seek_response(&seek, store::now())?))
}
