//! Sandbox games (issue 31 part 4): `POST /games` with a `position` starts a game from it;
//! such a game, like a seeded one, takes only its creator and bots unless the server is a
//! sandbox (`CATAN_SANDBOX=1`), where `roll_dice` may also name its dice. The log opens with
//! the position, redacted per reader; records of such games (named dice included) are right
//! and import again on a sandbox.

use catan_engine::{
    sim::{Bot, RandomBot},
    Game, GameConfig, Phase, Seat, Setup, Viewer,
};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    bots::wait_until_finished,
    helpers::{assert_problem, postgres, spawn_app_with, Backend, TestApp, User},
    records::record,
};

both_backends!(
    a_game_starts_from_a_position_and_plays_on_from_it,
    a_sandbox_rolls_named_dice_and_keeps_them_in_the_record,
    positions_that_cannot_start_a_game_are_refused
);

fn app(backend: Backend, sandbox: bool) -> TestApp {
    let database = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(postgres::fresh_database()),
    };
    spawn_app_with(database, |config| config.sandbox = sandbox)
}

/// A 3-player game played by random bots into its sixth turn: a position reached in play,
/// with cards in hand, in a game that ends at turn 14.
fn prepared(seed: u64) -> Game {
    let config = GameConfig { turn_limit: Some(14), ..GameConfig::for_players(3) };
    let mut game = Game::new(config, seed).unwrap();
    let mut bot = RandomBot::new(seed);
    while game.turn_number() < 6 || *game.phase() != Phase::PreRoll {
        let seat = game.waiting_for()[0];
        let legal = game.legal_moves(seat);
        let mv = &legal[bot.choose(&game, seat, &legal)];
        for event in game.decide(seat, mv, &mut game.chance()).unwrap() {
            game.apply(&event);
        }
    }
    game
}

/// Creates a game from `position` with the creator in seat 0 and bots in the others.
fn create(app: &TestApp, host: &User, position: &Setup, seed: u64) -> String {
    let body = json!({"position": position, "seed": seed});
    let game = app.create_game(host, &body);
    assert_eq!(game["from_position"], true);
    assert_eq!(game["seeded"], true, "only its creator and bots play");
    assert_eq!(game["max_players"], position.config.players);
    game["id"].as_str().unwrap().to_owned()
}

fn seat_bots(app: &TestApp, host: &User, id: &str, count: usize) {
    for _ in 0..count {
        let added = app.post(&format!("/api/v1/games/{id}/players"), Some(&host.token), &json!({"bot": "random"}));
        assert_eq!(added.status(), StatusCode::CREATED);
    }
}

fn a_game_starts_from_a_position_and_plays_on_from_it(backend: Backend) {
    let app = app(backend, false);
    let host = app.register("host");
    let guest = app.register("guest");
    let game = prepared(21);
    let position = Setup::from(&game);
    let id = create(&app, &host, &position, 5);
    // Not a sandbox: nobody but the creator and bots sits in it.
    assert_problem(app.join(&id, &guest), 422, "seeded_game");
    seat_bots(&app, &host, &id, 1);
    // Every seat of the position is taken before it starts.
    assert_problem(app.start(&id, &host), 409, "not_enough_players");
    seat_bots(&app, &host, &id, 1);
    assert_eq!(app.start(&id, &host).status(), StatusCode::OK);
    // The log opens with the position, each reader seeing it redacted as its game view.
    let log = app.log(&id, Some(&host.token), 0);
    let opening = &log["entries"][0]["events"];
    assert_eq!(opening[0]["type"], "game_started");
    assert_eq!(opening[1]["type"], "position_set");
    let shown = &opening[1]["position"];
    assert_eq!(shown["seed"], 0);
    assert_eq!(shown["seats"][0]["resources"], json!(position.seats[0].resources));
    assert!(shown["seats"][1]["hidden"].is_object(), "another seat's hand in the opening: {shown}");
    let spectators = app.log(&id, None, 0);
    assert!(spectators["entries"][0]["events"][1]["position"]["seats"][0]["hidden"].is_object());
    // The game is the position: the same hands, board and turn, for the creator's seat.
    let view: Value = app.get(&format!("/api/v1/games/{id}?at=1"), Some(&host.token)).json().unwrap();
    let expected = serde_json::to_value(game.view(Viewer::Seat(Seat(0)))).unwrap();
    for field in ["board", "bank", "development_cards_left", "longest_road", "largest_army"] {
        assert_eq!(view[field], expected[field], "{field}");
    }
    assert_eq!(view["hand"], expected["hand"]);
    assert_eq!(view["turn"]["active_seat"], expected["turn"]["active_seat"]);
    // It plays on from there (the bots and, when it is its turn, the creator) to the end.
    let started = std::time::Instant::now();
    loop {
        let game = app.game(&id, None);
        if game["status"] == "finished" {
            break;
        }
        assert!(started.elapsed().as_secs() < 120, "the game is stuck: {game}");
        let legal = app.legal_moves(&id, &host);
        match legal["moves"].as_array().unwrap().first() {
            Some(mv) => {
                let _ = app.submit(&id, &host, mv);
            }
            None => {
                let _ = app.get(&format!("/api/v1/games/{id}/moves?after={}&wait=2", game["version"]), None);
            }
        }
    }
    // Its record is right (its chance built again from the seed) and imports as it is.
    let full = record(&app, &id, None);
    assert_eq!(full["game"]["from_position"], true);
    assert_eq!(full["entries"][0]["events"][1]["position"]["seats"][1]["hidden"], Value::Null);
    let imported = app.post("/api/v1/games/import", Some(&guest.token), &full);
    assert_eq!(imported.status(), StatusCode::CREATED);
    let imported: Value = imported.json().unwrap();
    assert_eq!(imported["from_position"], true);
    let copy = record(&app, imported["id"].as_str().unwrap(), None);
    assert_eq!(copy["entries"], full["entries"]);
}

fn a_sandbox_rolls_named_dice_and_keeps_them_in_the_record(backend: Backend) {
    let sandbox = app(backend, true);
    let host = sandbox.register("host");
    let guest = sandbox.register("guest");
    let position = Setup::from(&prepared(8));
    let id = create(&sandbox, &host, &position, 3);
    // A sandbox: anyone may sit in it.
    assert_eq!(sandbox.join(&id, &guest).status(), StatusCode::CREATED);
    seat_bots(&sandbox, &host, &id, 1);
    assert_eq!(sandbox.start(&id, &host).status(), StatusCode::OK);
    let active = sandbox.game(&id, None)["turn"]["active_seat"].as_u64().unwrap();
    let users = [&host, &guest];
    // Wait for a human seat's roll; the bot in seat 2 plays its turns meanwhile.
    let mut rolled = 0;
    let started = std::time::Instant::now();
    while rolled < 3 && started.elapsed().as_secs() < 60 {
        let game = sandbox.game(&id, None);
        if game["status"] == "finished" {
            break;
        }
        let waiting: Vec<u64> =
            game["turn"]["waiting_for"].as_array().unwrap().iter().filter_map(Value::as_u64).collect();
        let Some(&seat) = waiting.iter().find(|s| **s < 2) else {
            let _ = sandbox.get(&format!("/api/v1/games/{id}/moves?after={}&wait=2", game["version"]), None);
            continue;
        };
        let user = users[seat as usize];
        let legal = sandbox.legal_moves(&id, user);
        let moves = legal["moves"].as_array().unwrap();
        if moves.iter().any(|m| m["type"] == "roll_dice") {
            // A bad pair of dice, and dice on another move, are refused.
            let bad = json!({"type": "roll_dice", "dice": [0, 7]});
            assert_problem(sandbox.submit(&id, user, &bad), 422, "invalid_chance");
            let (red, white) = (1 + rolled % 6, 6 - rolled % 3);
            let response = sandbox.submit(&id, user, &json!({"type": "roll_dice", "dice": [red, white]}));
            assert_eq!(response.status(), StatusCode::CREATED);
            let played: Value = response.json().unwrap();
            let events = played["entry"]["events"].as_array().unwrap();
            let dice = events.iter().find(|e| e["type"] == "dice_rolled").unwrap();
            assert_eq!((dice["red"].clone(), dice["white"].clone()), (json!(red), json!(white)));
            assert_eq!(played["entry"]["move"], json!({"type": "roll_dice"}), "the log keeps the move, not the dice");
            rolled += 1;
        } else if let Some(mv) = moves.iter().find(|m| m["type"] == "end_turn").or(moves.first()) {
            let with_dice = json!({"type": mv["type"], "dice": [2, 2]});
            if mv["type"] != "roll_dice" && mv.as_object().unwrap().len() == 1 {
                assert_problem(sandbox.submit(&id, user, &with_dice), 422, "dice_not_allowed");
            }
            let _ = sandbox.submit(&id, user, mv);
        }
    }
    assert!(rolled >= 1, "no roll of a person's seat (first seat {active})");
    // The people's seats play their first legal move until the game is over; its record
    // keeps the named dice as their chance.
    let started = std::time::Instant::now();
    while sandbox.game(&id, None)["status"] != "finished" {
        assert!(started.elapsed().as_secs() < 180, "the game does not end");
        let mut moved = false;
        for user in users {
            if let Some(mv) = sandbox.legal_moves(&id, user)["moves"].as_array().unwrap().first().cloned() {
                let _ = sandbox.submit(&id, user, &mv);
                moved = true;
            }
        }
        if !moved {
            let version = sandbox.game(&id, None)["version"].clone();
            let _ = sandbox.get(&format!("/api/v1/games/{id}/moves?after={version}&wait=2"), None);
        }
    }
    wait_until_finished(&sandbox, &id);
    let full = record(&sandbox, &id, None);
    let named = full["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|entry| entry["kind"] == "roll_dice" && entry["seat"].as_u64().is_some_and(|s| s < 2))
        .count();
    assert!(named >= rolled, "the record lost rolls");
    for entry in full["entries"].as_array().unwrap() {
        for event in entry["events"].as_array().unwrap().iter().filter(|e| e["type"] == "dice_rolled") {
            let chance = entry["chance"].as_array().unwrap();
            let red = chance.iter().find(|p| p["draw"] == "red_die").unwrap()["outcome"].as_u64().unwrap();
            assert_eq!(event["red"].as_u64().unwrap(), red + 1, "entry {}: the record's chance", entry["seq"]);
        }
    }
    // It imports into a sandbox, keeping its dice; elsewhere its chance is not the seed's.
    let imported = sandbox.post("/api/v1/games/import", Some(&guest.token), &full);
    assert_eq!(imported.status(), StatusCode::CREATED);
    let copy: Value = imported.json().unwrap();
    assert_eq!(record(&sandbox, copy["id"].as_str().unwrap(), None)["entries"], full["entries"]);
    let strict = app(backend, false);
    let someone = strict.register("someone");
    let refused =
        assert_problem(strict.post("/api/v1/games/import", Some(&someone.token), &full), 422, "invalid_record");
    assert_eq!(refused["check"], "chance_not_seeded");
    // And a server that is no sandbox refuses named dice.
    let position = Setup::from(&prepared(8));
    let id = create(&strict, &someone, &position, 3);
    seat_bots(&strict, &someone, &id, 2);
    assert_eq!(strict.start(&id, &someone).status(), StatusCode::OK);
    let roll = json!({"type": "roll_dice", "dice": [3, 4]});
    assert_problem(strict.submit(&id, &someone, &roll), 422, "dice_not_allowed");
}

fn positions_that_cannot_start_a_game_are_refused(backend: Backend) {
    let app = app(backend, false);
    let host = app.register("host");
    let game = prepared(4);
    let position = Setup::from(&game);
    // Rules beside the position.
    for (field, value) in [
        ("variant", json!("jungle")),
        ("max_players", json!(4)),
        ("options", json!({"players": 4})),
        ("board", json!("random")),
    ] {
        let mut body = json!({"position": position});
        body[field] = value;
        let problem = assert_problem(app.post("/api/v1/games", Some(&host.token), &body), 422, "invalid_config");
        assert_eq!(problem["errors"][0]["pointer"], format!("#/{field}"));
    }
    // A position that cannot arise, a reader's view of one, a finished one.
    let mut bad = serde_json::to_value(&position).unwrap();
    let first = bad["buildings"][0].clone();
    bad["buildings"].as_array_mut().unwrap().push(first);
    let problem = assert_problem(
        app.post("/api/v1/games", Some(&host.token), &json!({"position": bad})),
        422,
        "invalid_position",
    );
    assert_eq!(problem["check"], "vertex_occupied");
    let redacted = position.clone().redacted_for(Viewer::Seat(Seat(0)));
    let problem = assert_problem(
        app.post("/api/v1/games", Some(&host.token), &json!({"position": redacted})),
        422,
        "invalid_position",
    );
    assert_eq!(problem["check"], "unseen_cards_inconsistent");
    let mut over = serde_json::to_value(&position).unwrap();
    over["config"]["vp_target"] = json!(300);
    assert_problem(app.post("/api/v1/games", Some(&host.token), &json!({"position": over})), 422, "invalid_config");
    // Nothing was created by the refusals.
    let mine: Value = app.get("/api/v1/games?mine=true", Some(&host.token)).json().unwrap();
    assert_eq!(mine["games"], json!([]));
}
