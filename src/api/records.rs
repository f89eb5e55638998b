//! Game records (issue 31 part 5): one game as a self-contained document
//! (`GET /api/v1/games/{game_id}/record`), many as NDJSON (`GET /api/v1/games/export`), and a
//! finished game's record imported as a game of this server (`POST /api/v1/games/import`).
//! The format: `docs/game-records.md`.

use std::collections::VecDeque;

use actix_web::{
    get,
    http::header::{self, ContentType},
    post,
    web::{self, Bytes},
    HttpRequest, HttpResponse,
};
use chrono::{DateTime, NaiveDateTime};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use crate::{
    api::games::{check_options_at, parse_game_id, rendered},
    app::AppState,
    auth::{AuthUser, MaybeAuthUser},
    error::{ApiError, Problem},
    http::json::{from_value, in_range, object, Json},
    store::{
        self,
        db::with_conn,
        idempotency::{self, Keyed},
        lobby, GameRecord, GameStatus,
    },
    views::{
        game::GameResponse,
        records::{import, record_of, GameRecordDocument},
    },
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

/// Import a finished game's record: it is replayed through the engine move by move and
/// stored as a finished game of this server, which the caller created.
///
/// The body is a record as `GET .../record` answers it once a game is over (`redaction:
/// "full"`): its `format` and `version`, `game.options`, `seed`, `seats` and `entries`
/// are read; the rest (the board, `game.status`, `winner`, ...) follows from those and is
/// built again. Entry 1 must be the start the options and the seed make; every later entry's
/// move must be legal for its seat where it is played, and deciding it with the entry's
/// `chance` must give the entry's `events` (and its `phase` and `waiting_for`, when given),
/// with that chance the one the seed draws; the game must be over after the last entry. The
/// first entry that fails refuses the record: 422 `invalid_record`, with `entry` (its seq)
/// and `check` (an illegal move's rule code, or `events_differ`, `chance_differs`, ...).
///
/// The new game has an id of its own; `imported_from` keeps the one it had where it was
/// played. Its seats keep their players' names as `imported_name` (names of another server:
/// no account here), its entries their times and bots. Export, import and export again gives
/// the same entries and the same final position. The body may be up to 8 MiB; an import
/// counts toward the game creation limit.
#[utoipa::path(
    tag = "games",
    params(("Idempotency-Key" = Option<String>, Header, description = "Retrying with the same key and body returns the first response (`Idempotent-Replayed: true`); the same key with another request is 422 `idempotency_key_reused`")),
    request_body(content = GameRecordDocument, description = "A full record (`redaction: \"full\"`) of a finished game, as `GET /games/{game_id}/record` answers it"),
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Imported: the new, finished game", body = GameResponse,
         headers(("Location" = String, description = "The new game's path"))),
        (status = 400, description = "Malformed body (`malformed_body`): not a JSON object, or a field of the wrong type; `errors` names each field", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the 8 MiB limit (`payload_too_large`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`unsupported_record_version` (another `format` or `version`); `invalid_record`, with `check` and, for an entry, `entry` (its seq): a record that is not full (`not_full`), seats that are not the game's (`seats_differ`, `unknown_bot`, `invalid_seat_name`), a start that is not the options' and seed's (`start_differs`), an illegal move (`check` is its rule code, e.g. `settlement_too_close`), `seq_gap`, `not_a_move`, `kind_differs`, `chance_missing`, `chance_differs`, `chance_not_seeded`, `events_differ`, `phase_differs`, `waiting_for_differs`, `auto_without_bot`, a game not over at the end (`not_finished`) or no entries (`no_entries`); options outside a new game's bounds (`invalid_config`, ...) or a setup code; `idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
    )
)]
#[post("")]
pub async fn import_game(
    state: web::Data<AppState>,
    user: AuthUser,
    req: HttpRequest,
    body: Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    state.limits.create_game(user.id).await?;
    let raw = body.into_inner();
    object(&raw)?;
    import::check_header(&raw)?;
    check_options_at(&raw, "/game/options")?;
    // The key stands for the body by its digest: a record is megabytes, kept a day.
    let claim = idempotency::claim(&req, user.id, &digest(&raw))?;
    let record: import::Record = from_value(&raw)?;
    drop(raw);
    let id = Uuid::now_v7();
    let importer = user.id;
    let sandbox = state.sandbox;
    let imported = web::block(move || import::replay(record, id, importer, sandbox)).await??;
    let written = with_conn(&state.pool, move |conn| {
        idempotency::once(conn, claim.as_ref(), 201, |conn| {
            store::insert_imported(conn, &imported.game, &imported.seats, &imported.entries)?;
            rendered(conn, id, importer)
        })
    })
    .await?;
    Ok(match written {
        Keyed::Replay(first) => first.replay(),
        Keyed::Done(tag, body) => HttpResponse::Created()
            .insert_header((header::LOCATION, format!("/api/v1/games/{id}")))
            .insert_header((header::ETAG, tag))
            .content_type(ContentType::json())
            .body(body),
    })
}

/// A digest of a request body that names it for its `Idempotency-Key`: FNV-1a (64 bits)
/// over its compact JSON, with its length. Stable across processes and releases, unlike
/// the standard library's hasher.
fn digest(body: &serde_json::Value) -> String {
    let text = body.to_string();
    let hash = text
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3));
    format!("record {} bytes fnv1a64 {hash:016x}", text.len())
}
