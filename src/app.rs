//! The state every request sees: what each handler reaches through `web::Data<AppState>`.
//!
//! It sits above the parts it holds (storage, reads, the live feed, the bots, auth and the
//! HTTP limits) and below the handlers ([`crate::api`]). The auth extractors and the CORS
//! middleware, which sit below it, read their own `web::Data` (the revocations, the pool, the
//! CORS origins) rather than this state.

use std::sync::Arc;

use crate::{
    auth::{hashing::Hasher, revocation::Revocations, stream_tickets::StreamTickets},
    http::limits::Limits,
    live::notify::Notifier,
    play::{bots::BotRunner, seeks::Matchmaker},
    reads::Reads,
    store::{db::DbPool, sole_server::SoleServer},
};

/// What every handler can reach through `web::Data<AppState>`.
#[derive(Debug, Clone)]
pub struct AppState {
    pub pool: DbPool,
    /// Read replicas (`DATABASE_READ_URL`), for the reads [`crate::store::replicas::with_read_conn`]
    /// may serve there.
    pub read_pool: Option<DbPool>,
    pub notifier: Notifier,
    /// Plays the built-in bots' moves; poke it after every commit.
    pub bots: BotRunner,
    /// Sweeps the seek queue; tell it what a change to the queue started, wait on it for the
    /// next ([`crate::play::seeks`]).
    pub matchmaker: Matchmaker,
    /// What this process knows of each game's latest version, and the bytes it served for
    /// each version ([`crate::reads`]).
    pub reads: Arc<Reads>,
    /// On SQLite, this process's claim on the database file, held while any handler can run
    /// ([`crate::store::sole_server`]).
    pub sole_server: Option<Arc<SoleServer>>,
    /// Anyone may join a seeded game (`Config::sandbox`).
    pub sandbox: bool,
    /// Revoked tokens ([`crate::auth::revocation`]).
    pub revocations: Arc<Revocations>,
    /// Rate limits and the cap on unfinished games ([`crate::http::limits`]).
    pub limits: Arc<Limits>,
    /// The password hashing pool ([`crate::auth::hashing`]).
    pub hasher: Arc<Hasher>,
    /// Stream tickets for browsers ([`crate::auth::stream_tickets`]).
    pub tickets: Arc<StreamTickets>,
}
