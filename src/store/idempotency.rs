//! `Idempotency-Key`: a client that retries a POST with the same key and the same body gets
//! the first response (status and body, with `Idempotent-Replayed: true`) and nothing is done
//! twice; the same key with a different request is a 422 `idempotency_key_reused`.
//!
//! Keys are scoped per caller (the authenticated user) and kept for [`KEY_LIFETIME_HOURS`]
//! in `idempotency_keys`. A key is looked up and its response stored inside the transaction
//! of the write it stands for, so the key and its effect commit together or not at all:
//! moves (and the trade endpoints, which are moves) call [`find`] and [`store`] in the move's
//! own transaction; creating, joining and starting a game go through [`once`].
//!
//! Only successful responses are stored: a request that failed changed nothing, so its retry
//! simply runs again, and so does the retry of a request cut short by a crash.
//!
//! Older servers reserved a key before running the request and stored the response after
//! it, in two transactions: a crash in between left a key without a response, which blocked
//! it (409 `idempotency_key_in_use`) for [`ABANDONED_AFTER_SECONDS`] and let its retries
//! create duplicates. Such a row is still honoured until then; no new one is made.

use actix_web::{http::StatusCode, HttpRequest, HttpResponse};
use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use serde::Serialize;
use uuid::Uuid;

use crate::{
    error::ApiError,
    store::db::{write_transaction, DbConnection},
    store::now,
    store::schema::idempotency_keys,
};

/// How long a key is remembered.
pub const KEY_LIFETIME_HOURS: i64 = 24;

/// How long a key without a response (a reservation left by an older server, see the module
/// docs) blocks its key before it counts as abandoned.
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
    /// The same request is still running (only for keys an older server reserved).
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

/// Stores the first response of a claim that [`find`] found absent (inside the transaction
/// of the write it stands for).
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

fn in_use() -> ApiError {
    ApiError::conflict(
        "idempotency_key_in_use",
        "a request with this Idempotency-Key is still running; retry in a moment",
    )
}

/// What a keyed write did.
#[derive(Debug)]
pub enum Keyed<T> {
    /// It ran now: `effect`'s value and the response body it stored.
    Done(T, String),
    /// It had run before: the first response, to replay.
    Replay(StoredResponse),
}

/// Runs a write that is not a move (create, join, start a game) under a claim, in one write
/// transaction with the key: the key is looked up, `effect` runs and its response (`status`
/// and the body `effect` returns) is stored with it, and all of it commits together or not
/// at all. A crash in between leaves neither the game nor the key, so the retry simply runs
/// again; a key is never held without its effect.
///
/// A concurrent request with the same key either waits for the first to commit (SQLite takes
/// the write lock at once; on PostgreSQL the second insert of the key waits on the first)
/// and replays its response, or fails on the game's new state (e.g. `already_joined`) and
/// then finds the first response to replay.
///
/// # Errors
/// `effect`'s error, 422 `idempotency_key_reused`, or a database error.
pub fn once<T, F>(conn: &mut DbConnection, claim: Option<&Claim>, status: u16, effect: F) -> Result<Keyed<T>, ApiError>
where
    F: FnOnce(&mut DbConnection) -> Result<(T, String), ApiError>,
{
    let attempt = write_transaction(conn, |conn| {
        if let Some(claim) = claim {
            match find(conn, claim)? {
                Found::Done(response) => return Ok(Keyed::Replay(response)),
                // Only an older server reserved keys apart from their effect.
                Found::InProgress => return Err(in_use()),
                Found::Absent => {}
            }
        }
        let (value, body) = effect(conn)?;
        if let Some(claim) = claim {
            store(conn, claim, &StoredResponse { status, body: body.clone() })?;
        }
        Ok(Keyed::Done(value, body))
    });
    match (attempt, claim) {
        // Lost a race to a request with the same key, which committed first.
        (Err(error), Some(claim)) => match find(conn, claim) {
            Ok(Found::Done(response)) => Ok(Keyed::Replay(response)),
            _ => Err(error),
        },
        (attempt, _) => attempt,
    }
}
