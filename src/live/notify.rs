//! Wakes long-polling readers of a game's log when a move commits: one `tokio::sync::watch`
//! channel per game carrying the latest committed version. Commits of this process are also
//! handed to its outbox, which tells the other server processes on the same PostgreSQL; their
//! commits arrive through `LISTEN/NOTIFY` ([`crate::live::feed`]).

use std::{
    collections::HashMap,
    sync::{mpsc, Arc, Mutex},
};

use tokio::sync::watch;
use uuid::Uuid;

use crate::reads::Reads;

/// Channels kept before subscribing looks for channels nobody waits on any more.
const PRUNE_FROM: usize = 1024;

/// The channels of the games someone waits on (or did since the last prune).
#[derive(Debug, Default)]
struct Channels {
    games: HashMap<Uuid, watch::Sender<i64>>,
    /// How many channels the last prune kept: the next comes at twice as many, so pruning
    /// costs O(1) per subscription over time.
    kept: usize,
}

impl Channels {
    /// Drops the channels of games nobody waits on.
    fn prune(&mut self) {
        self.games.retain(|_, sender| sender.receiver_count() > 0);
        self.kept = self.games.len();
    }
}

/// The per-game version channels.
#[derive(Debug, Default, Clone)]
pub struct Notifier {
    games: Arc<Mutex<Channels>>,
    /// Where this process's own commits go to reach other processes ([`crate::live::feed`]); none
    /// on SQLite, which has one process.
    outbox: Option<mpsc::Sender<(Uuid, i64)>>,
    /// The read cache, told of every commit this process hears of ([`crate::reads`]).
    reads: Option<Arc<Reads>>,
}

impl Notifier {
    /// Returns a receiver of the game's committed versions. Subscribe *before* reading the
    /// log, so that a commit between the read and the wait is not missed.
    ///
    /// A waiter that goes (its request ended, or named a game that does not exist) leaves a
    /// channel behind; they are dropped at the next commit, or here once they have doubled,
    /// so that reads of games nobody moves cannot grow the memory without bound.
    pub fn subscribe(&self, game: Uuid) -> watch::Receiver<i64> {
        let mut channels = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if channels.games.len() >= PRUNE_FROM.max(2 * channels.kept) {
            channels.prune();
        }
        channels.games.entry(game).or_insert_with(|| watch::channel(0).0).subscribe()
    }

    /// The games someone waits on now.
    pub fn watched(&self) -> Vec<Uuid> {
        let channels = self.games.lock().unwrap_or_else(|e| e.into_inner());
        channels.games.iter().filter(|(_, sender)| sender.receiver_count() > 0).map(|(game, _)| *game).collect()
    }

    /// How many games have a channel now (for tests and metrics).
    pub fn channels(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).games.len()
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
        let mut channels = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let sender = channels.games.entry(game).or_insert_with(|| watch::channel(0).0);
        sender.send_if_modified(|current| {
            if version > *current {
                *current = version;
                true
            } else {
                false
            }
        });
        // Forget games nobody waits on; a later subscriber reads the log first anyway.
        channels.prune();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waiters on games that never move (ids that do not exist) come and go: the channels
    /// they leave are dropped without any commit, while a live waiter's channel stays.
    #[test]
    fn channels_of_gone_waiters_do_not_pile_up() {
        let notifier = Notifier::default();
        let live = Uuid::new_v4();
        let waiting = notifier.subscribe(live);
        for _ in 0..20_000 {
            drop(notifier.subscribe(Uuid::new_v4()));
        }
        assert!(notifier.channels() <= 2 * PRUNE_FROM, "{} channels kept", notifier.channels());
        notifier.wake(live, 3);
        assert_eq!(*waiting.borrow(), 3, "the live waiter still hears of commits");
        assert_eq!(notifier.channels(), 1);
    }
}
