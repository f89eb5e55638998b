//! `Idempotency-Key`: a client that retries a POST with the same key and the same body gets
//! the first response (status and body, with `Idempotent-Replayed: true`) and nothing is done
//! twice; the same key with a different request is a 422 `idempotency_key_reused`.
//!
//! Keys are scoped per caller (the authenticated user) and kept for [`KEY_LIFETIME_HOURS`]
//! in `idempotency_keys`. Two ways in:
//! - moves (and the trade endpoints, which are moves) look the key up and store the response
//!   inside the move's own transaction ([`find`], [`store`]), so the key and the log entry
//!   commit together or not at all;
//! - other POSTs (create, join, start a game) go through [`run`]: the key is reserved first
//!   (a concurrent duplicate gets 409 `idempotency_key_in_use`), the handler runs, and its
//!   response is stored.
//!
//! Only successful responses are stored: a request that failed changed nothing, so its retry
//! simply runs again. A reserved request runs to its end even when the client disconnects;
//! only a crash in between leaves a reservation, which is freed after
//! [`ABANDONED_AFTER_SECONDS`].

use std::future::Future;

use actix_web::{body::MessageBody, http::StatusCode, HttpRequest, HttpResponse};
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use serde::Serialize;
use uuid::Uuid;

use crate::{
    db::{with_conn, DbConnection, DbPool},
    error::ApiError,
    schema::idempotency_keys,
    store::now,
};

/// How long a key is remembered.
pub const KEY_LIFETIME_HOURS: i64 = 24;

/// How long a reservation may stay without a response before it counts as abandoned (its
/// request runs to the end even when the client goes away, so only a crash leaves one).
pub const ABANDONED_AFTER_SECONDS: i64 = 300;

/// The response header that marks a replayed first response.
pub const REPLAYED_HEADER: &str = "Idempotent-Replayed";

/// A request's claim on an `Idempotency-Key`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// Whose key it is (a user id).
    pub scope: String,
    pub key: String,
    /// The request the key stands for: method, path and canonical JSON body.
    pub request: String,
}

/// A stored first response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredResponse {
    pub status: u16,
    pub body: String,
}

impl StoredResponse {
    /// Builds the HTTP response of a replay.
    pub fn replay(&self) -> HttpResponse {
        HttpResponse::build(StatusCode::from_u16(self.status).unwrap_or(StatusCode::OK))
            .content_type("application/json")
            .insert_header((REPLAYED_HEADER, "true"))
            .body(self.body.clone())
    }
}

/// What a key lookup found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// The key is new (or expired).
    Absent,
    /// The same request is still running (only for reserved keys).
    InProgress,
    /// The same request already succeeded with this response.
    Done(StoredResponse),
}

/// Reads the `Idempotency-Key` header: 1 to 255 visible ASCII characters.
///
/// # Errors
/// 400 `invalid_idempotency_key`.
pub fn header_key(req: &HttpRequest) -> Result<Option<String>, ApiError> {
    let Some(value) = req.headers().get("Idempotency-Key") else {
        return Ok(None);
    };
    let key = value.to_str().unwrap_or_default().trim();
    if key.is_empty() || key.len() > 255 || !key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(ApiError::bad_request(
            "invalid_idempotency_key",
            "Idempotency-Key must be 1 to 255 visible ASCII characters",
        ));
    }
    Ok(Some(key.to_owned()))
}

/// Builds the claim of a request from `user`, if it sent a key. `body` is the parsed body
/// (`()` for none); it is compared as canonical JSON, so whitespace and key order do not
/// matter.
///
/// # Errors
/// 400 `invalid_idempotency_key`, or a body that cannot be serialized.
pub fn claim(req: &HttpRequest, user: Uuid, body: &impl Serialize) -> Result<Option<Claim>, ApiError> {
    let Some(key) = header_key(req)? else {
        return Ok(None);
    };
    let body = serde_json::to_value(body)?;
    Ok(Some(Claim { scope: user.to_string(), key, request: format!("{} {} {body}", req.method(), req.path()) }))
}

fn cutoff() -> NaiveDateTime {
    now() - Duration::hours(KEY_LIFETIME_HOURS)
}

fn reused() -> ApiError {
    ApiError::unprocessable(
        "idempotency_key_reused",
        "this Idempotency-Key was already used for a different request; use a new key",
    )
}

/// Looks up a claim's key (expired keys count as absent and are removed).
///
/// # Errors
/// 422 `idempotency_key_reused` when the key stands for another request; a database error.
pub fn find(conn: &mut DbConnection, claim: &Claim) -> Result<Found, ApiError> {
    diesel::delete(
        idempotency_keys::table
            .filter(idempotency_keys::scope.eq(&claim.scope))
            .filter(idempotency_keys::created_at.lt(cutoff())),
    )
    .execute(conn)?;
    let row: Option<(String, Option<i32>, Option<String>, NaiveDateTime)> = idempotency_keys::table
        .find((&claim.scope, &claim.key))
        .select((
            idempotency_keys::request,
            idempotency_keys::status,
            idempotency_keys::body,
            idempotency_keys::created_at,
        ))
        .first(conn)
        .optional()?;
    match row {
        None => Ok(Found::Absent),
        Some((request, ..)) if request != claim.request => Err(reused()),
        Some((_, Some(status), Some(body), _)) => Ok(Found::Done(StoredResponse { status: status as u16, body })),
        // A reservation whose request can no longer be running (the process died): free it.
        Some((.., reserved_at)) if reserved_at < now() - Duration::seconds(ABANDONED_AFTER_SECONDS) => {
            diesel::delete(idempotency_keys::table.find((&claim.scope, &claim.key))).execute(conn)?;
            Ok(Found::Absent)
        }
        Some(_) => Ok(Found::InProgress),
    }
}

/// Stores the first response of a claim that [`find`] found absent (inside the move's
/// transaction).
///
/// # Errors
/// A database error (a concurrent insert of the same key is a unique violation, which the
/// move pipeline retries as a conflict and then finds the stored response).
pub fn store(conn: &mut DbConnection, claim: &Claim, response: &StoredResponse) -> Result<(), ApiError> {
    diesel::insert_into(idempotency_keys::table)
        .values((
            idempotency_keys::scope.eq(&claim.scope),
            idempotency_keys::idem_key.eq(&claim.key),
            idempotency_keys::request.eq(&claim.request),
            idempotency_keys::status.eq(Some(i32::from(response.status))),
            idempotency_keys::body.eq(Some(&response.body)),
            idempotency_keys::created_at.eq(now()),
        ))
        .execute(conn)?;
    Ok(())
}

/// Reserves a claim's key before running a request that is not a move: `Ok(None)` when the
/// caller should run it, `Ok(Some(response))` for a replay.
///
/// # Errors
/// 409 `idempotency_key_in_use` while the first request still runs, 422
/// `idempotency_key_reused`, or a database error.
pub fn reserve(conn: &mut DbConnection, claim: &Claim) -> Result<Option<StoredResponse>, ApiError> {
    match find(conn, claim)? {
        Found::Done(response) => return Ok(Some(response)),
        Found::InProgress => return Err(in_use()),
        Found::Absent => {}
    }
    let inserted = diesel::insert_into(idempotency_keys::table)
        .values((
            idempotency_keys::scope.eq(&claim.scope),
            idempotency_keys::idem_key.eq(&claim.key),
            idempotency_keys::request.eq(&claim.request),
            idempotency_keys::created_at.eq(now()),
        ))
        .execute(conn);
    match inserted {
        Ok(_) => Ok(None),
        // Someone reserved it between our look and our insert: look again.
        Err(diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _)) => {
            match find(conn, claim)? {
                Found::Done(response) => Ok(Some(response)),
                _ => Err(in_use()),
            }
        }
        Err(e) => Err(e.into()),
    }
}

fn in_use() -> ApiError {
    ApiError::conflict(
        "idempotency_key_in_use",
        "a request with this Idempotency-Key is still running; retry in a moment",
    )
}

/// Records the response of a reserved claim, or releases the key when the request failed.
fn finish(conn: &mut DbConnection, claim: &Claim, response: Option<&StoredResponse>) -> Result<(), ApiError> {
    let row = idempotency_keys::table.find((&claim.scope, &claim.key));
    match response {
        Some(response) => diesel::update(row)
            .set((
                idempotency_keys::status.eq(Some(i32::from(response.status))),
                idempotency_keys::body.eq(Some(&response.body)),
            ))
            .execute(conn)?,
        None => diesel::delete(row).execute(conn)?,
    };
    Ok(())
}

/// Runs a handler body that is not a move under a claim: replays a stored response, or runs
/// `f` and stores its response when it succeeds (releases the key when it fails).
///
/// # Errors
/// `f`'s error, the errors of [`reserve`], or a database error.
pub async fn run<F, Fut>(pool: &DbPool, claim: Option<Claim>, f: F) -> Result<HttpResponse, ApiError>
where
    F: FnOnce() -> Fut + 'static,
    Fut: Future<Output = Result<HttpResponse, ApiError>> + 'static,
{
    let Some(claim) = claim else {
        return f().await;
    };
    let reserved = claim.clone();
    if let Some(stored) = with_conn(pool, move |conn| reserve(conn, &reserved)).await? {
        return Ok(stored.replay());
    }
    // Run to the end even if the client goes away, so that the key is always completed or
    // released.
    let pool = pool.clone();
    actix_web::rt::spawn(async move {
        let result = f().await;
        let (response, stored) = match result {
            Ok(response) if response.status().is_success() => {
                let status = response.status().as_u16();
                let (head, body) = response.into_parts();
                let bytes =
                    body.try_into_bytes().map_err(|_| ApiError::internal("a streaming body cannot be stored"))?;
                let stored = StoredResponse { status, body: String::from_utf8_lossy(&bytes).into_owned() };
                (Ok(head.set_body(bytes).map_into_boxed_body()), Some(stored))
            }
            other => (other, None),
        };
        with_conn(&pool, move |conn| finish(conn, &claim, stored.as_ref())).await?;
        response
    })
    .await
    .map_err(ApiError::internal)?
}
