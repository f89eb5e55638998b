//! Revoked tokens (`DELETE /api/v1/tokens/current`): a token is refused from the moment its
//! revocation commits, on every server process, until it would have expired anyway.
//!
//! Tokens are stateless JWTs; a revocation is a row in `revoked_tokens`, keyed by the token's
//! `jti` claim, with the token's expiry so that the row can be pruned once the token is dead
//! anyway (the table holds at most the revocations of the last token lifetime).
//!
//! What checking costs an authenticated request:
//! - on SQLite, nothing beyond a hash lookup: one process serves the file
//!   ([`crate::store::sole_server`]), so the revocations it loaded at start and those it made since
//!   are all there are;
//! - on PostgreSQL, one primary-key lookup (another process may have revoked the token a
//!   moment ago, and only the database knows): a revocation must hold on every process as
//!   soon as it is answered, which a cache fed by notifications would not guarantee. Tokens
//!   known revoked are refused from memory.
//!
//! Tokens issued before revocation existed carry no `jti`: they cannot be revoked one by one
//! and simply expire.

use std::{collections::HashMap, sync::Mutex};

use chrono::DateTime;
use diesel::{prelude::*, result::DatabaseErrorKind};
use uuid::Uuid;

use crate::{
    error::ApiError,
    store::db::{with_conn, DbConnection, DbPool},
    store::now,
    store::schema::revoked_tokens,
};

/// The revocations this process knows of, and whether they are all there are.
#[derive(Debug)]
pub struct Revocations {
    /// Every revocation is made by this process (SQLite): memory is the whole truth.
    complete: bool,
    /// Revoked `jti`s and their tokens' expiry (seconds since the epoch).
    known: Mutex<HashMap<Uuid, i64>>,
}

impl Revocations {
    /// Starts with the revocations of unexpired tokens stored in the database; `complete` when
    /// this process makes every revocation there is (SQLite).
    ///
    /// # Errors
    /// A database error.
    pub fn load(conn: &mut DbConnection, complete: bool) -> Result<Revocations, ApiError> {
        let rows: Vec<(String, chrono::NaiveDateTime)> = revoked_tokens::table
            .filter(revoked_tokens::expires_at.gt(now()))
            .select((revoked_tokens::jti, revoked_tokens::expires_at))
            .load(conn)?;
        let known = rows
            .into_iter()
            .filter_map(|(jti, at)| Some((Uuid::parse_str(&jti).ok()?, at.and_utc().timestamp())))
            .collect();
        Ok(Revocations { complete, known: Mutex::new(known) })
    }

    fn known(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, i64>> {
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Remembers a revocation, forgetting those of tokens that have expired by now.
    fn remember(&self, jti: Uuid, expires: i64) {
        let mut known = self.known();
        let now = chrono::Utc::now().timestamp();
        known.retain(|_, exp| *exp > now);
        known.insert(jti, expires);
    }

    /// Tests if the token `jti` has been revoked.
    ///
    /// # Errors
    /// A database error ([`ApiError::Unavailable`] when it cannot be reached).
    pub async fn is_revoked(&self, pool: &DbPool, jti: Uuid, expires: i64) -> Result<bool, ApiError> {
        if self.known().contains_key(&jti) {
            return Ok(true);
        }
        if self.complete {
            return Ok(false);
        }
        let revoked = with_conn(pool, move |conn| {
            let found: Option<String> =
                revoked_tokens::table.find(jti.to_string()).select(revoked_tokens::jti).first(conn).optional()?;
            Ok(found.is_some())
        })
        .await?;
        if revoked {
            self.remember(jti, expires);
        }
        Ok(revoked)
    }

    /// Revokes the token `jti`, which expires at `expires` (seconds since the epoch), and
    /// prunes the revocations of tokens that have expired.
    ///
    /// # Errors
    /// A database error.
    pub async fn revoke(&self, pool: &DbPool, jti: Uuid, expires: i64) -> Result<(), ApiError> {
        let expires_at = DateTime::from_timestamp(expires, 0).map_or_else(now, |at| at.naive_utc());
        with_conn(pool, move |conn| {
            diesel::delete(revoked_tokens::table.filter(revoked_tokens::expires_at.le(now()))).execute(conn)?;
            let inserted = diesel::insert_into(revoked_tokens::table)
                .values((revoked_tokens::jti.eq(jti.to_string()), revoked_tokens::expires_at.eq(expires_at)))
                .execute(conn);
            match inserted {
                // Revoked twice (e.g. by two processes at once): revoked all the same.
                Ok(_) | Err(diesel::result::Error::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Ok(()),
                Err(error) => Err(error.into()),
            }
        })
        .await?;
        self.remember(jti, expires);
        Ok(())
    }

    /// How many revocations this process holds in memory (for tests).
    pub fn remembered(&self) -> usize {
        self.known().len()
    }
}
