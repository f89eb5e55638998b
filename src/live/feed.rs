//! Telling every server process that a log entry committed, so that long-poll and SSE
//! waiters wake at once wherever the move was played.
//!
//! Within one process, [`crate::live::notify::Notifier`] wakes the waiters. Across processes on one
//! PostgreSQL, each process runs an announcer thread ([`spawn_announcer`]) with its own
//! connection: the notifier hands it every commit of this process, and it sends them with
//! `pg_notify('catan_moves', '<game_id>:<seq> <game_id>:<seq> ...')`, all that queued up in a
//! few milliseconds (only the latest seq per game). Each
//! process also runs one [`listen`] thread on a dedicated connection that `LISTEN`s on that
//! channel and wakes its own notifier for every entry. SQLite is single-process, so the
//! in-process notifier is all it needs.
//!
//! Why not `pg_notify` inside each move's transaction, atomic with the commit: PostgreSQL
//! serialises the commits of notifying transactions on one database-wide lock, and every
//! notification wakes every listening process: a notification per move cost about a fifth
//! of the server's throughput. Announcing after the commit means
//! a process that dies between its commit and the announcement leaves the other processes'
//! waiters unwoken; they still see the entry at their next read: an event stream re-reads
//! the log at every keep-alive (at most 15 s), and a long-poll returns at the end of its wait
//! and the client polls again.

use std::{collections::HashMap, sync::mpsc, time::Duration};

use uuid::Uuid;

use crate::live::notify::Notifier;

/// The PostgreSQL channel that carries `<game_id>:<seq>` entries, separated by spaces.
pub const CHANNEL: &str = "catan_moves";

/// How the announcer sends a notification.
const NOTIFY: &str = "SELECT pg_notify($1, $2)";

/// Entries per notification: `<uuid>:<seq>` plus a space is at most 58 bytes, and a
/// notification payload must stay under 8000 bytes.
const ENTRIES_PER_NOTIFICATION: usize = 128;

/// How long the announcer lets commits gather before it sends them: under load one
/// notification then carries a dozen commits instead of one (each costs PostgreSQL and every
/// listening process a wake-up), for a few milliseconds of delay across processes.
const GATHER: Duration = Duration::from_millis(5);

/// Starts this process's announcer: a thread with its own PostgreSQL connection that sends
/// the commits queued on the returned sender to every process (see the module docs). It
/// reconnects when the connection fails (a batch that cannot be sent is logged and dropped:
/// the waiters it would have woken find the entries at their next read) and stops once every
/// sender is gone.
///
/// # Errors
/// When the thread cannot be spawned.
pub fn spawn_announcer(url: String) -> std::io::Result<mpsc::Sender<(Uuid, i64)>> {
    let (outbox, commits) = mpsc::channel();
    std::thread::Builder::new().name("catan-announce".into()).spawn(move || announce(&url, &commits))?;
    Ok(outbox)
}

fn announce(url: &str, commits: &mpsc::Receiver<(Uuid, i64)>) {
    let mut client: Option<postgres::Client> = None;
    let mut backoff = Backoff::default();
    // Blocks until a commit arrives; then lets others gather for a moment and takes them all.
    while let Ok(first) = commits.recv() {
        std::thread::sleep(GATHER);
        let mut latest: HashMap<Uuid, i64> = HashMap::new();
        for (game, seq) in std::iter::once(first).chain(commits.try_iter()) {
            let entry = latest.entry(game).or_insert(seq);
            *entry = (*entry).max(seq);
        }
        let entries: Vec<(Uuid, i64)> = latest.into_iter().collect();
        let sent = entries.chunks(ENTRIES_PER_NOTIFICATION).try_for_each(|chunk| {
            let payload = payload(chunk);
            if let Some(connection) = client.as_mut() {
                match connection.execute(NOTIFY, &[&CHANNEL, &payload]) {
                    Ok(_) => return Ok(()),
                    // Closed while idle (the database restarted): send it on a fresh one, at
                    // once, rather than drop the batch.
                    Err(error) if error.is_closed() || connection.is_closed() => client = None,
                    Err(error) => return Err(error),
                }
            }
            let connection = client.insert(postgres::Client::connect(url, postgres::NoTls)?);
            connection.execute(NOTIFY, &[&CHANNEL, &payload]).map(drop)
        });
        match sent {
            Ok(()) => backoff.reset(),
            Err(error) => {
                let (pause, log) = backoff.failed();
                if log {
                    tracing::warn!(%error, entries = entries.len(), retry_in = ?pause,
                        "cannot announce commits to the other server processes");
                }
                client = None;
                std::thread::sleep(pause);
            }
        }
    }
}

/// The notification payload for `entries`: `<game_id>:<seq>`, separated by spaces.
pub fn payload(entries: &[(Uuid, i64)]) -> String {
    entries.iter().map(|(game, seq)| format!("{game}:{seq}")).collect::<Vec<_>>().join(" ")
}

/// Parses a notification payload (see [`payload`]); `None` when any entry is unreadable.
pub fn parse_payload(payload: &str) -> Option<Vec<(Uuid, i64)>> {
    payload
        .split_ascii_whitespace()
        .map(|entry| {
            let (game, seq) = entry.split_once(':')?;
            Some((Uuid::parse_str(game).ok()?, seq.parse().ok()?))
        })
        .collect()
}

/// How long the listener blocks before checking that its server still runs.
const LIVENESS_CHECK: std::time::Duration = std::time::Duration::from_secs(5);
/// The first pause after a failed connection.
const MIN_BACKOFF: Duration = Duration::from_millis(50);
/// The longest pause between two reconnection attempts: low, so that waiters hear of other
/// processes' commits within about a second of the database's return (an attempt on a
/// database that is down costs one refused connection). It was 30 s, and after an outage of
/// a minute the listener slept 25.6 s past the database's return.
const MAX_BACKOFF: Duration = Duration::from_millis(500);
/// While the database stays down, every this many failed attempts is logged (about once a
/// minute at the longest pause), not each one.
const LOG_EVERY: u32 = 120;

/// The pauses between reconnection attempts: doubling from [`MIN_BACKOFF`] up to
/// [`MAX_BACKOFF`], back to the start after every success.
#[derive(Debug)]
struct Backoff {
    next: Duration,
    failures: u32,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff { next: MIN_BACKOFF, failures: 0 }
    }
}

impl Backoff {
    /// Records a failure: returns how long to pause, and whether to log the failure (the
    /// first one, and every [`LOG_EVERY`]th after it).
    fn failed(&mut self) -> (Duration, bool) {
        let pause = self.next;
        let log = self.failures.is_multiple_of(LOG_EVERY);
        self.failures = self.failures.saturating_add(1);
        self.next = (self.next * 2).min(MAX_BACKOFF);
        (pause, log)
    }

    /// Records a success: the next failure pauses [`MIN_BACKOFF`] again.
    fn reset(&mut self) {
        *self = Backoff::default();
    }
}

/// Starts this process's listener: a thread with its own PostgreSQL connection that
/// `LISTEN`s on [`CHANNEL`] and publishes every committed entry, from any process, to
/// `notifier`. It reconnects with exponential backoff (logging each failure), and stops once
/// `notifier` is no longer shared, i.e. the server that owned it is gone.
///
/// # Errors
/// When the thread cannot be spawned.
pub fn spawn_listener(url: String, notifier: Notifier) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new().name("catan-listen".into()).spawn(move || listen(&url, &notifier))
}

fn listen(url: &str, notifier: &Notifier) {
    let mut backoff = Backoff::default();
    let mut reconnecting = false;
    while notifier.is_shared() {
        let failure = match postgres::Client::connect(url, postgres::NoTls) {
            Ok(mut client) => match client.batch_execute(&format!("LISTEN {CHANNEL}")) {
                Ok(()) => {
                    tracing::info!(channel = CHANNEL, "listening for commits of every server process");
                    backoff.reset();
                    // Commits announced while the connection was down were never heard.
                    if std::mem::replace(&mut reconnecting, true) {
                        if let Err(error) = catch_up(&mut client, notifier) {
                            tracing::warn!(%error, "cannot read the versions of the games waited on");
                        }
                    }
                    match relay(&mut client, notifier) {
                        Ok(()) => return,
                        Err(error) => {
                            tracing::warn!(%error, "lost the LISTEN connection; reconnecting");
                            None
                        }
                    }
                }
                Err(error) => Some(("LISTEN failed; retrying", error)),
            },
            Err(error) => Some(("cannot open the LISTEN connection", error)),
        };
        let (pause, log) = backoff.failed();
        if let (Some((what, error)), true) = (failure, log) {
            tracing::warn!(%error, retry_in = ?pause, failures = backoff.failures, "{what}");
        }
        std::thread::sleep(pause);
    }
}

/// Wakes the waiters of this process for every commit they may have missed while the LISTEN
/// connection was down: reads the current version of each game someone waits on (after the
/// `LISTEN`, so that nothing committed later is missed either). Returns how many games it
/// read.
///
/// # Errors
/// When the query fails.
pub fn catch_up(client: &mut postgres::Client, notifier: &Notifier) -> Result<usize, postgres::Error> {
    let watched: Vec<String> = notifier.watched().iter().map(Uuid::to_string).collect();
    if watched.is_empty() {
        return Ok(0);
    }
    let rows = client.query("SELECT id, version FROM games WHERE id = ANY($1)", &[&watched])?;
    for row in &rows {
        if let Ok(game) = Uuid::parse_str(row.get::<_, &str>(0)) {
            notifier.wake(game, row.get(1));
        }
    }
    Ok(rows.len())
}

/// Forwards notifications until the server is gone (`Ok`) or the connection fails.
fn relay(client: &mut postgres::Client, notifier: &Notifier) -> Result<(), postgres::Error> {
    let mut notifications = client.notifications();
    while notifier.is_shared() {
        // Blocks until a notification arrives (or the liveness check is due).
        let mut batch = notifications.timeout_iter(LIVENESS_CHECK);
        while let Some(notification) = postgres::fallible_iterator::FallibleIterator::next(&mut batch)? {
            match parse_payload(notification.payload()) {
                Some(entries) => entries.into_iter().for_each(|(game, seq)| notifier.wake(game, seq)),
                None => tracing::warn!(payload = notification.payload(), "unreadable notification"),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_carries_every_entry_and_parses_back() {
        let entries: Vec<(Uuid, i64)> = (0..ENTRIES_PER_NOTIFICATION as i64).map(|i| (Uuid::now_v7(), i + 1)).collect();
        let payload = payload(&entries);
        assert!(payload.len() < 8000, "PostgreSQL refuses payloads of 8000 bytes or more");
        assert_eq!(parse_payload(&payload), Some(entries));
    }

    /// After a long outage the pause stays short (so other processes' commits are heard
    /// within about a second of the database's return), and a success starts over.
    #[test]
    fn reconnection_pauses_stay_short_and_start_over_after_a_success() {
        let mut backoff = Backoff::default();
        let pauses: Vec<Duration> = (0..1000).map(|_| backoff.failed().0).collect();
        assert_eq!(pauses[0], MIN_BACKOFF);
        assert!(pauses.windows(2).all(|w| w[0] <= w[1]), "pauses never shrink while failing");
        assert!(pauses.iter().all(|p| *p <= Duration::from_millis(500)), "{:?}", pauses.last());
        assert_eq!(*pauses.last().unwrap(), MAX_BACKOFF);
        backoff.reset();
        assert_eq!(backoff.failed(), (MIN_BACKOFF, true), "a success starts over, and the next failure is logged");
        let mut outage = Backoff::default();
        let logged = (0..1000).filter(|_| outage.failed().1).count();
        assert!(logged <= 10, "an outage logs now and then, not every attempt: {logged}");
    }

    #[test]
    fn an_unreadable_entry_spoils_the_payload() {
        let game = Uuid::now_v7();
        assert_eq!(parse_payload(&format!("{game}:7")), Some(vec![(game, 7)]));
        assert_eq!(parse_payload(&format!("{game}:7 {game}")), None);
        assert_eq!(parse_payload(&format!("{game}:x")), None);
        assert_eq!(parse_payload("not-a-uuid:3"), None);
    }
}
