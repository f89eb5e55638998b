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
    processes::{server_command, ServerProcess},
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
    app.send(app.client.post(format!("{base}/api/v1/games/{id}/moves")).bearer_auth(&users[seat].token).json(&mv))
}

#[test]
fn a_postgres_restart_costs_no_request_and_wakes_waiters_soon_after() {
    let cluster = postgres::own_cluster();
    let url = cluster.fresh_database();
    let app = spawn_app_at(Some(url.clone()));
    let other = ServerProcess::start(&url);
    let (id, users) = app.started_game(2, 31);
    assert_eq!(app.send(app.client.get(format!("{}/healthz", other.base))).status(), StatusCode::OK);

    // A restart while both processes are idle: the first request of each after it finds its
    // pooled connections closed, and is served all the same.
    cluster.stop("fast");
    cluster.start();
    let moved = play_at(&app, &app.base, &id, &users);
    assert_eq!(moved.status(), StatusCode::CREATED, "{}", moved.text().unwrap());
    let seen = app.send(app.client.get(format!("{}/api/v1/games/{id}/moves?after=0", other.base)));
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
            let response = app.send(app.client.get(format!("{base}/healthz")));
            let answered = asked.elapsed();
            assert_problem(response, 503, "database_unavailable");
            // A sanity bound only (the check waits half a second for a connection): it was
            // the pool's whole connection timeout.
            assert!(answered < Duration::from_secs(3), "503 after {answered:?}");
            eprintln!("healthz with the database down: 503 after {answered:?}");
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
    eprintln!("both processes listening again {relistened:?} after pg_ctl start returned");
    assert_eq!(listeners(&url), 2, "both processes listen again");
    assert!(relistened < Duration::from_secs(3), "listening again {relistened:?} after the database's return");
    for base in [&app.base, &other.base] {
        assert_eq!(app.send(app.client.get(format!("{base}/healthz"))).status(), StatusCode::OK);
    }
    let url = format!("{}/api/v1/games/{id}/moves?after=2&wait=20", other.base);
    let client = app.client.clone();
    let waiter = std::thread::spawn(move || client.get(url).send().unwrap().json::<Value>().unwrap());
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(play_at(&app, &app.base, &id, &users).status(), StatusCode::CREATED);
    let woken = waiter.join().unwrap();
    assert_eq!(woken["entries"][0]["seq"], 3, "woken by the move on the other process: {woken}");
}

/// A server killed (`kill -9`) in the middle of a keyed `POST /games` leaves neither the game
/// nor its key: the key commits with the game or not at all, so the retry on another process
/// creates the game (once), instead of being told for five minutes that the key is in use.
#[test]
fn a_crash_mid_request_leaves_no_stuck_key_and_no_duplicate() {
    let url = postgres::fresh_database();
    let app = spawn_app_at(Some(url.clone()));
    let victim = ServerProcess::start(&url);
    let alice = app.register("alice");
    let create = serde_json::json!({"max_players": 3});
    let post = |base: &str| {
        let request = app.client.post(format!("{base}/api/v1/games")).bearer_auth(&alice.token);
        request.header("Idempotency-Key", "crash").json(&create).send()
    };

    // Hold the request at its insert of the game: the game table is locked meanwhile.
    let mut locker = ::postgres::Client::connect(&url, ::postgres::NoTls).expect("connect");
    let mut lock = locker.transaction().expect("begin");
    lock.batch_execute("LOCK TABLE games IN EXCLUSIVE MODE").expect("lock the games");
    let victim_base = victim.base.clone();
    std::thread::scope(|scope| {
        let in_flight = scope.spawn(|| post(&victim_base));
        let (base, database) = url.rsplit_once('/').unwrap();
        let mut admin = ::postgres::Client::connect(&format!("{base}/postgres"), ::postgres::NoTls).unwrap();
        let waiting = "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' \
                       AND query LIKE 'INSERT INTO \"games\"%'";
        let asked = Instant::now();
        while admin.query_one(waiting, &[&database]).unwrap().get::<_, i64>(0) == 0 {
            assert!(asked.elapsed() < Duration::from_secs(30), "the request never reached the game's insert");
            std::thread::sleep(Duration::from_millis(20));
        }
        drop(victim);
        assert!(in_flight.join().unwrap().is_err(), "the killed server never answered");
    });
    lock.rollback().expect("unlock");

    let retried = post(&app.base).unwrap();
    assert_eq!(retried.status(), StatusCode::CREATED, "{}", retried.text().unwrap());
    assert!(retried.headers().get("idempotent-replayed").is_none(), "nothing ran before");
    let first: Value = retried.json().unwrap();
    let again = post(&app.base).unwrap();
    assert_eq!(again.headers().get("idempotent-replayed").unwrap(), "true");
    assert_eq!(again.json::<Value>().unwrap()["id"], first["id"]);
    let games: Value = app.get("/api/v1/games", None).json().unwrap();
    assert_eq!(games["games"].as_array().unwrap().len(), 1, "one game: {games}");
}

/// A listener that reconnects reads the versions of the games waited on, so that a commit
/// announced while its connection was down still wakes them.
#[test]
fn a_reconnected_listener_catches_up_on_the_games_waited_on() {
    let url = postgres::fresh_database();
    let app = spawn_app_at(Some(url.clone()));
    let (id, users) = app.started_game(2, 37);
    let game = uuid::Uuid::parse_str(&id).unwrap();
    // A notifier that heard nothing of the move below (as if its LISTEN connection was down).
    let deaf = catan_server::live::notify::Notifier::default();
    let waiter = deaf.subscribe(game);
    let unrelated = deaf.subscribe(uuid::Uuid::new_v4());
    assert_eq!(play_at(&app, &app.base, &id, &users).status(), StatusCode::CREATED);
    assert_eq!(*waiter.borrow(), 0);

    let mut client = ::postgres::Client::connect(&url, ::postgres::NoTls).unwrap();
    assert_eq!(catan_server::live::feed::catch_up(&mut client, &deaf).unwrap(), 1, "the one game that exists");
    assert_eq!(*waiter.borrow(), 2, "woken for version 2");
    assert_eq!(*unrelated.borrow(), 0);
}

/// A connection the database drops while a request runs on it (a restart or a failover in
/// the middle of the request) answers 503 `database_unavailable`, never a 500: the server is
/// not broken, the database was away, and the client may retry with its Idempotency-Key.
#[test]
fn a_connection_lost_mid_request_answers_503_not_500() {
    let url = postgres::fresh_database();
    let app = spawn_app_at(Some(url.clone()));
    let alice = app.register("alice");

    // Hold the request at its insert of the game, then end its database session.
    let mut locker = ::postgres::Client::connect(&url, ::postgres::NoTls).expect("connect");
    let mut lock = locker.transaction().expect("begin");
    lock.batch_execute("LOCK TABLE games IN EXCLUSIVE MODE").expect("lock the games");
    std::thread::scope(|scope| {
        let in_flight = scope.spawn(|| {
            let request = app.client.post(format!("{}/api/v1/games", app.base)).bearer_auth(&alice.token);
            request.json(&serde_json::json!({"max_players": 3})).send().expect("an answer")
        });
        let (base, database) = url.rsplit_once('/').unwrap();
        let mut admin = ::postgres::Client::connect(&format!("{base}/postgres"), ::postgres::NoTls).unwrap();
        let waiting = "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' \
                       AND query LIKE 'INSERT INTO \"games\"%'";
        let asked = Instant::now();
        let pid: i32 = loop {
            if let Some(row) = admin.query(waiting, &[&database]).unwrap().first() {
                break row.get(0);
            }
            assert!(asked.elapsed() < Duration::from_secs(30), "the request never reached the game's insert");
            std::thread::sleep(Duration::from_millis(20));
        };
        admin.execute("SELECT pg_terminate_backend($1)", &[&pid]).expect("terminate the request's session");
        let answer = in_flight.join().unwrap();
        assert_eq!(answer.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("2"));
        assert_problem(answer, 503, "database_unavailable");
    });
    lock.rollback().expect("unlock");

    // Nothing was half-written, and the next request is served.
    let games: Value = app.get("/api/v1/games", None).json().unwrap();
    assert_eq!(games["games"].as_array().unwrap().len(), 0, "no game: {games}");
    let created = app.client.post(format!("{}/api/v1/games", app.base)).bearer_auth(&alice.token);
    let created = created.json(&serde_json::json!({"max_players": 3})).send().unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
}

/// A failover demotes the leader while the pool holds connections to it (or a proxy still
/// routes to it for a moment): a write there fails as read-only. That is the database being
/// away, not the server broken: 503 `database_unavailable` with `Retry-After`, nothing
/// written, and the connection is dropped, so the first request after the database takes
/// writes again is served (issue 33).
#[test]
fn a_write_to_a_demoted_leader_answers_503_and_the_next_connection_writes() {
    let cluster = postgres::own_cluster();
    let url = cluster.fresh_database();
    let app = spawn_app_at(Some(url.clone()));
    let (id, users) = app.started_game(2, 33);
    let (base, _) = url.rsplit_once('/').unwrap();
    let mut admin = ::postgres::Client::connect(&format!("{base}/postgres"), ::postgres::NoTls).unwrap();
    let read_only = |admin: &mut ::postgres::Client, on: bool| {
        let set = if on {
            "ALTER SYSTEM SET default_transaction_read_only = on"
        } else {
            "ALTER SYSTEM RESET default_transaction_read_only"
        };
        // One statement a call: ALTER SYSTEM refuses the transaction a batch runs in.
        for statement in ["SET default_transaction_read_only = off", set, "SELECT pg_reload_conf()"] {
            admin.batch_execute(statement).unwrap();
        }
        // Every session applies a reload at its next command; give them a moment to get the signal.
        std::thread::sleep(Duration::from_millis(300));
    };
    let version = |app: &TestApp| {
        app.get(&format!("/api/v1/games/{id}"), Some(&users[0].token)).json::<Value>().unwrap()["version"].clone()
    };
    let before = version(&app);

    read_only(&mut admin, true);
    for _ in 0..3 {
        let refused = play_at(&app, &app.base, &id, &users);
        assert_eq!(refused.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("2"));
        assert_problem(refused, 503, "database_unavailable");
    }
    assert_eq!(version(&app), before, "nothing was written");

    read_only(&mut admin, false);
    let moved = play_at(&app, &app.base, &id, &users);
    assert_eq!(moved.status(), StatusCode::CREATED, "{}", moved.text().unwrap());
}

/// `catan-server verify`, the failover check's last word on the database (issue 33): every
/// game's log runs 1..version and replays to its snapshot; a game that lost its last entry
/// is named and the exit status says so.
#[test]
fn verify_names_every_game_whose_log_does_not_give_its_snapshot() {
    let url = postgres::fresh_database();
    let app = spawn_app_at(Some(url.clone()));
    let (id, users) = app.started_game(2, 34);
    for _ in 0..3 {
        let moved = play_at(&app, &app.base, &id, &users);
        assert_eq!(moved.status(), StatusCode::CREATED);
    }
    let (other, _) = app.started_game(3, 35);
    let verify = || {
        let output = server_command(&url).arg("verify").output().expect("run catan-server verify");
        (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let (code, printed) = verify();
    assert_eq!(code, Some(0), "{printed}");
    assert!(printed.contains("verify: 2 games, 5 log entries, 0 faulty"), "{printed}");

    // The last entry of one game gone (what a failover that lost a commit would leave if the
    // snapshot had been written apart from the log).
    let mut admin = ::postgres::Client::connect(&url, ::postgres::NoTls).unwrap();
    admin.execute("DELETE FROM game_moves WHERE game_id = $1 AND seq = 4", &[&id]).unwrap();
    let (code, printed) = verify();
    assert_eq!(code, Some(1), "{printed}");
    assert!(printed.contains(&format!("{id}: 3 entries for version 4")), "{printed}");
    assert!(!printed.contains(&other), "{printed}");
    assert!(printed.contains("verify: 2 games, 4 log entries, 1 faulty"), "{printed}");
}
