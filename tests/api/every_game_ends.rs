//! Every game ends (issue 15): the turn limit of games with bots, and the turn timer that
//! lets a built-in bot play for a human seat that does not act in time.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{assert_problem, spawn_app, spawn_app_at, Backend, TestApp, User},
};

both_backends!(
    a_bots_only_game_with_a_tiny_turn_limit_finishes_by_the_limit,
    games_with_bots_get_the_default_turn_limit_and_human_games_none,
    nonsense_turn_limits_and_timers_are_refused,
    an_absent_player_gets_a_move_played_by_the_timer_until_they_act
);

const TIMER: u64 = 5;

fn add_bot(app: &TestApp, game: &str, user: &User, kind: &str) {
    let response = app.post(&format!("/api/v1/games/{game}/players"), Some(&user.token), &json!({ "bot": kind }));
    assert_eq!(response.status(), StatusCode::CREATED);
}

/// Waits (long-polling the log) until the game's version passes `version`; returns the game.
fn wait_past(app: &TestApp, id: &str, version: i64, within: Duration) -> Value {
    let started = Instant::now();
    loop {
        let game = app.game(id, None);
        if game["version"].as_i64().unwrap() > version || game["status"] == "finished" {
            return game;
        }
        assert!(started.elapsed() < within, "nothing happened within {within:?}: {game}");
        let _ = app.get(&format!("/api/v1/games/{id}/moves?after={version}&wait=2&limit=1"), None);
    }
}

fn entry(app: &TestApp, id: &str, seq: i64) -> Value {
    app.log(id, None, seq - 1)["entries"][0].clone()
}

fn a_bots_only_game_with_a_tiny_turn_limit_finishes_by_the_limit(backend: Backend) {
    let app = spawn_app(backend);
    let host = app.register("host");
    let request = json!({"max_players": 3, "seat_creator": false, "options": {"turn_limit": 3}});
    let id = app.create_game(&host, &request)["id"].as_str().unwrap().to_owned();
    for kind in ["random", "random", "random"] {
        add_bot(&app, &id, &host, kind);
    }
    assert_eq!(app.start(&id, &host).status(), StatusCode::OK);
    let started = Instant::now();
    let game = loop {
        let game = wait_past(&app, &id, 0, Duration::from_secs(60));
        if game["status"] == "finished" {
            break game;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "not finished: {game}");
    };
    assert_eq!(game["options"]["turn_limit"], 3);
    assert_eq!(game["won_by"], "turn_limit");
    assert_eq!(game["turn"]["number"], 3, "{}", game["turn"]);
    let winner = game["winner"].as_u64().expect("a winner");
    let points: Vec<u64> =
        game["players"].as_array().unwrap().iter().map(|p| p["victory_points"].as_u64().unwrap()).collect();
    assert_eq!(points[winner as usize], *points.iter().max().unwrap(), "{points:?}");
    let log = app.whole_log(&id, None);
    let last = log.last().unwrap();
    let won = last["events"].as_array().unwrap().last().unwrap();
    assert_eq!(won["type"], "game_won");
    assert_eq!(won["condition"], "turn_limit");
    assert_eq!(won["seat"], winner);
    assert_eq!(won["victory_points"], points[winner as usize]);
    let check = app.check_replay(&id);
    assert!(check.contiguous && check.matches_snapshot, "{check:?}");
}

fn games_with_bots_get_the_default_turn_limit_and_human_games_none(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register("alice");
    let id = app.create_game(&alice, &json!({"max_players": 2}))["id"].as_str().unwrap().to_owned();
    assert!(app.game(&id, None)["options"].get("turn_limit").is_none());
    add_bot(&app, &id, &alice, "heuristic");
    assert_eq!(app.start(&id, &alice).status(), StatusCode::OK);
    assert_eq!(app.game(&id, None)["options"]["turn_limit"], catan_server::play::turn_timer::BOT_TURN_LIMIT);

    let (humans, _) = app.started_game(2, 1);
    let game = app.game(&humans, None);
    assert!(game["options"].get("turn_limit").is_none(), "{}", game["options"]);
    assert!(game.get("timer").is_none(), "no timer unless asked for: {game}");
    assert!(game.get("won_by").is_none(), "not over: {game}");

    // A limit the creator chose is kept.
    let id = app.create_game(&alice, &json!({"max_players": 2, "options": {"turn_limit": 500}}))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    add_bot(&app, &id, &alice, "random");
    assert_eq!(app.start(&id, &alice).status(), StatusCode::OK);
    assert_eq!(app.game(&id, None)["options"]["turn_limit"], 500);
}

fn nonsense_turn_limits_and_timers_are_refused(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register("alice");
    for (options, code) in [
        (json!({"turn_limit": 0}), "invalid_config"),
        (json!({"turn_limit": 10_001}), "invalid_config"),
        (json!({"turn_timer_seconds": 0}), "invalid_turn_timer"),
        (json!({"turn_timer_seconds": 4}), "invalid_turn_timer"),
        (json!({"turn_timer_seconds": 604_801}), "invalid_turn_timer"),
    ] {
        let response = app.post("/api/v1/games", Some(&alice.token), &json!({ "options": options }));
        let problem = assert_problem(response, 422, code);
        let field = options.as_object().unwrap().keys().next().unwrap().clone();
        assert!(problem["detail"].as_str().unwrap().contains(&field), "{problem}");
    }
    // Outside the type as outside the bounds: the same answer, naming the field.
    let response = app.post("/api/v1/games", Some(&alice.token), &json!({"options": {"turn_timer_seconds": -5}}));
    let problem = assert_problem(response, 422, "invalid_turn_timer");
    assert_eq!(problem["errors"][0]["pointer"], "#/options/turn_timer_seconds");
}

/// Alice (seat 0, first to place) does not act: after the timer a bot places for her, marked
/// in the log; she is then on autoplay until she posts a move herself, which ends it.
fn an_absent_player_gets_a_move_played_by_the_timer_until_they_act(backend: Backend) {
    let app = spawn_app(backend);
    let request = json!({"max_players": 2, "options": {"turn_timer_seconds": TIMER, "first_player": {"seat": 0}}});
    let (id, users) = app.started_game_with(2, &request);
    let alice = &users[0];
    let started = Instant::now();
    let game = app.game(&id, None);
    assert_eq!(game["timer"]["seconds"], TIMER);
    assert_eq!(game["timer"]["seat"], 0);
    assert_eq!(game["timer"]["autoplay"], false);
    assert!(game["timer"]["deadline"].is_string(), "{}", game["timer"]);

    let game = wait_past(&app, &id, 1, Duration::from_secs(TIMER + 30));
    assert!(started.elapsed() >= Duration::from_millis(TIMER * 1000 - 500), "played after {:?}", started.elapsed());
    let auto = entry(&app, &id, 2);
    assert_eq!(auto["seat"], 0);
    assert_eq!(auto["kind"], "build_settlement");
    assert_eq!(auto["auto"], true, "{auto}");
    assert_eq!(auto["bot"], "heuristic");
    // She is on autoplay now, for her road.
    assert_eq!(game["timer"]["seat"], 0, "{}", game["timer"]);
    assert_eq!(game["timer"]["autoplay"], true, "{}", game["timer"]);

    // She is back: her own move is hers, and ends the autoplay.
    let legal = app.legal_moves(&id, alice);
    let response = app.submit(&id, alice, &legal["moves"][0]);
    assert_eq!(response.status(), StatusCode::CREATED);
    let own: Value = response.json().unwrap();
    assert!(own["entry"].get("auto").is_none() && own["entry"].get("bot").is_none(), "{own}");
    assert_eq!(own["version"], 3);

    // Bob places both his settlements and roads; then alice is waited for again, with the
    // whole timer and no autoplay.
    let bob = &users[1];
    for _ in 0..4 {
        let legal = app.legal_moves(&id, bob);
        assert_eq!(app.submit(&id, bob, &legal["moves"][0]).status(), StatusCode::CREATED);
    }
    let game = app.game(&id, None);
    assert_eq!(game["version"], 7, "nothing played for alice meanwhile");
    assert_eq!(game["timer"]["seat"], 0);
    assert_eq!(game["timer"]["autoplay"], false, "{}", game["timer"]);
    let log = app.whole_log(&id, None);
    assert_eq!(log.iter().filter(|e| e["auto"] == true).count(), 1, "{log:?}");
    let check = app.check_replay(&id);
    assert!(check.contiguous && check.matches_snapshot, "{check:?}");
}

/// Two processes on one PostgreSQL hold the same timed game; the one that started it goes
/// away before the deadline. The other still plays for the absent seat, from the stored
/// deadline, and never twice for one decision.
#[test]
fn the_timer_survives_its_process_and_plays_once_per_decision() {
    let url = crate::helpers::postgres::fresh_database();
    let first = spawn_app_at(Some(url.clone()));
    let request = json!({"max_players": 2, "options": {"turn_timer_seconds": TIMER, "first_player": {"seat": 0}}});
    let (id, _users) = first.started_game_with(2, &request);
    let started = Instant::now();
    // A second process, and a third, both find the game at start; the first goes away.
    let second = spawn_app_at(Some(url.clone()));
    let third = spawn_app_at(Some(url));
    drop(first);
    wait_past(&second, &id, 1, Duration::from_secs(TIMER + 30));
    assert!(started.elapsed() >= Duration::from_millis(TIMER * 1000 - 500));
    // Alice stays away: her road is played on autoplay, one move per decision.
    wait_past(&third, &id, 2, Duration::from_secs(TIMER + 30));
    let log = second.whole_log(&id, None);
    assert_eq!(log[1]["auto"], true);
    assert_eq!(log[1]["kind"], "build_settlement");
    assert_eq!(log[2]["auto"], true);
    assert_eq!(log[2]["kind"], "build_road");
    let at = |entry: &Value| chrono::DateTime::parse_from_rfc3339(entry["created_at"].as_str().unwrap()).unwrap();
    let gap = at(&log[2]) - at(&log[1]);
    assert!(gap >= chrono::Duration::milliseconds(TIMER as i64 * 1000 - 100), "played again after {gap}");
    let check = second.check_replay(&id);
    assert!(check.contiguous && check.matches_snapshot, "{check:?}");
}

/// After a 7, two absent seats must discard: the timer runs from the roll for both, so the
/// second is played for at once after the first, not a whole timer later.
#[test]
fn absent_discarders_are_played_for_at_the_same_deadline() {
    let app = spawn_app(Backend::Sqlite);
    let request = json!({"max_players": 3, "seed": 5,
                         "options": {"turn_timer_seconds": TIMER, "first_player": {"seat": 0}}});
    let (id, users) = app.started_game_with(3, &request);
    // Everyone plays their first legal move (end the turn as soon as rolled): hands grow until
    // a 7 finds two seats with more than 7 cards.
    let mut played = 0;
    let pending = loop {
        let game = app.game(&id, None);
        let phase = &game["turn"]["phase"];
        if phase["name"] == "discard" && phase["pending"].as_array().unwrap().len() >= 2 {
            break phase["pending"].as_array().unwrap().len();
        }
        assert!(played < 1_000, "no 7 with two discarders after {played} moves");
        let seat = game["turn"]["waiting_for"][0].as_u64().unwrap() as usize;
        let legal = app.legal_moves(&id, &users[seat]);
        let response = app.submit(&id, &users[seat], &legal["moves"][0]);
        assert_eq!(response.status(), StatusCode::CREATED);
        played += 1;
    };
    let rolled = app.game(&id, None)["version"].as_i64().unwrap();
    let mut game = app.game(&id, None);
    while game["turn"]["phase"]["name"] == "discard" {
        game = wait_past(&app, &id, game["version"].as_i64().unwrap(), Duration::from_secs(TIMER * 3 + 30));
    }
    let log = app.whole_log(&id, None);
    let at = |entry: &Value| chrono::DateTime::parse_from_rfc3339(entry["created_at"].as_str().unwrap()).unwrap();
    let roll = &log[rolled as usize - 1];
    let discards = &log[rolled as usize..rolled as usize + pending];
    for discard in discards {
        assert_eq!(discard["kind"], "discard");
        assert_eq!(discard["auto"], true, "{discard}");
        let after = at(discard) - at(roll);
        assert!(after >= chrono::Duration::milliseconds(TIMER as i64 * 1000 - 100), "after {after}");
        assert!(
            after < chrono::Duration::milliseconds(TIMER as i64 * 1000 + 3000),
            "after {after}: the clock restarted"
        );
    }
}
