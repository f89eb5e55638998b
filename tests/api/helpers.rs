//! `spawn_app`: the real server (the same `Application` as `main`) on a random port against
//! a fresh database — a temp SQLite file, or a new database in a throwaway PostgreSQL
//! cluster that the tests start themselves once per process.

use std::{
    io::Write,
    path::PathBuf,
    process::{Child, Command, Stdio},
    sync::{mpsc, Arc, OnceLock},
};

use catan_server::{
    config::Config,
    reads::Reads,
    startup::Application,
    store::db::DbPool,
    store::{self, ReplayCheck},
};
use diesel::{Connection, RunQueryDsl};
use reqwest::{
    blocking::{Client, Response},
    StatusCode,
};
use serde_json::{json, Value};
use uuid::Uuid;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Generates one test per backend from a function taking the backend.
#[macro_export]
macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[test]
                fn sqlite() {
                    super::$name($crate::helpers::Backend::Sqlite)
                }
                #[test]
                fn postgres() {
                    super::$name($crate::helpers::Backend::Postgres)
                }
            }
        )*
    };
}

/// A running server and a client for it.
pub struct TestApp {
    pub base: String,
    pub client: Client,
    pub pool: DbPool,
    /// The server's read cache ([`catan_server::reads`]), to measure it.
    pub reads: Arc<Reads>,
    /// The server's notifier ([`catan_server::live::notify`]), to measure it.
    pub notifier: catan_server::live::notify::Notifier,
    /// The server's password hashing pool, to count its verifications.
    pub hasher: Arc<catan_server::auth::hashing::Hasher>,
    data_dir: PathBuf,
    handle: actix_web::dev::ServerHandle,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let _stop = self.handle.stop(false);
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}

fn temp_dir(prefix: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{prefix}-{}", Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// Starts the server against a fresh database of `backend`.
pub fn spawn_app(backend: Backend) -> TestApp {
    let database_url = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(postgres::fresh_database()),
    };
    spawn_app_at(database_url)
}

/// Starts a server as in production, not a sandbox (the tests' default is one): seeded games
/// keep their seats to their creator and bots, and rated games may be played.
pub fn spawn_production_app(backend: Backend) -> TestApp {
    let database_url = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(postgres::fresh_database()),
    };
    spawn_app_with(database_url, |config| config.sandbox = false)
}

/// Starts the server against `database_url` (`None`: SQLite in a temp directory).
pub fn spawn_app_at(database_url: Option<String>) -> TestApp {
    spawn_app_with(database_url, |_| {})
}

/// Like [`spawn_app_at`], with the test configuration changed by `configure` first.
pub fn spawn_app_with(database_url: Option<String>, configure: impl FnOnce(&mut Config)) -> TestApp {
    let data_dir = temp_dir("catan-test");
    let mut config = Config {
        bind: "127.0.0.1:0".into(),
        data_dir: data_dir.clone(),
        database_url,
        read_database_url: None,
        jwt_secret: Some("test-secret".into()),
        workers: Some(2),
        pool_size: 8,
        db_timeout: std::time::Duration::from_secs(2),
        read_cache_bytes: 16 << 20,
        // The tests replay chosen seeds with several users (see `games::a_seeded_game_*` for
        // the default).
        sandbox: true,
        token_lifetime: Config::default().token_lifetime,
        body_timeout: Config::default().body_timeout,
        // The default limits, but for moves and reads: the tests play whole games and race
        // dozens of moves per seat as fast as the machine allows (`limits` lowers them to test
        // them; `bot_loop` plays under the defaults).
        // Reads too: some tests read every past position of a game.
        limits: catan_server::http::limits::LimitsConfig { moves_per_sec: 0, reads_per_sec: 0, ..Default::default() },
        browser: Default::default(),
    };
    configure(&mut config);
    let app = Application::build(&config).expect("the server starts");
    let port = app.port();
    let pool = app.pool();
    let reads = app.reads();
    let notifier = app.notifier();
    let hasher = app.hasher();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let server = app.into_server().expect("the server runs");
            tx.send(server.handle()).expect("send handle");
            let _ = server.await;
        });
    });
    let handle = rx.recv().expect("server handle");
    TestApp {
        base: format!("http://127.0.0.1:{port}"),
        client: Client::builder().timeout(std::time::Duration::from_secs(60)).build().expect("client"),
        pool,
        reads,
        notifier,
        hasher,
        data_dir,
        handle,
    }
}

/// A registered user.
#[derive(Debug, Clone)]
pub struct User {
    pub token: String,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn get(&self, path: &str, token: Option<&str>) -> Response {
        let mut request = self.client.get(self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        crate::conformance::checked("GET", request.send().expect("GET"))
    }

    /// Sends a request built on `client` (another method, custom headers) and checks the
    /// response against the spec, as `get` and `post` do.
    pub fn send(&self, request: reqwest::blocking::RequestBuilder) -> Response {
        let request = request.build().expect("a request");
        let method = request.method().as_str().to_owned();
        crate::conformance::checked(&method, self.client.execute(request).expect("the request"))
    }

    pub fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Response {
        let mut request = self.client.post(self.url(path)).json(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        crate::conformance::checked("POST", request.send().expect("POST"))
    }

    pub fn register(&self, username: &str) -> User {
        let response = self.post("/api/v1/users", None, &json!({"username": username, "password": "secret-password"}));
        assert_eq!(response.status(), StatusCode::CREATED, "register {username}");
        let body: Value = response.json().expect("json");
        User { token: body["token"].as_str().expect("token").into() }
    }

    pub fn create_game(&self, user: &User, body: &Value) -> Value {
        let response = self.post("/api/v1/games", Some(&user.token), body);
        assert_eq!(response.status(), StatusCode::CREATED, "create game");
        response.json().expect("json")
    }

    pub fn join(&self, game: &str, user: &User) -> Response {
        self.post(&format!("/api/v1/games/{game}/players"), Some(&user.token), &Value::Null)
    }

    pub fn start(&self, game: &str, user: &User) -> Response {
        self.post(&format!("/api/v1/games/{game}/start"), Some(&user.token), &Value::Null)
    }

    /// Registers `players` users, creates a game with `options`, seats everyone and starts
    /// it. Returns the game id and the users by seat.
    pub fn started_game(&self, players: usize, seed: u64) -> (String, Vec<User>) {
        self.started_game_with(players, &json!({"max_players": players, "board": "beginner", "seed": seed}))
    }

    /// Like [`TestApp::started_game`], with the given create request.
    pub fn started_game_with(&self, players: usize, request: &Value) -> (String, Vec<User>) {
        let tag = &Uuid::new_v4().simple().to_string()[..8];
        let users: Vec<User> = (0..players).map(|i| self.register(&format!("player{i}-{tag}"))).collect();
        let game = self.create_game(&users[0], request);
        let id = game["id"].as_str().expect("id").to_owned();
        for user in &users[1..] {
            assert_eq!(self.join(&id, user).status(), StatusCode::CREATED);
        }
        let response = self.start(&id, &users[0]);
        assert_eq!(response.status(), StatusCode::OK, "start");
        (id, users)
    }

    pub fn game(&self, game: &str, token: Option<&str>) -> Value {
        let response = self.get(&format!("/api/v1/games/{game}"), token);
        assert_eq!(response.status(), StatusCode::OK);
        response.json().expect("json")
    }

    pub fn legal_moves(&self, game: &str, user: &User) -> Value {
        let response = self.get(&format!("/api/v1/games/{game}/legal-moves"), Some(&user.token));
        assert_eq!(response.status(), StatusCode::OK);
        response.json().expect("json")
    }

    pub fn submit(&self, game: &str, user: &User, mv: &Value) -> Response {
        self.post(&format!("/api/v1/games/{game}/moves"), Some(&user.token), mv)
    }

    pub fn log(&self, game: &str, token: Option<&str>, after: i64) -> Value {
        let response = self.get(&format!("/api/v1/games/{game}/moves?after={after}&limit=1000"), token);
        assert_eq!(response.status(), StatusCode::OK);
        response.json().expect("json")
    }

    /// Every entry of a game's log as `token`'s reader sees it, page by page.
    pub fn whole_log(&self, game: &str, token: Option<&str>) -> Vec<Value> {
        let mut entries: Vec<Value> = Vec::new();
        loop {
            let after = entries.last().map_or(0, |e| e["seq"].as_i64().expect("seq"));
            let page = self.log(game, token, after);
            let more = page["entries"].as_array().expect("entries").clone();
            if more.is_empty() {
                return entries;
            }
            entries.extend(more);
        }
    }

    /// Replays the stored log and compares it with the stored snapshot.
    pub fn check_replay(&self, game: &str) -> ReplayCheck {
        let id = Uuid::parse_str(game).expect("uuid");
        let mut conn = self.pool.get().expect("a connection");
        store::check_replay(&mut conn, id).expect("replay check")
    }
}

/// Asserts a problem response: status, content type and code. Returns the body.
pub fn assert_problem(response: Response, status: u16, code: &str) -> Value {
    assert_eq!(response.status().as_u16(), status, "status");
    let content_type =
        response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    assert_eq!(content_type, "application/problem+json");
    let path = response.url().path().to_owned();
    let body: Value = response.json().expect("problem json");
    crate::conformance::problem(&path, status, &body);
    assert_eq!(body["code"], code, "problem: {body}");
    assert_eq!(body["status"], status);
    assert!(body["type"].is_string() && body["title"].is_string() && body["detail"].is_string());
    body
}

// -------------------------------------------------------------------------------------------

pub mod postgres {
    //! A throwaway PostgreSQL cluster for the test process, or the one named by
    //! `TEST_DATABASE_URL` / `DATABASE_URL`.

    use super::*;

    pub struct Cluster {
        /// `postgres://user@host:port` with no database.
        base: String,
        /// Keeps the cleanup watchdog's stdin open; when this process exits, the pipe
        /// closes and the watchdog stops the cluster and deletes its directory.
        _watchdog: Option<Child>,
        /// How to run `pg_ctl` on a cluster the tests started (see [`own_cluster`]).
        ctl: Option<Ctl>,
    }

    /// What `pg_ctl` needs to stop and start a cluster again.
    struct Ctl {
        root: bool,
        bin: PathBuf,
        data: PathBuf,
        log: PathBuf,
        options: String,
    }

    /// A throwaway cluster of the calling test's own, which it may stop and start (the
    /// shared one must stay up for the other tests).
    pub fn own_cluster() -> Cluster {
        start_cluster().unwrap_or_else(|e| panic!("cannot start a PostgreSQL cluster: {e}"))
    }

    impl Cluster {
        fn pg_ctl(&self, args: &[&str]) -> Result<(), String> {
            let ctl = self.ctl.as_ref().ok_or("not a cluster the tests started")?;
            let mut pg_ctl = pg_command(ctl.root, ctl.bin.join("pg_ctl"));
            pg_ctl.arg("-D").arg(&ctl.data).arg("-l").arg(&ctl.log).arg("-o").arg(&ctl.options).args(args);
            run(pg_ctl, "pg_ctl")
        }

        /// Stops the cluster (`mode`: `fast` or `immediate`), waiting until it is down.
        pub fn stop(&self, mode: &str) {
            self.pg_ctl(&["-w", "-m", mode, "stop"]).expect("pg_ctl stop");
        }

        /// Starts the stopped cluster again, on the same port, waiting until it answers.
        pub fn start(&self) {
            self.pg_ctl(&["-w", "-t", "60", "start"]).expect("pg_ctl start");
        }

        /// Creates an empty database in this cluster and returns its URL.
        pub fn fresh_database(&self) -> String {
            let name = format!("catan_test_{}", Uuid::new_v4().simple());
            let mut admin =
                diesel::PgConnection::establish(&format!("{}/postgres", self.base)).expect("connect to the cluster");
            diesel::sql_query(format!("CREATE DATABASE {name}")).execute(&mut admin).expect("create a database");
            format!("{}/{name}", self.base)
        }
    }

    static CLUSTER: OnceLock<Result<Cluster, String>> = OnceLock::new();

    fn base_of(url: &str) -> String {
        let url = url.split('?').next().unwrap_or(url);
        let (scheme, rest) = url.split_once("://").expect("a postgres URL");
        let authority = rest.split('/').next().unwrap_or(rest);
        format!("{scheme}://{authority}")
    }

    fn cluster() -> &'static Cluster {
        let cluster = CLUSTER.get_or_init(|| {
            for var in ["TEST_DATABASE_URL", "DATABASE_URL"] {
                if let Ok(url) = std::env::var(var) {
                    if url.starts_with("postgres") {
                        return Ok(Cluster { base: base_of(&url), _watchdog: None, ctl: None });
                    }
                }
            }
            start_cluster()
        });
        match cluster {
            Ok(cluster) => cluster,
            Err(e) => panic!("cannot start a PostgreSQL cluster for the tests: {e}"),
        }
    }

    fn bin_dir() -> Result<PathBuf, String> {
        if let Ok(dir) = std::env::var("PG_BIN_DIR") {
            return Ok(dir.into());
        }
        let mut candidates: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path().join("bin"))
                    .filter(|p| p.join("initdb").exists())
                    .collect()
            })
            .unwrap_or_default();
        candidates.sort();
        if let Some(dir) = candidates.pop() {
            return Ok(dir);
        }
        let output = Command::new("pg_config")
            .arg("--bindir")
            .output()
            .map_err(|e| format!("no PostgreSQL binaries (pg_config: {e}); set PG_BIN_DIR"))?;
        Ok(String::from_utf8_lossy(&output.stdout).trim().into())
    }

    fn is_root() -> bool {
        Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false)
    }

    /// A command run as the `postgres` user when we are root (PostgreSQL refuses root).
    fn pg_command(root: bool, program: PathBuf) -> Command {
        if root {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(program);
            command
        } else {
            Command::new(program)
        }
    }

    fn free_port() -> u16 {
        std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
    }

    fn run(mut command: Command, what: &str) -> Result<(), String> {
        let output = command.output().map_err(|e| format!("{what}: {e}"))?;
        if output.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{what} failed: {}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ))
        }
    }

    fn start_cluster() -> Result<Cluster, String> {
        let bin = bin_dir()?;
        let root = is_root();
        let dir = temp_dir("catan-pg");
        let data = dir.join("data");
        if root {
            run(
                {
                    let mut c = Command::new("chown");
                    c.arg("-R").arg("postgres:").arg(&dir);
                    c
                },
                "chown",
            )?;
        }
        let mut initdb = pg_command(root, bin.join("initdb"));
        initdb.arg("-D").arg(&data).args(["-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
        run(initdb, "initdb")?;
        let port = free_port();
        let options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c max_connections=400 \
             -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
            dir.display()
        );
        let mut pg_ctl = pg_command(root, bin.join("pg_ctl"));
        pg_ctl
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(dir.join("postgres.log"))
            .arg("-o")
            .arg(&options)
            .args(["-w", "-t", "60", "start"]);
        run(pg_ctl, "pg_ctl start")?;

        // Stop the cluster and remove its files when this process exits (stdin closes).
        let stop = format!(
            "cat >/dev/null; {} '{}/pg_ctl' -D '{}' -m immediate stop >/dev/null 2>&1; rm -rf '{}'",
            if root { "runuser -u postgres --" } else { "" },
            bin.display(),
            data.display(),
            dir.display()
        );
        let mut watchdog = Command::new("sh");
        watchdog.args(["-c", &stop]).stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null());
        std::os::unix::process::CommandExt::process_group(&mut watchdog, 0);
        let mut watchdog = watchdog.spawn().map_err(|e| format!("watchdog: {e}"))?;
        if let Some(stdin) = watchdog.stdin.as_mut() {
            let _ = stdin.flush();
        }
        let ctl = Ctl { root, bin, data, log: dir.join("postgres.log"), options };
        Ok(Cluster { base: format!("postgres://postgres@127.0.0.1:{port}"), _watchdog: Some(watchdog), ctl: Some(ctl) })
    }

    /// Runs one statement in the cluster's `postgres` database.
    pub fn admin(sql: &str) {
        let cluster = cluster();
        let mut admin = diesel::PgConnection::establish(&format!("{}/postgres", cluster.base))
            .expect("connect to the test cluster");
        diesel::sql_query(sql).execute(&mut admin).expect("admin statement");
    }

    /// Creates an empty database and returns its URL.
    pub fn fresh_database() -> String {
        let cluster = cluster();
        let name = format!("catan_test_{}", Uuid::new_v4().simple());
        let mut admin = diesel::PgConnection::establish(&format!("{}/postgres", cluster.base))
            .expect("connect to the test cluster");
        diesel::sql_query(format!("CREATE DATABASE {name}")).execute(&mut admin).expect("create a test database");
        format!("{}/{name}", cluster.base)
    }
}

/// Picks among legal moves at random, weighted toward building exactly like the engine's
/// random bot, so that games end.
pub fn choose<'a>(options: &'a [Value], rng: &mut impl rand::Rng) -> &'a Value {
    let moves: Vec<catan_engine::Move> =
        options.iter().map(|mv| serde_json::from_value(mv.clone()).expect("a legal move parses as a move")).collect();
    &options[catan_engine::bots::RandomBot::weighted_pick(&moves, |bound| rng.gen_range(0..bound))]
}
