//! Cities & Knights with Seafarers over HTTP (SEA-15): a `seafarers+cities_and_knights` game
//! on Fog Islands, created by variant and scenario and played to the end on both backends by
//! three people and a heuristic bot. Every view has both parts: Cities & Knights' (checked as
//! in `cities_knights`, with other seats' commodities and progress cards as counts only) and
//! Seafarers' (ships, the pirate, the fog, which shows nothing under it until turned up, with
//! every reveal in the log). Wonders of Catan does not combine with Cities & Knights.

use serde_json::{json, Value};

use crate::{
    both_backends,
    cities_knights::play_to_the_end,
    helpers::{assert_problem, spawn_app, Backend},
    seafarers::check_fog_secrecy,
};

/// Fog Islands' target for 4 players (SEA-14).
const FOG_ISLANDS_TARGET: u64 = 12;

both_backends!(
    a_seafarers_cities_and_knights_game_is_played_to_the_end_over_http,
    wonders_and_cities_and_knights_are_refused_together
);

fn a_seafarers_cities_and_knights_game_is_played_to_the_end_over_http(backend: Backend) {
    let app = spawn_app(backend);
    let request = json!({
        "max_players": 4, "variant": "seafarers+cities_and_knights", "scenario": "fog_islands", "seed": 11
    });
    let (id, people) = play_to_the_end(&app, &request, check_sea_view);
    let game = app.game(&id, None);
    assert_eq!(game["variant"], "seafarers+cities_and_knights", "{}", game["variant"]);
    assert_eq!(game["options"]["scenario"], "fog_islands");
    // SEA-15, CK-GEN-1: the scenario's target plus three.
    assert_eq!(game["vp_target"], FOG_ISLANDS_TARGET + 3);
    check_fog_secrecy(&app, &id, &people);
    let log = app.whole_log(&id, None);
    let events = |kind: &str| -> usize {
        log.iter().flat_map(|e| e["events"].as_array().unwrap().iter()).filter(|e| e["type"] == kind).count()
    };
    eprintln!(
        "ships built {}, moved {}, fog revealed {}, pirate moved {}, knights recruited {}, barbarian attacks {}",
        events("ship_built"),
        events("ship_moved"),
        events("fog_revealed"),
        events("pirate_moved"),
        events("knight_recruited"),
        events("barbarians_attacked")
    );
    assert!(events("ship_built") > 0, "no ship in the game");
}

/// What Seafarers adds to a C&K game's view: the ships and the pirate on the board, each
/// seat's ships left, and the fog hiding its terrain and numbers (SEA-13).
fn check_sea_view(game: &Value) {
    if game["status"] == "open" {
        return;
    }
    assert!(game["cities_and_knights"].is_object(), "the C&K part: {}", game["cities_and_knights"]);
    let board = &game["board"];
    // No ship yet leaves the list out.
    assert!(board.get("ships").is_none_or(Value::is_array), "{}", board["ships"]);
    assert!(board.get("pirate").is_some_and(|p| p.is_string() || p.is_null()), "{}", board["pirate"]);
    for player in game["players"].as_array().unwrap() {
        assert!(player["pieces_left"]["ships"].as_u64().unwrap() <= 15, "SEA-1: {player}");
    }
    for hex in board["hexes"].as_array().unwrap().iter().filter(|h| h["terrain"] == "fog") {
        assert!(hex.get("number").is_none(), "SEA-13: a number under the fog: {hex}");
    }
}

fn wonders_and_cities_and_knights_are_refused_together(backend: Backend) {
    let app = spawn_app(backend);
    let host = app.register("host");
    for request in [
        json!({"max_players": 4, "variant": "wonders+cities_and_knights"}),
        json!({"max_players": 4, "variant": "cities_and_knights", "scenario": "wonders"}),
    ] {
        assert_problem(app.post("/api/v1/games", Some(&host.token), &request), 422, "invalid_config");
    }
    // The other scenarios combine, each at its own target plus three (SEA-15).
    let game = app.create_game(&host, &json!({"max_players": 3, "variant": "seafarers+cities_and_knights"}));
    assert_eq!(game["options"]["scenario"], "new_shores", "{game}");
    assert_eq!(game["vp_target"], 13 + 3, "{game}");
}
