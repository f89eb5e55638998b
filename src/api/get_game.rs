//! One game as a reader sees it: `GET /api/v1/games/{game_id}`, now or (with `at`) after any
//! entry of its log, with its entity tags; and what the other readers of a game share: a past
//! position ([`past_position`]) and the latest version this process knows ([`latest`]).

use std::sync::Arc;

use actix_web::{
    get,
    http::header::{self, ContentType, HeaderMap},
    web::{self, Bytes},
    HttpRequest, HttpResponse,
};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use crate::{
    api::games::parse_game_id,
    app::AppState,
    auth::MaybeAuthUser,
    error::{ApiError, Problem},
    http::json::in_range,
    reads::{Key, Latest, Reader},
    store::{self, db::with_conn, replicas::with_read_conn, GameStatus},
    views::game::{etag, game_response, game_response_at, if_none_match, GameResponse},
};

/// Which position of the game to show.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PositionQuery {
    /// A past position: the game as it was right after log entry `at` (the `seq` of
    /// `GET .../moves`; 1 is the start), rebuilt from the log. Redacted as the live game is
    /// for the caller (their own hand only), except that once the game is over every past
    /// position shows everything, as its log then does. `version` is then `at`, `status` the
    /// status then, and there is no `timer`. Below 1 or not an integer: 400 `invalid_query`;
    /// above the game's `version` (or before the start): 422 `seq_out_of_range`.
    #[param(minimum = 1, example = 42)]
    pub at: Option<i64>,
}

/// Get a game as the caller may see it (the spectator view without a token), now or (with
/// `at`) after any entry of its log.
///
/// Sends `ETag: "v<version>"` (`"v0.<seats taken>"` while the game is open; weak, `W/"…"`,
/// when the body is compressed); answers 304 to a matching `If-None-Match` (either form).
/// `HEAD` answers the same headers without the body.
///
/// With `at`, the position never changes for a given reader until the game ends (when it
/// starts showing every hand): the tag is `"at<seq>.<reader>"` (reader `spectator` or
/// `seat<n>`, with `.final` once the game is over), `Cache-Control` is `private, no-cache`
/// while the game runs and `private, max-age=86400, immutable` once it is over.
#[utoipa::path(
    tag = "games",
    params(("game_id" = Uuid, Path, description = "The game"), PositionQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The game", body = GameResponse,
         headers(("ETag" = String, description = "`\"v<version>\"` once started, `\"v0.<seats taken>\"` while open; `\"at<seq>.<reader>[.final]\"` with `at`; weak (`W/\"v<version>\"`) when the body is compressed (`Content-Encoding: gzip`)"),
                 ("Cache-Control" = String, description = "With `at` only: `private, no-cache` while the game runs, `private, max-age=86400, immutable` once it is over"))),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 304, description = "Not modified since the given ETag",
         headers(("ETag" = String, description = "The current tag, as the 200 would carry it"))),
        (status = 400, description = "`at` is not an integer from 1 (`invalid_query`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`at` is above the game's `version` (`seq_out_of_range`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{game_id}")]
pub async fn get_game(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    path: web::Path<String>,
    query: crate::http::query::Query<PositionQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    let viewer = user.0.map(|u| u.id);
    state.limits.read(&req, viewer).await?;
    if let Some(seq) = query.at {
        let seq = in_range("at", seq, 1, i64::MAX)?;
        let past = past_position(&state, id, viewer, seq, req.headers()).await?;
        return Ok(past.respond(ContentType::json()));
    }
    // A started game this process knows: the tag and (usually) the bytes are in memory.
    let mut known = None;
    if let Some(latest) = latest(&state, id).await? {
        let tag = format!("\"v{}\"", latest.version);
        if if_none_match(req.headers(), &tag) {
            return Ok(not_modified(tag));
        }
        let key = Key::Game { game: id, version: latest.version, reader: latest.reader(viewer) };
        if let Some(body) = state.reads.get(&key) {
            return Ok(game_ok(tag, body));
        }
        known = Some(latest.version);
    }
    let headers = req.headers().clone();
    let reads = Arc::clone(&state.reads);
    let epoch = reads.epoch();
    let (tag, body) = with_read_conn(&state.pool, state.read_pool.as_ref(), id, known, move |conn| {
        let record = store::load_game(conn, id)?;
        reads.learn_record(epoch, &record);
        let tag = etag(&record.game, record.seats.len());
        if if_none_match(&headers, &tag) {
            return Ok((tag, None));
        }
        let mut body = game_response(&record, viewer)?;
        crate::views::game::annotate(conn, &record, &mut body)?;
        let body = Bytes::from(serde_json::to_vec(&body)?);
        // Before the start, joins change the game without a new version: not cached.
        if record.game.status() != GameStatus::Open {
            let reader = Reader::of(viewer.and_then(|u| record.seat_of(u)));
            reads.insert(Key::Game { game: id, version: record.game.version, reader }, body.clone());
        }
        Ok((tag, Some(body)))
    })
    .await?;
    Ok(match body {
        Some(body) => game_ok(tag, body),
        None => not_modified(tag),
    })
}

/// A past position as one reader sees it, or its tag alone when the client has it.
#[derive(Debug)]
pub struct Past {
    pub tag: String,
    /// The game is over: the answer is final.
    pub over: bool,
    /// `None`: not modified.
    pub body: Option<Bytes>,
}

impl Past {
    /// The tag of position `seq` for `reader`; `over`: the game is over.
    pub fn tag(prefix: &str, seq: i64, reader: Reader, over: bool) -> String {
        let who = match reader {
            Reader::Spectator => "spectator".to_owned(),
            Reader::Seat(seat) => format!("seat{}", seat.0),
        };
        format!("\"{prefix}{seq}.{who}{}\"", if over { ".final" } else { "" })
    }

    /// The 200 (or 304) with its caching headers.
    pub fn respond(self, content_type: impl header::TryIntoHeaderPair) -> HttpResponse {
        let cache = if self.over { "private, max-age=86400, immutable" } else { "private, no-cache" };
        match self.body {
            Some(body) => HttpResponse::Ok()
                .insert_header((header::ETAG, self.tag))
                .insert_header((header::VARY, "Authorization"))
                .insert_header((header::CACHE_CONTROL, cache))
                .insert_header(content_type)
                .body(body),
            None => HttpResponse::NotModified()
                .insert_header((header::ETAG, self.tag))
                .insert_header((header::VARY, "Authorization"))
                .insert_header((header::CACHE_CONTROL, cache))
                .finish(),
        }
    }
}

/// The game resource after log entry `seq` for `viewer` ([`crate::reads::replay`]): from the read
/// cache when this process has served it before (without the database when it also knows
/// the game's latest version), else rebuilt from the log.
///
/// # Errors
/// `not_found`, `seq_out_of_range`, a database error or an unreadable log.
pub async fn past_position(
    state: &AppState,
    id: Uuid,
    viewer: Option<Uuid>,
    seq: i64,
    headers: &HeaderMap,
) -> Result<Past, ApiError> {
    if let Some(latest) = latest(state, id).await? {
        if let Some(status) = latest.status.filter(|_| (1..=latest.version).contains(&seq)) {
            let (reader, over) = (latest.reader(viewer), status == GameStatus::Finished);
            let tag = Past::tag("at", seq, reader, over);
            if if_none_match(headers, &tag) {
                return Ok(Past { tag, over, body: None });
            }
            if let Some(body) = state.reads.get(&Key::GameAt { game: id, seq, reader, over }) {
                return Ok(Past { tag, over, body: Some(body) });
            }
        }
    }
    let headers = headers.clone();
    let reads = Arc::clone(&state.reads);
    let epoch = reads.epoch();
    with_conn(&state.pool, move |conn| {
        let record = store::load_game(conn, id)?;
        reads.learn_record(epoch, &record);
        crate::reads::replay::check_seq(&record.game, seq)?;
        let reader = Reader::of(viewer.and_then(|u| record.seat_of(u)));
        let over = record.game.status() == GameStatus::Finished;
        let tag = Past::tag("at", seq, reader, over);
        if if_none_match(&headers, &tag) {
            return Ok(Past { tag, over, body: None });
        }
        let key = Key::GameAt { game: id, seq, reader, over };
        if let Some(body) = reads.get(&key) {
            return Ok(Past { tag, over, body: Some(body) });
        }
        let position = crate::reads::replay::position_at(conn, &record.game, seq)?;
        let body = Bytes::from(serde_json::to_vec(&game_response_at(&record, viewer, &position, seq)?)?);
        reads.insert(key, body.clone());
        Ok(Past { tag, over, body: Some(body) })
    })
    .await
}

fn game_ok(tag: String, body: Bytes) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::ETAG, tag))
        .insert_header((header::VARY, "Authorization"))
        .content_type(ContentType::json())
        .body(body)
}

fn not_modified(tag: String) -> HttpResponse {
    HttpResponse::NotModified()
        .insert_header((header::ETAG, tag))
        .insert_header((header::VARY, "Authorization"))
        .finish()
}

/// Returns the latest version of a started game as this process knows it ([`crate::reads`]):
/// from memory where it is sure, else after reading the version alone from the database.
/// `None` when the process has not seen the game started: the caller reads it whole.
///
/// # Errors
/// `not_found`, or a database error.
pub async fn latest(state: &AppState, id: Uuid) -> Result<Option<Latest>, ApiError> {
    let Some(latest) = state.reads.latest(id) else {
        return Ok(None);
    };
    if latest.sure {
        return Ok(Some(latest));
    }
    let epoch = state.reads.epoch();
    let (version, status) = with_conn(&state.pool, move |conn| store::game_version(conn, id))
        .await?
        .ok_or_else(|| store::game_not_found(id))?;
    state.reads.learn(epoch, id, version, status, None);
    Ok(Some(Latest { version, status: Some(status), sure: true, ..latest }))
}
