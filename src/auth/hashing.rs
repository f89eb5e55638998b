//! Password hashing on its own small pool of threads, apart from the database's blocking
//! threads: a login flood then waits for (or is refused by) the hashing threads, while
//! moves and reads keep their database threads. The pool is bounded twice: a few threads
//! (each argon2 run holds 19 MiB, so memory stays at threads x 19 MiB), and a short queue;
//! a job that finds the queue full is refused at once with a 503 and `Retry-After`.
//!
//! A login for a user that does not exist verifies against a dummy hash, so it costs the
//! same argon2 run as a wrong password and its timing does not tell which names exist.

use std::{
    panic::AssertUnwindSafe,
    sync::{
        atomic::{AtomicU64, Ordering},
        mpsc, Arc, Mutex, OnceLock,
    },
};

use rand::RngCore;

use crate::{
    auth::{hash_password, verify_password},
    error::{ApiError, Throttled},
};

type Job = Box<dyn FnOnce() + Send>;

/// The password hashing pool of one server.
pub struct Hasher {
    jobs: mpsc::SyncSender<Job>,
    verifications: Arc<AtomicU64>,
}

impl std::fmt::Debug for Hasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Hasher({} verifications)", self.verifications())
    }
}

impl Hasher {
    /// Starts `threads` hashing threads with room for `queue` waiting jobs (0: a job is
    /// taken only when a thread is idle). The threads end when the `Hasher` is dropped.
    ///
    /// # Errors
    /// When a thread cannot be spawned.
    pub fn start(threads: usize, queue: usize) -> std::io::Result<Hasher> {
        let (jobs, receiver) = mpsc::sync_channel::<Job>(queue);
        let receiver = Arc::new(Mutex::new(receiver));
        for index in 0..threads.max(1) {
            let receiver = Arc::clone(&receiver);
            std::thread::Builder::new().name(format!("password-{index}")).spawn(move || loop {
                let job = {
                    let receiver = receiver.lock().unwrap_or_else(|e| e.into_inner());
                    receiver.recv()
                };
                match job {
                    // A job that panics loses only its own answer (its caller sees a 500).
                    Ok(job) => drop(std::panic::catch_unwind(AssertUnwindSafe(job))),
                    Err(_) => return,
                }
            })?;
        }
        Ok(Hasher { jobs, verifications: Arc::new(AtomicU64::new(0)) })
    }

    /// Runs `f` on a hashing thread; a full queue is a 503 `server_busy` at once.
    async fn run<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(f());
        });
        self.jobs.try_send(job).map_err(|error| match error {
            mpsc::TrySendError::Full(_) => {
                ApiError::Throttled(Throttled::busy("every password check is busy; retry in a second"))
            }
            mpsc::TrySendError::Disconnected(_) => ApiError::internal("the password hashing threads are gone"),
        })?;
        rx.await.map_err(|_| ApiError::internal("a password hashing job failed"))
    }

    /// Hashes a new password with argon2id and a random salt.
    ///
    /// # Errors
    /// 503 `server_busy` when the pool is full, or a hasher failure.
    pub async fn hash(&self, password: String) -> Result<String, ApiError> {
        self.run(move || hash_password(&password)).await?
    }

    /// Tests `password` against a user's stored hash; with no user (`None`), against a dummy
    /// hash of the same cost, and the answer is `false`.
    ///
    /// # Errors
    /// 503 `server_busy` when the pool is full.
    pub async fn verify(&self, password: String, hash: Option<String>) -> Result<bool, ApiError> {
        let verifications = Arc::clone(&self.verifications);
        self.run(move || {
            verifications.fetch_add(1, Ordering::Relaxed);
            match &hash {
                Some(hash) => verify_password(&password, hash),
                None => {
                    let _ = verify_password(&password, dummy_hash());
                    false
                }
            }
        })
        .await
    }

    /// How many argon2 verifications this pool has run (the tests check that an unknown
    /// user costs one, like a wrong password).
    pub fn verifications(&self) -> u64 {
        self.verifications.load(Ordering::Relaxed)
    }
}

/// A hash of a random password nobody knows, with the parameters of real hashes; made once
/// per process, on first use.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let mut secret = [0_u8; 32];
        rand::thread_rng().fill_bytes(&mut secret);
        let secret: String = secret.iter().map(|b| format!("{b:02x}")).collect();
        hash_password(&secret).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use argon2::PasswordHash;

    fn block_on<T>(future: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(future)
    }

    #[test]
    fn a_full_queue_is_refused_at_once() {
        let hasher = Hasher::start(1, 1).unwrap();
        let (release, gate) = mpsc::channel::<()>();
        let (started, running) = mpsc::channel::<()>();
        // The one thread is busy, and the one place in the queue taken.
        let busy = hasher.jobs.try_send(Box::new(move || {
            started.send(()).unwrap();
            let _ = gate.recv();
        }));
        assert!(busy.is_ok());
        running.recv().unwrap();
        assert!(hasher.jobs.try_send(Box::new(|| {})).is_ok());
        match block_on(hasher.verify("password".into(), None)) {
            Err(ApiError::Throttled(t)) => assert_eq!((t.status, t.code, t.retry_after), (503, "server_busy", 1)),
            other => panic!("expected a 503, got {other:?}"),
        }
        release.send(()).unwrap();
        // Once the thread is free again (and has taken the queued job), work is taken.
        let answered = (0..200).find_map(|_| match block_on(hasher.verify("password".into(), None)) {
            Ok(answer) => Some(answer),
            Err(_) => {
                std::thread::sleep(std::time::Duration::from_millis(10));
                None
            }
        });
        assert_eq!(answered, Some(false));
    }

    #[test]
    fn hashes_verify_and_an_unknown_user_costs_one_verification() {
        let hasher = Hasher::start(2, 4).unwrap();
        let hash = block_on(hasher.hash("correct horse".into())).unwrap();
        assert!(block_on(hasher.verify("correct horse".into(), Some(hash.clone()))).unwrap());
        assert!(!block_on(hasher.verify("wrong horse".into(), Some(hash))).unwrap());
        assert_eq!(hasher.verifications(), 2);
        assert!(!block_on(hasher.verify("correct horse".into(), None)).unwrap());
        assert_eq!(hasher.verifications(), 3);
        // The dummy has the parameters of a real hash, so it costs the same.
        let dummy = PasswordHash::new(dummy_hash()).unwrap();
        let real = block_on(hasher.hash("x".repeat(12))).unwrap();
        let real = PasswordHash::new(&real).unwrap();
        assert_eq!(dummy.algorithm, real.algorithm);
        assert_eq!(dummy.params, real.params);
    }
}
