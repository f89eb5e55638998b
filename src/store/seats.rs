//! Seats: who holds each seat of a game, the caller's seat with the game on the hot path of
//! every move, and joining a game (as a user, or as a built-in bot).

use std::sync::Arc;

use catan_engine::{bots::BotKind, Game, Seat};
use diesel::prelude::*;
use uuid::Uuid;

use crate::error::ApiError;

use super::{
    db::DbConnection,
    games::{current_snapshot, lock_game},
    holders::{load_seats, SeatHolder},
    now,
    rows::{game_not_found, GameRow, GameStatus},
    schema::{game_players, games},
    users::ensure_user,
};

/// A game row, the seat the caller holds in it, and its snapshot (once started).
pub type GameAndSeat = (GameRow, Option<Seat>, Option<Arc<Game>>);

/// Finds a game, the seat `user` holds in it and its snapshot, in one query (the hot path
/// of legal moves and of every move); with `lock`, also locks the row like [`lock_game`].
/// When the snapshot cache ([`crate::store::snapshots`]) already holds the row's version, the
/// snapshot's JSON is not even read (the returned row's `snapshot` is then `None`).
///
/// # Errors
/// A database error, or an unreadable snapshot.
pub fn find_game_and_seat(
    conn: &mut DbConnection,
    id: Uuid,
    user: Option<Uuid>,
    lock: bool,
) -> Result<Option<GameAndSeat>, ApiError> {
    let (id, user) = (id.to_string(), user.map(|u| u.to_string()).unwrap_or_default());
    let cached = crate::store::snapshots::cached(&id);
    let known = cached.as_ref().map_or(-1, |(version, _)| *version);
    macro_rules! query {
        () => {
            games::table.find(&id).select((
                (
                    games::id,
                    games::created_by,
                    games::status,
                    games::max_players,
                    games::config,
                    games::seed,
                    games::version,
                    diesel::dsl::case_when(games::version.ne(known), games::snapshot),
                    games::created_at,
                    games::updated_at,
                    games::seeded,
                    games::imported_from,
                    games::position,
                    games::rated,
                    games::pool,
                ),
                game_players::table
                    .filter(game_players::game_id.eq(games::id))
                    .filter(game_players::user_id.eq(&user))
                    .select(game_players::seat)
                    .single_value(),
            ))
        };
    }
    let found: Option<(GameRow, Option<i32>)> = match conn {
        DbConnection::Pg(pg) if lock => query!().for_update().first(pg).optional()?,
        DbConnection::Pg(pg) => query!().first(pg).optional()?,
        DbConnection::Sqlite(sqlite) => query!().first(sqlite).optional()?,
    };
    let Some((row, seat)) = found else {
        return Ok(None);
    };
    // A cached version comes without its snapshot's text, so this costs nothing then.
    let row = current_snapshot(conn, row)?;
    let game = match cached {
        Some((version, game)) if version == row.version => Some(game),
        _ => row.game()?,
    };
    let seat = seat.map(|s| Seat(s as u8));
    if let Some(seat) = seat {
        crate::store::snapshots::remember_seat(&id, &user, seat);
    }
    Ok(Some((row, seat, game)))
}

/// The lowest seat nobody holds yet.
fn first_free_seat(max_players: i32, seats: &[SeatHolder]) -> Result<i32, ApiError> {
    (0..max_players)
        .find(|seat| seats.iter().all(|s| s.seat != *seat))
        .ok_or_else(|| ApiError::conflict("game_full", "every seat of this game is taken"))
}

/// Who besides its creator and bots may take a seat of a game whose creator chose its seed
/// (whose dice the creator could know in advance).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeededGames {
    /// Nobody else.
    CreatorOnly,
    /// A user who accepts the seed, while the creator holds no seat: a ladder's or a
    /// tournament's host, who knows the dice but does not play.
    HostedByANonPlayer,
    /// Anyone (a sandbox server).
    Open,
}

/// Seats a user at the next free seat of an open game.
///
/// # Errors
/// `game_not_open`, `seeded_game`, `already_joined`, `game_full`, or a database error.
pub fn join_game(
    conn: &mut DbConnection,
    game_id: Uuid,
    user_id: Uuid,
    seeded_games: SeededGames,
) -> Result<Seat, ApiError> {
    crate::store::db::write_transaction(conn, |conn| {
        let game = lock_game(conn, game_id)?.ok_or_else(|| game_not_found(game_id))?;
        if game.status() != GameStatus::Open {
            return Err(ApiError::conflict("game_not_open", "the game has already started"));
        }
        let seats = load_seats(conn, game_id)?;
        if game.seeded && game.created_by != user_id.to_string() {
            let creator_plays = seats.iter().any(|s| s.user_id.as_deref() == Some(game.created_by.as_str()));
            match seeded_games {
                SeededGames::Open => {}
                SeededGames::HostedByANonPlayer if !creator_plays => {}
                SeededGames::HostedByANonPlayer => {
                    return Err(ApiError::unprocessable(
                        "seeded_game",
                        "this game's creator chose its seed and plays in it: `accept_chosen_seed` joins only a \
                         game whose creator holds no seat",
                    ))
                }
                SeededGames::CreatorOnly => {
                    return Err(ApiError::unprocessable(
                        "seeded_game",
                        "this game's creator chose its seed, so its dice could be known in advance: only its \
                         creator and bots play in it, unless the creator holds no seat and you join with \
                         `{\"accept_chosen_seed\": true}`",
                    ))
                }
            }
        }
        ensure_user(conn, &user_id.to_string())?;
        if seats.iter().any(|s| s.user_id.as_deref() == Some(user_id.to_string().as_str())) {
            return Err(ApiError::conflict("already_joined", "you already have a seat in this game"));
        }
        let seat = first_free_seat(game.max_players, &seats)?;
        diesel::insert_into(game_players::table)
            .values((
                game_players::game_id.eq(game_id.to_string()),
                game_players::seat.eq(seat),
                game_players::user_id.eq(user_id.to_string()),
                game_players::joined_at.eq(now()),
            ))
            .execute(conn)?;
        diesel::update(games::table.find(game_id.to_string())).set(games::updated_at.eq(now())).execute(conn)?;
        Ok(Seat(seat as u8))
    })
}

/// Seats a built-in bot of `kind` at the next free seat of an open game; only the game's
/// creator may.
///
/// # Errors
/// `forbidden` (not the creator), `game_not_open`, `game_full`, or a database error.
pub fn add_bot(conn: &mut DbConnection, game_id: Uuid, user_id: Uuid, kind: BotKind) -> Result<Seat, ApiError> {
    crate::store::db::write_transaction(conn, |conn| {
        let game = lock_game(conn, game_id)?.ok_or_else(|| game_not_found(game_id))?;
        if game.created_by != user_id.to_string() {
            return Err(ApiError::Forbidden("only the game's creator may seat bots".into()));
        }
        if game.status() != GameStatus::Open {
            return Err(ApiError::conflict("game_not_open", "the game has already started"));
        }
        let seats = load_seats(conn, game_id)?;
        let seat = first_free_seat(game.max_players, &seats)?;
        diesel::insert_into(game_players::table)
            .values((
                game_players::game_id.eq(game_id.to_string()),
                game_players::seat.eq(seat),
                game_players::bot.eq(kind.name()),
                game_players::joined_at.eq(now()),
            ))
            .execute(conn)?;
        diesel::update(games::table.find(game_id.to_string())).set(games::updated_at.eq(now())).execute(conn)?;
        Ok(Seat(seat as u8))
    })
}
