//! Storage: rows, and the queries the handlers need, written once for both backends.
//! Every function takes the connection first and runs synchronously (call it through
//! [`crate::store::db::with_conn`]).

pub mod append;
pub mod db;
pub mod idempotency;
pub mod lobby;
pub mod schema;
pub mod snapshots;
pub mod sole_server;
pub mod trades;

use std::sync::Arc;

use catan_engine::{bots::BotKind, protocol::versioned, Event, Game, GameConfig, Move, Seat};
use chrono::{NaiveDateTime, Timelike, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use crate::error::ApiError;

use self::{
    db::DbConnection,
    idempotency::{Claim, Found, StoredResponse},
    schema::{game_moves, game_players, games, users},
};

/// Returns the current time, truncated to microseconds (what both backends store).
pub fn now() -> NaiveDateTime {
    let now = Utc::now().naive_utc();
    now.with_nanosecond(now.nanosecond() / 1_000 * 1_000).unwrap_or(now)
}

// ---------------------------------------------------------------------------------------
// Users

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = users)]
pub struct UserRow {
    pub id: String,
    pub username: String,
    pub password_hash: String,
    pub created_at: NaiveDateTime,
    /// The lowercased username, unique: names are case-insensitive ([`username_key`]).
    pub username_key: String,
}

/// The key that makes usernames case-insensitive: `abc` and `ABC` are one account.
pub fn username_key(username: &str) -> String {
    username.to_ascii_lowercase()
}

/// Inserts a user; a taken username is a 409 `username_taken`.
///
/// # Errors
/// `username_taken`, or a database error.
pub fn insert_user(conn: &mut DbConnection, user: &UserRow) -> Result<(), ApiError> {
    match diesel::insert_into(users::table).values(user).execute(conn) {
        Ok(_) => Ok(()),
        Err(diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _)) => {
            Err(ApiError::conflict("username_taken", format!("the username {:?} is taken", user.username)))
        }
        Err(e) => Err(e.into()),
    }
}

/// Checks that a token's user still exists (e.g. the database was reset but the signing
/// secret kept): 401 otherwise, rather than a foreign key failure.
///
/// # Errors
/// `unauthorized`, or a database error.
pub fn ensure_user(conn: &mut DbConnection, user_id: &str) -> Result<(), ApiError> {
    let found: Option<String> = users::table.find(user_id).select(users::id).first(conn).optional()?;
    match found {
        Some(_) => Ok(()),
        None => Err(ApiError::Unauthorized("the token's user does not exist; register or log in again".into())),
    }
}

/// Finds a user by name, in any case.
///
/// # Errors
/// A database error.
pub fn find_user_by_name(conn: &mut DbConnection, username: &str) -> Result<Option<UserRow>, ApiError> {
    // In any case; the exact name first, for accounts an older server let differ only by
    // case (see the migration `case_insensitive_usernames`).
    let mut found: Vec<UserRow> = users::table
        .filter(users::username.eq(username).or(users::username_key.eq(username_key(username))))
        .select(UserRow::as_select())
        .load(conn)?;
    Ok(match found.iter().position(|user| user.username == username) {
        Some(exact) => Some(found.swap_remove(exact)),
        None => found.pop(),
    })
}

// ---------------------------------------------------------------------------------------
// Games

/// The lifecycle of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Waiting for players; not started.
    Open,
    /// Started; moves are being played.
    Playing,
    /// Someone has won.
    Finished,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Playing => "playing",
            GameStatus::Finished => "finished",
        }
    }

    /// The status of a started game whose state is `game`.
    pub fn of(game: &Game) -> GameStatus {
        if game.is_over() {
            GameStatus::Finished
        } else {
            GameStatus::Playing
        }
    }

    pub fn parse(s: &str) -> Option<GameStatus> {
        match s {
            "open" => Some(GameStatus::Open),
            "playing" => Some(GameStatus::Playing),
            "finished" => Some(GameStatus::Finished),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: String,
    pub created_by: String,
    pub status: String,
    pub max_players: i32,
    pub config: String,
    pub seed: i64,
    pub version: i64,
    pub snapshot: Option<String>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// The creator chose the seed: no other human may join (the dice could be known).
    pub seeded: bool,
}

impl GameRow {
    pub fn status(&self) -> GameStatus {
        GameStatus::parse(&self.status).unwrap_or(GameStatus::Open)
    }

    /// Returns the stored configuration.
    ///
    /// # Errors
    /// When the stored JSON is unreadable.
    pub fn config(&self) -> Result<GameConfig, ApiError> {
        Ok(serde_json::from_str(&self.config)?)
    }

    /// Returns the latest snapshot, if the game has started.
    ///
    /// # Errors
    /// When the stored JSON is unreadable.
    pub fn game(&self) -> Result<Option<Arc<Game>>, ApiError> {
        let parse = |json: &str| crate::store::snapshots::game(&self.id, self.version, json);
        self.snapshot.as_deref().map(parse).transpose()
    }

    pub fn seed(&self) -> u64 {
        self.seed as u64
    }
}

/// A seat and who holds it: a user, or a built-in bot.
#[derive(Debug, Clone, Queryable)]
pub struct SeatHolder {
    pub seat: i32,
    pub user_id: Option<String>,
    pub username: Option<String>,
    /// The bot kind, for a seat played by a built-in bot.
    pub bot: Option<String>,
}

impl SeatHolder {
    /// Returns the kind of bot in this seat, if a built-in bot holds it.
    pub fn bot_kind(&self) -> Option<BotKind> {
        self.bot.as_deref().and_then(|kind| kind.parse().ok())
    }
}

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
/// carries the rebuilt snapshot. Stored rows are rewritten by [`upgrade_snapshots`].
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

/// Rebuilds a game from its whole log.
fn replay_log(conn: &mut DbConnection, row: &GameRow) -> Result<Game, ApiError> {
    let id = Uuid::parse_str(&row.id).map_err(ApiError::internal)?;
    let mut events = Vec::new();
    for entry in load_moves(conn, id, 0, i64::MAX)? {
        events.extend(entry.events()?);
    }
    Ok(Game::replay(row.config()?, &events)?)
}

/// Rewrites every snapshot stored in an older format, rebuilt from its log, so that reads
/// never have to (run at start-up, after the migrations). A game that moves meanwhile keeps
/// its newer snapshot: each rewrite only applies at the version it was rebuilt from.
///
/// # Errors
/// A database error, or a log that cannot be read or replayed.
pub fn upgrade_snapshots(conn: &mut DbConnection) -> Result<usize, ApiError> {
    let current = format!("{{\"format\":{},%", versioned::FORMAT);
    let outdated: Vec<String> = games::table
        .filter(games::snapshot.is_not_null())
        .filter(diesel::dsl::not(games::snapshot.assume_not_null().like(&current)))
        .select(games::id)
        .load(conn)?;
    if !outdated.is_empty() {
        tracing::info!(
            games = outdated.len(),
            format = versioned::FORMAT,
            "rebuilding snapshots stored in an older format"
        );
    }
    for (done, id) in outdated.iter().enumerate() {
        let Some(row) = games::table.find(id).select(GameRow::as_select()).first(conn).optional()? else {
            continue;
        };
        let game = replay_log(conn, &row)?;
        diesel::update(games::table.find(id).filter(games::version.eq(row.version)))
            .set(games::snapshot.eq(Some(versioned::encode_snapshot(&game))))
            .execute(conn)?;
        if (done + 1) % 100 == 0 {
            tracing::info!(done = done + 1, of = outdated.len(), "snapshots rebuilt");
        }
    }
    Ok(outdated.len())
}

/// A stored entry or snapshot the engine cannot read: written by a newer server, or damaged.
fn stored_format_error(error: versioned::FormatError) -> ApiError {
    ApiError::internal(format!("stored game data is unreadable: {error}"))
}

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

/// Loads the seats of a game, by seat.
///
/// # Errors
/// A database error.
/// The lowest seat nobody holds yet.
fn first_free_seat(max_players: i32, seats: &[SeatHolder]) -> Result<i32, ApiError> {
    (0..max_players)
        .find(|seat| seats.iter().all(|s| s.seat != *seat))
        .ok_or_else(|| ApiError::conflict("game_full", "every seat of this game is taken"))
}

pub fn load_seats(conn: &mut DbConnection, game_id: Uuid) -> Result<Vec<SeatHolder>, ApiError> {
    Ok(game_players::table
        .left_join(users::table)
        .filter(game_players::game_id.eq(game_id.to_string()))
        .order(game_players::seat.asc())
        .select((game_players::seat, game_players::user_id, users::username.nullable(), game_players::bot))
        .load(conn)?)
}

fn username_of(conn: &mut DbConnection, user_id: &str) -> Result<String, ApiError> {
    Ok(users::table.find(user_id).select(users::username).first(conn).optional()?.unwrap_or_default())
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

pub fn game_not_found(id: Uuid) -> ApiError {
    ApiError::NotFound(format!("there is no game {id}"))
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
            (game_players::seat, game_players::user_id, users::username.nullable(), game_players::bot),
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

/// Seats a user at the next free seat of an open game.
///
/// # Errors
/// `game_not_open`, `already_joined`, `game_full`, or a database error.
pub fn join_game(
    conn: &mut DbConnection,
    game_id: Uuid,
    user_id: Uuid,
    seeded_games_open: bool,
) -> Result<Seat, ApiError> {
    crate::store::db::write_transaction(conn, |conn| {
        let game = lock_game(conn, game_id)?.ok_or_else(|| game_not_found(game_id))?;
        if game.status() != GameStatus::Open {
            return Err(ApiError::conflict("game_not_open", "the game has already started"));
        }
        if game.seeded && !seeded_games_open && game.created_by != user_id.to_string() {
            return Err(ApiError::unprocessable(
                "seeded_game",
                "this game's creator chose its seed, so its dice could be known in advance: only its creator \
                 and bots play in it",
            ));
        }
        let seats = load_seats(conn, game_id)?;
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

// ---------------------------------------------------------------------------------------
// The move log

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
        let seats = load_seats(conn, game_id)?;
        if seats.len() < 2 {
            return Err(ApiError::conflict("not_enough_players", "a game needs at least 2 players to start"));
        }
        let mut config = game.config()?;
        config.players = seats.len() as u8;
        crate::play::turn_timer::limit_bot_games(&mut config, &seats);
        let (engine_game, events) = Game::start(config.clone(), game.seed())?;
        let start = MoveRow {
            game_id: game.id.clone(),
            seq: 1,
            seat: None,
            kind: "start".into(),
            move_body: None,
            events: versioned::encode_events(&events),
            idempotency_key: None,
            created_at: now(),
            bot: None,
        };
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
    })
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
/// game's lock ([`lock_game`]); the caller publishes the commit ([`crate::live::notify`]).
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

/// What [`check_replay`] found.
#[derive(Debug)]
pub struct ReplayCheck {
    pub version: i64,
    pub entries: usize,
    /// Whether the seqs run 1, 2, ... version with no gap or duplicate.
    pub contiguous: bool,
    /// Whether replaying the whole log gives exactly the stored snapshot.
    pub matches_snapshot: bool,
}

/// Replays a game's whole log and compares the result with the stored snapshot: the proof
/// that the log is the source of truth.
///
/// # Errors
/// `not_found`, an unreadable row, or a database error.
pub fn check_replay(conn: &mut DbConnection, game_id: Uuid) -> Result<ReplayCheck, ApiError> {
    let row = find_game(conn, game_id)?.ok_or_else(|| game_not_found(game_id))?;
    let entries = load_moves(conn, game_id, 0, i64::MAX)?;
    let contiguous =
        entries.iter().enumerate().all(|(i, e)| e.seq == i as i64 + 1) && entries.len() as i64 == row.version;
    let mut events = Vec::new();
    for entry in &entries {
        events.extend(entry.events()?);
    }
    let matches_snapshot = match row.game()? {
        None => entries.is_empty(),
        Some(snapshot) => Game::replay(row.config()?, &events).map(|replayed| replayed == *snapshot).unwrap_or(false),
    };
    Ok(ReplayCheck { version: row.version, entries: entries.len(), contiguous, matches_snapshot })
}
