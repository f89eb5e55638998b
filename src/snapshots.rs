//! A process-wide cache of parsed snapshots. Every request that looks at a started game
//! (legal moves, the game view, a move) needs the engine's `Game`, stored as JSON in
//! `games.snapshot`; parsing it (and rebuilding the board geometry) on every request was a
//! measurable share of a move's CPU time. A snapshot is an immutable fact about one version
//! of one game (the log only grows), so the cache is keyed by `(game id, version)` and never
//! needs invalidating, even with several server processes: a row read at another version
//! simply misses. Entries are only added from committed rows read back from the database.

use std::{
    collections::HashMap,
    sync::{Mutex, OnceLock},
};

use catan_engine::Game;

/// Games kept; beyond this the cache starts over (a cheap bound, not an LRU).
const CAPACITY: usize = 4_096;

type Entries = HashMap<String, (i64, Game)>;

fn entries() -> &'static Mutex<Entries> {
    static ENTRIES: OnceLock<Mutex<Entries>> = OnceLock::new();
    ENTRIES.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Returns the cached version of game `id` and the game at that version, if any.
pub fn cached(id: &str) -> Option<(i64, Game)> {
    entries().lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
}

/// Caches game `id` at `version`: only for a version that has committed.
pub fn insert(id: &str, version: i64, game: Game) {
    let mut entries = entries().lock().unwrap_or_else(|e| e.into_inner());
    if entries.len() >= CAPACITY && !entries.contains_key(id) {
        entries.clear();
    }
    entries.insert(id.to_owned(), (version, game));
}

/// Returns the game `id` at `version`, parsing `json` (the stored snapshot of that version)
/// only when the cache does not hold it.
///
/// # Errors
/// When `json` has to be parsed and is not a valid snapshot.
pub fn game(id: &str, version: i64, json: &str) -> Result<Game, serde_json::Error> {
    if let Some((cached, game)) = entries().lock().unwrap_or_else(|e| e.into_inner()).get(id) {
        if *cached == version {
            return Ok(game.clone());
        }
    }
    let game: Game = serde_json::from_str(json)?;
    insert(id, version, game.clone());
    Ok(game)
}
