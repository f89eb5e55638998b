//! Accounts: register, and log in for a token.

use actix_web::{get, patch, post, web, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{
    app::AppState,
    auth::{AuthUser, JwtKeys},
    error::{ApiError, Problem},
    http::json::Json,
    store::db::with_conn,
    store::{self, AccountKind, UserRow},
    views::utc,
};

/// A username and password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"username": "alice", "password": "correct horse battery"}))]
pub struct Credentials {
    /// 3 to 32 characters: ASCII letters (`A`-`Z`, `a`-`z`), digits, `_`, `-` and `.`.
    #[schema(min_length = 3, max_length = 32, pattern = "^[A-Za-z0-9_.-]+$")]
    pub username: String,
    /// 8 to 128 characters.
    #[schema(min_length = 8, max_length = 128)]
    pub password: String,
    /// Registration only (`POST /api/v1/users`; `POST /api/v1/tokens` ignores it): `human`
    /// (default) or `bot`, for a program that plays over the API. Every seat shows it; it can
    /// be changed once (`PATCH /api/v1/users/me`) while the account has played no rated game.
    /// `builtin` is the server's own bots' (422 `invalid_kind`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<AccountKind>,
}

/// A change to the caller's account.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "bot"}))]
pub struct AccountChange {
    /// `human` or `bot`: allowed once, and only before the account's first rated game (409
    /// `kind_locked`); setting the kind it has changes nothing.
    pub kind: AccountKind,
}

/// A user as others see them.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserResponse {
    pub id: Uuid,
    pub username: String,
    pub kind: AccountKind,
    pub created_at: DateTime<Utc>,
}

/// The caller's account, and how many of their games are not finished.
#[derive(Debug, Serialize, ToSchema)]
pub struct MeResponse {
    pub id: Uuid,
    pub username: String,
    pub kind: AccountKind,
    pub created_at: DateTime<Utc>,
    /// Open games they created or sit in (`GET /api/v1/games?mine=true&status=open`).
    pub open_games: i64,
    /// Games in play they created or sit in (`GET /api/v1/games?mine=true&status=playing`).
    pub playing_games: i64,
}

/// A new account and a token for it.
#[derive(Debug, Serialize, ToSchema)]
pub struct RegisterResponse {
    pub user: UserResponse,
    /// A JWT for `Authorization: Bearer <token>`.
    pub token: String,
    pub expires_at: DateTime<Utc>,
}

/// A token for `Authorization: Bearer <token>`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenResponse {
    pub token: String,
    pub expires_at: DateTime<Utc>,
}

fn validate(credentials: &Credentials) -> Result<(), ApiError> {
    let name = &credentials.username;
    let name_ok = (3..=32).contains(&name.chars().count())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !name_ok {
        return Err(ApiError::unprocessable(
            "invalid_username",
            "a username has 3 to 32 characters: ASCII letters (A-Z, a-z), digits, `_`, `-` and `.`",
        )
        .at("#/username", "must have 3 to 32 characters, each an ASCII letter (A-Z, a-z), a digit, `_`, `-` or `.`"));
    }
    if credentials.kind == Some(AccountKind::Builtin) {
        return Err(builtin_refused());
    }
    if !(8..=128).contains(&credentials.password.chars().count()) {
        return Err(ApiError::unprocessable("invalid_password", "a password has 8 to 128 characters")
            .at("#/password", "must have 8 to 128 characters"));
    }
    Ok(())
}

/// Register a new user.
///
/// Returns the user and a token, so a client can go on at once. Usernames are
/// case-insensitive: `ABC` is taken once `abc` is (409 `username_taken`); the name keeps the
/// case it was registered with. Limited per client address and per username (429
/// `rate_limited`, with `Retry-After` and `RateLimit-*` headers).
#[utoipa::path(
    tag = "users",
    request_body = Credentials,
    responses(
        (status = 201, description = "Registered", body = RegisterResponse),
        (status = 400, description = "Malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`username_taken` (in any case)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_username` or `invalid_password`", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 503, response = crate::api::responses::ServerBusy),
    )
)]
#[post("/users")]
pub async fn register_user(
    state: web::Data<AppState>,
    keys: web::Data<JwtKeys>,
    req: HttpRequest,
    body: Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let credentials = body.into_inner();
    state.limits.register(&req, &credentials.username).await?;
    validate(&credentials)?;
    let password_hash = state.hasher.hash(credentials.password).await?;
    let user = UserRow {
        id: Uuid::new_v4().to_string(),
        username_key: store::username_key(&credentials.username),
        username: credentials.username,
        password_hash,
        created_at: store::now(),
        kind: credentials.kind.unwrap_or(AccountKind::Human).as_str().into(),
        kind_changed_at: None,
    };
    let user = with_conn(&state.pool, move |conn| {
        store::insert_user(conn, &user)?;
        Ok(user)
    })
    .await?;
    let id = Uuid::parse_str(&user.id).map_err(ApiError::internal)?;
    let (token, expires_at) = keys.issue(id, &user.username)?;
    Ok(HttpResponse::Created().json(RegisterResponse { user: user_response(id, user), token, expires_at }))
}

/// Log in: exchange a username and password for a token.
///
/// The username may be given in any case. Limited per client address and per username,
/// failed attempts included (429 `rate_limited`). A name that does not exist costs the same
/// password check as a wrong password.
#[utoipa::path(
    tag = "users",
    request_body = Credentials,
    responses(
        (status = 200, description = "A fresh token", body = TokenResponse),
        (status = 400, description = "Malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Wrong username or password (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 503, response = crate::api::responses::ServerBusy),
    )
)]
#[post("/tokens")]
pub async fn create_token(
    state: web::Data<AppState>,
    keys: web::Data<JwtKeys>,
    req: HttpRequest,
    body: Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let Credentials { username, password, .. } = body.into_inner();
    state.limits.login(&req, &username).await?;
    let user = with_conn(&state.pool, move |conn| store::find_user_by_name(conn, &username)).await?;
    // An unknown name is checked against a dummy hash: the same cost as a wrong password.
    let ok = state.hasher.verify(password, user.as_ref().map(|u| u.password_hash.clone())).await?;
    let Some(user) = user.filter(|_| ok) else {
        return Err(ApiError::Unauthorized("wrong username or password".into()));
    };
    let id = Uuid::parse_str(&user.id).map_err(ApiError::internal)?;
    let (token, expires_at) = keys.issue(id, &user.username)?;
    Ok(HttpResponse::Ok().json(TokenResponse { token, expires_at }))
}

/// Get the caller's account.
///
/// Their id, username, when they registered, and how many unfinished games they created or
/// sit in (list them with `GET /api/v1/games?mine=true`).
#[utoipa::path(
    tag = "users",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller", body = MeResponse),
        (status = 401, description = "No valid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/users/me")]
pub async fn me(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    let id = user.id;
    let (row, (open_games, playing_games)) = with_conn(&state.pool, move |conn| {
        let row = crate::store::lobby::find_user(conn, id)?;
        Ok((row, crate::store::lobby::unfinished_counts(conn, id)?))
    })
    .await?;
    let row = row.ok_or_else(|| ApiError::Unauthorized("the token's user does not exist".into()))?;
    Ok(HttpResponse::Ok().json(MeResponse {
        id,
        username: row.username,
        kind: AccountKind::parse(&row.kind),
        created_at: utc(row.created_at),
        open_games,
        playing_games,
    }))
}

/// Change the caller's account: its kind (`human` or `bot`).
///
/// Allowed once, and only while the account has played no rated game, so that a rating is
/// always a person's or always a program's.
#[utoipa::path(
    tag = "users",
    security(("bearer" = [])),
    request_body = AccountChange,
    responses(
        (status = 200, description = "The account as it is now", body = UserResponse),
        (status = 400, description = "Malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`kind_locked`: changed before, or rated games played", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_kind` (`builtin`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[patch("/users/me")]
pub async fn change_me(
    state: web::Data<AppState>,
    user: AuthUser,
    body: Json<AccountChange>,
) -> Result<HttpResponse, ApiError> {
    let kind = body.into_inner().kind;
    if kind == AccountKind::Builtin {
        return Err(builtin_refused());
    }
    let id = user.id;
    let row = with_conn(&state.pool, move |conn| store::change_kind(conn, &id.to_string(), kind)).await?;
    Ok(HttpResponse::Ok().json(user_response(id, row)))
}

/// `builtin` is the server's own bots' kind: no account chooses it (422 `invalid_kind`).
fn builtin_refused() -> ApiError {
    ApiError::unprocessable("invalid_kind", "an account is `human` or `bot`; `builtin` is the server's own bots'")
        .at("#/kind", "must be `human` or `bot`")
}

fn user_response(id: Uuid, row: UserRow) -> UserResponse {
    UserResponse { id, username: row.username, kind: AccountKind::parse(&row.kind), created_at: utc(row.created_at) }
}
