//! Accounts: register, and log in for a token.

use actix_web::{post, web, HttpResponse};
use chrono::{DateTime, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{
    api::AppState,
    auth::{hash_password, verify_password, JwtKeys},
    db::with_conn,
    error::{ApiError, Problem},
    store::{self, UserRow},
};

/// A username and password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"username": "alice", "password": "correct horse battery"}))]
pub struct Credentials {
    /// 3 to 32 characters: letters, digits, `_`, `-` and `.`.
    pub username: String,
    /// 8 to 128 characters.
    pub password: String,
}

/// A user as others see them.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserResponse {
    pub id: Uuid,
    pub username: String,
    pub created_at: DateTime<Utc>,
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

pub fn utc(at: NaiveDateTime) -> DateTime<Utc> {
    DateTime::from_naive_utc_and_offset(at, Utc)
}

fn validate(credentials: &Credentials) -> Result<(), ApiError> {
    let name = &credentials.username;
    let name_ok = (3..=32).contains(&name.chars().count())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !name_ok {
        return Err(ApiError::unprocessable(
            "invalid_username",
            "a username has 3 to 32 characters: letters, digits, `_`, `-` and `.`",
        ));
    }
    if !(8..=128).contains(&credentials.password.chars().count()) {
        return Err(ApiError::unprocessable("invalid_password", "a password has 8 to 128 characters"));
    }
    Ok(())
}

/// Register a new user.
///
/// Returns the user and a token, so a client can go on at once.
#[utoipa::path(
    tag = "users",
    request_body = Credentials,
    responses(
        (status = 201, description = "Registered", body = RegisterResponse),
        (status = 400, description = "Malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`username_taken`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_username` or `invalid_password`", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/users")]
pub async fn register_user(
    state: web::Data<AppState>,
    keys: web::Data<JwtKeys>,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let credentials = body.into_inner();
    validate(&credentials)?;
    let password = credentials.password;
    let password_hash = web::block(move || hash_password(&password)).await??;
    let user = UserRow {
        id: Uuid::new_v4().to_string(),
        username: credentials.username,
        password_hash,
        created_at: store::now(),
    };
    let user = with_conn(&state.pool, move |conn| {
        store::insert_user(conn, &user)?;
        Ok(user)
    })
    .await?;
    let id = Uuid::parse_str(&user.id).map_err(ApiError::internal)?;
    let (token, expires_at) = keys.issue(id, &user.username)?;
    Ok(HttpResponse::Created().json(RegisterResponse {
        user: UserResponse { id, username: user.username, created_at: utc(user.created_at) },
        token,
        expires_at,
    }))
}

/// Log in: exchange a username and password for a token.
#[utoipa::path(
    tag = "users",
    request_body = Credentials,
    responses(
        (status = 200, description = "A fresh token", body = TokenResponse),
        (status = 400, description = "Malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Wrong username or password (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tokens")]
pub async fn create_token(
    state: web::Data<AppState>,
    keys: web::Data<JwtKeys>,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let Credentials { username, password } = body.into_inner();
    let user = with_conn(&state.pool, move |conn| store::find_user_by_name(conn, &username)).await?;
    let wrong = || ApiError::Unauthorized("wrong username or password".into());
    let Some(user) = user else {
        return Err(wrong());
    };
    let hash = user.password_hash.clone();
    let ok = web::block(move || verify_password(&password, &hash)).await?;
    if !ok {
        return Err(wrong());
    }
    let id = Uuid::parse_str(&user.id).map_err(ApiError::internal)?;
    let (token, expires_at) = keys.issue(id, &user.username)?;
    Ok(HttpResponse::Ok().json(TokenResponse { token, expires_at }))
}
