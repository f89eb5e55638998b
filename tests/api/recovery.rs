//! Recovery after a PostgreSQL restart: the first request after it is served (a pooled
//! connection the restart closed is replaced, not a 500), `/healthz` answers 503 at once
//! while the database is down, and the LISTEN connections are back within about a second,
//! so a long-poll on one process wakes for a move on another.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::Value;

use crate::{
    games::active_seat,
    helpers::{assert_problem, postgres, spawn_app_at, TestApp, User},
    processes::ServerProcess,
};

/// How many processes `LISTEN` on the database of `url`.
fn listeners(url: &str) -> i64 {
    let (base, database) = url.rsplit_once('/').expect("a database URL");
    let Ok(mut admin) = ::postgres::Client::connect(&format!("{base}/postgres"), ::postgres::NoTls) else {
        return 0;
    };
    let sql = "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%'";
    admin.query_one(sql, &[&database]).map_or(0, |row| row.get(0))
}

/// Plays the active seat's first legal move through the server at `base`.
fn play_at(app: &TestApp, base: &str, id: &str, users: &[User]) -> reqwest::blocking::Response {
    let seat = active_seat(app, id);
    let mv = app.legal_moves(id, &users[seat])["moves"][0].clone();
    app.client.post(format!("{base}/api/v1/games/{id}/moves")).bearer_auth(&users[seat].token).json(&mv).send().unwrap()
}

#[test]
fn a_postgres_restart_costs_no_request_and_wakes_waiters_soon_after() {
    let cluster = postgres::own_cluster();
    let url = cluster.fresh_database();
    let app = spawn_app_at(Some(url.clone()));
    let other = ServerProcess::start(&url);
    let (id, users) = app.started_game(2, 31);
    assert_eq!(app.client.get(format!("{}/healthz", other.base)).send().unwrap().status(), StatusCode::OK);

    // A restart while both processes are idle: the first request of each after it finds its
    // pooled connections closed, and is served all the same.
    cluster.stop("fast");
    cluster.start();
    let moved = play_at(&app, &app.base, &id, &users);
    assert_eq!(moved.status(), StatusCode::CREATED, "{}", moved.text().unwrap());
    let seen = app.client.get(format!("{}/api/v1/games/{id}/moves?after=0", other.base)).send().unwrap();
    assert_eq!(seen.status(), StatusCode::OK, "{}", seen.text().unwrap());
    assert_eq!(seen.json::<Value>().unwrap()["version"], 2);

    // The database is down: the health check says so at once, on every try. (A fast stop:
    // the test cluster runs with `synchronous_commit=off`, so an immediate one could lose
    // the last commits.)
    cluster.stop("fast");
    let down = Instant::now();
    while down.elapsed() < Duration::from_secs(8) {
        for base in [&app.base, &other.base] {
            let asked = Instant::now();
            let response = app.client.get(format!("{base}/healthz")).send().unwrap();
            let answered = asked.elapsed();
            assert_problem(response, 503, "database_unavailable");
            // A sanity bound only (the check waits half a second for a connection): it was
            // the pool's whole connection timeout.
            assert!(answered < Duration::from_secs(3), "503 after {answered:?}");
        }
        std::thread::sleep(Duration::from_millis(500));
    }

    // Back up: both processes listen again soon (their retries stay frequent however long
    // the outage was), and a long-poll on one wakes for a move on the other.
    cluster.start();
    let up = Instant::now();
    while listeners(&url) < 2 && up.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let relistened = up.elapsed();
    assert_eq!(listeners(&url), 2, "both processes listen again");
    assert!(relistened < Duration::from_secs(3), "listening again {relistened:?} after the database's return");
    for base in [&app.base, &other.base] {
        assert_eq!(app.client.get(format!("{base}/healthz")).send().unwrap().status(), StatusCode::OK);
    }
    let url = format!("{}/api/v1/games/{id}/moves?after=2&wait=20", other.base);
    let client = app.client.clone();
    let waiter = std::thread::spawn(move || client.get(url).send().unwrap().json::<Value>().unwrap());
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(play_at(&app, &app.base, &id, &users).status(), StatusCode::CREATED);
    let woken = waiter.join().unwrap();
    assert_eq!(woken["entries"][0]["seq"], 3, "woken by the move on the other process: {woken}");
}
