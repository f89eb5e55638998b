//! The database: one diesel connection type over PostgreSQL and SQLite, an r2d2 pool, the
//! embedded migrations, and the helpers that run diesel on actix's blocking pool.

use std::{
    sync::atomic::{AtomicU64, Ordering},
    time::{Duration, Instant},
};

use actix_web::web;
use diesel::{
    connection::{AnsiTransactionManager, SimpleConnection, TransactionManager},
    pg::PgConnection,
    r2d2::{ManageConnection, Pool, PooledConnection, R2D2Connection},
    sqlite::SqliteConnection,
    Connection,
};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use crate::error::ApiError;

const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");

/// A connection to either backend; queries written once run on both.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Pg(PgConnection),
    Sqlite(SqliteConnection),
}

/// Which database the server talks to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DatabaseUrl {
    /// A `postgres://` or `postgresql://` URL.
    Postgres(String),
    /// A path to a SQLite file.
    Sqlite(String),
}

impl DatabaseUrl {
    /// Reads a `DATABASE_URL`: postgres URLs go to PostgreSQL; `sqlite://path`,
    /// `sqlite:path` or a bare path go to SQLite.
    pub fn parse(url: &str) -> DatabaseUrl {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            DatabaseUrl::Postgres(url.to_owned())
        } else {
            let path = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url);
            DatabaseUrl::Sqlite(path.to_owned())
        }
    }

    /// Returns the backend name, for logs.
    pub fn backend(&self) -> &'static str {
        match self {
            DatabaseUrl::Postgres(_) => "postgresql",
            DatabaseUrl::Sqlite(_) => "sqlite",
        }
    }
}

/// SQLite settings applied to every new connection: WAL so readers never block the writer,
/// a busy timeout so writers queue instead of failing, and enforced foreign keys.
const SQLITE_PRAGMAS: &str = "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 15000; \
     PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;";

/// Opens connections for the pool, choosing the backend from the URL up front (rather than
/// letting each backend try the URL in turn).
#[derive(Debug, Clone)]
pub struct DbManager {
    url: DatabaseUrl,
}

impl DbManager {
    pub fn new(url: DatabaseUrl) -> Self {
        DbManager { url }
    }
}

impl ManageConnection for DbManager {
    type Connection = DbConnection;
    type Error = diesel::r2d2::Error;

    fn connect(&self) -> Result<DbConnection, Self::Error> {
        match &self.url {
            DatabaseUrl::Postgres(url) => {
                let mut conn = PgConnection::establish(url).map_err(diesel::r2d2::Error::ConnectionError)?;
                conn.set_instrumentation(lost::watch);
                Ok(DbConnection::Pg(conn))
            }
            DatabaseUrl::Sqlite(path) => {
                let mut conn = SqliteConnection::establish(path).map_err(diesel::r2d2::Error::ConnectionError)?;
                conn.batch_execute(SQLITE_PRAGMAS).map_err(diesel::r2d2::Error::QueryError)?;
                Ok(DbConnection::Sqlite(conn))
            }
        }
    }

    /// Pings the connection only while connections are suspect ([`suspect_connections`]):
    /// a ping on every checkout was one more round trip per request.
    fn is_valid(&self, conn: &mut DbConnection) -> Result<(), Self::Error> {
        lost::checked_out();
        if !connections_suspect() {
            return Ok(());
        }
        conn.ping().map_err(diesel::r2d2::Error::QueryError)
    }

    /// A connection is dropped instead of going back to the pool when it is in a broken
    /// transaction state, or when a statement on it failed because the connection itself was
    /// lost (e.g. the database restarted): diesel's own check looks only at the transaction.
    fn has_broken(&self, conn: &mut DbConnection) -> bool {
        std::thread::panicking() || lost::take() || conn.is_broken()
    }
}

/// Until when (milliseconds since the Unix epoch) pooled connections are checked on checkout.
static SUSPECT_UNTIL: AtomicU64 = AtomicU64::new(0);

/// How long connections stay suspect after a failure.
const SUSPECT_FOR: Duration = Duration::from_secs(30);

fn now_millis() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// Marks pooled connections as suspect after a database failure: for the next
/// [`SUSPECT_FOR`], every checkout pings its connection first, so connections that died
/// (e.g. the database restarted) are replaced instead of failing one request each.
pub fn suspect_connections() {
    SUSPECT_UNTIL.fetch_max(now_millis() + SUSPECT_FOR.as_millis() as u64, Ordering::Relaxed);
}

fn connections_suspect() -> bool {
    now_millis() < SUSPECT_UNTIL.load(Ordering::Relaxed)
}

pub type DbPool = Pool<DbManager>;
pub type PooledConn = PooledConnection<DbManager>;

/// Builds the pool. Connections open lazily beyond the first, so many test servers can
/// share one PostgreSQL cluster.
///
/// # Errors
/// When the first connection cannot be opened.
pub fn build_pool(url: &DatabaseUrl, max_size: u32, timeout: Duration) -> Result<DbPool, diesel::r2d2::PoolError> {
    Pool::builder().max_size(max_size).min_idle(Some(1)).connection_timeout(timeout).build(DbManager::new(url.clone()))
}

/// How long a read waits for a replica's connection before it goes to the leader instead.
const REPLICA_CHECKOUT: Duration = Duration::from_millis(250);

/// Builds the pool of read replicas: no connection is opened until a read asks for one, so a
/// replica that is down costs a read a short wait ([`REPLICA_CHECKOUT`]), never the server's
/// start.
pub fn build_read_pool(url: &DatabaseUrl, max_size: u32) -> DbPool {
    Pool::builder()
        .max_size(max_size)
        .min_idle(Some(0))
        .connection_timeout(REPLICA_CHECKOUT)
        .build_unchecked(DbManager::new(url.clone()))
}

/// Runs the pending embedded migrations of the connection's backend.
///
/// # Errors
/// When a migration fails.
pub fn run_migrations(conn: &mut DbConnection) -> Result<Vec<String>, Box<dyn std::error::Error + Send + Sync>> {
    let applied = match conn {
        DbConnection::Pg(c) => c.run_pending_migrations(PG_MIGRATIONS)?,
        DbConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS)?,
    };
    Ok(applied.iter().map(ToString::to_string).collect())
}

/// Runs `f` with a pooled connection on actix's blocking thread pool: diesel is synchronous
/// and must never run on the async workers. The pool has as many threads as connections
/// (see `startup`), so requests may queue for a thread; waiting for the thread and for the
/// connection together is bounded by the pool's connection timeout.
///
/// A pooled connection that the database closed while it sat idle (a restart of PostgreSQL)
/// fails on its first statement, before anything was done: then `f` runs once more, on a
/// fresh connection, so the restart costs no request a 500 ([`lost`]).
///
/// # Errors
/// `f`'s error, or [`ApiError::Unavailable`] when no connection can be had.
pub async fn with_conn<T, F>(pool: &DbPool, f: F) -> Result<T, ApiError>
where
    F: FnOnce(&mut DbConnection) -> Result<T, ApiError> + Clone + Send + 'static,
    T: Send + 'static,
{
    let timeout = pool.connection_timeout();
    with_conn_within(pool, timeout, f).await
}

/// Like [`with_conn`], waiting at most `timeout` (rather than the pool's connection timeout)
/// for a thread and a connection: the health check answers 503 quickly while the database
/// is down.
///
/// # Errors
/// `f`'s error, or [`ApiError::Unavailable`] when no connection can be had in time.
pub async fn with_conn_within<T, F>(pool: &DbPool, timeout: Duration, f: F) -> Result<T, ApiError>
where
    F: FnOnce(&mut DbConnection) -> Result<T, ApiError> + Clone + Send + 'static,
    T: Send + 'static,
{
    let pool = pool.clone();
    // The wait for a blocking thread counts toward the wait for a connection: a request that
    // could not start within the pool's timeout answers 503 without touching the database.
    let deadline = Instant::now() + timeout;
    let result = web::block(move || {
        let checkout = || {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(ApiError::Unavailable);
            }
            let conn = pool.get_timeout(remaining)?;
            lost::checked_out();
            Ok(conn)
        };
        let mut conn = checkout()?;
        let again = f.clone();
        match f(&mut conn) {
            Err(error) if lost::stale() => {
                tracing::warn!(%error, "a pooled database connection was closed; retrying on a fresh one");
                // Its siblings were most likely closed too: check them on checkout for a while.
                suspect_connections();
                drop(conn);
                let mut fresh = checkout()?;
                again(&mut fresh)
            }
            result => result,
        }
    })
    .await?;
    if matches!(result, Err(ApiError::Internal(_) | ApiError::Unavailable)) {
        suspect_connections();
    }
    result
}

/// Which connection failures this thread saw on its checked-out connection: diesel reports
/// every statement to the connection's instrumentation ([`watch`], set on each PostgreSQL
/// connection), on the thread that runs it, which is the thread that checked it out.
///
/// - *stale*: the checkout's first statement failed because the connection was gone: nothing
///   was done on it, so the work may run again on another connection. A failure on a later
///   statement is never retried (a lost `COMMIT` may have committed).
/// - *lost*: some statement failed that way; the pool drops the connection when it comes back
///   ([`DbManager::has_broken`]), instead of handing it to the next request.
pub mod lost {
    use std::cell::Cell;

    use diesel::{
        connection::InstrumentationEvent,
        result::{DatabaseErrorKind, Error},
    };

    thread_local! {
        static STATEMENTS: Cell<u32> = const { Cell::new(0) };
        static STALE: Cell<bool> = const { Cell::new(false) };
        static LOST: Cell<bool> = const { Cell::new(false) };
    }

    /// Tests if `error` says the connection itself is gone, not that a statement failed.
    pub fn is_connection_error(error: &Error) -> bool {
        matches!(
            error,
            Error::DatabaseError(DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand, _)
        )
    }

    /// Tests if `error` says the connection leads to a database that takes no writes: a
    /// leader demoted by a failover (or a replica behind a proxy that has not noticed yet).
    /// Such a connection is no use to the pool, which is for writes.
    pub fn is_read_only_error(error: &Error) -> bool {
        matches!(error, Error::DatabaseError(DatabaseErrorKind::ReadOnlyTransaction, _))
    }

    /// The instrumentation of every PostgreSQL connection.
    pub fn watch(event: InstrumentationEvent<'_>) {
        if let InstrumentationEvent::FinishQuery { error, .. } = event {
            let first = STATEMENTS.with(|n| n.replace(n.get().saturating_add(1))) == 0;
            if error.is_some_and(is_connection_error) {
                LOST.with(|lost| lost.set(true));
                if first {
                    STALE.with(|stale| stale.set(true));
                }
            } else if error.is_some_and(is_read_only_error) {
                LOST.with(|lost| lost.set(true));
            }
        }
    }

    /// Starts watching a connection this thread just checked out.
    pub fn checked_out() {
        STATEMENTS.with(|n| n.set(0));
        STALE.with(|stale| stale.set(false));
        LOST.with(|lost| lost.set(false));
    }

    /// Tests (and forgets) whether the checkout's first statement found its connection gone.
    pub fn stale() -> bool {
        STALE.with(Cell::take)
    }

    /// Tests (and forgets) whether a statement found the connection gone.
    pub fn take() -> bool {
        LOST.with(Cell::take)
    }
}

/// The turn to write to SQLite, within this process (one per process, not per file: a server
/// opens one database; test processes that open many only queue a little more).
static SQLITE_WRITER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `f` in a write transaction that holds the database's write lock from its first
/// statement: `BEGIN IMMEDIATE` on SQLite (so two writers never both read a version and then
/// race to write), a plain `BEGIN` on PostgreSQL (where the caller takes row locks with
/// `SELECT ... FOR UPDATE`). Commits when `f` succeeds, rolls back otherwise.
///
/// Inside another write transaction, `f` simply runs as part of it (its error rolls the
/// whole back): an `Idempotency-Key` and the game it creates, joins or starts commit
/// together ([`crate::store::idempotency::once`]).
///
/// # Errors
/// `f`'s error, or a database error from begin/commit.
pub fn write_transaction<T, F>(conn: &mut DbConnection, f: F) -> Result<T, ApiError>
where
    F: FnOnce(&mut DbConnection) -> Result<T, ApiError>,
{
    let depth =
        <DbConnection as Connection>::TransactionManager::transaction_manager_status_mut(conn).transaction_depth();
    if matches!(depth, Ok(Some(_))) {
        return f(conn);
    }
    // SQLite has one writer at a time; a writer that finds the lock taken sleeps in SQLite's
    // busy handler (in steps of up to 100 ms), which made the slowest moves wait ~60 ms under
    // load. Writers of this process queue on a mutex instead and take the lock in turn (the
    // busy timeout still covers other processes on the same file).
    let _turn = match conn {
        DbConnection::Sqlite(_) => Some(SQLITE_WRITER.lock().unwrap_or_else(|e| e.into_inner())),
        DbConnection::Pg(_) => None,
    };
    match conn {
        DbConnection::Sqlite(c) => AnsiTransactionManager::begin_transaction_sql(c, "BEGIN IMMEDIATE")?,
        DbConnection::Pg(_) => <DbConnection as Connection>::TransactionManager::begin_transaction(conn)?,
    }
    match f(conn) {
        Ok(value) => {
            if let Err(error) = <DbConnection as Connection>::TransactionManager::commit_transaction(conn) {
                let _ = <DbConnection as Connection>::TransactionManager::rollback_transaction(conn);
                return Err(error.into());
            }
            Ok(value)
        }
        Err(error) => {
            let _ = <DbConnection as Connection>::TransactionManager::rollback_transaction(conn);
            Err(error)
        }
    }
}
