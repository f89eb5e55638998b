//! Reads from memory: what this process knows about the latest version of each started game,
//! and the bytes it has already served for each version.
//!
//! A version of a game never changes (the log only grows), so what a reader sees of it is
//! immutable too: the game view of `(game, version, seat or spectator)`, the legal moves of
//! `(game, version, seat or spectator)`, and each log entry redacted for a class of reader
//! (a seat or the spectators while the game runs, everyone alike after game over). Each is
//! serialized once and its bytes served from then on, in a cache capped in bytes
//! ([`ByteCache`]).
//!
//! Which version is the latest is the one thing that can go stale. This process learns of
//! every commit: its own (the moves it plays, its bots' moves, the start of a game) and, on
//! PostgreSQL, those of other processes through `LISTEN/NOTIFY` ([`crate::live::feed`]), both
//! through [`crate::live::notify::Notifier::wake`] which calls [`Reads::committed`]; and every read
//! of the database tells it the version it saw ([`Reads::learn`]). It trusts that knowledge
//! without asking the database ([`Reads::sure`]) only where nothing can have committed behind
//! its back:
//!
//! - on SQLite, which is served by one process: every commit goes through this process, and
//!   it hears of each before the mover gets its answer;
//! - on any backend, for a finished game: its last version is final.
//!
//! Elsewhere (a game in progress on PostgreSQL, where another process may have just committed
//! and not yet announced it) a read asks the database for the version alone, one primary-key
//! lookup, and serves the cached bytes of that version. The seats of a started game never
//! change, so they are remembered with the version.

pub mod replay;

use std::{
    collections::HashMap,
    hash::Hash,
    sync::{Arc, Mutex},
};

use actix_web::web::Bytes;
use catan_engine::{Seat, Viewer};
use uuid::Uuid;

use crate::store::{GameRecord, GameStatus, SeatHolder};

/// Games whose latest version and seats are remembered; beyond this the memory starts over.
const KNOWN_GAMES: usize = 50_000;

/// Who bytes were made for, while a game runs: one seat, or any spectator (also a signed-in
/// user without a seat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reader {
    Spectator,
    Seat(Seat),
}

impl Reader {
    /// The engine's viewer for this reader.
    pub fn viewer(self) -> Viewer {
        match self {
            Reader::Spectator => Viewer::Spectator,
            Reader::Seat(seat) => Viewer::Seat(seat),
        }
    }

    /// The caller's seat, if any.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Reader::Spectator => None,
            Reader::Seat(seat) => Some(seat),
        }
    }

    /// The reader holding `seat`, or a spectator.
    pub fn of(seat: Option<Seat>) -> Reader {
        seat.map_or(Reader::Spectator, Reader::Seat)
    }
}

/// Who a log entry was redacted for: one reader while the game runs; after game over every
/// entry is public, the same for everyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryClass {
    Live(Reader),
    Over,
}

impl EntryClass {
    /// The class of `reader` in a game with `status`.
    pub fn new(reader: Reader, status: GameStatus) -> EntryClass {
        if status == GameStatus::Finished {
            EntryClass::Over
        } else {
            EntryClass::Live(reader)
        }
    }
}

/// What a cached response is: each is immutable once its version has committed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// The body of `GET /games/{id}` at `version` for `reader`.
    Game { game: Uuid, version: i64, reader: Reader },
    /// The body of `GET .../legal-moves` at `version` for `reader`.
    LegalMoves { game: Uuid, version: i64, reader: Reader },
    /// Log entry `seq`, redacted for `class`, as JSON.
    Entry { game: Uuid, seq: i64, class: EntryClass },
    /// The body of `GET /games/{id}?at=seq` for `reader`; `over`: made once the game was
    /// over, when a replay shows everything ([`crate::reads::replay`]).
    GameAt { game: Uuid, seq: i64, reader: Reader, over: bool },
    /// `GET /games/{id}/board.svg` of log entry `seq` for `reader`, with or without the ids.
    Board { game: Uuid, seq: i64, reader: Reader, labels: bool, over: bool },
}

/// What this process knows of a started game.
#[derive(Debug, Clone)]
struct Known {
    version: i64,
    /// The status at `version`, when a read told it (a commit announcement does not).
    status: Option<GameStatus>,
    /// The users' seats (bots hold no user), once a read told them; fixed from the start.
    seats: Option<Arc<[(Uuid, Seat)]>>,
}

#[derive(Debug, Default)]
struct KnownGames {
    games: HashMap<Uuid, Known>,
    /// Bumped whenever `games` starts over, so that a read that began before cannot record
    /// a version older than a commit it has not seen (see [`Reads::epoch`]).
    epoch: u64,
}

/// The latest version of a started game, as far as this process knows it.
#[derive(Debug, Clone)]
pub struct Latest {
    pub version: i64,
    /// The status at `version`, if known.
    pub status: Option<GameStatus>,
    pub seats: Arc<[(Uuid, Seat)]>,
    /// Whether nothing can have committed since without this process knowing (see the
    /// module docs); otherwise `version` is only a hint.
    pub sure: bool,
}

impl Latest {
    /// The reader `user` is in this game.
    pub fn reader(&self, user: Option<Uuid>) -> Reader {
        Reader::of(user.and_then(|user| self.seats.iter().find(|(holder, _)| *holder == user).map(|(_, seat)| *seat)))
    }
}

/// The read cache of one server (see the module docs).
#[derive(Debug)]
pub struct Reads {
    /// Whether this process sees every commit (SQLite: one process per database).
    sole_writer: bool,
    known: Mutex<KnownGames>,
    bytes: Mutex<ByteCache<Key>>,
}

impl Reads {
    /// A cache holding at most `capacity` bytes of responses; `sole_writer` when every commit
    /// to the database goes through this process.
    pub fn new(capacity: usize, sole_writer: bool) -> Reads {
        Reads { sole_writer, known: Mutex::default(), bytes: Mutex::new(ByteCache::new(capacity)) }
    }

    fn known(&self) -> std::sync::MutexGuard<'_, KnownGames> {
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, ByteCache<Key>> {
        self.bytes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Returns what this process knows of game `id`, if it has seen the game started.
    pub fn latest(&self, id: Uuid) -> Option<Latest> {
        let known = self.known();
        let game = known.games.get(&id)?;
        let seats = game.seats.clone()?;
        let sure = self.sole_writer || game.status == Some(GameStatus::Finished);
        Some(Latest { version: game.version, status: game.status, seats, sure })
    }

    /// Records that `version` of game `id` committed (here, or in another process).
    pub fn committed(&self, id: Uuid, version: i64) {
        let mut known = self.known();
        if known.games.len() >= KNOWN_GAMES && !known.games.contains_key(&id) {
            known.games.clear();
            known.epoch += 1;
        }
        let game = known.games.entry(id).or_insert(Known { version, status: None, seats: None });
        if version > game.version {
            game.version = version;
            game.status = None;
        }
    }

    /// Returns the token to pass to [`Reads::learn`] for a database read that starts now.
    pub fn epoch(&self) -> u64 {
        self.known().epoch
    }

    /// Records what a database read that started at `epoch` saw: game `id` at `version` with
    /// `status`, and (when read) its seats. A version older than one already known is only a
    /// late read and changes nothing.
    pub fn learn(&self, epoch: u64, id: Uuid, version: i64, status: GameStatus, seats: Option<Arc<[(Uuid, Seat)]>>) {
        if status == GameStatus::Open {
            return;
        }
        let mut known = self.known();
        if known.epoch != epoch {
            // The memory started over during the read: a commit it missed may be forgotten.
            return;
        }
        if known.games.len() >= KNOWN_GAMES && !known.games.contains_key(&id) {
            known.games.clear();
            known.epoch += 1;
            return;
        }
        let game = known.games.entry(id).or_insert(Known { version, status: None, seats: None });
        if version > game.version {
            game.version = version;
            game.status = None;
        }
        if version == game.version {
            game.status = Some(status);
        }
        if game.seats.is_none() {
            game.seats = seats;
        }
    }

    /// Like [`Reads::learn`], from a loaded game with its seats.
    pub fn learn_record(&self, epoch: u64, record: &GameRecord) {
        let Ok(id) = Uuid::parse_str(&record.game.id) else {
            return;
        };
        self.learn(epoch, id, record.game.version, record.game.status(), Some(seats_of(&record.seats)));
    }

    /// Returns the cached bytes for `key`.
    pub fn get(&self, key: &Key) -> Option<Bytes> {
        self.cache().get(key)
    }

    /// Returns the cached bytes of each key, in order, under one lock.
    pub fn get_all(&self, keys: impl Iterator<Item = Key>) -> Vec<Option<Bytes>> {
        let mut cache = self.cache();
        keys.map(|key| cache.get(&key)).collect()
    }

    /// Caches `bytes` for `key`: only for a version that has committed.
    pub fn insert(&self, key: Key, bytes: Bytes) {
        self.cache().insert(key, bytes);
    }

    /// Returns the bytes the response cache holds now (keys and bookkeeping included).
    pub fn cached_bytes(&self) -> usize {
        self.cache().bytes()
    }

    /// Returns the response cache's cap, in bytes.
    pub fn capacity(&self) -> usize {
        self.cache().capacity
    }
}

/// The users' seats of a game.
pub fn seats_of(seats: &[SeatHolder]) -> Arc<[(Uuid, Seat)]> {
    seats
        .iter()
        .filter_map(|holder| {
            let user = Uuid::parse_str(holder.user_id.as_deref()?).ok()?;
            Some((user, Seat(holder.seat as u8)))
        })
        .collect()
}

/// A map from keys to bytes holding at most `capacity` bytes, counting each entry's key and
/// bookkeeping as well as its bytes. Two generations: new entries go into the young one; when
/// it would pass half the capacity it becomes the old one and the old one is dropped. A hit
/// in the old generation moves the entry back into the young one, so what is read often stays
/// and what nobody reads leaves within two generations (an LRU's effect, without its list).
#[derive(Debug)]
pub struct ByteCache<K> {
    capacity: usize,
    young: HashMap<K, Bytes>,
    young_bytes: usize,
    old: HashMap<K, Bytes>,
    old_bytes: usize,
}

impl<K: Hash + Eq + Clone> ByteCache<K> {
    pub fn new(capacity: usize) -> ByteCache<K> {
        ByteCache { capacity, young: HashMap::new(), young_bytes: 0, old: HashMap::new(), old_bytes: 0 }
    }

    /// What an entry costs: its bytes, plus the key, the `Bytes` handle and the table's slot.
    fn weight(bytes: &Bytes) -> usize {
        bytes.len() + std::mem::size_of::<(K, Bytes)>() + 16
    }

    /// Returns the bytes held now, as counted against the capacity.
    pub fn bytes(&self) -> usize {
        self.young_bytes + self.old_bytes
    }

    pub fn get(&mut self, key: &K) -> Option<Bytes> {
        if let Some(bytes) = self.young.get(key) {
            return Some(bytes.clone());
        }
        let bytes = self.old.remove(key)?;
        self.old_bytes -= Self::weight(&bytes);
        self.insert(key.clone(), bytes.clone());
        Some(bytes)
    }

    pub fn insert(&mut self, key: K, bytes: Bytes) {
        let weight = Self::weight(&bytes);
        let half = self.capacity / 2;
        if weight > half {
            return;
        }
        if let Some(previous) = self.young.remove(&key) {
            self.young_bytes -= Self::weight(&previous);
        }
        if self.young_bytes + weight > half {
            self.old = std::mem::take(&mut self.young);
            self.old_bytes = self.young_bytes;
            self.young_bytes = 0;
        }
        if let Some(previous) = self.old.remove(&key) {
            self.old_bytes -= Self::weight(&previous);
        }
        self.young_bytes += weight;
        self.young.insert(key, bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_never_holds_more_than_its_capacity() {
        let mut cache = ByteCache::new(100_000);
        for i in 0..10_000_u32 {
            cache.insert(i, Bytes::from(vec![0; (i % 700) as usize]));
            assert!(cache.bytes() <= 100_000, "{} bytes after {i}", cache.bytes());
            // Read back some old ones: a hit moves them, never past the cap.
            let _ = cache.get(&(i / 2));
            assert!(cache.bytes() <= 100_000);
        }
        assert!(cache.bytes() > 50_000, "it does hold things: {}", cache.bytes());
        let counted: usize =
            cache.young.values().chain(cache.old.values()).map(ByteCache::<u32>::weight).sum::<usize>();
        assert_eq!(counted, cache.bytes(), "the count is exact");
    }

    #[test]
    fn what_is_read_often_stays() {
        let mut cache = ByteCache::new(10_000);
        cache.insert(u32::MAX, Bytes::from_static(b"hot"));
        for i in 0..5_000 {
            cache.insert(i, Bytes::from(vec![0; 100]));
            assert_eq!(cache.get(&u32::MAX).as_deref(), Some(&b"hot"[..]), "after {i}");
        }
        assert_eq!(cache.get(&0), None, "and what is not read leaves");
    }

    #[test]
    fn an_entry_larger_than_half_the_capacity_is_not_kept() {
        let mut cache = ByteCache::new(1_000);
        cache.insert(1, Bytes::from(vec![0; 600]));
        assert_eq!(cache.get(&1), None);
        assert_eq!(cache.bytes(), 0);
    }

    fn game() -> (Uuid, Arc<[(Uuid, Seat)]>) {
        (Uuid::now_v7(), vec![(Uuid::now_v7(), Seat(0)), (Uuid::now_v7(), Seat(1))].into())
    }

    #[test]
    fn a_version_is_sure_on_a_sole_writer_or_once_the_game_is_over() {
        let (id, seats) = game();
        let shared = Reads::new(1 << 20, false);
        shared.learn(shared.epoch(), id, 5, GameStatus::Playing, Some(seats.clone()));
        let latest = shared.latest(id).unwrap();
        assert_eq!((latest.version, latest.sure), (5, false), "another process may have moved");
        shared.learn(shared.epoch(), id, 9, GameStatus::Finished, None);
        let latest = shared.latest(id).unwrap();
        assert_eq!((latest.version, latest.sure), (9, true), "a finished game's version is final");
        assert_eq!(latest.reader(Some(seats[1].0)), Reader::Seat(Seat(1)));
        assert_eq!(latest.reader(Some(Uuid::now_v7())), Reader::Spectator);

        let sole = Reads::new(1 << 20, true);
        sole.learn(sole.epoch(), id, 5, GameStatus::Playing, Some(seats));
        assert!(sole.latest(id).unwrap().sure);
    }

    #[test]
    fn a_late_read_never_hides_a_commit() {
        let (id, seats) = game();
        let reads = Reads::new(1 << 20, true);
        let epoch = reads.epoch();
        // A read starts, a move commits meanwhile, then the read reports the older version.
        reads.committed(id, 8);
        reads.learn(epoch, id, 7, GameStatus::Playing, Some(seats));
        let latest = reads.latest(id).unwrap();
        assert_eq!((latest.version, latest.status), (8, None), "the commit's version, status unknown");
    }

    #[test]
    fn a_read_that_spans_a_restart_of_the_memory_records_nothing() {
        let (id, seats) = game();
        let reads = Reads::new(1 << 20, true);
        let epoch = reads.epoch();
        reads.committed(id, 8);
        for _ in 0..KNOWN_GAMES {
            reads.committed(Uuid::now_v7(), 1);
        }
        reads.learn(epoch, id, 7, GameStatus::Playing, Some(seats));
        assert!(reads.latest(id).is_none(), "version 7 would be stale");
    }
}
