//! Building and running the server. `main` and the integration tests use the same
//! [`Application`], so the tests exercise exactly what ships.

use std::{net::TcpListener, sync::Arc};

use actix_web::{dev::Server, http::header, middleware::ErrorHandlers, web, App, HttpResponse, HttpServer};
use tracing_actix_web::TracingLogger;
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use crate::{
    api::{self, ApiDoc},
    app::AppState,
    auth::JwtKeys,
    config::Config,
    error,
    live::notify::Notifier,
    play::bots::{BotRunner, BotSettings},
    reads::Reads,
    store::db::{self, DbPool},
};

pub use crate::http::JSON_LIMIT;

/// Why the server could not start.
pub type StartupError = Box<dyn std::error::Error + Send + Sync>;

/// A server that is bound, connected and migrated, ready to run.
pub struct Application {
    listener: TcpListener,
    port: u16,
    state: AppState,
    keys: JwtKeys,
    /// The origins allowed to call from a browser ([`crate::http::cors`]).
    cors: Arc<crate::http::cors::Cors>,
    workers: Option<usize>,
    /// How long a request body may take ([`crate::http::body_timeout`]).
    body_timeout: std::time::Duration,
}

/// Creates the directory a SQLite file (and its lock file) lives in.
fn create_parent_dir(path: &str) -> std::io::Result<()> {
    match std::path::Path::new(path).parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => std::fs::create_dir_all(parent),
        None => Ok(()),
    }
}

/// Opens the database (creating the data directory for SQLite) and runs the migrations.
///
/// # Errors
/// When the directory, the database or a migration fails.
pub fn open_database(config: &Config) -> Result<DbPool, StartupError> {
    let url = config.database();
    if let db::DatabaseUrl::Sqlite(path) = &url {
        create_parent_dir(path)?;
    }
    let pool = db::build_pool(&url, config.pool_size, config.db_timeout)?;
    let mut conn = pool.get()?;
    let applied = db::run_migrations(&mut conn)?;
    for migration in &applied {
        tracing::info!(%migration, "applied migration");
    }
    // Games stored by an older server keep loading (docs/stored-games.md): snapshots in an
    // older format are rebuilt from their logs once, here, instead of on every read.
    let rebuilt = crate::store::upgrade_snapshots(&mut conn).map_err(|error| match error {
        // The operator needs the detail a client never sees.
        crate::error::ApiError::Internal(detail) => format!("upgrading stored games: {detail}"),
        other => format!("upgrading stored games: {other}"),
    })?;
    if rebuilt > 0 {
        tracing::info!(games = rebuilt, "snapshots rebuilt in the current format");
    }
    tracing::info!(backend = url.backend(), "database ready");
    Ok(pool)
}

/// The pool of read replicas (`DATABASE_READ_URL`), if one is named. Built without a
/// connection: a replica that is down at start-up (or later) only sends its reads to the
/// leader. Never migrated: a replica takes no writes.
///
/// # Errors
/// A read URL that is not PostgreSQL's, or one beside a SQLite database.
pub fn open_read_replicas(config: &Config) -> Result<Option<DbPool>, StartupError> {
    let Some(read_url) = &config.read_database_url else { return Ok(None) };
    let read_url = db::DatabaseUrl::parse(read_url);
    match (config.database(), &read_url) {
        (db::DatabaseUrl::Postgres(_), db::DatabaseUrl::Postgres(_)) => {}
        _ => return Err("DATABASE_READ_URL names PostgreSQL read replicas of a PostgreSQL DATABASE_URL".into()),
    }
    tracing::info!("reads that may be served by a replica go to DATABASE_READ_URL (docs/cluster.md)");
    Ok(Some(db::build_read_pool(&read_url, config.pool_size)))
}

impl Application {
    /// Binds the listener, opens and migrates the database, and loads the JWT secret.
    ///
    /// # Errors
    /// When any of those fails.
    pub fn build(config: &Config) -> Result<Application, StartupError> {
        std::fs::create_dir_all(&config.data_dir)?;
        // Claimed before the database is touched: a second process must not migrate or
        // rebuild snapshots under a running one either.
        let sole_server = match config.database() {
            db::DatabaseUrl::Sqlite(path) => {
                create_parent_dir(&path)?;
                crate::store::sole_server::SoleServer::claim(&path)?.map(Arc::new)
            }
            db::DatabaseUrl::Postgres(_) => None,
        };
        let pool = open_database(config)?;
        let read_pool = open_read_replicas(config)?;
        let keys = JwtKeys::new(&config.jwt_secret()?).with_lifetime(config.token_lifetime);
        let listener = TcpListener::bind(&config.bind)?;
        let port = listener.local_addr()?.port();
        // SQLite is served by one process (`sole_server` holds the file), so every commit goes
        // through this one.
        let sole_writer = matches!(config.database(), db::DatabaseUrl::Sqlite(_));
        let reads = Arc::new(Reads::new(config.read_cache_bytes, sole_writer));
        let mut notifier = Notifier::default().with_reads(Arc::clone(&reads));
        // Our commits wake the waiters of other server processes on the same PostgreSQL,
        // and theirs ours.
        if let db::DatabaseUrl::Postgres(url) = config.database() {
            notifier = notifier.with_outbox(crate::live::feed::spawn_announcer(url.clone())?);
            crate::live::feed::spawn_listener(url, notifier.clone())?;
        }
        // Built-in bots play their moves on their own threads, resuming any game left waiting.
        let bots = BotRunner::start(pool.clone(), notifier.clone(), BotSettings::from_env())?;
        let matchmaker = crate::play::seeks::Matchmaker::start(pool.clone(), notifier.clone(), bots.clone())?;
        let revocations = Arc::new(crate::auth::revocation::Revocations::load(&mut *pool.get()?, sole_writer)?);
        Ok(Application {
            listener,
            port,
            state: AppState {
                pool,
                read_pool,
                notifier,
                bots,
                matchmaker,
                reads,
                sole_server,
                sandbox: config.sandbox,
                revocations,
                limits: Arc::new(crate::http::limits::Limits::new(&config.limits)),
                hasher: Arc::new(crate::auth::hashing::Hasher::start(
                    config.limits.hash_threads,
                    config.limits.hash_queue,
                )?),
                tickets: Arc::new(crate::auth::stream_tickets::StreamTickets::new(
                    &config.jwt_secret()?,
                    config.browser.stream_ticket_lifetime,
                )),
            },
            keys,
            cors: Arc::new(crate::http::cors::Cors::new(&config.browser.cors_origins)),
            workers: config.workers,
            body_timeout: config.body_timeout,
        })
    }

    /// Returns the bound port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Returns the database pool (tests inspect the stored log through it).
    pub fn pool(&self) -> DbPool {
        self.state.pool.clone()
    }

    /// Returns the notifier of committed versions (tests measure it).
    pub fn notifier(&self) -> Notifier {
        self.state.notifier.clone()
    }

    /// Returns the read cache (tests measure it).
    pub fn reads(&self) -> Arc<Reads> {
        Arc::clone(&self.state.reads)
    }

    /// Returns the password hashing pool (tests count its verifications).
    pub fn hasher(&self) -> Arc<crate::auth::hashing::Hasher> {
        Arc::clone(&self.state.hasher)
    }

    /// Starts serving; must be called inside an actix/tokio runtime.
    ///
    /// # Errors
    /// When the server cannot start on the listener.
    pub fn into_server(self) -> std::io::Result<Server> {
        // Diesel runs on each worker's blocking threads, one connection per running task. A
        // thread beyond the pool's connections could only wait for one (sleeping and waking
        // once more per request): with at most as many threads as connections, requests queue
        // for a thread instead (`db::with_conn` still answers 503 after the pool's timeout).
        // Measured on 2 cores with PostgreSQL: the p99 of a move fell from 15-20 ms to 9-12 ms,
        // with as many moves per second or a few percent more.
        let workers = self.workers.unwrap_or_else(crate::config::default_workers).max(1);
        let blocking_threads = (self.state.pool.max_size() as usize).div_ceil(workers).max(1);
        let body_timeout = self.body_timeout;
        // What the auth extractors and the CORS middleware read: they sit below `AppState`
        // (`crate::app`), so they get their parts on their own.
        let revocations = web::Data::from(Arc::clone(&self.state.revocations));
        let pool = web::Data::new(self.state.pool.clone());
        let state = web::Data::new(self.state);
        let keys = web::Data::new(self.keys);
        let cors = web::Data::from(self.cors);
        // The `405`s and `Allow` lists answer from the routes' document.
        crate::http::methods::learn(api::openapi);
        let server = HttpServer::new(move || {
            App::new()
                .into_utoipa_app()
                .openapi(ApiDoc::openapi())
                .map(|app| {
                    app.wrap(actix_web::middleware::Compress::default())
                        .wrap(actix_web::middleware::from_fn(crate::http::inflate::inflate))
                        .wrap(actix_web::middleware::from_fn(crate::http::compression::hygiene))
                        .wrap(actix_web::middleware::from_fn(crate::http::body_timeout::limit))
                        .wrap(ErrorHandlers::new().default_handler(error::problem_fallback))
                        .wrap(actix_web::middleware::from_fn(crate::http::cors::cors))
                        .wrap(actix_web::middleware::from_fn(crate::http::catch_panic::catch_panic))
                        .wrap(TracingLogger::default())
                })
                .app_data(state.clone())
                .app_data(keys.clone())
                .app_data(revocations.clone())
                .app_data(pool.clone())
                .app_data(cors.clone())
                .app_data(crate::http::body_timeout::BodyTimeout(body_timeout))
                .app_data(crate::error::BodyLimit(JSON_LIMIT))
                .app_data(
                    web::JsonConfig::default()
                        .limit(JSON_LIMIT)
                        // A body that does not say it is JSON is a 415: a form or text/plain
                        // post from a browser page is never played as a move.
                        .content_type_required(true)
                        .error_handler(error::json_error),
                )
                .app_data(web::PathConfig::default().error_handler(error::path_error))
                .app_data(web::QueryConfig::default().error_handler(error::query_error))
                .app_data(web::PayloadConfig::default().limit(JSON_LIMIT))
                .configure(api::routes)
                .openapi_service(|mut api| {
                    crate::api::spec::finish(&mut api);
                    SwaggerUi::new("/swagger-ui/{_:.*}").url("/api-docs/openapi.json", api)
                })
                .route(
                    "/",
                    web::get().to(|| async {
                        HttpResponse::TemporaryRedirect().insert_header((header::LOCATION, "/swagger-ui/")).finish()
                    }),
                )
                // The spectator page and its files: outside `/api/v1`, not part of the API.
                // HEAD answers GET's headers (actix-http drops the body).
                .route("/games/{game_id}", web::get().to(crate::api::spectator::page))
                .route("/games/{game_id}", web::head().to(crate::api::spectator::page))
                .route(crate::views::spectator::SCRIPT_PATH, web::get().to(crate::api::spectator::script))
                .route(crate::views::spectator::SCRIPT_PATH, web::head().to(crate::api::spectator::script))
                .route(crate::views::spectator::STYLE_PATH, web::get().to(crate::api::spectator::style))
                .route(crate::views::spectator::STYLE_PATH, web::head().to(crate::api::spectator::style))
                .default_service(web::to(crate::http::methods::unrouted))
                .into_app()
        })
        .listen(self.listener)?
        .workers(workers)
        .worker_max_blocking_threads(blocking_threads);
        Ok(server.run())
    }

    /// Serves until the process is stopped.
    ///
    /// # Errors
    /// When the server fails.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.into_server()?.await
    }
}
