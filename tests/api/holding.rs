//! Limits on what one client can hold: a body that stalls midway is answered 408 after the
//! body timeout, and reads of games that do not exist leave nothing behind.

use std::{
    io::{Read, Write},
    net::TcpStream,
    time::Duration,
};

use reqwest::StatusCode;
use serde_json::Value;

use crate::{
    both_backends,
    helpers::{postgres, spawn_app_with, Backend, TestApp},
};

both_backends!(a_stalled_body_is_answered_408, reads_of_unknown_games_leave_nothing_behind);

fn app_with_body_timeout(backend: Backend, timeout: Duration) -> TestApp {
    let url = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(postgres::fresh_database()),
    };
    spawn_app_with(url, |config| config.body_timeout = timeout)
}

/// Sends a request's head and half its body, then waits: returns what the server answered.
fn stall_midway(app: &TestApp, path: &str, token: Option<&str>) -> String {
    let address = app.base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\n{auth}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(br#"{"username": "alice", "pass"#).unwrap();
    let mut answer = Vec::new();
    // The server answers and closes the connection; a read timeout means it held it open.
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn a_stalled_body_is_answered_408(backend: Backend) {
    let app = app_with_body_timeout(backend, Duration::from_secs(1));
    let user = app.register("bob");
    for (path, token) in [("/api/v1/users", None), ("/api/v1/games", Some(user.token.as_str()))] {
        let answer = stall_midway(&app, path, token);
        assert!(answer.starts_with("HTTP/1.1 408"), "{path}: {answer:?}");
        let lower = answer.to_ascii_lowercase();
        assert!(lower.contains("content-type: application/problem+json"), "{answer}");
        assert!(lower.contains("connection: close"), "{answer}");
        let body: Value = serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap_or_default()).unwrap();
        assert_eq!(body["code"], "request_timeout");
    }
    // A join reads its body as bytes: the same deadline.
    let game = app.create_game(&user, &serde_json::json!({"max_players": 2}));
    let join = format!("/api/v1/games/{}/players", game["id"].as_str().unwrap());
    assert!(stall_midway(&app, &join, Some(&user.token)).starts_with("HTTP/1.1 408"));
    // Bodies that arrive whole are unaffected, and the server goes on serving.
    assert_eq!(app.get("/healthz", None).status(), StatusCode::OK);
    app.register("carol");
}

/// Reads of games that do not exist (views, legal moves, long-polls, event streams) answer
/// 404 and leave nothing behind per id: the waiters' channels are dropped as they double, and
/// nothing enters the read cache.
fn reads_of_unknown_games_leave_nothing_behind(backend: Backend) {
    let app = app_with_body_timeout(backend, Duration::from_secs(10));
    let user = app.register("alice");
    let (id, _) = app.started_game(2, 5);
    assert_eq!(app.get(&format!("/api/v1/games/{id}/moves?after=0"), None).status(), StatusCode::OK);
    let cached = app.reads.cached_bytes();
    for i in 0..3_000 {
        let unknown = uuid::Uuid::new_v4();
        let path = match i % 4 {
            0 => format!("/api/v1/games/{unknown}"),
            1 => format!("/api/v1/games/{unknown}/legal-moves"),
            2 => format!("/api/v1/games/{unknown}/moves?after=0&wait=5"),
            _ => format!("/api/v1/games/{unknown}/stream"),
        };
        let response = app.get(&path, Some(&user.token));
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
    }
    assert!(app.notifier.channels() <= 2 * 1024, "{} channels kept", app.notifier.channels());
    assert_eq!(app.reads.cached_bytes(), cached, "nothing cached for unknown games");
}
