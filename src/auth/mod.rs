//! Authentication: argon2 password hashes, HS256 JWTs, and the `AuthUser` / `MaybeAuthUser`
//! extractors. A handler is protected by taking an `AuthUser` parameter.

pub mod hashing;
pub mod revocation;
pub mod stream_tickets;

use actix_web::{dev::Payload, http::header, web, FromRequest, HttpRequest};
use argon2::{
    password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString},
    Argon2,
};
use chrono::{DateTime, Duration, Utc};
use futures_util::future::LocalBoxFuture;
use jsonwebtoken::{decode, encode, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{error::ApiError, store::db::DbPool};

use self::revocation::Revocations;

/// How long a token is valid, unless configured otherwise (`CATAN_TOKEN_LIFETIME_HOURS`).
pub const TOKEN_LIFETIME_DAYS: i64 = 7;

/// The claims of our tokens.
#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    /// Subject: the user id.
    pub sub: Uuid,
    /// The username at the time the token was issued.
    pub name: String,
    /// Issued at (seconds since the epoch).
    pub iat: i64,
    /// Expires at (seconds since the epoch).
    pub exp: i64,
    /// The token's own id, by which it can be revoked ([`crate::auth::revocation`]); absent from
    /// tokens issued before revocation existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jti: Option<Uuid>,
}

/// Signs and checks tokens with one HS256 secret.
#[derive(Clone)]
pub struct JwtKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    /// Built once: building it allocates, and every authenticated request needs it.
    validation: Validation,
    /// How long the tokens it issues are valid.
    lifetime: Duration,
}

impl std::fmt::Debug for JwtKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JwtKeys(..)")
    }
}

impl JwtKeys {
    pub fn new(secret: &[u8]) -> Self {
        JwtKeys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation: Validation::default(),
            lifetime: Duration::days(TOKEN_LIFETIME_DAYS),
        }
    }

    /// Returns these keys issuing tokens valid for `lifetime`.
    pub fn with_lifetime(self, lifetime: std::time::Duration) -> Self {
        JwtKeys { lifetime: Duration::from_std(lifetime).unwrap_or(self.lifetime), ..self }
    }

    /// Issues a token for a user; returns it with its expiry.
    ///
    /// # Errors
    /// Only on an encoder failure (not expected with HS256).
    pub fn issue(&self, user_id: Uuid, username: &str) -> Result<(String, DateTime<Utc>), ApiError> {
        let now = Utc::now();
        let expires_at = now + self.lifetime;
        let claims = Claims {
            sub: user_id,
            name: username.to_owned(),
            iat: now.timestamp(),
            exp: expires_at.timestamp(),
            jti: Some(Uuid::new_v4()),
        };
        let token = encode(&Header::default(), &claims, &self.encoding).map_err(ApiError::internal)?;
        Ok((token, expires_at))
    }

    /// Checks a token's signature and expiry.
    ///
    /// # Errors
    /// 401 `token_expired` for a token past its expiry (log in again), `unauthorized` for
    /// anything else (not a JWT, another key's signature, claims that are not ours).
    pub fn verify(&self, token: &str) -> Result<Claims, ApiError> {
        use jsonwebtoken::errors::ErrorKind;
        decode::<Claims>(token, &self.decoding, &self.validation).map(|data| data.claims).map_err(|e| match e.kind() {
            ErrorKind::ExpiredSignature => ApiError::Token {
                code: "token_expired",
                detail: "the token has expired: log in again (POST /api/v1/tokens)".into(),
            },
            ErrorKind::InvalidSignature => {
                ApiError::Unauthorized("the token is not valid: it was not signed by this server".into())
            }
            _ => ApiError::Unauthorized("the token is not valid: it is not a token this server issued".into()),
        })
    }
}

/// Hashes a password with argon2id and a random salt.
///
/// # Errors
/// Only on a hasher failure.
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default().hash_password(password.as_bytes(), &salt).map(|hash| hash.to_string()).map_err(ApiError::internal)
}

/// Tests a password against a stored hash.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
        .unwrap_or(false)
}

/// An authenticated caller. Taking this parameter makes a handler require a Bearer token.
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub id: Uuid,
    pub username: String,
    /// The presented token's id (`jti`), if it has one.
    pub token_id: Option<Uuid>,
    /// When the presented token expires (seconds since the epoch).
    pub token_expires: i64,
}

/// A caller who may or may not be authenticated. A token that is present but invalid is
/// still rejected with 401, so a client never silently becomes a spectator.
#[derive(Debug, Clone)]
pub struct MaybeAuthUser(pub Option<AuthUser>);

fn authenticate(req: &HttpRequest) -> Result<Option<AuthUser>, ApiError> {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let value =
        value.to_str().map_err(|_| ApiError::Unauthorized("the Authorization header is not readable".into()))?;
    let token = value
        .strip_prefix("Bearer ")
        .or_else(|| value.strip_prefix("bearer "))
        .ok_or_else(|| ApiError::Unauthorized("expected `Authorization: Bearer <token>`".into()))?;
    let keys = req.app_data::<web::Data<JwtKeys>>().ok_or_else(|| ApiError::internal("JWT keys are not configured"))?;
    let claims = keys.verify(token.trim())?;
    Ok(Some(AuthUser { id: claims.sub, username: claims.name, token_id: claims.jti, token_expires: claims.exp }))
}

/// Authenticates the request and refuses a revoked token ([`crate::auth::revocation`]).
fn authenticate_unrevoked(req: &HttpRequest) -> LocalBoxFuture<'static, Result<Option<AuthUser>, ApiError>> {
    let user = authenticate(req);
    let revocations = req.app_data::<web::Data<Revocations>>().cloned();
    let pool = req.app_data::<web::Data<DbPool>>().cloned();
    Box::pin(async move {
        let user = user?;
        if let (Some(AuthUser { token_id: Some(jti), token_expires, .. }), Some(revocations), Some(pool)) =
            (&user, revocations, pool)
        {
            if revocations.is_revoked(&pool, *jti, *token_expires).await? {
                return Err(ApiError::Token {
                    code: "token_revoked",
                    detail: "this token has been revoked (logged out): log in again (POST /api/v1/tokens)".into(),
                });
            }
        }
        Ok(user)
    })
}

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let user = authenticate_unrevoked(req);
        Box::pin(async move {
            user.await?.ok_or_else(|| ApiError::Unauthorized("this endpoint needs a Bearer token".into()))
        })
    }
}

impl FromRequest for MaybeAuthUser {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let user = authenticate_unrevoked(req);
        Box::pin(async move { user.await.map(MaybeAuthUser) })
    }
}
