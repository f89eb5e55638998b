//! One server process per SQLite file. The read cache answers `If-None-Match` and serves a
//! game's latest views from memory because, on SQLite, every commit goes through this
//! process ([`crate::reads`]), and SQLite writes are ordered by an in-process lock
//! ([`crate::store::db`]). A second process on the same file would break both silently (stale
//! `304`s, busy errors), so it is refused at start-up instead: several processes need
//! PostgreSQL, whose `LISTEN/NOTIFY` feed keeps them in step.

use std::{
    fs::{File, OpenOptions, TryLockError},
    time::{Duration, Instant},
};

/// How long a starting server waits for a process that is stopping to let go of the file
/// (a restart: the old process exits while the new one starts).
const WAIT_FOR_RELEASE: Duration = Duration::from_secs(5);
const RETRY_EVERY: Duration = Duration::from_millis(50);

/// Held for as long as the process serves the database file: an exclusive lock on
/// `<file>.server-lock`, released by the operating system when the process ends.
#[derive(Debug)]
pub struct SoleServer {
    _lock: File,
}

impl SoleServer {
    /// Claims the SQLite database at `path` for this process; `None` for an in-memory
    /// database, which no other process can open.
    ///
    /// # Errors
    /// When another process serves the file (after waiting [`WAIT_FOR_RELEASE`] for it to
    /// stop), or the lock file cannot be created.
    pub fn claim(path: &str) -> Result<Option<SoleServer>, Box<dyn std::error::Error + Send + Sync>> {
        if path == ":memory:" || path.starts_with("file::memory:") {
            return Ok(None);
        }
        let lock_path = format!("{path}.server-lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| format!("cannot create the lock file {lock_path}: {e}"))?;
        let started = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Some(SoleServer { _lock: file })),
                Err(TryLockError::WouldBlock) if started.elapsed() < WAIT_FOR_RELEASE => {
                    std::thread::sleep(RETRY_EVERY);
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(format!(
                        "another catan-server process is serving the SQLite database {path}: a SQLite file \
                         is served by one process; stop the other one, give this one its own --data-dir, \
                         or use PostgreSQL (DATABASE_URL=postgres://...) to run several"
                    )
                    .into())
                }
                Err(TryLockError::Error(e)) => return Err(format!("cannot lock {lock_path}: {e}").into()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_claim_on_the_same_file_is_refused_until_the_first_lets_go() {
        let dir = std::env::temp_dir().join(format!("catan-sole-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("catan.sqlite3").to_string_lossy().into_owned();
        let first = SoleServer::claim(&path).unwrap().expect("a file is claimed");
        let started = Instant::now();
        let second = SoleServer::claim(&path).expect_err("the file is served already");
        assert!(second.to_string().contains("another catan-server process"), "{second}");
        assert!(started.elapsed() >= WAIT_FOR_RELEASE, "it waited for a restart first");
        drop(first);
        assert!(SoleServer::claim(&path).unwrap().is_some(), "free again once the first is gone");
        assert!(SoleServer::claim(":memory:").unwrap().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
