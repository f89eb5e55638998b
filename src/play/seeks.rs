//! The matchmaker: what no request drives in the seek queue. Every [`SWEEP`] it expires the
//! seeks whose time is up and fills with bots those whose seekers asked for it
//! ([`crate::store::seeks::sweep`]); a game it starts is announced and handed to the bots like
//! any commit. Readers long-polling a seek wait on [`Matchmaker::changed`], woken by any change
//! this process makes to the queue, and look again every [`POLL`] for changes of other
//! processes on the same database.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::Duration,
};

use tokio::sync::Notify;

use crate::{
    live::notify::Notifier,
    play::bots::BotRunner,
    store::{db::DbPool, seeks::Started},
};

/// How often the queue is swept for expiries and bot fills.
pub const SWEEP: Duration = Duration::from_secs(1);

/// How often a long-poll of a seek looks at the database again without being woken.
pub const POLL: Duration = Duration::from_millis(500);

/// Sweeps the queue and wakes the readers of seeks. Cloned into every handler's state; the
/// sweeping thread stops when the last clone is dropped.
#[derive(Clone)]
pub struct Matchmaker {
    shared: Arc<Shared>,
    _owner: Arc<Owner>,
}

impl std::fmt::Debug for Matchmaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matchmaker").finish_non_exhaustive()
    }
}

struct Shared {
    pool: DbPool,
    notifier: Notifier,
    bots: BotRunner,
    changed: Notify,
    stopped: AtomicBool,
}

struct Owner(Arc<Shared>);

impl Drop for Owner {
    fn drop(&mut self) {
        self.0.stopped.store(true, Ordering::SeqCst);
    }
}

impl Matchmaker {
    /// Starts the sweeping thread.
    ///
    /// # Errors
    /// When the thread cannot be spawned.
    pub fn start(pool: DbPool, notifier: Notifier, bots: BotRunner) -> std::io::Result<Matchmaker> {
        let shared = Arc::new(Shared { pool, notifier, bots, changed: Notify::new(), stopped: AtomicBool::new(false) });
        let sweeper = Arc::clone(&shared);
        std::thread::Builder::new().name("catan-seek-sweep".into()).spawn(move || sweeper.sweep())?;
        Ok(Matchmaker { _owner: Arc::new(Owner(Arc::clone(&shared))), shared })
    }

    /// Announces what a committed change to the queue did: the games it started are published
    /// and handed to the bots, and the readers of seeks look again.
    pub fn committed(&self, started: &[Started]) {
        self.shared.committed(started);
    }

    /// Resolves at the next change this process makes to the queue.
    pub fn changed(&self) -> tokio::sync::futures::Notified<'_> {
        self.shared.changed.notified()
    }
}

impl Shared {
    fn committed(&self, started: &[Started]) {
        for game in started {
            self.notifier.publish(game.game_id, game.version);
            self.bots.poke(game.game_id);
        }
        self.changed.notify_waiters();
    }

    fn sweep(&self) {
        while !self.stopped.load(Ordering::SeqCst) {
            let swept = self
                .pool
                .get()
                .map_err(crate::error::ApiError::from)
                .and_then(|mut conn| crate::store::seeks::sweep(&mut conn));
            match swept {
                Ok((started, true)) => self.committed(&started),
                Ok((_, false)) => {}
                Err(error) => tracing::warn!(%error, "cannot sweep the seek queue"),
            }
            std::thread::sleep(SWEEP);
        }
    }
}
