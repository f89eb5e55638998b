//! Several server processes on one PostgreSQL: a waiter on one process (long-poll or SSE)
//! wakes when a move commits on another, through `LISTEN/NOTIFY`.

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use reqwest::StatusCode;
use serde_json::Value;

use crate::{
    games::active_seat,
    helpers::{postgres, spawn_app_at, TestApp},
    stream::Sse,
};

/// The built `catan-server` binary on `database_url`, with the tests' secret and plain logs:
/// add the subcommand and its arguments.
pub fn server_command(database_url: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_catan-server"));
    command.env("DATABASE_URL", database_url).env("JWT_SECRET", "test-secret").env("NO_COLOR", "1");
    command
}

/// The built `catan-server` binary serving `database_url` on a free port, as its own process.
pub struct ServerProcess {
    child: Child,
    pub base: String,
    data_dir: std::path::PathBuf,
}

impl ServerProcess {
    pub fn start(database_url: &str) -> ServerProcess {
        let data_dir = std::env::temp_dir().join(format!("catan-proc-{}", uuid::Uuid::new_v4().simple()));
        let mut child = server_command(database_url)
            .args(["serve", "--bind", "127.0.0.1:0", "--data-dir"])
            .arg(&data_dir)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start catan-server");
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let port = loop {
            let line = lines.next().expect("the server logs until it listens").expect("a log line");
            if let Some(rest) = line.split("listening on http://127.0.0.1:").nth(1) {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                break digits.parse::<u16>().expect("a port");
            }
        };
        // Keep draining the logs so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        ServerProcess { child, base: format!("http://127.0.0.1:{port}"), data_dir }
    }
}

impl ServerProcess {
    /// The process id, to read its memory in `/proc`.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}

/// A long-poll on `reader` for entries after `after`, in a thread.
fn long_poll(reader: &str, app: &TestApp, id: &str, after: i64) -> std::thread::JoinHandle<(Value, Duration)> {
    let url = format!("{reader}/api/v1/games/{id}/moves?after={after}&wait=25");
    let client = app.client.clone();
    std::thread::spawn(move || {
        let started = Instant::now();
        let body: Value = client.get(url).send().expect("long-poll").json().expect("json");
        (body, started.elapsed())
    })
}

#[test]
fn a_waiter_on_one_process_wakes_for_a_move_on_another() {
    let url = postgres::fresh_database();
    // One server in this process, one in a process of its own; same database, own notifiers.
    let app = spawn_app_at(Some(url.clone()));
    let other = ServerProcess::start(&url);
    let (id, users) = app.started_game(2, 17);
    assert_eq!(reqwest::blocking::get(format!("{}/healthz", other.base)).unwrap().status(), StatusCode::OK);

    let mut sse = Sse::open_at(&other.base, &app, &id, None);
    assert_eq!(sse.next().event, "snapshot");
    let mut version = 1;
    for round in 0..6 {
        if round == 4 {
            // Cut every LISTEN connection: the listeners reconnect (with backoff) and go on.
            let database = url.rsplit('/').next().unwrap();
            postgres::admin(&format!(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE datname = '{database}' AND query LIKE 'LISTEN%'"
            ));
            std::thread::sleep(Duration::from_millis(1500));
        }
        // Alternate: wait on the other process and move here, then the reverse.
        let (reader, writer) = if round % 2 == 0 {
            (other.base.clone(), app.base.clone())
        } else {
            (app.base.clone(), other.base.clone())
        };
        let waiter = long_poll(&reader, &app, &id, version);
        std::thread::sleep(Duration::from_millis(300));
        let seat = active_seat(&app, &id);
        let mv = app.legal_moves(&id, &users[seat])["moves"][0].clone();
        let response = app
            .client
            .post(format!("{writer}/api/v1/games/{id}/moves"))
            .bearer_auth(&users[seat].token)
            .json(&mv)
            .send()
            .unwrap();
        assert_eq!(response.status(), StatusCode::CREATED);
        version += 1;
        let (body, waited) = waiter.join().unwrap();
        assert_eq!(body["entries"][0]["seq"], version, "round {round}: {body}");
        assert!(waited < Duration::from_secs(10), "round {round}: woken by the commit, not the timeout ({waited:?})");
        // The stream on the other process saw it too.
        assert_eq!(sse.next_entry().id, Some(version));
    }
}

/// A process decides a move on the state it last saw and writes it only if the game is still
/// at that version: after another process has moved, a move that was legal on the old state
/// is judged on the new one, and a correct move still lands, with the log contiguous.
#[test]
fn a_process_that_missed_a_move_judges_the_next_on_the_latest_state() {
    let url = postgres::fresh_database();
    let app = spawn_app_at(Some(url.clone()));
    let other = ServerProcess::start(&url);
    let (id, users) = app.started_game(2, 23);
    let seat = active_seat(&app, &id);
    let user = &users[seat];
    let legal_at = |base: &str| -> Value {
        let url = format!("{base}/api/v1/games/{id}/legal-moves");
        app.send(app.client.get(url).bearer_auth(&user.token)).json().unwrap()
    };
    let post_at = |base: &str, mv: &Value| {
        let url = format!("{base}/api/v1/games/{id}/moves");
        app.send(app.client.post(url).bearer_auth(&user.token).json(mv))
    };
    // The other process learns the game at version 1 (and the caller's seat).
    let first = legal_at(&other.base);
    assert_eq!(first["version"], 1);
    let placement = first["moves"][0].clone();
    assert_eq!(placement["type"], "build_settlement", "setup begins with a settlement");

    // This process plays it: version 2, which the other process has not read.
    assert_eq!(post_at(&app.base, &placement).status(), StatusCode::CREATED);

    // Legal on the other process's version 1, not on version 2 (a road must follow now).
    let replayed = post_at(&other.base, &placement);
    assert_eq!(replayed.status(), StatusCode::UNPROCESSABLE_ENTITY, "{}", replayed.text().unwrap());

    // The road the game now expects lands on the other process as version 3.
    let road = legal_at(&app.base)["moves"][0].clone();
    assert_eq!(road["type"], "build_road");
    let played = post_at(&other.base, &road);
    assert_eq!(played.status(), StatusCode::CREATED);
    assert_eq!(played.json::<Value>().unwrap()["version"], 3);

    let log = app.log(&id, None, 0);
    let seqs: Vec<i64> = log["entries"].as_array().unwrap().iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    assert_eq!(seqs, [1, 2, 3]);
    let check = app.check_replay(&id);
    assert!(check.contiguous && check.matches_snapshot, "{check:?}");
}

/// A process trusts its memory of a game in progress only where it sees every commit: on
/// PostgreSQL another process may have just moved and not yet announced it, so a read right
/// after a move through another process (view, `If-None-Match`, legal moves, log) sees it.
#[test]
fn a_read_right_after_a_move_through_another_process_sees_it() {
    let url = postgres::fresh_database();
    let app = spawn_app_at(Some(url.clone()));
    let other = ServerProcess::start(&url);
    let (id, users) = app.started_game(2, 29);
    let get = |base: &str, path: &str, token: Option<&str>, tag: Option<&str>| {
        let mut request = app.client.get(format!("{base}/api/v1/games/{id}{path}"));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(tag) = tag {
            request = request.header("If-None-Match", tag);
        }
        let response = request.send().unwrap();
        let status = response.status();
        let tag = response.headers().get("etag").map(|t| t.to_str().unwrap().to_owned());
        (status, tag, response.json::<Value>().unwrap_or_default())
    };
    for round in 0..8 {
        let (writer, reader) = if round % 2 == 0 { (&app.base, &other.base) } else { (&other.base, &app.base) };
        let seat = active_seat(&app, &id);
        let token = Some(users[seat].token.as_str());
        // The reader has served the current version to everyone (twice: then from memory).
        let mut tag = None;
        for _ in 0..2 {
            let (status, etag, view) = get(reader, "", None, None);
            assert_eq!(status, StatusCode::OK);
            tag = etag;
            let version = view["version"].as_i64().unwrap();
            assert_eq!(get(reader, "", None, tag.as_deref()).0, StatusCode::NOT_MODIFIED);
            assert_eq!(get(reader, "/legal-moves", token, None).2["version"], version);
            assert_eq!(get(reader, "/moves?after=0", token, None).2["version"], version);
        }
        let (_, _, legal) = get(writer, "/legal-moves", token, None);
        let mv = legal["moves"][0].clone();
        let url = format!("{writer}/api/v1/games/{id}/moves");
        let played = app.send(app.client.post(url).bearer_auth(&users[seat].token).json(&mv));
        assert_eq!(played.status(), StatusCode::CREATED);
        let version = played.json::<Value>().unwrap()["version"].as_i64().unwrap();

        let (status, new_tag, view) = get(reader, "", None, tag.as_deref());
        assert_eq!(status, StatusCode::OK, "round {round}: the old tag is stale");
        assert_eq!(view["version"], version, "round {round}");
        assert_eq!(new_tag, Some(format!("\"v{version}\"")));
        assert_eq!(get(reader, "/legal-moves", token, None).2["version"], version, "round {round}");
        let log = get(reader, "/moves?after=0", token, None).2;
        assert_eq!(log["version"], version, "round {round}");
        assert_eq!(log["entries"].as_array().unwrap().len() as i64, version, "round {round}");
    }
}

/// A SQLite file is served by one process: its read cache trusts that every commit is its
/// own. A second server on the same file refuses to start, saying why, and the first keeps
/// serving.
#[test]
fn a_second_process_on_the_same_sqlite_file_is_refused() {
    let dir = std::env::temp_dir().join(format!("catan-sole-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let database = dir.join("catan.sqlite3").to_string_lossy().into_owned();
    let first = ServerProcess::start(&database);
    let second = server_command(&database)
        .args(["serve", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(dir.join("second"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("run a second catan-server");
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "the second server must not start: {stderr}");
    assert!(stderr.contains("another catan-server process is serving the SQLite database"), "{stderr}");
    let health = reqwest::blocking::get(format!("{}/healthz", first.base)).expect("the first still serves");
    assert_eq!(health.status(), StatusCode::OK);
    drop(first);
    let _ = std::fs::remove_dir_all(&dir);
}
