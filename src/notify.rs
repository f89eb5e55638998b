//! Wakes long-polling readers of a game's log when a move commits: one `tokio::sync::watch`
//! channel per game carrying the latest committed version. Commits of other server processes
//! on the same PostgreSQL arrive through `LISTEN/NOTIFY` ([`crate::feed`]).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use tokio::sync::watch;
use uuid::Uuid;

/// The per-game version channels.
#[derive(Debug, Default, Clone)]
pub struct Notifier {
    games: Arc<Mutex<HashMap<Uuid, watch::Sender<i64>>>>,
}

impl Notifier {
    /// Returns a receiver of the game's committed versions. Subscribe *before* reading the
    /// log, so that a commit between the read and the wait is not missed.
    pub fn subscribe(&self, game: Uuid) -> watch::Receiver<i64> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.entry(game).or_insert_with(|| watch::channel(0).0).subscribe()
    }

    /// Tests if another clone of this notifier is alive (the server that owns it runs).
    pub fn is_shared(&self) -> bool {
        Arc::strong_count(&self.games) > 1
    }

    /// Announces that `version` of `game` has committed, waking every waiter.
    pub fn publish(&self, game: Uuid, version: i64) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let sender = games.entry(game).or_insert_with(|| watch::channel(0).0);
        sender.send_if_modified(|current| {
            if version > *current {
                *current = version;
                true
            } else {
                false
            }
        });
        // Forget games nobody waits on; a later subscriber reads the log first anyway.
        games.retain(|_, sender| sender.receiver_count() > 0);
    }
}
