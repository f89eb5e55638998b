//! The move log and the write path: log entries, submitting a move (idempotent, under the
//! game's lock, or appended in one statement on the fast path, [`super::append`]), playing a
//! decided move on the locked row, and reading entries back.

use std::sync::Arc;

use catan_engine::{bots::BotKind, protocol::versioned, Event, Game, Move, Seat};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use uuid::Uuid;

use crate::error::ApiError;

use super::{
    db::DbConnection,
    games::{game_not_found, GameRow, GameStatus},
    idempotency::{self, Claim, Found, StoredResponse},
    now,
    schema::{game_moves, games},
    seats::find_game_and_seat,
    upgrades::stored_format_error,
};

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_moves)]
pub struct MoveRow {
    pub game_id: String,
    pub seq: i64,
    pub seat: Option<i32>,
    pub kind: String,
    pub move_body: Option<String>,
    pub events: String,
    pub idempotency_key: Option<String>,
    pub created_at: NaiveDateTime,
    /// The bot kind, when a built-in bot made the move.
    pub bot: Option<String>,
}

impl MoveRow {
    /// The log entry `seq` of game `game_id`: `seat`'s move `mv` and the events it caused,
    /// made now by a user without an `Idempotency-Key` (set `idempotency_key` and `bot`
    /// otherwise).
    ///
    /// # Errors
    /// When the move or the events cannot be serialized.
    pub fn new(game_id: &str, seq: i64, seat: Seat, mv: &Move, events: &[Event]) -> Result<MoveRow, ApiError> {
        Ok(MoveRow {
            game_id: game_id.to_owned(),
            seq,
            seat: Some(i32::from(seat.0)),
            kind: mv.kind().to_owned(),
            move_body: Some(serde_json::to_string(mv)?),
            events: versioned::encode_events(events),
            idempotency_key: None,
            created_at: now(),
            bot: None,
        })
    }

    /// Returns the entry's events.
    ///
    /// # Errors
    /// When the stored JSON is unreadable.
    pub fn events(&self) -> Result<Vec<Event>, ApiError> {
        versioned::decode_events(&self.events).map_err(stored_format_error)
    }

    /// Returns the entry's move, if it was a move.
    ///
    /// # Errors
    /// When the stored JSON is unreadable.
    pub fn mv(&self) -> Result<Option<Move>, ApiError> {
        self.move_body.as_deref().map(versioned::decode_move).transpose().map_err(stored_format_error)
    }
}

/// What a move did: the new version and the log entry it wrote.
#[derive(Debug, Clone)]
pub struct Applied {
    pub version: i64,
    pub entry: MoveRow,
    pub status: GameStatus,
    /// The seats that must act next (empty once the game is over).
    pub waiting_for: Vec<Seat>,
}

impl Applied {
    /// What writing `entry` did, `game` being the game's state after it.
    pub fn new(entry: MoveRow, game: &Game) -> Applied {
        Applied { version: entry.seq, status: GameStatus::of(game), waiting_for: game.waiting_for(), entry }
    }
}

/// The outcome of [`submit_move`].
#[derive(Debug, Clone)]
pub enum Submitted<R> {
    /// The move was played now; `response` is what the caller's `respond` built.
    Played { applied: Applied, response: R },
    /// An earlier request with the same `Idempotency-Key` played it; this is its response.
    Replayed(StoredResponse),
}

/// A move as submitted.
#[derive(Debug, Clone)]
pub struct MoveRequest {
    pub mv: Move,
    /// `If-Match`: play only at this version.
    pub if_match: Option<i64>,
    /// `Idempotency-Key`: a retry with the same key and request returns the first response.
    pub idempotency: Option<Claim>,
}

/// Plays one move: on PostgreSQL in one statement when the cached state allows it
/// ([`crate::store::append`]), else in one transaction: lock the game, check the seat, the `Idempotency-Key`
/// and `If-Match`, decide with the engine (chance from the game's own seeded stream, so a
/// retry rolls the same dice), append the log entry at `version + 1`, write the new snapshot
/// and version, fold the entry into the trade projection, and build
/// (and, with a key, store) the response with `respond`.
///
/// # Errors
/// `not_found`, `game_not_started`, `forbidden`, `version_conflict` (412 with If-Match),
/// `idempotency_key_reused` (422), a rule error (422), or a database error.
pub fn submit_move<R, F>(
    conn: &mut DbConnection,
    game_id: Uuid,
    user_id: Uuid,
    request: &MoveRequest,
    respond: F,
) -> Result<Submitted<R>, ApiError>
where
    R: serde::Serialize,
    F: FnOnce(&mut DbConnection, &Applied) -> Result<(u16, R), ApiError>,
{
    if let DbConnection::Pg(pg) = conn {
        if let Some((applied, game)) = crate::store::append::try_append(pg, game_id, user_id, request)? {
            crate::store::snapshots::insert(&applied.entry.game_id, applied.version, Arc::new(game));
            let (_, response) = respond(conn, &applied)?;
            return Ok(Submitted::Played { applied, response });
        }
    }
    let MoveRequest { mv, if_match, idempotency } = request;
    let mut committed = None;
    let submitted = crate::store::db::write_transaction(conn, |conn| {
        let (row, seat, game) =
            find_game_and_seat(conn, game_id, Some(user_id), true)?.ok_or_else(|| game_not_found(game_id))?;
        let status = row.status();
        let seat = seat.ok_or_else(|| ApiError::Forbidden("you do not have a seat in this game".into()))?;
        if let Some(claim) = idempotency {
            match idempotency::find(conn, claim)? {
                Found::Done(response) => return Ok(Submitted::Replayed(response)),
                Found::InProgress => {
                    return Err(ApiError::conflict("idempotency_key_in_use", "this Idempotency-Key is in use"))
                }
                Found::Absent => {}
            }
        }
        if let Some(expected) = *if_match {
            if expected != row.version {
                return Err(ApiError::VersionConflict { current: row.version });
            }
        }
        if status == GameStatus::Open {
            return Err(ApiError::conflict("game_not_started", "the game has not started yet"));
        }
        let game = game.ok_or_else(|| ApiError::internal("a started game has no snapshot"))?;
        let mut game = Game::clone(&game);
        let key = idempotency.as_ref().map(|claim| claim.key.clone());
        let applied = play_on(conn, &row, &mut game, seat, mv, key, None)?;
        let (code, response) = respond(conn, &applied)?;
        if let Some(claim) = idempotency {
            let stored = StoredResponse { status: code, body: serde_json::to_string(&response)? };
            idempotency::store(conn, claim, &stored)?;
        }
        committed = Some((row.id, applied.version, game));
        Ok(Submitted::Played { applied, response })
    })?;
    // Committed: the next request on this game (usually its legal moves) finds it parsed.
    if let Some((id, version, game)) = committed {
        crate::store::snapshots::insert(&id, version, Arc::new(game));
    }
    Ok(submitted)
}

/// Decides `mv` for `seat` on `game` (the locked row's snapshot, updated in place), then
/// appends the log entry at `version + 1`, writes the snapshot and version, and folds the
/// entry into the trade projection: the part of the write path shared by moves from HTTP and
/// moves of built-in bots (`bot`). Runs inside the caller's transaction, which must hold the
/// game's lock ([`super::lock_game`]); the caller publishes the commit ([`crate::live::notify`]).
///
/// # Errors
/// A rule error, `version_conflict`, or a database error.
pub fn play_on(
    conn: &mut DbConnection,
    row: &GameRow,
    game: &mut Game,
    seat: Seat,
    mv: &Move,
    idempotency_key: Option<String>,
    bot: Option<BotKind>,
) -> Result<Applied, ApiError> {
    let events = game.decide(seat, mv, &mut game.chance())?;
    for event in &events {
        game.apply(event);
    }
    let entry = MoveRow {
        idempotency_key,
        bot: bot.map(|kind| kind.name().to_owned()),
        ..MoveRow::new(&row.id, row.version + 1, seat, mv, &events)?
    };
    diesel::insert_into(game_moves::table).values(&entry).execute(conn)?;
    let applied = Applied::new(entry, game);
    let at = applied.entry.created_at;
    let updated = diesel::update(games::table.find(&row.id).filter(games::version.eq(row.version)))
        .set((
            games::status.eq(applied.status.as_str()),
            games::version.eq(applied.version),
            games::snapshot.eq(Some(versioned::encode_snapshot(game))),
            games::updated_at.eq(at),
        ))
        .execute(conn)?;
    if updated != 1 {
        return Err(ApiError::conflict("version_conflict", "the game changed; retry"));
    }
    crate::store::trades::project(conn, &row.id, applied.version, at, &events)?;
    Ok(applied)
}

/// Loads log entries after `after`, oldest first, at most `limit`.
///
/// # Errors
/// A database error.
pub fn load_moves(conn: &mut DbConnection, game_id: Uuid, after: i64, limit: i64) -> Result<Vec<MoveRow>, ApiError> {
    Ok(game_moves::table
        .filter(game_moves::game_id.eq(game_id.to_string()))
        .filter(game_moves::seq.gt(after))
        .order(game_moves::seq.asc())
        .limit(limit)
        .select(MoveRow::as_select())
        .load(conn)?)
}
