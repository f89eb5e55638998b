//! A process-wide cache of parsed snapshots. Every request that looks at a started game
//! (legal moves, the game view, a move) needs the engine's `Game`, stored as JSON in
//! `games.snapshot`; parsing it (and rebuilding the board geometry) on every request was a
//! measurable share of a move's CPU time. A snapshot is an immutable fact about one version
//! of one game (the log only grows), so the cache is keyed by `(game id, version)` and never
//! needs invalidating, even with several server processes: a row read at another version
//! simply misses. Entries are only added from committed rows read back from the database.
//!
//! Beside it, which seat a user holds in a game: a seat, once taken, is never given up, so
//! this too never goes stale. It lets a move skip reading the seat before it writes (the
//! write still checks the seat in the same statement, see [`crate::store::append`]).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, OnceLock},
};

use catan_engine::{
    protocol::versioned::{self, Snapshot},
    Game, Seat,
};

use crate::error::ApiError;

/// Games kept; beyond this the cache starts over (a cheap bound, not an LRU).
const CAPACITY: usize = 4_096;

/// Shared, not copied, on every read: most requests only look at the game; a move copies
/// it before changing it.
type Entries = HashMap<String, (i64, Arc<Game>)>;

/// Starts `map` over when it is full and game `id` would add to it.
fn make_room<V>(map: &mut HashMap<String, V>, id: &str) {
    if map.len() >= CAPACITY && !map.contains_key(id) {
        map.clear();
    }
}

fn entries() -> &'static Mutex<Entries> {
    static ENTRIES: OnceLock<Mutex<Entries>> = OnceLock::new();
    ENTRIES.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Returns the cached version of game `id` and the game at that version, if any.
pub fn cached(id: &str) -> Option<(i64, Arc<Game>)> {
    entries().lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
}

/// Caches game `id` at `version`: only for a version that has committed.
pub fn insert(id: &str, version: i64, game: Arc<Game>) {
    let mut entries = entries().lock().unwrap_or_else(|e| e.into_inner());
    make_room(&mut entries, id);
    entries.insert(id.to_owned(), (version, game));
}

/// Returns the game `id` at `version`, parsing `json` (the stored snapshot of that version)
/// only when the cache does not hold it.
///
/// # Errors
/// When `json` has to be parsed and is not a snapshot in the current format (older ones are
/// rebuilt from the log when the row is loaded: `store::current_snapshot`).
pub fn game(id: &str, version: i64, json: &str) -> Result<Arc<Game>, ApiError> {
    if let Some((cached, game)) = entries().lock().unwrap_or_else(|e| e.into_inner()).get(id) {
        if *cached == version {
            return Ok(Arc::clone(game));
        }
    }
    let game = match versioned::decode_snapshot(json) {
        Ok(Snapshot::Current(game)) => Arc::new(game),
        Ok(Snapshot::Outdated { format }) => {
            return Err(ApiError::internal(format!("game {id} has a format {format} snapshot that was not rebuilt")))
        }
        Err(error) => return Err(ApiError::internal(format!("game {id}: {error}"))),
    };
    insert(id, version, Arc::clone(&game));
    Ok(game)
}

/// Users of a game, by game id, with the seat each holds.
type Seats = HashMap<String, Vec<(String, Seat)>>;

fn seats() -> &'static Mutex<Seats> {
    static SEATS: OnceLock<Mutex<Seats>> = OnceLock::new();
    SEATS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Returns the seat `user` holds in game `id`, if this process has seen it.
pub fn seat_of(id: &str, user: &str) -> Option<Seat> {
    let seats = seats().lock().unwrap_or_else(|e| e.into_inner());
    seats.get(id)?.iter().find(|(holder, _)| holder == user).map(|(_, seat)| *seat)
}

/// Remembers that `user` holds `seat` in game `id` (read from the database).
pub fn remember_seat(id: &str, user: &str, seat: Seat) {
    let mut seats = seats().lock().unwrap_or_else(|e| e.into_inner());
    make_room(&mut seats, id);
    let holders = seats.entry(id.to_owned()).or_default();
    if !holders.iter().any(|(holder, _)| holder == user) {
        holders.push((user.to_owned(), seat));
    }
}
