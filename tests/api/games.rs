//! Creating, listing, viewing, joining and starting games.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{assert_problem, spawn_app, Backend},
};

both_backends!(a_game_is_created_joined_and_started, every_variant_name_creates_a_game_as_is);

/// Each name of the variant list creates a game with nothing else said: Jungle's token and
/// Big River's gold token and random board are defaults (documented in `CreateGameRequest`),
/// and the games start.
fn every_variant_name_creates_a_game_as_is(backend: Backend) {
    let app = spawn_app(backend);
    for name in catan_engine::VARIANT_NAMES {
        let players = if name == "five_six" { 5 } else { 3 };
        let (id, _) = app.started_game_with(players, &json!({"variant": name}));
        let game = app.game(&id, None);
        assert_eq!(game["status"], "playing", "{name}: {game}");
        match name {
            "jungle" => assert_eq!(game["options"]["jungle_number"], 5, "{game}"),
            "big_river" => {
                assert_eq!(game["options"]["river_gold_number"], 9, "{game}");
                assert_eq!(game["options"]["board"], "random", "{name}");
            }
            _ => {}
        }
    }
    // Given values stay, and a board named at the top is kept (Big River cannot use the
    // beginner board: that is still 422).
    let alice = app.register("alice");
    let jungle = app.create_game(&alice, &json!({"variant": "jungle", "options": {"jungle_number": 10}}));
    assert_eq!(jungle["options"]["jungle_number"], 10);
    let beginner = app.post("/api/v1/games", Some(&alice.token), &json!({"variant": "big_river", "board": "beginner"}));
    assert_problem(beginner, 422, "invalid_config");
}

fn a_game_is_created_joined_and_started(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register("alice");
    let bob = app.register("bob");
    let carol = app.register("carol");

    let game = app.create_game(&alice, &json!({"max_players": 2, "board": "random"}));
    let id = game["id"].as_str().unwrap().to_owned();
    assert_eq!(game["status"], "open");
    assert_eq!(game["variant"], "base");
    assert_eq!(game["you"], 0);
    assert_eq!(game["players"][0]["username"], "alice");
    assert_eq!(game["options"]["board"], "random");
    assert!(game.get("seed").is_none(), "the seed is secret");

    // Not enough players yet.
    assert_problem(app.start(&id, &alice), 409, "not_enough_players");

    // Bob joins seat 1; the game is then full.
    let response = app.join(&id, &bob);
    assert_eq!(response.status(), StatusCode::CREATED);
    let joined: Value = response.json().unwrap();
    assert_eq!(joined["you"], 1);
    assert_problem(app.join(&id, &bob), 409, "already_joined");
    assert_problem(app.join(&id, &carol), 409, "game_full");

    // No seat left for a bot either (tests/api/bots.rs seats bots).
    let bot = app.post(&format!("/api/v1/games/{id}/players"), Some(&alice.token), &json!({"bot": "random"}));
    assert_problem(bot, 409, "game_full");

    // Only the creator starts.
    assert_problem(app.start(&id, &bob), 403, "forbidden");
    let response = app.start(&id, &alice);
    assert_eq!(response.status(), StatusCode::OK);
    let started: Value = response.json().unwrap();
    assert_eq!(started["status"], "playing");
    assert_eq!(started["version"], 1);
    assert_eq!(started["options"]["players"], 2);
    assert!(started["board"]["hexes"].as_array().unwrap().len() >= 19);
    assert!(started["hand"].is_object(), "a seated caller sees their hand");
    assert_problem(app.start(&id, &alice), 409, "game_not_open");
    assert_problem(app.join(&id, &carol), 409, "game_not_open");

    // A spectator sees the board but no hand.
    let spectator = app.game(&id, None);
    assert!(spectator["you"].is_null());
    assert!(spectator.get("hand").is_none());
    assert_eq!(spectator["players"][1]["username"], "bob");
    assert_eq!(spectator["players"][1]["resource_count"], 0);

    // The log starts with the game_started entry, its seed removed.
    let log = app.log(&id, None, 0);
    assert_eq!(log["version"], 1);
    let entry = &log["entries"][0];
    assert_eq!(entry["seq"], 1);
    assert_eq!(entry["kind"], "start");
    assert_eq!(entry["events"][0]["type"], "game_started");
    assert!(entry["events"][0].get("seed").is_none());

    let check = app.check_replay(&id);
    assert!(check.contiguous && check.matches_snapshot, "{check:?}");
}

both_backends!(games_are_listed_by_status_with_a_cursor);

fn games_are_listed_by_status_with_a_cursor(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register("alice");
    let bob = app.register("bob");
    let mut ids = Vec::new();
    for _ in 0..5 {
        let game = app.create_game(&alice, &json!({"max_players": 2}));
        ids.push(game["id"].as_str().unwrap().to_owned());
    }
    assert_eq!(app.join(&ids[0], &bob).status(), StatusCode::CREATED);
    assert_eq!(app.start(&ids[0], &alice).status(), StatusCode::OK);

    // Pages of two, newest first, until the cursor runs out.
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/api/v1/games?limit=2&cursor={c}"),
            None => "/api/v1/games?limit=2".to_owned(),
        };
        let page: Value = app.get(&path, None).json().unwrap();
        for game in page["games"].as_array().unwrap() {
            seen.push(game["id"].as_str().unwrap().to_owned());
        }
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    let mut newest_first = ids.clone();
    newest_first.reverse();
    assert_eq!(seen, newest_first);

    let playing: Value = app.get("/api/v1/games?status=playing", None).json().unwrap();
    let playing = playing["games"].as_array().unwrap();
    assert_eq!(playing.len(), 1);
    assert_eq!(playing[0]["id"], ids[0].as_str());
    let open: Value = app.get("/api/v1/games?status=open", None).json().unwrap();
    assert_eq!(open["games"].as_array().unwrap().len(), 4);

    assert_problem(app.get("/api/v1/games?status=lost", None), 400, "invalid_query");
}

#[test]
fn get_game_answers_304_to_a_matching_etag() {
    let app = spawn_app(Backend::Sqlite);
    let (id, users) = app.started_game(2, 7);
    let response = app.get(&format!("/api/v1/games/{id}"), Some(&users[0].token));
    assert_eq!(response.status(), StatusCode::OK);
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    assert_eq!(etag, "\"v1\"");

    let cached = app.send(
        app.client
            .get(app.url(&format!("/api/v1/games/{id}")))
            .bearer_auth(&users[0].token)
            .header("If-None-Match", &etag),
    );
    assert_eq!(cached.status(), StatusCode::NOT_MODIFIED);

    // After a move the tag changes.
    let moves = app.legal_moves(&id, &users[active_seat(&app, &id)]);
    let seat = active_seat(&app, &id);
    let response = app.submit(&id, &users[seat], &moves["moves"][0]);
    assert_eq!(response.status(), StatusCode::CREATED);
    let fresh = app.send(app.client.get(app.url(&format!("/api/v1/games/{id}"))).header("If-None-Match", &etag));
    assert_eq!(fresh.status(), StatusCode::OK);
    assert_eq!(fresh.headers()["etag"], "\"v2\"");
}

pub fn active_seat(app: &crate::helpers::TestApp, id: &str) -> usize {
    app.game(id, None)["turn"]["waiting_for"][0].as_u64().expect("someone must act") as usize
}

/// Fair chance: a game whose creator chose the seed could have its dice known in advance,
/// so outside a sandbox no other human may join it (its creator and bots may); the game
/// resource says `seeded`. A game with a drawn seed is open to all.
#[test]
fn a_seeded_game_takes_no_other_human_player() {
    let app = crate::helpers::spawn_app_with(None, |config| config.sandbox = false);
    let (host, guest) = (app.register("host"), app.register("guest"));
    let create = |body: Value| {
        let response = app.post("/api/v1/games", Some(&host.token), &body);
        assert_eq!(response.status(), StatusCode::CREATED);
        response.json::<Value>().unwrap()
    };
    let seeded = create(json!({"max_players": 3, "seed": 7}));
    assert_eq!(seeded["seeded"], true);
    let id = seeded["id"].as_str().unwrap();
    let join = |token: &str, body: Value| app.post(&format!("/api/v1/games/{id}/players"), Some(token), &body);
    let refused = crate::helpers::assert_problem(join(&guest.token, json!({})), 422, "seeded_game");
    assert!(refused["detail"].as_str().unwrap().contains("known in advance"), "{refused}");
    assert_eq!(join(&host.token, json!({"bot": "random"})).status(), StatusCode::CREATED);
    assert_eq!(join(&host.token, json!({"bot": "heuristic"})).status(), StatusCode::CREATED);
    let game: Value = app.get(&format!("/api/v1/games/{id}"), None).json().unwrap();
    assert_eq!(game["players"].as_array().unwrap().len(), 3, "the creator and two bots: {game}");

    let drawn = create(json!({"max_players": 2}));
    assert_eq!(drawn["seeded"], false);
    let id = drawn["id"].as_str().unwrap();
    let joined = app.post(&format!("/api/v1/games/{id}/players"), Some(&guest.token), &json!({}));
    assert_eq!(joined.status(), StatusCode::CREATED);
}
