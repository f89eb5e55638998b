//! Wakes long-polling readers of a game's log when a move commits: one `tokio::sync::watch`
//! channel per game carrying the latest committed version. Commits of this process are also
//! handed to its outbox, which tells the other server processes on the same PostgreSQL; their
//! commits arrive through `LISTEN/NOTIFY` ([`crate::feed`]).

use std::{
    collections::HashMap,
    sync::{mpsc, Arc, Mutex},
};

use tokio::sync::watch;
use uuid::Uuid;

use crate::reads::Reads;

/// The per-game version channels.
#[derive(Debug, Default, Clone)]
pub struct Notifier {
    games: Arc<Mutex<HashMap<Uuid, watch::Sender<i64>>>>,
    /// Where this process's own commits go to reach other processes ([`crate::feed`]); none
    /// on SQLite, which has one process.
    outbox: Option<mpsc::Sender<(Uuid, i64)>>,
    /// The read cache, told of every commit this process hears of ([`crate::reads`]).
    reads: Option<Arc<Reads>>,
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

    /// Returns this notifier with an outbox for commits that other processes must hear of.
    pub fn with_outbox(self, outbox: mpsc::Sender<(Uuid, i64)>) -> Notifier {
        Notifier { outbox: Some(outbox), ..self }
    }

    /// Returns this notifier telling `reads` of every commit it hears of.
    pub fn with_reads(self, reads: Arc<Reads>) -> Notifier {
        Notifier { reads: Some(reads), ..self }
    }

    /// Announces that this process committed `version` of `game`: wakes every waiter here
    /// and hands the commit to the outbox for the other processes.
    pub fn publish(&self, game: Uuid, version: i64) {
        self.wake(game, version);
        if let Some(outbox) = &self.outbox {
            // Only fails once the announcer is gone, i.e. the server is shutting down.
            let _ = outbox.send((game, version));
        }
    }

    /// Wakes every waiter on `game` for `version`, committed here or by another process.
    pub fn wake(&self, game: Uuid, version: i64) {
        if let Some(reads) = &self.reads {
            reads.committed(game, version);
        }
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
