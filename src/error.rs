//! One error type for the whole API, mapped to HTTP in one place: every failure leaves the
//! server as an RFC 9457 `application/problem+json` body with a stable `code`.

use std::time::Duration;

use actix_web::{
    dev::ServiceResponse,
    error::{JsonPayloadError, PathError, PayloadError, QueryPayloadError},
    http::{header, StatusCode},
    middleware::ErrorHandlerResponse,
    HttpRequest, HttpResponse, ResponseError,
};
use catan_engine::{PositionError, RuleError, SetupError};
use serde::Serialize;
use utoipa::ToSchema;

/// The most bytes a request body may hold, inflated (app data: the JSON limit), for the
/// middleware that inflates compressed bodies and for the 413 that names the limit.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

/// Everything that can go wrong in a request.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the body or query could not be read.
    #[error("{detail}")]
    BadRequest { code: &'static str, detail: String },
    /// 401: no valid token.
    #[error("{0}")]
    Unauthorized(String),
    /// 401 for a token that was valid once: `token_expired` or `token_revoked`, so a client
    /// knows to log in again.
    #[error("{detail}")]
    Token { code: &'static str, detail: String },
    /// 403: authenticated, but not allowed to do this.
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such resource or route.
    #[error("{0}")]
    NotFound(String),
    /// 409: the request conflicts with the resource's state.
    #[error("{detail}")]
    Conflict { code: &'static str, detail: String },
    /// 412: `If-Match` named a version that is no longer current.
    #[error("the game is at version {current}, not the one in If-Match")]
    VersionConflict { current: i64 },
    /// 413: the body is larger than the limit.
    #[error("the request body is larger than {limit} bytes")]
    PayloadTooLarge { limit: usize },
    /// 415: the body is not JSON.
    #[error("the request body must be application/json")]
    UnsupportedMediaType,
    /// 422: a move breaks a rule of the game.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// 422: a game cannot be set up this way.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// 422 `invalid_position`: a position (`POST /positions/...`) that cannot arise; the
    /// problem names the failed check (`check`) and the rules it stands for (`rule`, `rules`).
    #[error("the position is invalid: {0}")]
    Position(PositionError),
    /// 422 `invalid_record`: a game record (`POST /games/import`) that does not replay; the
    /// problem names the entry (`entry`, its seq; absent for what is wrong before the
    /// entries) and what failed (`check`: an illegal move's rule code, e.g.
    /// `settlement_too_close`, or a check of the record such as `events_differ`).
    #[error("{detail}")]
    Record { entry: Option<i64>, check: &'static str, detail: String },
    /// 422: a well-formed request with values the server does not accept.
    #[error("{detail}")]
    Unprocessable { code: &'static str, detail: String },
    /// 503: the database cannot be reached.
    #[error("the database is unavailable")]
    Unavailable,
    /// 500: a bug or an infrastructure failure; logged, and opaque to the client.
    #[error("internal error")]
    Internal(String),
    /// Any other HTTP failure raised by the framework itself (e.g. 405, 414, 431), turned
    /// into a problem by [`problem_fallback`].
    #[error("{detail}")]
    Http { status: StatusCode, code: &'static str, detail: String },
    /// 429 `rate_limited` or 503 `server_busy`, with `Retry-After` (and `RateLimit-*` for a
    /// rate limit): see [`crate::http::limits`].
    #[error("{}", .0.detail)]
    Throttled(Throttled),
    /// Any of the above, naming the fields of the request that are wrong (the problem's
    /// `errors`).
    #[error("{error}")]
    Fields { error: Box<ApiError>, errors: Vec<FieldError> },
}

/// One wrong field of a request: where it is and what is wrong with it, in the style of RFC
/// 9457's examples.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({"pointer": "#/options/vp_target", "detail": "must be an integer from 3 to 30 (got 300)"}))]
pub struct FieldError {
    /// A JSON pointer (RFC 6901) into the request body, in its URI fragment form: `#` is the
    /// whole body, `#/options/vp_target` a field, `#/to/0` an item. For a query
    /// parameter, the query read as an object: `#/limit`.
    pub pointer: String,
    /// What the field must be, in plain words, e.g. `is required`, `must be an integer from 1
    /// to 100 (got 0)`.
    pub detail: String,
}

impl FieldError {
    pub fn new(pointer: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError { pointer: pointer.into(), detail: detail.into() }
    }
}

/// An RFC 9457 problem details body.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:catan:problem:settlement_too_close",
    "title": "Unprocessable Entity",
    "status": 422,
    "detail": "a settlement at 0,-1,N would be next to another building",
    "code": "settlement_too_close"
}))]
pub struct Problem {
    /// A URI naming the problem type: `urn:catan:problem:<code>`.
    #[serde(rename = "type")]
    pub type_: String,
    /// The HTTP status phrase.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong, for humans.
    pub detail: String,
    /// A stable snake_case code that clients may branch on (for rule violations, the
    /// engine's rule code, e.g. `not_your_turn`).
    pub code: String,
    /// For `version_conflict`: the game's current version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    /// For a body or query that does not fit the request (`malformed_body`, `invalid_query`)
    /// or a field the server does not accept (`invalid_username`, `invalid_config`,
    /// `unsupported_variant`, ...): each wrong field, named by a JSON pointer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<Vec<FieldError>>,
    /// For `invalid_position`: the check the position failed, as the engine's stable code
    /// (e.g. `buildings_too_close`, `resources_not_conserved`, `invalid_phase`). For
    /// `invalid_record`: what the record failed, the rule code of an illegal move (e.g.
    /// `settlement_too_close`) or a check of the record (e.g. `events_differ`,
    /// `chance_differs`, `start_differs`, `not_finished`; docs/game-records.md lists them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    /// For `invalid_position`: the id of the main rule the failed check stands for (RULES.md,
    /// e.g. `B-BLD-4`); absent for a check that stands for no numbered rule (a seat that is
    /// not in the game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// For `invalid_position`: every rule id the failed check stands for, `rule` first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<Vec<String>>,
    /// For `invalid_record`: the seq of the record's entry that fails (absent when what fails
    /// is not one entry, such as the seats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<i64>,
}

/// Every `code` the server answers of its own (rule and setup codes come from the engine).
/// The spec lists these as the `Problem.code` enum; a test reads the sources for codes
/// missing here.
pub const SERVER_CODES: &[&str] = &[
    "already_joined",
    "already_seeking",
    "bad_request",
    "chance_not_applicable",
    "client_error",
    "database_unavailable",
    "dice_not_allowed",
    "forbidden",
    "game_full",
    "game_not_open",
    "game_not_started",
    "headers_too_large",
    "idempotency_key_in_use",
    "idempotency_key_reused",
    "internal_error",
    "invalid_card_count",
    "invalid_chance",
    "invalid_config",
    "invalid_idempotency_key",
    "invalid_if_match",
    "invalid_kind",
    "invalid_last_event_id",
    "invalid_max_players",
    "invalid_password",
    "invalid_position",
    "invalid_query",
    "invalid_record",
    "invalid_seek",
    "invalid_ticket",
    "invalid_turn_timer",
    "invalid_username",
    "kind_locked",
    "malformed_body",
    "method_not_allowed",
    "not_acceptable",
    "not_enough_players",
    "not_found",
    "payload_too_large",
    "rate_limited",
    "rated_game_not_allowed",
    "request_timeout",
    "seat_hidden",
    "seat_not_in_game",
    "seeded_game",
    "seek_matched",
    "seq_out_of_range",
    "server_busy",
    "server_error",
    "ticket_for_another_game",
    "token_expired",
    "token_not_revocable",
    "token_revoked",
    "too_many_games",
    "trade_closed",
    "unauthorized",
    "unavailable",
    "unknown_bot_kind",
    "unsupported_content_encoding",
    "unsupported_media_type",
    "unsupported_position_version",
    "unsupported_record_version",
    "unsupported_scenario",
    "unsupported_variant",
    "uri_too_long",
    "username_taken",
    "version_conflict",
];

/// Every problem `code` a client can meet, sorted and without repeats: the server's, and the
/// engine's setup and rule codes.
pub fn problem_codes() -> Vec<&'static str> {
    let mut codes: Vec<&'static str> =
        SERVER_CODES.iter().chain(SetupError::CODES).chain(RuleError::TAGS).copied().collect();
    codes.sort_unstable();
    codes.dedup();
    codes
}

impl ApiError {
    pub fn bad_request(code: &'static str, detail: impl Into<String>) -> Self {
        ApiError::BadRequest { code, detail: detail.into() }
    }

    pub fn conflict(code: &'static str, detail: impl Into<String>) -> Self {
        ApiError::Conflict { code, detail: detail.into() }
    }

    pub fn unprocessable(code: &'static str, detail: impl Into<String>) -> Self {
        ApiError::Unprocessable { code, detail: detail.into() }
    }

    pub fn internal(error: impl std::fmt::Display) -> Self {
        ApiError::Internal(error.to_string())
    }

    /// Names the field at `pointer` (see [`FieldError`]) as what is wrong, with `detail`.
    #[must_use]
    pub fn at(self, pointer: impl Into<String>, detail: impl Into<String>) -> Self {
        let field = FieldError::new(pointer, detail);
        match self {
            ApiError::Fields { error, mut errors } => {
                errors.push(field);
                ApiError::Fields { error, errors }
            }
            error => ApiError::Fields { error: Box::new(error), errors: vec![field] },
        }
    }

    /// Names the field at `pointer` as what is wrong, with the error's own detail.
    #[must_use]
    pub fn at_field(self, pointer: impl Into<String>) -> Self {
        let detail = self.to_string();
        self.at(pointer, detail)
    }

    /// Whether the client's request was refused (4xx) for what it asked, not for a limit
    /// (429) or the server's trouble (5xx).
    pub fn is_client_error(&self) -> bool {
        let status = self.status_code();
        status.is_client_error() && status != StatusCode::TOO_MANY_REQUESTS
    }

    /// Returns the stable code of the problem.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest { code, .. }
            | ApiError::Conflict { code, .. }
            | ApiError::Unprocessable { code, .. }
            | ApiError::Http { code, .. } => code,
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::Token { code, .. } => code,
            ApiError::Fields { error, .. } => error.code(),
            ApiError::Forbidden(_) => "forbidden",
            ApiError::NotFound(_) => "not_found",
            ApiError::VersionConflict { .. } => "version_conflict",
            ApiError::PayloadTooLarge { .. } => "payload_too_large",
            ApiError::UnsupportedMediaType => "unsupported_media_type",
            ApiError::Rule(e) => e.code(),
            ApiError::Setup(e) => e.code(),
            ApiError::Position(_) => "invalid_position",
            ApiError::Record { .. } => "invalid_record",
            ApiError::Unavailable => "database_unavailable",
            ApiError::Internal(_) => "internal_error",
            ApiError::Throttled(t) => t.code,
        }
    }

    /// The refused position behind the error, if it is one (also inside [`ApiError::Fields`]).
    fn position_error(&self) -> Option<&PositionError> {
        match self {
            ApiError::Position(error) => Some(error),
            ApiError::Fields { error, .. } => error.position_error(),
            _ => None,
        }
    }

    /// The refused record's entry and check, if the error is one (also inside
    /// [`ApiError::Fields`]).
    fn record_error(&self) -> Option<(Option<i64>, &'static str)> {
        match self {
            ApiError::Record { entry, check, .. } => Some((*entry, check)),
            ApiError::Fields { error, .. } => error.record_error(),
            _ => None,
        }
    }

    /// Builds the problem body.
    pub fn problem(&self) -> Problem {
        let status = self.status_code();
        Problem {
            type_: format!("urn:catan:problem:{}", self.code()),
            title: status.canonical_reason().unwrap_or("Error").to_owned(),
            status: status.as_u16(),
            detail: self.to_string(),
            code: self.code().to_owned(),
            version: match self {
                ApiError::VersionConflict { current } => Some(*current),
                _ => None,
            },
            errors: match self {
                ApiError::Fields { errors, .. } => Some(errors.clone()),
                _ => None,
            },
            check: self
                .position_error()
                .map(|e| e.code().to_owned())
                .or_else(|| self.record_error().map(|(_, check)| check.to_owned())),
            rule: self.position_error().and_then(PositionError::rule),
            rules: self.position_error().map(PositionError::rules),
            entry: self.record_error().and_then(|(entry, _)| entry),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) | ApiError::Token { .. } => StatusCode::UNAUTHORIZED,
            ApiError::Fields { error, .. } => error.status_code(),
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict { .. } => StatusCode::CONFLICT,
            ApiError::VersionConflict { .. } => StatusCode::PRECONDITION_FAILED,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Rule(_)
            | ApiError::Setup(_)
            | ApiError::Position(_)
            | ApiError::Record { .. }
            | ApiError::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Http { status, .. } => *status,
            ApiError::Throttled(t) => StatusCode::from_u16(t.status).unwrap_or(StatusCode::TOO_MANY_REQUESTS),
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let ApiError::Internal(error) = self {
            tracing::error!(%error, "internal error");
        }
        let mut response = HttpResponse::build(self.status_code());
        response.content_type("application/problem+json");
        match self {
            ApiError::Unauthorized(_) => {
                response.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
            }
            // RFC 6750: a token was presented and is no good.
            ApiError::Token { .. } => {
                response.insert_header((header::WWW_AUTHENTICATE, "Bearer error=\"invalid_token\""));
            }
            _ => {}
        }
        if let ApiError::VersionConflict { current } = self {
            response.insert_header((header::ETAG, format!("\"v{current}\"")));
        }
        if let ApiError::Throttled(throttled) = self {
            throttled.add_headers(&mut response);
        }
        if let ApiError::Unavailable = self {
            // A failover elects a new leader within seconds (docs/cluster.md); a restarted
            // database is back sooner.
            response.insert_header((header::RETRY_AFTER, UNAVAILABLE_RETRY_AFTER.to_string()));
        }
        let body = serde_json::to_string(&self.problem()).unwrap_or_else(|_| "{}".to_owned());
        response.body(body)
    }
}

/// The `Retry-After` of a 503 `database_unavailable`, in seconds.
pub const UNAVAILABLE_RETRY_AFTER: u64 = 2;

impl From<diesel::result::Error> for ApiError {
    fn from(error: diesel::result::Error) -> Self {
        use diesel::result::{DatabaseErrorKind, Error};
        match error {
            Error::NotFound => ApiError::NotFound("not found".into()),
            Error::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
                ApiError::conflict("version_conflict", "the game changed while the request ran; reload and retry")
            }
            Error::DatabaseError(DatabaseErrorKind::SerializationFailure, _) => {
                ApiError::conflict("version_conflict", "the game changed while the request ran; reload and retry")
            }
            // The database went away while the request ran (a restart, a failover): the
            // database is unavailable, not the server broken; the client may retry (with its
            // Idempotency-Key, since a lost COMMIT may have committed).
            Error::DatabaseError(
                DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
                info,
            ) => {
                tracing::warn!(error = info.message(), "the database connection was lost mid-request");
                ApiError::Unavailable
            }
            // A write reached a database that is no longer (or not yet) the leader: in a
            // cluster, the moment between a failover and the proxy's next health check. The
            // connection is dropped (`store::db::lost`) so that the next one goes to the new
            // leader; nothing was written.
            Error::DatabaseError(DatabaseErrorKind::ReadOnlyTransaction, info) => {
                tracing::warn!(error = info.message(), "a write reached a read-only database (a failover?)");
                ApiError::Unavailable
            }
            other => ApiError::internal(other),
        }
    }
}

impl From<diesel::r2d2::PoolError> for ApiError {
    fn from(error: diesel::r2d2::PoolError) -> Self {
        tracing::warn!(%error, "no database connection");
        ApiError::Unavailable
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(error: actix_web::error::BlockingError) -> Self {
        ApiError::internal(error)
    }
}

impl From<serde_json::Error> for ApiError {
    fn from(error: serde_json::Error) -> Self {
        ApiError::internal(format!("stored JSON is unreadable: {error}"))
    }
}

/// The safety net: any error response that is not already a problem (from the framework's
/// own extractors, payload limits, or anything else outside our handlers) is rewritten as
/// one, so no failure ever leaves as HTML or plain text. Only the spectator page's own 404
/// page, meant for a person, stays HTML ([`HtmlPage`]).
///
/// # Errors
/// Never; the signature is the middleware's.
pub fn problem_fallback<B>(res: ServiceResponse<B>) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem =
        res.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/problem+json"));
    if is_problem || res.response().extensions().contains::<HtmlPage>() {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let detail = res
        .response()
        .error()
        .map(ToString::to_string)
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| status.canonical_reason().unwrap_or("error").to_lowercase());
    let api = match status {
        StatusCode::BAD_REQUEST => ApiError::bad_request("bad_request", detail),
        StatusCode::UNAUTHORIZED => ApiError::Unauthorized(detail),
        StatusCode::FORBIDDEN => ApiError::Forbidden(detail),
        StatusCode::NOT_FOUND => ApiError::NotFound(detail),
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::Http { status, code: "payload_too_large", detail },
        StatusCode::INTERNAL_SERVER_ERROR => ApiError::Internal(detail),
        _ => ApiError::Http {
            status,
            code: match status {
                StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
                StatusCode::NOT_ACCEPTABLE => "not_acceptable",
                StatusCode::REQUEST_TIMEOUT => "request_timeout",
                StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
                StatusCode::URI_TOO_LONG => "uri_too_long",
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => "headers_too_large",
                StatusCode::SERVICE_UNAVAILABLE => "unavailable",
                s if s.is_server_error() => "server_error",
                _ => "client_error",
            },
            detail,
        },
    };
    let (req, _) = res.into_parts();
    let response = api.error_response();
    Ok(ErrorHandlerResponse::Response(ServiceResponse::new(req, response).map_into_right_body()))
}

/// Maps a JSON body extractor failure to a problem (400, 413 or 415).
pub fn json_error(error: JsonPayloadError, req: &HttpRequest) -> actix_web::Error {
    let api = match &error {
        JsonPayloadError::OverflowKnownLength { limit, .. } | JsonPayloadError::Overflow { limit } => {
            ApiError::PayloadTooLarge { limit: *limit }
        }
        // The inflated body passed the limit (`inflate`), or its compression was corrupt.
        JsonPayloadError::Payload(PayloadError::Overflow) => {
            ApiError::PayloadTooLarge { limit: req.app_data::<BodyLimit>().map_or(0, |limit| limit.0) }
        }
        JsonPayloadError::Payload(PayloadError::Io(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
            ApiError::bad_request("malformed_body", format!("the compressed body could not be inflated: {e}"))
        }
        JsonPayloadError::ContentType => ApiError::UnsupportedMediaType,
        // Only the syntax is left to here: the body is read as a `serde_json::Value`, and as
        // the request's type by `crate::http::json`.
        JsonPayloadError::Deserialize(e) => {
            ApiError::bad_request("malformed_body", format!("the body is not valid JSON: {e}")).at("#", e.to_string())
        }
        other => ApiError::bad_request("malformed_body", other.to_string()),
    };
    api.into()
}

/// Maps a path extractor failure to a 404 problem (an id that cannot exist).
pub fn path_error(error: PathError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::NotFound(format!("no such resource: {error}")).into()
}

/// Maps a query string extractor failure to a 400 problem.
pub fn query_error(error: QueryPayloadError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::bad_request("invalid_query", error.to_string()).into()
}

/// The default service: every unknown route is a 404 problem.
pub async fn not_found(req: HttpRequest) -> HttpResponse {
    ApiError::NotFound(format!("no route for {} {}", req.method(), req.path())).error_response()
}

/// A refusal that tells the client when to come back: 429 `rate_limited`, or 503 when the
/// server is too busy (`server_busy`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Throttled {
    pub status: u16,
    pub code: &'static str,
    pub detail: String,
    /// Whole seconds to wait (rounded up, at least 1): `Retry-After`.
    pub retry_after: u64,
    /// The limit's burst and the seconds it takes to refill it, for `RateLimit-Limit` and
    /// `RateLimit-Policy`.
    pub policy: Option<(u32, u64)>,
    /// How long until the limit allows a request.
    pub wait: Duration,
}

impl Throttled {
    /// The server cannot take this request now (e.g. every password hashing slot is busy).
    pub fn busy(detail: impl Into<String>) -> Throttled {
        Throttled {
            status: 503,
            code: "server_busy",
            detail: detail.into(),
            retry_after: 1,
            policy: None,
            wait: Duration::ZERO,
        }
    }

    /// Adds `Retry-After` and, for a rate limit, `RateLimit-Limit`, `RateLimit-Remaining`,
    /// `RateLimit-Reset` (seconds until a request is allowed again) and `RateLimit-Policy`.
    pub fn add_headers(&self, response: &mut actix_web::HttpResponseBuilder) {
        response.insert_header((header::RETRY_AFTER, self.retry_after.to_string()));
        if let Some((limit, window)) = self.policy {
            response.insert_header(("RateLimit-Limit", limit.to_string()));
            response.insert_header(("RateLimit-Remaining", "0"));
            response.insert_header(("RateLimit-Reset", self.retry_after.to_string()));
            response.insert_header(("RateLimit-Policy", format!("{limit};w={window}")));
        }
    }
}

/// Marks a page for a person (the spectator page, [`crate::views::spectator`]): its error
/// statuses keep their HTML body instead of becoming problem documents ([`problem_fallback`]).
#[derive(Debug, Clone, Copy)]
pub struct HtmlPage;

#[cfg(test)]
mod tests {
    use super::*;

    /// The string literal opening `text`, after blanks.
    fn literal(text: &str) -> Option<&str> {
        let rest = text.trim_start().strip_prefix('"')?;
        let code = &rest[..rest.find('"')?];
        code.chars().all(|c| c.is_ascii_lowercase() || c == '_').then_some(code)
    }

    fn sources(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }

    /// Every code the sources build an error with (`bad_request("…"`, `conflict(`,
    /// `unprocessable(`, `code: "…"`, and the mappings in this file) is in `SERVER_CODES`, so
    /// the spec's enum cannot fall behind a new error.
    #[test]
    fn every_code_in_the_sources_is_listed() {
        let mut files = Vec::new();
        sources(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
        let mut found = Vec::new();
        for (name, text) in &files {
            let mut openings = vec!["bad_request(", "conflict(", "unprocessable(", "code:"];
            if name.ends_with("error.rs") {
                openings.push("=>");
            }
            for opening in openings {
                for (at, _) in text.match_indices(opening) {
                    if let Some(code) = literal(&text[at + opening.len()..]) {
                        found.push((code, name.clone()));
                    }
                }
            }
        }
        assert!(found.len() > 40, "the scan found only {found:?}");
        let listed = problem_codes();
        for (code, file) in found {
            assert!(listed.contains(&code), "{code} (in {file}) is not in SERVER_CODES");
        }
    }

    #[test]
    fn the_codes_include_the_engines() {
        let codes = problem_codes();
        for code in ["not_your_turn", "settlement_too_close", "invalid_board", "rate_limited", "version_conflict"] {
            assert!(codes.contains(&code), "{code}");
        }
    }
}
