//! The move log and the write path: log entries, submitting a move (idempotent, under the
//! game's lock, or appended in one statement on the fast path, [`super::append`]), playing a
//! decided move on the locked row, and reading entries back.

use std::sync::Arc;

use catan_engine::{bots::BotKind, protocol::versioned, FixedChance, Game, Move, RecordingChance, Seat};
use diesel::prelude::*;
use uuid::Uuid;

use crate::error::ApiError;

use super::{
    db::DbConnection,
    idempotency::{self, Found, StoredResponse},
    log::{Applied, MoveRequest, MoveRow},
    rows::{game_not_found, GameRow, GameStatus},
    schema::{game_moves, games},
    seats::find_game_and_seat,
};

/// The outcome of [`submit_move`].
#[derive(Debug, Clone)]
pub enum Submitted<R> {
    /// The move was played now; `response` is what the caller's `respond` built.
    Played { applied: Box<Applied>, response: R },
    /// An earlier request with the same `Idempotency-Key` played it; this is its response.
    Replayed(StoredResponse),
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
            return Ok(Submitted::Played { applied: Box::new(applied), response });
        }
    }
    let MoveRequest { mv, dice, if_match, idempotency } = request;
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
        if dice.is_some() && row.rated {
            return Err(ApiError::unprocessable(
                "dice_not_allowed",
                "a rated game rolls its own dice, even on a sandbox server",
            ));
        }
        let game = game.ok_or_else(|| ApiError::internal("a started game has no snapshot"))?;
        let mut game = Game::clone(&game);
        let key = idempotency.as_ref().map(|claim| claim.key.clone());
        let applied = play_on(conn, &row, &mut game, seat, mv, key, None, *dice)?;
        // A rated game's ratings change in the transaction of its last move.
        crate::store::ratings::settle(conn, &row, &game)?;
        let (code, response) = respond(conn, &applied)?;
        if let Some(claim) = idempotency {
            let stored = StoredResponse { status: code, body: serde_json::to_string(&response)? };
            idempotency::store(conn, claim, &stored)?;
        }
        committed = Some((row.id, applied.version, game));
        Ok(Submitted::Played { applied: Box::new(applied), response })
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
/// moves of built-in bots (`bot`). Named `dice` (a sandbox's roll) replace the seed's, and
/// the entry keeps the move's chance. Runs inside the caller's transaction, which must hold
/// the game's lock ([`super::lock_game`]); the caller settles a rated game that this move
/// ends ([`super::ratings::settle`], after marking a timer's move as such) and publishes the
/// commit ([`crate::live::notify`]).
///
/// # Errors
/// A rule error, `version_conflict`, or a database error.
#[allow(clippy::too_many_arguments)]
pub fn play_on(
    conn: &mut DbConnection,
    row: &GameRow,
    game: &mut Game,
    seat: Seat,
    mv: &Move,
    idempotency_key: Option<String>,
    bot: Option<BotKind>,
    dice: Option<(u8, u8)>,
) -> Result<Applied, ApiError> {
    let (events, chosen) = match dice {
        None => (game.decide(seat, mv, &mut game.chance())?, None),
        Some((red, white)) => {
            let mut chance = RecordingChance::new(FixedChance::dice(red, white).over(game.chance()));
            let events = game.decide(seat, mv, &mut chance)?;
            (events, Some(chance.into_picks()))
        }
    };
    for event in &events {
        game.apply(event);
    }
    let mut entry = MoveRow {
        idempotency_key,
        bot: bot.map(|kind| kind.name().to_owned()),
        ..MoveRow::new(&row.id, row.version + 1, seat, mv, &events, game)?
    };
    if let Some(picks) = chosen {
        entry.keep_picks(&picks);
    }
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
