//! Rate limits and quotas (issue 15): per address and per account on registration and
//! login, per account on game creation and moves, the cap on unfinished games, the bounded
//! password hashing pool, the dummy hash for unknown users and case-insensitive usernames.

use std::sync::Barrier;

use catan_server::http::limits::LimitsConfig;
use diesel::{connection::SimpleConnection, ExpressionMethods, QueryDsl, RunQueryDsl};
use reqwest::{blocking::Response, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{assert_problem, postgres, spawn_app_with, Backend, TestApp};

/// A server on `backend` with no rate limit or cap but those `limits` sets.
fn spawn_limited(backend: Backend, limits: impl FnOnce(&mut LimitsConfig)) -> TestApp {
    let url = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(postgres::fresh_database()),
    };
    spawn_app_with(url, |config| {
        config.limits = LimitsConfig::unlimited();
        limits(&mut config.limits);
    })
}

fn login(app: &TestApp, username: &str, password: &str) -> Response {
    app.post("/api/v1/tokens", None, &json!({"username": username, "password": password}))
}

fn login_from(app: &TestApp, forwarded_for: &str, username: &str) -> Response {
    app.client
        .post(app.url("/api/v1/tokens"))
        .header("X-Forwarded-For", forwarded_for)
        .json(&json!({"username": username, "password": "wrong-password"}))
        .send()
        .expect("POST")
}

fn register(app: &TestApp, username: &str) -> Response {
    app.post("/api/v1/users", None, &json!({"username": username, "password": "secret-password"}))
}

fn header(response: &Response, name: &str) -> String {
    response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned()
}

/// Asserts a 429 `rate_limited` with its headers for a limit of `burst` refilled in `window`
/// seconds; returns the problem.
fn assert_rate_limited(response: Response, burst: u32, window: u64) -> Value {
    let retry_after: u64 = header(&response, "retry-after").parse().expect("Retry-After in seconds");
    assert!((1..=window).contains(&retry_after), "Retry-After {retry_after}");
    assert_eq!(header(&response, "ratelimit-limit"), burst.to_string());
    assert_eq!(header(&response, "ratelimit-remaining"), "0");
    assert_eq!(header(&response, "ratelimit-reset"), retry_after.to_string());
    assert_eq!(header(&response, "ratelimit-policy"), format!("{burst};w={window}"));
    assert_problem(response, 429, "rate_limited")
}

crate::both_backends!(
    logins_are_limited_per_address_and_per_account,
    unknown_users_count_toward_their_name,
    registrations_are_limited_per_address_and_per_username,
    forwarded_for_counts_only_behind_a_trusted_proxy,
    moves_and_trade_actions_are_limited_per_account,
    played_moves_and_long_polls_are_never_limited_refusals_and_reads_are,
    game_creation_is_limited_per_account,
    unfinished_games_are_capped_per_account,
    usernames_are_case_insensitive,
    accounts_that_differ_only_by_case_survive_the_migration,
    a_full_hashing_queue_is_a_quick_503,
    an_unknown_user_costs_a_password_check,
);

fn logins_are_limited_per_address_and_per_account(backend: Backend) {
    let app = spawn_limited(backend, |l| {
        l.login_per_account_per_min = 3;
        l.login_per_address_per_min = 5;
    });
    app.register("alice");
    // Wrong passwords count.
    for _ in 0..3 {
        assert_problem(login(&app, "alice", "wrong-password"), 401, "unauthorized");
    }
    // The right password, in another case: the account's budget is spent.
    let problem = assert_rate_limited(login(&app, "ALICE", "secret-password"), 3, 60);
    assert!(problem["detail"].as_str().unwrap().contains("this account"), "{problem}");
    // The address has one attempt left, then any name is refused.
    assert_problem(login(&app, "someone", "wrong-password"), 401, "unauthorized");
    let problem = assert_rate_limited(login(&app, "someone-else", "wrong-password"), 5, 60);
    assert!(problem["detail"].as_str().unwrap().contains("this address"), "{problem}");
}

fn unknown_users_count_toward_their_name(backend: Backend) {
    let app = spawn_limited(backend, |l| l.login_per_account_per_min = 2);
    for _ in 0..2 {
        assert_problem(login(&app, "ghost", "wrong-password"), 401, "unauthorized");
    }
    assert_rate_limited(login(&app, "Ghost", "wrong-password"), 2, 60);
    // Another name is not limited by the first.
    app.register("real");
    assert_eq!(login(&app, "real", "secret-password").status(), StatusCode::OK);
}

fn registrations_are_limited_per_address_and_per_username(backend: Backend) {
    let app = spawn_limited(backend, |l| {
        l.register_per_account_per_min = 2;
        l.register_per_address_per_min = 4;
    });
    assert_eq!(register(&app, "carol").status(), StatusCode::CREATED);
    assert_problem(register(&app, "CAROL"), 409, "username_taken");
    assert_rate_limited(register(&app, "Carol"), 2, 60);
    assert_eq!(register(&app, "dave").status(), StatusCode::CREATED);
    assert_rate_limited(register(&app, "erin"), 4, 60);
}

fn forwarded_for_counts_only_behind_a_trusted_proxy(backend: Backend) {
    // Untrusted: the header is ignored, every request is the peer's.
    let app = spawn_limited(backend, |l| l.login_per_address_per_min = 1);
    assert_problem(login_from(&app, "198.51.100.1", "a-name"), 401, "unauthorized");
    assert_rate_limited(login_from(&app, "198.51.100.2", "a-name"), 1, 60);
    drop(app);
    // Behind a trusted proxy: each forwarded client has its own budget.
    let app = spawn_limited(backend, |l| {
        l.login_per_address_per_min = 1;
        l.trusted_proxies = vec!["127.0.0.0/8".parse().unwrap()];
    });
    assert_problem(login_from(&app, "198.51.100.1", "a-name"), 401, "unauthorized");
    assert_problem(login_from(&app, "198.51.100.2", "a-name"), 401, "unauthorized");
    assert_rate_limited(login_from(&app, "203.0.113.5, 198.51.100.1", "a-name"), 1, 60);
}

fn moves_and_trade_actions_are_limited_per_account(backend: Backend) {
    let app = spawn_limited(backend, |l| {
        l.moves_per_sec = 1;
        l.moves_burst = 2;
    });
    let (id, users) = app.started_game(2, 7);
    let moves = format!("/api/v1/games/{id}/moves");
    // Refused moves count too: each one cost the server a transaction.
    let out_of_turn = json!({"type": "end_turn"});
    for _ in 0..2 {
        assert_eq!(app.post(&moves, Some(&users[1].token), &out_of_turn).status().as_u16(), 422);
    }
    let response = app.post(&moves, Some(&users[1].token), &out_of_turn);
    assert_eq!(header(&response, "retry-after"), "1");
    assert_rate_limited(response, 2, 2);
    // A trade action is a move: limited alike.
    let offer = json!({"give": {"brick": 1}, "get": {"wool": 1}});
    assert_rate_limited(app.post(&format!("/api/v1/games/{id}/trades"), Some(&users[1].token), &offer), 2, 2);
    // The other player is not limited by it.
    assert_ne!(app.post(&moves, Some(&users[0].token), &out_of_turn).status().as_u16(), 429);
}

/// Issue 31: what advances a game is never limited, what costs without advancing one is.
fn played_moves_and_long_polls_are_never_limited_refusals_and_reads_are(backend: Backend) {
    let app = spawn_limited(backend, |l| {
        l.moves_per_sec = 1;
        l.moves_burst = 2;
        l.reads_per_sec = 1;
        l.reads_burst = 3;
    });
    let (id, users) = app.started_game(2, 7);
    let moves = format!("/api/v1/games/{id}/moves");
    // The whole setup, eight placements, at once: far past the moves burst of 2. Each is
    // found by a long-poll that follows the game: past the reads burst of 3 too, and free.
    let start: Value = app.get(&format!("{moves}?after=0&wait=1"), Some(&users[0].token)).json().unwrap();
    let mut seat = start["entries"][0]["waiting_for"][0].as_u64().expect("the first seat") as usize;
    for step in 0..8 {
        let follow = format!("{moves}?after={}&wait=5&until=my_move&include=legal_moves", step + 1);
        let page = app.get(&follow, Some(&users[seat].token));
        assert_eq!(page.status().as_u16(), 200, "step {step}");
        let mv = page.json::<Value>().unwrap()["legal_moves"]["moves"][0].clone();
        let played = app.post(&moves, Some(&users[seat].token), &mv);
        assert_eq!(played.status().as_u16(), 201, "step {step}: {mv}");
        seat = played.json::<Value>().unwrap()["waiting_for"][0].as_u64().unwrap_or(0) as usize;
    }
    let (mover, other) = (&users[seat], &users[1 - seat]);
    // Refusals count: two (ending the turn before the roll), then 429 instead of the third 422.
    let end_turn = json!({"type": "end_turn"});
    for _ in 0..2 {
        assert_eq!(app.post(&moves, Some(&mover.token), &end_turn).status().as_u16(), 422);
    }
    assert_rate_limited(app.post(&moves, Some(&mover.token), &end_turn), 2, 2);
    // ... while a move that is played still is, over the limit; the other account has its own.
    let roll = json!({"type": "roll_dice"});
    assert_eq!(app.post(&moves, Some(&mover.token), &roll).status().as_u16(), 201);
    assert_eq!(app.post(&moves, Some(&other.token), &end_turn).status().as_u16(), 422);

    let reader = app.register("reader");
    for _ in 0..3 {
        assert_eq!(app.get(&format!("/api/v1/games/{id}"), Some(&reader.token)).status().as_u16(), 200);
    }
    assert_rate_limited(app.get(&format!("/api/v1/games/{id}"), Some(&reader.token)), 3, 3);
    // A long-poll that waits for a move costs nothing, over the limit too.
    let version = app.game(&id, None)["version"].as_i64().unwrap();
    let follow = format!("/api/v1/games/{id}/moves?after={version}&wait=1");
    assert_eq!(app.get(&follow, Some(&reader.token)).status().as_u16(), 200);
    // Without a token, the client address has its own budget (this one's is still full).
    let anonymous = app.get(&format!("/api/v1/games/{id}"), None);
    assert_eq!(anonymous.status().as_u16(), 200);
}

fn game_creation_is_limited_per_account(backend: Backend) {
    let app = spawn_limited(backend, |l| l.games_per_min = 2);
    let (alice, bob) = (app.register("alice"), app.register("bob"));
    app.create_game(&alice, &json!({}));
    app.create_game(&alice, &json!({}));
    assert_rate_limited(app.post("/api/v1/games", Some(&alice.token), &json!({})), 2, 60);
    app.create_game(&bob, &json!({}));
}

fn unfinished_games_are_capped_per_account(backend: Backend) {
    let app = spawn_limited(backend, |l| l.max_open_games = 2);
    let (alice, bob) = (app.register("alice"), app.register("bob"));
    let first = app.create_game(&alice, &json!({}));
    // A game of bots only, which the creator does not sit in, counts as well.
    app.create_game(&alice, &json!({"seat_creator": false}));
    let problem = assert_problem(app.post("/api/v1/games", Some(&alice.token), &json!({})), 409, "too_many_games");
    assert!(problem["detail"].as_str().unwrap().contains("(2)"), "{problem}");
    app.create_game(&bob, &json!({}));
    // A finished game no longer counts.
    {
        use catan_server::store::schema::games;
        let mut conn = app.pool.get().unwrap();
        diesel::update(games::table.filter(games::id.eq(first["id"].as_str().unwrap())))
            .set(games::status.eq("finished"))
            .execute(&mut conn)
            .unwrap();
    }
    let third = app.create_game(&alice, &json!({}));
    assert_problem(app.post("/api/v1/games", Some(&alice.token), &json!({})), 409, "too_many_games");
    // Nor does a game nobody has changed for a day (an open game nobody joined cannot be
    // finished by its creator, and must not lock the account out for good).
    {
        use catan_server::store::schema::games;
        let mut conn = app.pool.get().unwrap();
        let idle =
            catan_server::store::now() - chrono::Duration::hours(catan_server::http::limits::IDLE_GAME_HOURS + 1);
        diesel::update(games::table.filter(games::id.eq(third["id"].as_str().unwrap())))
            .set(games::updated_at.eq(idle))
            .execute(&mut conn)
            .unwrap();
    }
    app.create_game(&alice, &json!({}));
}

fn usernames_are_case_insensitive(backend: Backend) {
    let app = spawn_limited(backend, |_| {});
    let created: Value = register(&app, "Alice").json().unwrap();
    assert_eq!(created["user"]["username"], "Alice");
    assert_problem(register(&app, "alice"), 409, "username_taken");
    assert_problem(register(&app, "ALICE"), 409, "username_taken");
    let response = login(&app, "aLiCe", "secret-password");
    assert_eq!(response.status(), StatusCode::OK);
    let token: Value = response.json().unwrap();
    let user = crate::helpers::User { token: token["token"].as_str().unwrap().to_owned() };
    // The name is shown as registered.
    assert_eq!(app.create_game(&user, &json!({}))["created_by"], "Alice");
}

/// The migration's SQL, for the backend.
fn migration(backend: Backend, file: &str) -> String {
    let dir = match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    let path =
        format!("{}/migrations/{dir}/2026-12-01-100000_case_insensitive_usernames/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("the migration")
}

fn accounts_that_differ_only_by_case_survive_the_migration(backend: Backend) {
    let app = spawn_limited(backend, |_| {});
    app.register("bob");
    // An older database: no key, and an account that differs from `bob` only by case.
    {
        use catan_server::store::schema::users;
        let mut conn = app.pool.get().unwrap();
        conn.batch_execute(&migration(backend, "down.sql")).unwrap();
        let hash: String =
            users::table.filter(users::username.eq("bob")).select(users::password_hash).first(&mut conn).unwrap();
        // Registered after `bob` (a literal both backends read, written as diesel writes).
        let insert = format!(
            "INSERT INTO users (id, username, password_hash, created_at) \
             VALUES ('{}', 'BOB', '{hash}', '2999-01-01 00:00:00')",
            uuid::Uuid::new_v4()
        );
        conn.batch_execute(&insert).unwrap();
        conn.batch_execute(&migration(backend, "up.sql")).expect("the migration keeps both");
    }
    let creator = |name: &str| {
        let response = login(&app, name, "secret-password");
        assert_eq!(response.status(), StatusCode::OK, "{name}");
        let token: Value = response.json().unwrap();
        let user = crate::helpers::User { token: token["token"].as_str().unwrap().to_owned() };
        app.create_game(&user, &json!({}))["created_by"].as_str().unwrap().to_owned()
    };
    // Each logs in by its exact name; any other case is the older account.
    assert_eq!(creator("bob"), "bob");
    assert_eq!(creator("BOB"), "BOB");
    assert_eq!(creator("Bob"), "bob");
    // No third one.
    assert_problem(register(&app, "bOb"), 409, "username_taken");
}

fn a_full_hashing_queue_is_a_quick_503(backend: Backend) {
    let app = spawn_limited(backend, |l| {
        l.hash_threads = 1;
        l.hash_queue = 0;
    });
    app.register("target");
    let barrier = Barrier::new(12);
    let statuses: Vec<(u16, String, Value)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..12)
            .map(|_| {
                let (app, barrier) = (&app, &barrier);
                scope.spawn(move || {
                    barrier.wait();
                    let response = login(app, "target", "wrong-password");
                    let retry_after = header(&response, "retry-after");
                    (response.status().as_u16(), retry_after, response.json().unwrap())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let busy: Vec<_> = statuses.iter().filter(|s| s.0 == 503).collect();
    assert!(!busy.is_empty(), "one hashing thread, no queue, 12 at once: {statuses:?}");
    for (_, retry_after, body) in &busy {
        assert_eq!(body["code"], "server_busy");
        assert_eq!(retry_after, "1");
    }
    assert!(statuses.iter().all(|s| s.0 == 503 || s.0 == 401), "{statuses:?}");
}

fn an_unknown_user_costs_a_password_check(backend: Backend) {
    let app = spawn_limited(backend, |_| {});
    app.register("known");
    let before = app.hasher.verifications();
    assert_problem(login(&app, "known", "wrong-password"), 401, "unauthorized");
    assert_eq!(app.hasher.verifications(), before + 1, "a wrong password is verified");
    assert_problem(login(&app, "unknown", "wrong-password"), 401, "unauthorized");
    assert_eq!(app.hasher.verifications(), before + 2, "an unknown user is verified against the dummy hash");
}
