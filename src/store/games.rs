//! Games: their rows and lifecycle, creating, finding and locking one, its record with the
//! seats, and starting it.

use std::sync::Arc;

use catan_engine::{protocol::versioned, Game, GameConfig, Seat};
use diesel::prelude::*;
use uuid::Uuid;

use crate::error::ApiError;

use super::{
    db::DbConnection,
    holders::{load_seats, username_of, SeatHolder},
    log::{replay_log, MoveRow},
    rows::{game_not_found, stored_format_error, GameRow, GameStatus},
    schema::{game_moves, game_players, games, users},
    users::ensure_user,
};

/// A game with its seats.
#[derive(Debug, Clone)]
pub struct GameRecord {
    pub game: GameRow,
    pub creator: String,
    pub seats: Vec<SeatHolder>,
}

impl GameRecord {
    /// Returns the seat `user` holds in this game.
    pub fn seat_of(&self, user: Uuid) -> Option<Seat> {
        let user = user.to_string();
        self.seats.iter().find(|s| s.user_id.as_deref() == Some(user.as_str())).map(|s| Seat(s.seat as u8))
    }
}

/// Inserts a game and, with `seat_creator`, seats its creator at seat 0.
///
/// # Errors
/// A database error.
pub fn insert_game(conn: &mut DbConnection, game: &GameRow, seat_creator: bool) -> Result<(), ApiError> {
    // A write transaction from the start: a deferred one that reads and then writes fails at
    // once on SQLite (`database is locked`) when another write commits in between.
    crate::store::db::write_transaction(conn, |conn| {
        ensure_user(conn, &game.created_by)?;
        diesel::insert_into(games::table).values(game).execute(conn)?;
        if !seat_creator {
            return Ok(());
        }
        diesel::insert_into(game_players::table)
            .values((
                game_players::game_id.eq(&game.id),
                game_players::seat.eq(0),
                game_players::user_id.eq(&game.created_by),
                game_players::joined_at.eq(game.created_at),
            ))
            .execute(conn)?;
        Ok(())
    })
}

/// Finds a game.
///
/// # Errors
/// A database error.
pub fn find_game(conn: &mut DbConnection, id: Uuid) -> Result<Option<GameRow>, ApiError> {
    let row = games::table.find(id.to_string()).select(GameRow::as_select()).first(conn).optional()?;
    row.map(|row| current_snapshot(conn, row)).transpose()
}

/// Returns a game's version and status: one primary-key lookup, for a reader that has the
/// rest of the game in memory ([`crate::reads`]).
///
/// # Errors
/// A database error.
pub fn game_version(conn: &mut DbConnection, id: Uuid) -> Result<Option<(i64, GameStatus)>, ApiError> {
    let found: Option<(i64, String)> =
        games::table.find(id.to_string()).select((games::version, games::status)).first(conn).optional()?;
    Ok(found.map(|(version, status)| (version, GameStatus::parse(&status).unwrap_or(GameStatus::Open))))
}

/// Finds a game and locks its row for the rest of the transaction: `SELECT ... FOR UPDATE`
/// on PostgreSQL; on SQLite the surrounding `BEGIN IMMEDIATE` already holds the write lock.
///
/// # Errors
/// A database error.
pub fn lock_game(conn: &mut DbConnection, id: Uuid) -> Result<Option<GameRow>, ApiError> {
    let id = id.to_string();
    let row = match conn {
        DbConnection::Pg(pg) => games::table.find(id).select(GameRow::as_select()).for_update().first(pg).optional()?,
        DbConnection::Sqlite(sqlite) => games::table.find(id).select(GameRow::as_select()).first(sqlite).optional()?,
    };
    row.map(|row| current_snapshot(conn, row)).transpose()
}

/// Returns the row with its snapshot in the current storage format. A snapshot stored by an
/// older server is a cache of the log in a shape this one no longer reads: the game is rebuilt
/// by replaying its log (upcast on read, `catan_engine::protocol::versioned`), and the row
/// carries the rebuilt snapshot. Stored rows are rewritten by [`super::upgrade_snapshots`].
///
/// # Errors
/// A database error, or a log that cannot be read or replayed.
pub fn current_snapshot(conn: &mut DbConnection, mut row: GameRow) -> Result<GameRow, ApiError> {
    let Some(stored) = row.snapshot.as_deref() else {
        return Ok(row);
    };
    if versioned::snapshot_format(stored).map_err(stored_format_error)? == versioned::FORMAT {
        return Ok(row);
    }
    let game = replay_log(conn, &row)?;
    row.snapshot = Some(versioned::encode_snapshot(&game));
    crate::store::snapshots::insert(&row.id, row.version, Arc::new(game));
    Ok(row)
}

/// Completes a game row with its seats and its creator's name.
///
/// # Errors
/// A database error.
pub fn record_for(conn: &mut DbConnection, game: GameRow) -> Result<GameRecord, ApiError> {
    let id = Uuid::parse_str(&game.id).map_err(ApiError::internal)?;
    let seats = load_seats(conn, id)?;
    let creator = match seats.iter().find(|s| s.user_id.as_deref() == Some(game.created_by.as_str())) {
        Some(s) => s.username.clone().unwrap_or_default(),
        None => username_of(conn, &game.created_by)?,
    };
    Ok(GameRecord { game, creator, seats })
}

/// Loads a game with its seats; 404 when it does not exist.
///
/// # Errors
/// `not_found`, or a database error.
pub fn load_game(conn: &mut DbConnection, id: Uuid) -> Result<GameRecord, ApiError> {
    let game = find_game(conn, id)?.ok_or_else(|| game_not_found(id))?;
    record_for(conn, game)
}

/// The records of `rows`, in their order: their seats and creators in two queries for all.
///
/// # Errors
/// A database error.
pub fn with_seats(conn: &mut DbConnection, rows: Vec<GameRow>) -> Result<Vec<GameRecord>, ApiError> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    // Two more queries for the whole page, not two per game.
    let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    let seats: Vec<(String, SeatHolder)> = game_players::table
        .left_join(users::table)
        .filter(game_players::game_id.eq_any(&ids))
        .order((game_players::game_id, game_players::seat))
        .select((
            game_players::game_id,
            (
                game_players::seat,
                game_players::user_id,
                users::username.nullable(),
                game_players::bot,
                game_players::imported_name,
                users::kind.nullable(),
            ),
        ))
        .load(conn)?;
    let creator_ids: Vec<&str> = rows.iter().map(|r| r.created_by.as_str()).collect();
    let creators: std::collections::HashMap<String, String> = users::table
        .filter(users::id.eq_any(&creator_ids))
        .select((users::id, users::username))
        .load::<(String, String)>(conn)?
        .into_iter()
        .collect();
    let mut by_game: std::collections::HashMap<String, Vec<SeatHolder>> = std::collections::HashMap::new();
    for (game_id, seat) in seats {
        by_game.entry(game_id).or_default().push(seat);
    }
    Ok(rows
        .into_iter()
        .map(|game| GameRecord {
            creator: creators.get(&game.created_by).cloned().unwrap_or_default(),
            seats: by_game.remove(&game.id).unwrap_or_default(),
            game,
        })
        .collect())
}

/// Starts an open game: the config gets the actual player count, the start events become
/// log entry 1, and the snapshot is written. Returns the version it committed.
///
/// # Errors
/// `forbidden` (not the creator), `game_not_open`, `not_enough_players`, a setup error,
/// or a database error.
pub fn start_game(conn: &mut DbConnection, game_id: Uuid, user_id: Uuid) -> Result<i64, ApiError> {
    crate::store::db::write_transaction(conn, |conn| {
        let game = lock_game(conn, game_id)?.ok_or_else(|| game_not_found(game_id))?;
        if game.created_by != user_id.to_string() {
            return Err(ApiError::Forbidden("only the game's creator may start it".into()));
        }
        if game.status() != GameStatus::Open {
            return Err(ApiError::conflict("game_not_open", "the game has already started"));
        }
        start_locked(conn, &game)
    })
}

/// Starts an open game whose row the caller's transaction has locked (or just inserted):
/// the rest of [`start_game`], shared with the games that matchmaking makes.
///
/// # Errors
/// `not_enough_players`, a setup error, or a database error.
pub fn start_locked(conn: &mut DbConnection, game: &GameRow) -> Result<i64, ApiError> {
    {
        let game_id = Uuid::parse_str(&game.id).map_err(ApiError::internal)?;
        let seats = load_seats(conn, game_id)?;
        if seats.len() < 2 {
            return Err(ApiError::conflict("not_enough_players", "a game needs at least 2 players to start"));
        }
        let (config, engine_game, events) = match &game.position {
            None => {
                let mut config = game.config()?;
                config.players = seats.len() as u8;
                limit_bot_games(&mut config, &seats);
                let (engine_game, events) = Game::start(config.clone(), game.seed())?;
                (config, engine_game, events)
            }
            // A prepared position has its seats: every one of them is taken to start.
            Some(position) => {
                let mut position: catan_engine::Setup = serde_json::from_str(position)?;
                let players = usize::from(position.config.players);
                if seats.len() != players {
                    return Err(ApiError::conflict(
                        "not_enough_players",
                        format!("the game starts from a position of {players} seats: {} are taken", seats.len()),
                    ));
                }
                limit_bot_games(&mut position.config, &seats);
                let (engine_game, events) = Game::start_from(position, game.seed()).map_err(|error| {
                    ApiError::internal(format!("the stored position no longer starts a game: {error}"))
                })?;
                (engine_game.config().clone(), engine_game, events)
            }
        };
        let start = MoveRow::start(&game.id, &events, &engine_game);
        diesel::insert_into(game_moves::table).values(&start).execute(conn)?;
        let updated = diesel::update(games::table.find(&game.id).filter(games::version.eq(game.version)))
            .set((
                games::status.eq(GameStatus::Playing.as_str()),
                games::config.eq(serde_json::to_string(&config)?),
                games::version.eq(start.seq),
                games::snapshot.eq(Some(versioned::encode_snapshot(&engine_game))),
                games::updated_at.eq(start.created_at),
            ))
            .execute(conn)?;
        if updated != 1 {
            return Err(ApiError::conflict("version_conflict", "the game changed; retry"));
        }
        Ok(start.seq)
    }
}

/// The turn limit of a game with a bot seat whose creator chose none. Bot games measured with
/// the engine's simulator: heuristic bots end within 210 turns (base game) and 200 (Wonders);
/// random bots within 1,913 (base, 2 players; p99 891) and p99 1,687 (Wonders, 3 players).
pub const BOT_TURN_LIMIT: u32 = 3_000;

/// Gives a game that is starting with a bot seat the default turn limit, unless it has one.
pub fn limit_bot_games(config: &mut GameConfig, seats: &[SeatHolder]) {
    if config.turn_limit.is_none() && seats.iter().any(|seat| seat.bot.is_some()) {
        config.turn_limit = Some(BOT_TURN_LIMIT);
    }
}
