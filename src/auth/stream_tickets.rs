//! Stream tickets: how a browser follows its seat's event stream. An `EventSource` cannot send
//! `Authorization`, and a long-lived token in a URL ends up in logs and histories; so a seated
//! player exchanges their token for a ticket (`POST /api/v1/games/{game_id}/stream-tickets`)
//! and opens `GET /api/v1/games/{game_id}/stream?ticket=...`.
//!
//! A ticket is a JWT signed with a key of its own (HMAC-SHA256 under the server's secret with
//! a fixed suffix), so it is never accepted as a Bearer token, nor a token as a ticket. It
//! names one game and one user, and lives [`DEFAULT_LIFETIME`] (`CATAN_STREAM_TICKET_SECONDS`):
//! it must be presented within that time to open a stream, which then runs as long as the
//! client stays connected. The token it was issued from is checked at every use: revoking that
//! token (`DELETE /api/v1/tokens/current`) voids its tickets too.

use std::time::Duration;

use chrono::{DateTime, Utc};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    auth::{revocation::Revocations, AuthUser},
    error::ApiError,
    store::db::DbPool,
};

/// How long a ticket may wait before it opens a stream, unless configured otherwise.
pub const DEFAULT_LIFETIME: Duration = Duration::from_secs(60);

/// What a ticket says.
#[derive(Debug, Serialize, Deserialize)]
struct TicketClaims {
    /// The user.
    sub: Uuid,
    /// The only game whose stream it opens.
    game: Uuid,
    /// Expires at (seconds since the epoch).
    exp: i64,
    /// Always `"stream"`: what the JWT is for.
    typ: String,
    /// The id of the token it was issued from, and that token's expiry, to check revocation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    parent: Option<Uuid>,
    parent_exp: i64,
}

/// Issues and checks stream tickets.
pub struct StreamTickets {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    lifetime: Duration,
}

impl std::fmt::Debug for StreamTickets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StreamTickets({:?})", self.lifetime)
    }
}

/// A ticket refused: 401 `invalid_ticket`.
fn invalid(detail: impl Into<String>) -> ApiError {
    ApiError::Http { status: actix_web::http::StatusCode::UNAUTHORIZED, code: "invalid_ticket", detail: detail.into() }
}

impl StreamTickets {
    /// Tickets signed under `secret` (the server's JWT secret), valid for `lifetime`.
    pub fn new(secret: &[u8], lifetime: Duration) -> StreamTickets {
        let mut key = secret.to_vec();
        key.extend_from_slice(b"/stream-ticket");
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp"]);
        StreamTickets {
            encoding: EncodingKey::from_secret(&key),
            decoding: DecodingKey::from_secret(&key),
            validation,
            lifetime,
        }
    }

    /// Issues a ticket for `user`'s stream of `game`; returns it with its expiry.
    ///
    /// # Errors
    /// Only on an encoder failure.
    pub fn issue(&self, user: &AuthUser, game: Uuid) -> Result<(String, DateTime<Utc>), ApiError> {
        let lifetime = chrono::Duration::from_std(self.lifetime).map_err(ApiError::internal)?;
        // Never past the token it comes from; in whole seconds, as the ticket says.
        let exp = (Utc::now() + lifetime).timestamp().min(user.token_expires);
        let expires_at = DateTime::from_timestamp(exp, 0).unwrap_or_else(Utc::now);
        let claims = TicketClaims {
            sub: user.id,
            game,
            exp,
            typ: "stream".into(),
            parent: user.token_id,
            parent_exp: user.token_expires,
        };
        let ticket = encode(&Header::new(Algorithm::HS256), &claims, &self.encoding).map_err(ApiError::internal)?;
        Ok((ticket, expires_at))
    }

    /// Checks a ticket presented for the stream of `game`; returns its user.
    ///
    /// # Errors
    /// 401 `invalid_ticket` for a forged, expired or revoked ticket; 403
    /// `ticket_for_another_game` for a ticket of another game.
    pub async fn check(
        &self,
        revocations: &Revocations,
        pool: &DbPool,
        ticket: &str,
        game: Uuid,
    ) -> Result<Uuid, ApiError> {
        let claims = decode::<TicketClaims>(ticket.trim(), &self.decoding, &self.validation)
            .map_err(|e| invalid(format!("the stream ticket is not valid: {e}; get a new one")))?
            .claims;
        if claims.typ != "stream" {
            return Err(invalid("not a stream ticket"));
        }
        if claims.game != game {
            return Err(ApiError::Http {
                status: actix_web::http::StatusCode::FORBIDDEN,
                code: "ticket_for_another_game",
                detail: format!("this ticket opens the stream of game {}, not {game}", claims.game),
            });
        }
        if let Some(parent) = claims.parent {
            if revocations.is_revoked(pool, parent, claims.parent_exp).await? {
                return Err(invalid("the token this ticket was issued from has been revoked"));
            }
        }
        Ok(claims.sub)
    }
}
