//! `Idempotency-Key` on every POST: a retry with the same key and body returns the first
//! response and applies nothing twice; the same key with another body is 422; keys are per
//! user and expire after 24 hours.

use std::sync::Barrier;

use diesel::RunQueryDsl;
use reqwest::{blocking::Response, StatusCode};
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{assert_problem, spawn_app, Backend, TestApp, User},
};

both_backends!(
    retried_posts_apply_once,
    concurrent_retries_apply_once,
    a_key_whose_request_failed_runs_again,
    concurrent_joins_and_starts_with_one_key_apply_once
);

impl TestApp {
    fn post_with_key(&self, path: &str, user: &User, key: &str, body: Option<&Value>) -> Response {
        let mut request = self.client.post(self.url(path)).bearer_auth(&user.token).header("Idempotency-Key", key);
        if let Some(body) = body {
            request = request.json(body);
        }
        self.send(request)
    }
}

fn replayed(response: &Response) -> bool {
    response.headers().get("idempotent-replayed").is_some_and(|v| v == "true")
}

/// Returns the status and body, checking whether it was a replay.
fn read(response: Response, replay: bool) -> (u16, Value) {
    assert_eq!(replayed(&response), replay, "Idempotent-Replayed");
    (response.status().as_u16(), response.json().expect("json"))
}

fn retried_posts_apply_once(backend: Backend) {
    let app = spawn_app(backend);
    let (alice, bob, carol) = (app.register("alice"), app.register("bob"), app.register("carol"));

    // Create: the retry returns the same game; only one exists.
    let create = json!({"max_players": 3, "board": "beginner", "seed": 7});
    let first = read(app.post_with_key("/api/v1/games", &alice, "create-1", Some(&create)), false);
    assert_eq!(first.0, 201);
    let again = read(app.post_with_key("/api/v1/games", &alice, "create-1", Some(&create)), true);
    assert_eq!(again, first);
    let games: Value = app.get("/api/v1/games", None).json().unwrap();
    assert_eq!(games["games"].as_array().unwrap().len(), 1);
    // Same key, another body: refused. Another user's same key is theirs alone.
    let other = json!({"max_players": 4});
    assert_problem(app.post_with_key("/api/v1/games", &alice, "create-1", Some(&other)), 422, "idempotency_key_reused");
    let bobs = read(app.post_with_key("/api/v1/games", &bob, "create-1", Some(&other)), false);
    assert_ne!(bobs.1["id"], first.1["id"]);
    let id = first.1["id"].as_str().unwrap().to_owned();

    // Join and start: a retry replays instead of `already_joined` / `game_not_open`.
    let join = format!("/api/v1/games/{id}/players");
    let joined = read(app.post_with_key(&join, &bob, "join", None), false);
    assert_eq!(read(app.post_with_key(&join, &bob, "join", None), true), joined);
    assert_eq!(app.join(&id, &carol).status(), StatusCode::CREATED);
    let start = format!("/api/v1/games/{id}/start");
    let started = read(app.post_with_key(&start, &alice, "start", None), false);
    assert_eq!(started.0, 200);
    assert_eq!(read(app.post_with_key(&start, &alice, "start", None), true), started);
    // The key was used for another path: refused.
    assert_problem(app.post_with_key(&start, &alice, "create-1", None), 422, "idempotency_key_reused");
    assert_problem(app.post_with_key(&start, &alice, "", None), 400, "invalid_idempotency_key");

    // A move: the retry returns the first response, and the log has one entry.
    let users = [alice, bob, carol];
    let seat = crate::games::active_seat(&app, &id);
    let legal = app.legal_moves(&id, &users[seat]);
    let (mv, other_mv) = (&legal["moves"][0], &legal["moves"][1]);
    let moves = format!("/api/v1/games/{id}/moves");
    let played = read(app.post_with_key(&moves, &users[seat], "move-1", Some(mv)), false);
    assert_eq!(played.0, 201);
    assert_eq!(read(app.post_with_key(&moves, &users[seat], "move-1", Some(mv)), true), played);
    assert_eq!(app.game(&id, None)["version"], played.1["version"]);
    assert_problem(app.post_with_key(&moves, &users[seat], "move-1", Some(other_mv)), 422, "idempotency_key_reused");

    // Trades: the offer and an answer, each retried.
    let spot = app.trade_spot(&id, &users, 1);
    let (a, b) = (&users[spot.active], &users[spot.holders[0]]);
    let trades = format!("/api/v1/games/{id}/trades");
    let offer = json!({"give": {spot.give: 1}, "get": {spot.want: 1}});
    let made = read(app.post_with_key(&trades, a, "offer-1", Some(&offer)), false);
    assert_eq!(made.0, 201);
    assert_eq!(read(app.post_with_key(&trades, a, "offer-1", Some(&offer)), true), made);
    let bigger = json!({"give": {spot.give: 1}, "get": {spot.want: 2}});
    assert_problem(app.post_with_key(&trades, a, "offer-1", Some(&bigger)), 422, "idempotency_key_reused");
    let all: Value = app.get(&format!("/api/v1/games/{id}/trades"), None).json().unwrap();
    assert_eq!(all["trades"].as_array().unwrap().len(), 1, "one offer, not two");
    let accept = format!("{trades}/{}/accept", made.1["id"]);
    let accepted = read(app.post_with_key(&accept, b, "accept-1", None), false);
    assert_eq!(accepted.0, 200);
    assert_eq!(read(app.post_with_key(&accept, b, "accept-1", None), true), accepted);

    // After 24 hours a key is forgotten and may be used again.
    {
        let mut conn = app.pool.get().unwrap();
        diesel::sql_query("UPDATE idempotency_keys SET created_at = '2000-01-01 00:00:00'").execute(&mut conn).unwrap();
    }
    let fresh = read(app.post_with_key(&trades, a, "offer-1", Some(&bigger)), false);
    assert_eq!(fresh.0, 201);
    assert_ne!(fresh.1["id"], made.1["id"]);

    // A key without a response (a reservation an older server left when it crashed) blocks
    // its key with 409 `idempotency_key_in_use`, until it is old enough to count as abandoned.
    let alice = &users[0];
    let created = read(app.post_with_key("/api/v1/games", alice, "pending", Some(&create)), false);
    let sql = |statement: String| {
        let mut conn = app.pool.get().unwrap();
        diesel::sql_query(statement).execute(&mut conn).unwrap();
    };
    sql("UPDATE idempotency_keys SET status = NULL, body = NULL WHERE idem_key = 'pending'".into());
    assert_problem(app.post_with_key("/api/v1/games", alice, "pending", Some(&create)), 409, "idempotency_key_in_use");
    let ten_minutes_ago = (chrono::Utc::now().naive_utc() - chrono::Duration::minutes(10)).format("%Y-%m-%d %H:%M:%S");
    sql(format!("UPDATE idempotency_keys SET created_at = '{ten_minutes_ago}' WHERE idem_key = 'pending'"));
    let again = read(app.post_with_key("/api/v1/games", alice, "pending", Some(&create)), false);
    assert_ne!(again.1["id"], created.1["id"], "the abandoned request's key was freed");
    app.check_trades_projection(&id);
}

fn concurrent_retries_apply_once(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(2, 3);
    let seat = crate::games::active_seat(&app, &id);
    let mv = app.legal_moves(&id, &users[seat])["moves"][0].clone();
    let moves = format!("/api/v1/games/{id}/moves");
    let create = json!({"max_players": 2});
    let barrier = Barrier::new(8);
    let results: Vec<(String, u16, Value)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let (app, barrier, mv, moves, create, user) = (&app, &barrier, &mv, &moves, &create, &users[seat]);
                scope.spawn(move || {
                    barrier.wait();
                    let (what, response) = if i % 2 == 0 {
                        ("move", app.post_with_key(moves, user, "same-move", Some(mv)))
                    } else {
                        ("game", app.post_with_key("/api/v1/games", user, "same-game", Some(create)))
                    };
                    let status = response.status().as_u16();
                    (what.to_owned(), status, response.json().unwrap())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    // The move: every retry got the first response (they queue on the game's lock).
    let played: Vec<&Value> = results.iter().filter(|r| r.0 == "move").map(|r| &r.2).collect();
    assert!(results.iter().filter(|r| r.0 == "move").all(|r| r.1 == 201), "{results:?}");
    assert!(played.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(app.game(&id, None)["version"], 2, "one move played");
    // The game: one created, and every duplicate that raced it waited for it and replayed
    // it (the key commits with the game; nobody is told to come back later).
    let created: Vec<&(String, u16, Value)> = results.iter().filter(|r| r.0 == "game").collect();
    assert!(created.iter().all(|r| r.1 == 201), "{created:?}");
    let ids: std::collections::HashSet<&Value> = created.iter().map(|r| &r.2["id"]).collect();
    assert_eq!(ids.len(), 1, "one game");
    let games: Value = app.get("/api/v1/games", None).json().unwrap();
    assert_eq!(games["games"].as_array().unwrap().len(), 2, "the started game and one new one");
}

/// A request that failed left nothing behind, not even its key: the same key and request run
/// again once they can succeed.
fn a_key_whose_request_failed_runs_again(backend: Backend) {
    let app = spawn_app(backend);
    let (alice, bob) = (app.register("alice"), app.register("bob"));
    let game = app.create_game(&alice, &json!({"max_players": 2}));
    let start = format!("/api/v1/games/{}/start", game["id"].as_str().unwrap());
    assert_problem(app.post_with_key(&start, &alice, "start", None), 409, "not_enough_players");
    assert_eq!(app.join(game["id"].as_str().unwrap(), &bob).status(), StatusCode::CREATED);
    let (status, started) = read(app.post_with_key(&start, &alice, "start", None), false);
    assert_eq!((status, &started["status"]), (200, &json!("playing")));
    assert_eq!(read(app.post_with_key(&start, &alice, "start", None), true), (200, started));
}

/// Racing retries of a join and of a start: one seat taken, one start, and every racer gets
/// the first response (not `already_joined`, `game_not_open` or a 409 to retry later).
fn concurrent_joins_and_starts_with_one_key_apply_once(backend: Backend) {
    let app = spawn_app(backend);
    let (alice, bob) = (app.register("alice"), app.register("bob"));
    let game = app.create_game(&alice, &json!({"max_players": 2}));
    let id = game["id"].as_str().unwrap().to_owned();
    let app = &app;
    let race = |path: &str, user: &User, key: &str| -> Vec<(u16, Value)> {
        let barrier = Barrier::new(6);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..6)
                .map(|_| {
                    let (barrier, path, user, key) = (&barrier, path, user, key);
                    scope.spawn(move || {
                        barrier.wait();
                        let response = app.post_with_key(path, user, key, None);
                        (response.status().as_u16(), response.json::<Value>().unwrap())
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    };
    let joined = race(&format!("/api/v1/games/{id}/players"), &bob, "join");
    assert!(joined.iter().all(|r| r == &joined[0]), "{joined:?}");
    assert_eq!(joined[0].0, 201);
    let started = race(&format!("/api/v1/games/{id}/start"), &alice, "start");
    assert!(started.iter().all(|r| r == &started[0]), "{started:?}");
    assert_eq!(started[0].0, 200);
    let view = app.game(&id, None);
    assert_eq!(view["players"].as_array().unwrap().len(), 2);
    assert_eq!(view["version"], 1, "started once");
}
