//! Game records (issue 31 part 5): one game as a self-contained document
//! (`GET /api/v1/games/{game_id}/record`), and many as NDJSON (`GET /api/v1/games/export`).
//! The format: `docs/game-records.md`.

use std::collections::VecDeque;

use actix_web::{
    get,
    http::header::ContentType,
    web::{self, Bytes},
    HttpRequest, HttpResponse,
};
use chrono::{DateTime, NaiveDateTime};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use crate::{
    api::games::parse_game_id,
    app::AppState,
    auth::MaybeAuthUser,
    error::{ApiError, Problem},
    http::json::in_range,
    store::{self, db::with_conn, lobby, GameRecord, GameStatus},
    views::records::{record_of, GameRecordDocument},
};

/// The media type of the export: one JSON document a line.
pub const NDJSON: &str = "application/x-ndjson";

/// The response header that carries the export's next cursor.
pub const NEXT_CURSOR: &str = "X-Next-Cursor";

/// Get a game's record: one self-contained, versioned document (`format:
/// "catan-game-record"`, `version: 1`) with the rules, the board, the seats and every log
/// entry, as the caller may see it.
///
/// `redaction` says what the caller sees: `spectator` (no token, or not seated) and `seat`
/// (the caller's own moves and cards in full) while the game runs, each entry exactly as
/// `GET .../moves` shows it to the same caller; `full` once the game is over, for everyone:
/// every move, the seed, and each entry's `chance` (the random draws its move made). A game
/// not started yet has a record with `board: null` and no entries. The format is described
/// in docs/game-records.md, with a JSON Schema.
#[utoipa::path(
    tag = "games",
    params(("game_id" = Uuid, Path, description = "The game")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The game's record", body = GameRecordDocument),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 401, description = "A token was sent but is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{game_id}/record")]
pub async fn get_record(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    path: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    let viewer = user.0.map(|u| u.id);
    state.limits.read(&req, viewer).await?;
    let body = with_conn(&state.pool, move |conn| {
        let record = store::load_game(conn, id)?;
        Ok(serde_json::to_vec(&record_of(conn, &record, viewer)?)?)
    })
    .await?;
    Ok(HttpResponse::Ok().content_type(ContentType::json()).body(body))
}

/// Which games to export.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// Only games with this status.
    pub status: Option<GameStatus>,
    /// Only games with these variants on, as the game list's `variant` (`base`,
    /// `seafarers`, `five_six+jungle`, ...); another name is 400 `invalid_query`. With this
    /// filter a page may hold fewer than `limit` games: only a missing `X-Next-Cursor` ends
    /// the export.
    #[param(example = "cities_and_knights")]
    pub variant: Option<String>,
    /// Only games in which the user of this name holds a seat (names are case-insensitive; a
    /// name nobody has: no games; a name no user could have: 400 `invalid_query`).
    #[param(example = "alice")]
    pub user: Option<String>,
    /// Only games last changed (`updated_at`) at or after this time, RFC 3339.
    #[param(example = "2026-01-01T00:00:00Z")]
    pub since: Option<String>,
    /// Only games last changed (`updated_at`) before this time, RFC 3339.
    #[param(example = "2026-02-01T00:00:00Z")]
    pub until: Option<String>,
    /// The `X-Next-Cursor` of the previous page.
    pub cursor: Option<String>,
    /// Records a page, 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
}

/// Export game records as NDJSON, newest game first: one record a line, each as
/// `GET .../record` gives it to the caller (the same redaction).
///
/// The games are those the game list would show with the same filters, newest first; a page
/// holds at most `limit` records, and the next page's cursor is in the `X-Next-Cursor`
/// header (absent on the last page): pass it as `cursor`. The records are written one after
/// another as they are built, so a large page starts at once and costs one record's memory.
#[utoipa::path(
    tag = "games",
    params(ExportQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "Records, one JSON document a line (`application/x-ndjson`); each line is a `GameRecordDocument`",
         content_type = "application/x-ndjson", body = GameRecordDocument,
         headers(("X-Next-Cursor" = String, description = "The `cursor` of the next page; absent on the last page"))),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 400, description = "Bad query (`invalid_query`, with `errors` naming the parameter): an unknown status or variant, a `user` that is no username, a time that is not RFC 3339, a `limit` outside 1 to 100, a bad cursor", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/export")]
pub async fn export_games(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    query: crate::http::query::Query<ExportQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let viewer = user.0.map(|u| u.id);
    state.limits.read(&req, viewer).await?;
    let query = query.into_inner();
    let limit = i64::from(in_range("limit", query.limit.unwrap_or(20), 1, 100)?);
    let cursor = match &query.cursor {
        Some(c) => Some(
            Uuid::parse_str(c)
                .map_err(|_| ApiError::bad_request("invalid_query", "the cursor is not valid").at_field("#/cursor"))?,
        ),
        None => None,
    };
    let filter = lobby::GameFilter {
        status: query.status,
        variant: query.variant.as_deref().map(lobby::VariantFilter::parse).transpose()?,
        seated: query.user.as_deref().map(username).transpose()?,
        updated_since: query.since.as_deref().map(|at| time("since", at)).transpose()?,
        updated_until: query.until.as_deref().map(|at| time("until", at)).transpose()?,
        ..Default::default()
    };
    let page = with_conn(&state.pool, move |conn| lobby::list(conn, &filter, cursor, limit)).await?;
    let games: VecDeque<GameRecord> = page.games.into();
    let pool = state.pool.clone();
    let lines = futures_util::stream::unfold((games, pool), move |(mut games, pool)| async move {
        let record = games.pop_front()?;
        let line = with_conn(&pool, move |conn| {
            let mut line = serde_json::to_vec(&record_of(conn, &record, viewer)?)?;
            line.push(b'\n');
            Ok(Bytes::from(line))
        })
        .await;
        Some((line, (games, pool)))
    });
    let mut response = HttpResponse::Ok();
    response.content_type(NDJSON);
    if let Some(next) = page.next {
        response.insert_header((NEXT_CURSOR, next.to_string()));
    }
    Ok(response.streaming(lines))
}

/// Reads the `user` filter: a name as `POST /users` takes one (3 to 32 ASCII letters, digits,
/// `_`, `-` and `.`), in any case.
fn username(name: &str) -> Result<String, ApiError> {
    let fits = (3..=32).contains(&name.len())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !fits {
        let detail = format!("must be a username: 3 to 32 ASCII letters, digits, `_`, `-` or `.` (got {name:?})");
        return Err(ApiError::bad_request("invalid_query", format!("user {detail}")).at("#/user", detail));
    }
    Ok(name.to_owned())
}

/// Reads an RFC 3339 time of parameter `name`.
fn time(name: &str, at: &str) -> Result<NaiveDateTime, ApiError> {
    DateTime::parse_from_rfc3339(at).map(|at| at.naive_utc()).map_err(|e| {
        let detail = format!("must be an RFC 3339 time such as 2026-01-01T00:00:00Z (got \"{at}\": {e})");
        ApiError::bad_request("invalid_query", format!("{name} {detail}")).at(format!("#/{name}"), detail)
    })
}
