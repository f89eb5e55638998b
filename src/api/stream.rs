//! The move log as Server-Sent Events: a push feed for bots and apps, so that nobody polls
//! in a tight loop.
//!
//! The first event (`event: snapshot`, no `id`) is the caller's view of the game, the same
//! body as `GET /games/{id}`, at its `version`. Then one `event: entry` per log entry, with
//! `id: <seq>` and the entry redacted for the caller exactly as `GET .../moves` does. The
//! feed starts after `Last-Event-ID` (what `EventSource` sends when it reconnects), else after
//! `?after=`, else after the snapshot's version. A comment line (`: keep-alive`) is sent when
//! nothing happened for `keepalive` seconds (at most 15). When the game is over, the feed
//! sends the remaining entries and a final `event: end`, then closes.
//!
//! Waiting costs nothing: the feed sleeps on the game's [`crate::live::notify::Notifier`] channel,
//! which is woken by commits in this process and, on PostgreSQL, by `LISTEN/NOTIFY` relays
//! of commits in other processes ([`crate::live::feed`]).

use std::{collections::VecDeque, sync::Arc, time::Duration};

use actix_web::{get, http::header, post, web, web::Bytes, HttpRequest, HttpResponse};
use catan_engine::Seat;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::{
    api::{games::parse_game_id, moves::cached_entries},
    app::AppState,
    auth::{AuthUser, MaybeAuthUser},
    error::{ApiError, Problem},
    http::json::in_range,
    reads::{EntryClass, Key, Reader, Reads},
    store::db::{with_conn, DbPool},
    store::{self, GameStatus},
    views::{game::game_response, moves::entry_for},
};

/// The longest silence between two messages of the feed.
pub const MAX_KEEPALIVE_SECONDS: u64 = 15;
/// Entries read from the database at a time.
const BATCH: i64 = 200;

/// Where to start the feed.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// Send entries with a greater seq, from 0 (default: the snapshot's version, i.e. only
    /// what happens from now on). The `Last-Event-ID` header, when sent, takes precedence.
    /// Below 0: 400 `invalid_query`.
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// Seconds between keep-alive comments when nothing happens, 1 to 15 (default 15).
    /// Outside: 400 `invalid_query`.
    #[param(minimum = 1, maximum = 15)]
    pub keepalive: Option<u64>,
    /// A stream ticket (`POST .../stream-tickets`) instead of `Authorization`, for an
    /// `EventSource`: the seat's view without the token in the URL. Not together with a
    /// token (400 `invalid_query`).
    pub ticket: Option<String>,
}

/// A stream ticket.
#[derive(Debug, Serialize, ToSchema)]
pub struct StreamTicketResponse {
    /// Pass as `?ticket=` to `GET /api/v1/games/{game_id}/stream` of this game.
    pub ticket: String,
    /// Open the stream before this time (`CATAN_STREAM_TICKET_SECONDS` after issue, 60 by
    /// default); an open stream runs on past it.
    pub expires_at: DateTime<Utc>,
    /// The seat whose view the stream will show.
    pub seat: Seat,
}

/// One SSE message.
fn message(event: &str, id: Option<i64>, data: &impl serde::Serialize) -> Result<Bytes, ApiError> {
    let data = serde_json::to_string(data)?;
    let id = id.map(|id| format!("id: {id}\n")).unwrap_or_default();
    Ok(Bytes::from(format!("{id}event: {event}\ndata: {data}\n\n")))
}

fn last_event_id(req: &HttpRequest) -> Result<Option<i64>, ApiError> {
    let Some(value) = req.headers().get("Last-Event-ID") else {
        return Ok(None);
    };
    let value = value.to_str().unwrap_or_default().trim();
    if value.is_empty() {
        return Ok(None);
    }
    value
        .parse::<i64>()
        .map(|seq| Some(seq.max(0)))
        .map_err(|_| ApiError::bad_request("invalid_last_event_id", "Last-Event-ID must be the seq of a log entry"))
}

/// One `entry` message from an entry's JSON (as `GET .../moves` serves it).
fn entry_message(seq: i64, json: &[u8]) -> Bytes {
    let mut message = Vec::with_capacity(json.len() + 40);
    message.extend_from_slice(format!("id: {seq}\nevent: entry\ndata: ").as_bytes());
    message.extend_from_slice(json);
    message.extend_from_slice(b"\n\n");
    Bytes::from(message)
}

/// The state of one open feed.
struct Feed {
    pool: DbPool,
    /// The entries already redacted for this reader, shared with `GET .../moves`.
    reads: Arc<Reads>,
    game: Uuid,
    reader: Reader,
    after: i64,
    versions: watch::Receiver<i64>,
    keepalive: Duration,
    pending: VecDeque<Bytes>,
    done: bool,
}

impl Feed {
    /// Queues the entries after `self.after`; returns whether the game is over.
    async fn read(&mut self) -> Result<bool, ApiError> {
        if let Some(over) = self.read_cached() {
            return Ok(over);
        }
        let (game, after, reader) = (self.game, self.after, self.reader);
        let reads = Arc::clone(&self.reads);
        let epoch = reads.epoch();
        let (rows, status) = with_conn(&self.pool, move |conn| {
            let row = store::find_game(conn, game)?.ok_or_else(|| store::game_not_found(game))?;
            let status = row.status();
            if status != GameStatus::Open {
                reads.learn(epoch, game, row.version, status, None);
            }
            Ok((store::load_entries(conn, &row, after, BATCH)?, status))
        })
        .await?;
        let over = status == GameStatus::Finished;
        let class = EntryClass::new(reader, status);
        for row in &rows {
            let key = Key::Entry { game, seq: row.seq, class };
            let json = match self.reads.get(&key) {
                Some(json) => json,
                None => {
                    let json = Bytes::from(serde_json::to_vec(&entry_for(row, reader.viewer(), over)?)?);
                    self.reads.insert(key, json.clone());
                    json
                }
            };
            self.pending.push_back(entry_message(row.seq, &json));
            self.after = row.seq;
        }
        // More than a batch behind: not over yet for the reader.
        Ok(over && (rows.len() as i64) < BATCH)
    }

    /// Queues the entries after `self.after` from memory, when this process is sure of the
    /// game's latest version and holds every entry up to it redacted for this reader (see
    /// [`crate::reads`]); `None` sends the feed to the database. Returns whether the game is
    /// over.
    fn read_cached(&mut self) -> Option<bool> {
        let latest = self.reads.latest(self.game).filter(|l| l.sure)?;
        let (status, entries) = cached_entries(&self.reads, self.game, &latest, self.reader, self.after, BATCH)?;
        let last = latest.version.min(self.after.saturating_add(BATCH));
        for (json, seq) in entries.iter().zip(self.after.saturating_add(1)..) {
            self.pending.push_back(entry_message(seq, json));
        }
        self.after = self.after.max(last);
        Some(status == GameStatus::Finished && last == latest.version)
    }

    /// Produces the next chunk of the response body.
    async fn next(mut self) -> Option<(Result<Bytes, actix_web::Error>, Feed)> {
        loop {
            if let Some(chunk) = self.pending.pop_front() {
                return Some((Ok(chunk), self));
            }
            if self.done {
                return None;
            }
            match self.read().await {
                Ok(true) => {
                    let end = serde_json::json!({"status": GameStatus::Finished, "version": self.after});
                    self.pending.extend(message("end", None, &end).ok());
                    self.done = true;
                    continue;
                }
                Ok(false) if !self.pending.is_empty() => continue,
                Ok(false) => {}
                Err(error) => {
                    // The client reconnects with Last-Event-ID and misses nothing.
                    tracing::warn!(%error, game = %self.game, "event stream closed on a read error");
                    return None;
                }
            }
            let after = self.after;
            match tokio::time::timeout(self.keepalive, self.versions.wait_for(|v| *v > after)).await {
                Ok(Ok(_)) => {}
                Ok(Err(_)) => return None,
                Err(_) => self.pending.push_back(Bytes::from_static(b": keep-alive\n\n")),
            }
        }
    }
}

/// Follow a game as Server-Sent Events.
///
/// The first event is `snapshot` (the same body as `GET /games/{game_id}`, no `id`), then one
/// `entry` event per log entry (`id:` = seq; the body is a `MoveLogEntry`, redacted for you
/// exactly like `GET .../moves`), and `: keep-alive` comments while nothing happens. Resumes
/// after `Last-Event-ID` (or `?after=`); without either, only entries after the snapshot
/// follow. After game over the remaining entries are sent (unredacted), then `end`, and the
/// stream closes. Without a token you get the spectator's view.
///
/// `curl -N -H 'Authorization: Bearer …' $API/games/$GAME/stream`
///
/// A browser's `EventSource` cannot send `Authorization`: get a ticket from
/// `POST .../stream-tickets` and open `.../stream?ticket=<ticket>` (the seat's view). The
/// stream is served uncompressed, whatever `Accept-Encoding` says, so each event arrives as
/// soon as it is written.
#[utoipa::path(
    tag = "moves",
    params(
        ("game_id" = Uuid, Path, description = "The game"),
        ("Last-Event-ID" = Option<i64>, Header, description = "Resume after this seq"),
        StreamQuery,
    ),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "An endless `text/event-stream`: `snapshot`, then `entry` events (`MoveLogEntry` data), keep-alive comments, and `end` after game over", content_type = "text/event-stream", body = String),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 400, description = "Bad `Last-Event-ID` (`invalid_last_event_id`) or query (`invalid_query`, also for a ticket sent with a token)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid (`unauthorized`), or the ticket is forged, expired or its token revoked (`invalid_ticket`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The ticket is for another game (`ticket_for_another_game`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{game_id}/stream")]
pub async fn stream_game(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    path: web::Path<String>,
    query: crate::http::query::Query<StreamQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    let user = match (&query.ticket, user.0) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request("invalid_query", "send a stream ticket or a token, not both"))
        }
        (Some(ticket), None) => Some(state.tickets.check(&state.revocations, &state.pool, ticket, id).await?),
        (None, user) => user.map(|u| u.id),
    };
    state.limits.read(&req, user).await?;
    // The bounds the spec gives (issue 30): refused outside, never silently clamped.
    let after = query.after.map(|after| in_range("after", after, 0, i64::MAX)).transpose()?;
    let keepalive = in_range("keepalive", query.keepalive.unwrap_or(MAX_KEEPALIVE_SECONDS), 1, MAX_KEEPALIVE_SECONDS)?;
    let keepalive = Duration::from_secs(keepalive);
    let resume = last_event_id(&req)?.or(after);
    // Subscribe before reading, so that nothing committed after the read is missed.
    let versions = state.notifier.subscribe(id);
    let (snapshot, reader) = with_conn(&state.pool, move |conn| {
        let record = store::load_game(conn, id)?;
        let mut snapshot = game_response(&record, user)?;
        crate::views::game::annotate(conn, &record, &mut snapshot)?;
        Ok((snapshot, Reader::of(user.and_then(|u| record.seat_of(u)))))
    })
    .await?;
    let feed = Feed {
        pool: state.pool.clone(),
        reads: Arc::clone(&state.reads),
        game: id,
        reader,
        after: resume.unwrap_or(snapshot.version),
        versions,
        keepalive,
        pending: VecDeque::from([Bytes::from_static(b"retry: 2000\n\n"), message("snapshot", None, &snapshot)?]),
        done: false,
    };
    let body = futures_util::stream::unfold(feed, Feed::next);
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        // Never compressed: each event must leave as soon as it is written.
        .insert_header((header::CONTENT_ENCODING, crate::http::compression::IDENTITY))
        .streaming(body))
}

/// Get a stream ticket: a short-lived pass to this game's event stream for a browser.
///
/// An `EventSource` cannot send `Authorization`; open
/// `GET /api/v1/games/{game_id}/stream?ticket=<ticket>` instead and get your seat's view. A
/// ticket opens the stream of this game only, is no Bearer token anywhere, must be used
/// within its lifetime (60 s by default), and dies with the token it was issued from. Get a
/// new one to reconnect once it has expired (and pass `?after=<last id>`).
#[utoipa::path(
    tag = "moves",
    params(("game_id" = Uuid, Path, description = "The game")),
    security(("bearer" = [])),
    responses(
        (status = 201, description = "A ticket", body = StreamTicketResponse),
        (status = 401, description = "No valid token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not seated in this game (`forbidden`): spectators stream without a ticket", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game_id}/stream-tickets")]
pub async fn create_stream_ticket(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    let user_id = user.id;
    let seat = with_conn(&state.pool, move |conn| Ok(store::load_game(conn, id)?.seat_of(user_id)))
        .await?
        .ok_or_else(|| ApiError::Forbidden("only a player seated in this game gets a stream ticket".into()))?;
    let (ticket, expires_at) = state.tickets.issue(&user, id)?;
    Ok(HttpResponse::Created().insert_header((header::CACHE_CONTROL, "no-store")).json(StreamTicketResponse {
        ticket,
        expires_at,
        seat,
    }))
}
