//! Configuration: command-line flags over environment variables over defaults.

use std::path::{Path, PathBuf};

use rand::RngCore;

use crate::store::db::DatabaseUrl;

/// Everything the server needs to start.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on (`--bind`, `CATAN_BIND`); port 0 picks a free port.
    pub bind: String,
    /// Where the SQLite file and the generated JWT secret live (`--data-dir`,
    /// `CATAN_DATA_DIR`).
    pub data_dir: PathBuf,
    /// `DATABASE_URL`; `None` means the embedded SQLite file in the data directory.
    pub database_url: Option<String>,
    /// `DATABASE_READ_URL`: PostgreSQL read replicas (behind one address) for the reads that
    /// may be served there (`crate::store::replicas::with_read_conn`); only with a PostgreSQL
    /// `DATABASE_URL`.
    pub read_database_url: Option<String>,
    /// `JWT_SECRET`; `None` means a secret generated once and kept in the data directory.
    pub jwt_secret: Option<String>,
    /// HTTP worker threads (`None`: [`default_workers`]).
    pub workers: Option<usize>,
    /// Maximum pooled database connections.
    pub pool_size: u32,
    /// How long a request waits for a database connection before answering 503.
    pub db_timeout: std::time::Duration,
    /// The most bytes of served responses kept for reuse (`CATAN_READ_CACHE_MB`, in MiB).
    pub read_cache_bytes: usize,
    /// A sandbox (`CATAN_SANDBOX=1`): anyone may join a game whose seed its creator chose.
    /// Off by default, since such a game's dice can be known in advance.
    pub sandbox: bool,
    /// How long an issued token is valid (`CATAN_TOKEN_LIFETIME_HOURS`, default 7 days).
    pub token_lifetime: std::time::Duration,
    /// How long a request body may take to arrive (`CATAN_BODY_TIMEOUT_SECONDS`, default 10):
    /// a body that stalls longer is answered 408 ([`crate::http::body_timeout`]).
    pub body_timeout: std::time::Duration,
    /// Rate limits, the cap on unfinished games, trusted proxies and the password hashing
    /// pool (`CATAN_RATE_*`, `CATAN_MAX_OPEN_GAMES`, `CATAN_TRUSTED_PROXIES`, `CATAN_HASH_*`).
    pub limits: crate::http::limits::LimitsConfig,
    /// Browsers: CORS origins and stream tickets (`CATAN_CORS_ORIGINS`,
    /// `CATAN_STREAM_TICKET_SECONDS`).
    pub browser: crate::http::cors::BrowserConfig,
}

/// One HTTP worker per two cores (at least one). A worker only parses, routes, checks tokens
/// and writes JSON; the database work runs on blocking threads, and the database itself often
/// shares the machine, so a worker per core only adds threads competing for the cores. On 2
/// cores shared with PostgreSQL (`scripts/bench-server.sh`), one worker and two moved as many
/// moves per second (within noise), and one had the lower p99 in most rounds.
pub fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |cores| (cores.get() / 2).max(1))
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: "127.0.0.1:8080".into(),
            data_dir: PathBuf::from("./data"),
            database_url: None,
            read_database_url: None,
            jwt_secret: None,
            workers: None,
            pool_size: 10,
            db_timeout: std::time::Duration::from_secs(10),
            read_cache_bytes: 64 << 20,
            sandbox: false,
            token_lifetime: std::time::Duration::from_secs(crate::auth::TOKEN_LIFETIME_DAYS as u64 * 24 * 3600),
            body_timeout: std::time::Duration::from_secs(10),
            limits: crate::http::limits::LimitsConfig::default(),
            browser: crate::http::cors::BrowserConfig::default(),
        }
    }
}

impl Config {
    /// Reads `CATAN_BIND`, `CATAN_DATA_DIR`, `DATABASE_URL`, `JWT_SECRET`, `CATAN_WORKERS`
    /// `CATAN_POOL_SIZE`, `CATAN_READ_CACHE_MB`, `CATAN_SANDBOX`,
    /// `CATAN_TOKEN_LIFETIME_HOURS` and `CATAN_BODY_TIMEOUT_SECONDS`.
    pub fn from_env() -> Config {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let defaults = Config::default();
        Config {
            bind: env("CATAN_BIND").unwrap_or(defaults.bind),
            data_dir: env("CATAN_DATA_DIR").map(PathBuf::from).unwrap_or(defaults.data_dir),
            database_url: env("DATABASE_URL"),
            read_database_url: env("DATABASE_READ_URL"),
            jwt_secret: env("JWT_SECRET"),
            workers: env("CATAN_WORKERS").and_then(|v| v.parse().ok()).or(defaults.workers),
            pool_size: env("CATAN_POOL_SIZE").and_then(|v| v.parse().ok()).unwrap_or(defaults.pool_size),
            db_timeout: env("CATAN_DB_TIMEOUT_MS")
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|ms| *ms > 0)
                .map_or(defaults.db_timeout, std::time::Duration::from_millis),
            read_cache_bytes: env("CATAN_READ_CACHE_MB")
                .and_then(|v| v.parse::<usize>().ok())
                .map_or(defaults.read_cache_bytes, |mb| mb << 20),
            sandbox: env("CATAN_SANDBOX").is_some_and(|v| matches!(v.trim(), "1" | "true" | "yes")),
            token_lifetime: env("CATAN_TOKEN_LIFETIME_HOURS")
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|hours| *hours > 0)
                .map_or(defaults.token_lifetime, |hours| std::time::Duration::from_secs(hours * 3600)),
            body_timeout: env("CATAN_BODY_TIMEOUT_SECONDS")
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|seconds| *seconds > 0)
                .map_or(defaults.body_timeout, std::time::Duration::from_secs),
            limits: crate::http::limits::LimitsConfig::from_env(),
            browser: crate::http::cors::BrowserConfig::from_env(),
        }
    }

    /// Returns the database to use: `DATABASE_URL`, or `<data dir>/catan.sqlite3`.
    pub fn database(&self) -> DatabaseUrl {
        match &self.database_url {
            Some(url) => DatabaseUrl::parse(url),
            None => DatabaseUrl::Sqlite(self.data_dir.join("catan.sqlite3").to_string_lossy().into_owned()),
        }
    }

    /// Returns the JWT signing secret: `JWT_SECRET`, or the one kept in
    /// `<data dir>/jwt_secret`, generated on first use so tokens survive a restart.
    ///
    /// # Errors
    /// When the secret file cannot be read or written.
    pub fn jwt_secret(&self) -> std::io::Result<Vec<u8>> {
        if let Some(secret) = &self.jwt_secret {
            return Ok(secret.as_bytes().to_vec());
        }
        let path = self.data_dir.join("jwt_secret");
        match std::fs::read_to_string(&path) {
            Ok(secret) if !secret.trim().is_empty() => Ok(secret.trim().as_bytes().to_vec()),
            _ => {
                let mut bytes = [0_u8; 32];
                rand::thread_rng().fill_bytes(&mut bytes);
                let secret: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                write_private(&path, &secret)?;
                Ok(secret.into_bytes())
            }
        }
    }
}

fn write_private(path: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(contents.as_bytes())?;
    file.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_jwt_secret_is_kept_across_restarts() {
        let dir = std::env::temp_dir().join(format!("catan-config-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let config = Config { data_dir: dir.clone(), ..Config::default() };
        let first = config.jwt_secret().unwrap();
        let second = config.jwt_secret().unwrap();
        assert_eq!(first, second);
        assert_eq!(first.len(), 64);
        let given = Config { jwt_secret: Some("given".into()), ..config };
        assert_eq!(given.jwt_secret().unwrap(), b"given");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn database_urls_choose_the_backend() {
        for (url, expected) in [
            ("postgres://u@h/db", DatabaseUrl::Postgres("postgres://u@h/db".into())),
            ("postgresql://h/db", DatabaseUrl::Postgres("postgresql://h/db".into())),
            ("sqlite://data/x.db", DatabaseUrl::Sqlite("data/x.db".into())),
            ("sqlite:x.db", DatabaseUrl::Sqlite("x.db".into())),
            ("/var/lib/catan.sqlite3", DatabaseUrl::Sqlite("/var/lib/catan.sqlite3".into())),
        ] {
            assert_eq!(DatabaseUrl::parse(url), expected);
        }
        let default = Config::default();
        assert!(matches!(default.database(), DatabaseUrl::Sqlite(p) if p.ends_with("catan.sqlite3")));
    }
}
