//! Built-in bots: seating them, a human playing against three bots, four bots playing a game
//! by themselves, and bot play resuming after a restart. Every game's log is replayed
//! against its snapshot.

use std::time::{Duration, Instant};

use rand::{rngs::StdRng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::{
    both_backends,
    helpers::{assert_problem, choose, spawn_app, spawn_app_at, Backend, TestApp, User},
};

/// How long a game of bots may take before the test fails (generous: a shared machine).
const GAME_TIMEOUT: Duration = Duration::from_secs(180);

both_backends!(
    bots_are_seated_by_the_creator_only,
    a_human_plays_against_three_bots_to_a_winner,
    four_bots_play_a_game_to_the_end_by_themselves
);

fn add_bot(app: &TestApp, game: &str, user: &User, kind: &str) -> reqwest::blocking::Response {
    app.post(&format!("/api/v1/games/{game}/players"), Some(&user.token), &json!({ "bot": kind }))
}

fn bots_are_seated_by_the_creator_only(backend: Backend) {
    let app = spawn_app(backend);
    let (alice, bob) = (app.register("alice"), app.register("bob"));
    let id = app.create_game(&alice, &json!({"max_players": 4}))["id"].as_str().unwrap().to_owned();
    assert_eq!(app.join(&id, &bob).status(), StatusCode::CREATED);

    assert_problem(add_bot(&app, &id, &bob, "random"), 403, "forbidden");
    assert_problem(add_bot(&app, &id, &alice, "minimax"), 422, "unknown_bot_kind");

    let response = add_bot(&app, &id, &alice, "random");
    assert_eq!(response.status(), StatusCode::CREATED);
    let game: Value = response.json().unwrap();
    assert_eq!(game["players"][2]["seat"], 2);
    assert_eq!(game["players"][2]["bot"], "random");
    assert!(game["players"][2]["username"].is_null());
    assert_eq!(game["players"][0]["username"], "alice");
    assert!(game["players"][0]["bot"].is_null());
    assert_eq!(game["you"], 0);

    let response = add_bot(&app, &id, &alice, "Heuristic");
    assert_eq!(response.status(), StatusCode::CREATED);
    let game: Value = response.json().unwrap();
    assert_eq!(game["players"][3]["bot"], "heuristic");

    assert_problem(add_bot(&app, &id, &alice, "random"), 409, "game_full");
    let list: Value = app.get("/api/v1/games", None).json().unwrap();
    assert_eq!(list["games"][0]["players"][3]["bot"], "heuristic");

    // Once started, no more seats.
    assert_eq!(app.start(&id, &alice).status(), StatusCode::OK);
    assert_problem(add_bot(&app, &id, &alice, "random"), 409, "game_not_open");
}

/// A game whose creator does not sit at the table.
pub fn bot_only_game(app: &TestApp, host: &User, kinds: &[&str], seed: u64) -> String {
    let request = json!({"max_players": kinds.len(), "seed": seed, "seat_creator": false});
    let game = app.create_game(host, &request);
    assert_eq!(game["players"], json!([]));
    assert!(game["you"].is_null());
    let id = game["id"].as_str().unwrap().to_owned();
    for kind in kinds {
        assert_eq!(add_bot(app, &id, host, kind).status(), StatusCode::CREATED);
    }
    id
}

pub fn wait_until_finished(app: &TestApp, id: &str) -> Value {
    let started = Instant::now();
    loop {
        let game = app.game(id, None);
        if game["status"] == "finished" {
            return game;
        }
        assert!(started.elapsed() < GAME_TIMEOUT, "the bots did not finish within {GAME_TIMEOUT:?}: {game}");
        // Long-poll the log: returns as soon as the bots commit the next entry.
        let version = game["version"].as_i64().unwrap();
        let _ = app.get(&format!("/api/v1/games/{id}/moves?after={version}&wait=2&limit=1"), None);
    }
}

fn check_log(app: &TestApp, id: &str, human_seats: &[u64]) {
    let check = app.check_replay(id);
    assert!(check.contiguous && check.matches_snapshot, "replay: {check:?}");
    let log = app.log(id, None, 0);
    let entries = log["entries"].as_array().unwrap();
    assert_eq!(entries.len() as i64, check.version);
    for entry in &entries[1..] {
        let seat = entry["seat"].as_u64().expect("a seat");
        if human_seats.contains(&seat) {
            assert!(entry.get("bot").is_none(), "a human move marked as a bot's: {entry}");
        } else {
            assert!(entry["bot"].is_string(), "a bot move without its marker: {entry}");
        }
    }
}

fn four_bots_play_a_game_to_the_end_by_themselves(backend: Backend) {
    let app = spawn_app(backend);
    let host = app.register("host");
    let id = bot_only_game(&app, &host, &["random", "heuristic", "random", "heuristic"], 7);
    assert_problem(app.start(&id, &app.register("stranger")), 403, "forbidden");
    assert_eq!(app.start(&id, &host).status(), StatusCode::OK);
    let game = wait_until_finished(&app, &id);
    assert!(game["winner"].is_u64());
    assert!(game["seed"].is_u64(), "everything is public after game over");
    check_log(&app, &id, &[]);
}

fn a_human_plays_against_three_bots_to_a_winner(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register("alice");
    let id = app.create_game(&alice, &json!({"max_players": 4, "seed": 11}))["id"].as_str().unwrap().to_owned();
    for kind in ["heuristic", "random", "heuristic"] {
        assert_eq!(add_bot(&app, &id, &alice, kind).status(), StatusCode::CREATED);
    }
    assert_eq!(app.start(&id, &alice).status(), StatusCode::OK);

    let mut rng = StdRng::seed_from_u64(5);
    let started = Instant::now();
    let mut offered = false;
    let mut moves = 0;
    loop {
        let game = app.game(&id, Some(&alice.token));
        if game["status"] == "finished" {
            assert!(game["winner"].is_u64());
            break;
        }
        assert!(started.elapsed() < GAME_TIMEOUT, "no winner within {GAME_TIMEOUT:?}: {game}");
        let waiting: Vec<u64> =
            game["turn"]["waiting_for"].as_array().unwrap().iter().filter_map(Value::as_u64).collect();
        let version = game["version"].as_i64().unwrap();
        if !waiting.contains(&0) {
            // The bots' turn: wait for their next commit.
            let _ = app.get(&format!("/api/v1/games/{id}/moves?after={version}&wait=2&limit=1"), None);
            continue;
        }
        let legal = app.legal_moves(&id, &alice);
        if !offered && legal["may_offer_trade"] == true && offer_to_the_bots(&app, &id, &alice, &game) {
            offered = true;
            continue;
        }
        let options = legal["moves"].as_array().unwrap();
        assert!(!options.is_empty(), "alice must act but has no legal move");
        let mv = choose(options, &mut rng);
        let response = app.submit(&id, &alice, mv);
        assert_eq!(response.status(), StatusCode::CREATED, "move {mv}");
        moves += 1;
    }
    assert!(moves > 10, "alice played only {moves} moves");
    assert!(offered, "alice never got to offer a trade");
    check_log(&app, &id, &[0]);
}

/// Offers one card alice holds for one she lacks to the three bots, waits until each bot has
/// answered, then completes the trade with the first that accepted (or withdraws it).
/// Returns false when alice has nothing to offer.
fn offer_to_the_bots(app: &TestApp, id: &str, alice: &User, game: &Value) -> bool {
    let names = ["lumber", "brick", "wool", "grain", "ore"];
    let hand = &game["hand"]["resources"];
    let Some(give) = names.iter().find(|r| hand[**r].as_u64().unwrap_or(0) > 0) else {
        return false;
    };
    let get = names.iter().find(|r| *r != give).unwrap();
    let body = json!({"give": {*give: 1}, "get": {*get: 1}, "to": [1, 2, 3]});
    let response = app.post(&format!("/api/v1/games/{id}/trades"), Some(&alice.token), &body);
    assert_eq!(response.status(), StatusCode::CREATED, "offer {body}");
    let offer: Value = response.json().unwrap();
    let trade = offer["id"].as_u64().unwrap();
    let started = Instant::now();
    let offer = loop {
        let offer: Value = app.get(&format!("/api/v1/games/{id}/trades/{trade}"), Some(&alice.token)).json().unwrap();
        let answered = offer["responses"].as_array().unwrap().iter().all(|r| r["answer"] != "pending");
        if answered {
            break offer;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the bots did not answer: {offer}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let response = match offer["accepted_by"].as_array().unwrap().first() {
        Some(with) => app.post(
            &format!("/api/v1/games/{id}/trades/{trade}/confirm"),
            Some(&alice.token),
            &json!({ "with": with }),
        ),
        None => app
            .client
            .delete(app.url(&format!("/api/v1/games/{id}/trades/{trade}")))
            .bearer_auth(&alice.token)
            .send()
            .unwrap(),
    };
    assert!(response.status().is_success(), "complete the trade: {}", response.text().unwrap_or_default());
    true
}

/// A playing game with bots to move and no server running: the next server on the same
/// database resumes the bots' play and finishes it.
#[test]
fn bot_play_resumes_after_a_restart() {
    let url = crate::helpers::postgres::fresh_database();
    let first = spawn_app_at(Some(url.clone()));
    let host = first.register("host");
    let id = bot_only_game(&first, &host, &["heuristic", "random", "random"], 3);
    let game_id = Uuid::parse_str(&id).unwrap();
    let host_id = {
        let game = first.game(&id, None);
        assert_eq!(game["created_by"], "host");
        let mut conn = first.pool.get().unwrap();
        catan_server::store::find_game(&mut conn, game_id).unwrap().unwrap().created_by
    };
    // Started behind the server's back (as if it crashed right after the start committed).
    {
        let mut conn = first.pool.get().unwrap();
        catan_server::store::start_game(&mut conn, game_id, Uuid::parse_str(&host_id).unwrap()).unwrap();
    }
    drop(first);
    std::thread::sleep(Duration::from_millis(300));
    let second = spawn_app_at(Some(url));
    let game = wait_until_finished(&second, &id);
    assert!(game["winner"].is_u64());
    check_log(&second, &id, &[]);
}
