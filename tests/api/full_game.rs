//! Complete games over HTTP, choosing among `legal-moves`, with the log replayed against
//! the snapshot and every seat's view checked for leaks along the way.

use rand::{rngs::StdRng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{choose, spawn_app, Backend, TestApp, User},
};

/// Fail if a game takes more moves than this.
const MOVE_CAP: usize = 4000;
/// Check replay and privacy every this many moves (and at the end).
const CHECK_EVERY: usize = 150;

both_backends!(a_four_player_game_is_played_to_a_winner);

fn a_four_player_game_is_played_to_a_winner(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(4, 2026);
    play_to_a_winner(&app, &id, &users);
}

/// The engine's variants go through the same API: the 5-6 player extension (5 and 6 seats,
/// with its special building phases), and random boards with the Jungle and Big River.
#[test]
fn variant_games_are_played_to_a_winner() {
    let app = spawn_app(Backend::Sqlite);
    for (players, request) in [
        (5, json!({"max_players": 5, "seed": 5, "options": {"five_six_extension": true}})),
        (6, json!({"max_players": 6, "board": "random", "seed": 21, "variant": "five_six"})),
        (
            3,
            json!({"max_players": 3, "board": "random", "seed": 8,
                   "options": {"jungle": true, "jungle_number": 6}}),
        ),
        (
            4,
            json!({"max_players": 4, "board": "random", "seed": 13,
                   "options": {"big_river": true, "river_gold_number": 9}}),
        ),
    ] {
        let (id, users) = app.started_game_with(players, &request);
        let variant = app.get(&format!("/api/v1/games/{id}"), None).json::<Value>().unwrap()["variant"].clone();
        let expected = ["five_six", "jungle", "big_river"].into_iter().find(|v| request.to_string().contains(v));
        assert_eq!(variant, expected.unwrap_or("base"), "{request}");
        play_to_a_winner(&app, &id, &users);
    }
}

pub(crate) fn play_to_a_winner(app: &TestApp, id: &str, users: &[User]) {
    let (app, id) = (app, id.to_owned());
    let players = users.len();
    let mut rng = StdRng::seed_from_u64(99);

    let mut moves = 0;
    // What the last move's response said the game now waits for.
    let mut announced_waiting: Option<Value> = None;
    let winner = loop {
        let game = app.game(&id, None);
        if game["status"] == "finished" {
            assert_eq!(announced_waiting.take(), Some(json!([])), "a finished game waits for nobody");
            break game["winner"].as_u64().expect("a winner") as usize;
        }
        if let Some(waiting) = announced_waiting.take() {
            assert_eq!(waiting, game["turn"]["waiting_for"], "the move response names whom the game waits for");
        }
        assert!(moves < MOVE_CAP, "no winner after {MOVE_CAP} moves");
        let seat = game["turn"]["waiting_for"][0].as_u64().expect("someone must act") as usize;
        let legal = app.legal_moves(&id, &users[seat]);
        assert_eq!(legal["waiting_for"], game["turn"]["waiting_for"]);
        let options = legal["moves"].as_array().expect("moves");
        assert!(!options.is_empty(), "seat {seat} must act but has no legal move");
        let mv = choose(options, &mut rng);
        if moves % 5 == 0 && probe_hostile_variants(app, &id, &users[seat], mv) {
            moves += 1;
            continue;
        }
        let response = app.submit(&id, &users[seat], mv);
        assert_eq!(response.status(), StatusCode::CREATED, "move {mv}");
        let body: Value = response.json().unwrap();
        assert_eq!(body["version"], legal["version"].as_i64().unwrap() + 1);
        announced_waiting = Some(body["waiting_for"].clone());
        moves += 1;
        if moves % CHECK_EVERY == 0 {
            check_log(app, &id);
            check_privacy(app, &id, users);
        }
    };

    check_log(app, &id);
    let game = app.game(&id, Some(&users[winner].token));
    assert_eq!(game["status"], "finished");
    let vp = game["players"][winner]["victory_points"].as_u64().unwrap();
    assert!(vp >= game["vp_target"].as_u64().unwrap(), "{vp} points");
    // After game over everything is public: hands and the seed.
    assert!(game["seed"].is_u64());
    assert!(game["players"][(winner + 1) % players]["resources"].is_object());
    // ... and so is the whole log, to spectators too.
    let log = app.log(&id, None, 0);
    assert!(log["entries"][0]["events"][0]["seed"].is_u64());
    assert_eq!(log["status"], "finished");
    // More moves are refused by the rules.
    let legal = app.legal_moves(&id, &users[winner]);
    assert!(legal["moves"].as_array().unwrap().is_empty());
    let late = app.submit(&id, &users[winner], &serde_json::json!({"type": "end_turn"}));
    crate::helpers::assert_problem(late, 422, "game_over");
}

/// Submits the move with every number replaced by absurd values: the answer must be a
/// 4xx problem (or, if the result happens to be legal, a 201), never a 5xx or a dropped
/// connection.
fn probe_hostile_variants(app: &TestApp, id: &str, user: &User, mv: &Value) -> bool {
    fn replace_numbers(value: &Value, with: u64) -> Value {
        match value {
            Value::Number(_) => Value::from(with),
            Value::Array(items) => items.iter().map(|v| replace_numbers(v, with)).collect(),
            Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), replace_numbers(v, with))).collect(),
            other => other.clone(),
        }
    }
    let far_away = {
        let mut far = mv.clone();
        for (key, value) in [
            ("hex", "2147483647,-2147483648"),
            ("vertex", "2147483647,2147483647,N"),
            ("edge", "-2147483648,2147483647,NE"),
        ] {
            if far.get(key).is_some() {
                far[key] = Value::from(value);
            }
        }
        far
    };
    let variants = [u64::from(u32::MAX), 255, 19].into_iter().map(|with| replace_numbers(mv, with)).chain([far_away]);
    for hostile in variants {
        if hostile == *mv {
            continue;
        }
        let response = app.submit(id, user, &hostile);
        let status = response.status();
        assert!(status.is_client_error() || status == StatusCode::CREATED, "{hostile} got {status}");
        if status == StatusCode::CREATED {
            // Accepted after all: the position moved on.
            return true;
        }
    }
    false
}

fn check_log(app: &TestApp, id: &str) {
    let check = app.check_replay(id);
    assert!(check.contiguous, "log has gaps or duplicates: {check:?}");
    assert!(check.matches_snapshot, "log does not replay to the snapshot: {check:?}");
}

/// No seat sees another seat's hand, development cards, discards, draws or steals.
fn check_privacy(app: &TestApp, id: &str, users: &[User]) {
    for (seat, user) in users.iter().enumerate() {
        let game = app.game(id, Some(&user.token));
        if game["status"] == "finished" {
            return;
        }
        assert_eq!(game["you"], seat);
        assert!(game["hand"].is_object(), "seat {seat} sees its own hand");
        for player in game["players"].as_array().unwrap() {
            assert!(player.get("resources").is_none(), "{player}");
            assert!(player.get("development_cards").is_none(), "{player}");
            assert!(player["resource_count"].is_u64());
        }

        let log = app.log(id, Some(&user.token), 0);
        for entry in log["entries"].as_array().unwrap() {
            let mover = entry["seat"].as_u64().map(|s| s as usize);
            if let Some(mover) = mover {
                if mover != seat {
                    let mv = &entry["move"];
                    assert_eq!(
                        *mv,
                        json!({"type": entry["kind"], "hidden": true}),
                        "seat {seat} sees only the type of {entry}"
                    );
                }
            }
            for event in entry["events"].as_array().unwrap() {
                let of = |key: &str| event[key].as_u64().map(|s| s as usize);
                match event["type"].as_str().unwrap() {
                    "game_started" => assert!(event.get("seed").is_none()),
                    "resources_discarded" if of("seat") != Some(seat) => {
                        assert!(event.get("resources").is_none(), "{event}");
                    }
                    "development_card_bought" if of("seat") != Some(seat) => {
                        assert!(event.get("card").is_none(), "{event}");
                    }
                    "resource_stolen" if of("thief") != Some(seat) && of("victim") != Some(seat) => {
                        assert!(event.get("resource").is_none(), "{event}");
                    }
                    _ => {}
                }
            }
        }
    }
    // Spectators see no hand at all.
    let spectator = app.game(id, None);
    assert!(spectator.get("hand").is_none());
}
