//! Seafarers over HTTP: the scenario list, creating games on a scenario, and a complete game
//! of every scenario on both backends, with the fog's secrecy checked for every viewer.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    full_game::play_to_a_winner,
    helpers::{assert_problem, spawn_app, Backend, TestApp, User},
};

const SCENARIOS: [&str; 7] = [
    "new_shores",
    "four_islands",
    "fog_islands",
    "through_the_desert",
    "new_world",
    "forgotten_tribe",
    "cloth_for_catan",
];

#[test]
fn the_scenarios_are_listed_with_their_player_counts_and_targets() {
    let app = spawn_app(Backend::Sqlite);
    let response = app.get("/api/v1/scenarios", None);
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().unwrap();
    let scenarios = body["scenarios"].as_array().unwrap();
    let ids: Vec<&str> = scenarios.iter().map(|s| s["id"].as_str().unwrap()).collect();
    // Wonders of Catan has rules of its own (tests/api/wonders.rs); The New World, whose
    // board is generated, The Forgotten Tribe and Cloth for Catan come after it.
    assert_eq!(
        ids,
        [&SCENARIOS[..4], &["wonders", "new_world", "forgotten_tribe", "cloth_for_catan", "pirate_islands"]].concat()
    );
    let pirates = scenarios.iter().find(|s| s["id"] == "pirate_islands").unwrap();
    assert_eq!(pirates["player_counts"], json!([2, 3, 4, 5, 6]), "PIR-1");
    assert_eq!(pirates["vp_targets"][0]["vp_target"], 10, "PIR-3");
    let cloth = scenarios.iter().find(|s| s["id"] == "cloth_for_catan").unwrap();
    assert_eq!(cloth["player_counts"], json!([2, 3, 4, 5, 6]), "CLV-1");
    assert_eq!(cloth["vp_targets"][0]["vp_target"], 14, "CLV-2");
    let tribe = scenarios.iter().find(|s| s["id"] == "forgotten_tribe").unwrap();
    assert_eq!(tribe["player_counts"], json!([2, 3, 4, 5, 6]), "FTR-1");
    let new_world = scenarios.iter().find(|s| s["id"] == "new_world").unwrap();
    assert_eq!(new_world["player_counts"], json!([2, 3, 4, 5, 6]), "NEW-1");
    for scenario in scenarios.iter().filter(|s| s["id"] != "wonders") {
        assert_eq!(scenario["variant"], "seafarers");
        assert!(!scenario["title"].as_str().unwrap().is_empty());
        assert!(scenario["description"].as_str().unwrap().len() > 20, "{scenario}");
        let counts: Vec<u64> =
            scenario["player_counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
        for players in [3, 4] {
            assert!(counts.contains(&players), "{scenario}");
        }
        // SEA-14: the target is the scenario's (12 to 14 in these).
        for target in scenario["vp_targets"].as_array().unwrap() {
            assert!(counts.contains(&target["players"].as_u64().unwrap()));
            assert!((10..=14).contains(&target["vp_target"].as_u64().unwrap()), "{target}");
        }
    }
}

#[test]
fn a_scenario_game_shows_the_sea_the_pirate_and_the_islands() {
    let app = spawn_app(Backend::Sqlite);
    let (id, _) = app
        .started_game_with(3, &json!({"max_players": 3, "variant": "seafarers", "scenario": "new_shores", "seed": 4}));
    let game = app.game(&id, None);
    assert_eq!(game["variant"], "seafarers");
    assert_eq!(game["options"]["scenario"], "new_shores");
    assert_eq!(game["vp_target"], 13);
    let board = &game["board"];
    let sea = board["hexes"].as_array().unwrap().iter().filter(|h| h["terrain"] == "sea").count();
    assert!(sea > 30, "the sea of the play area is on the board: {sea}");
    assert!(board["pirate"].is_string(), "{}", board["pirate"]);
    let islands = board["islands"].as_array().unwrap();
    assert!(islands.len() >= 3, "a main island and small islands: {}", islands.len());
    assert_eq!(game["players"][0]["pieces_left"]["ships"], 15);
    // Setup offers ships as the free piece only after a coastal settlement; the first
    // settlement is a plain choice of vertices.
    let summary = app.get("/api/v1/games?limit=5", None).json::<Value>().unwrap();
    let listed = summary["games"].as_array().unwrap().iter().find(|g| g["id"] == id.as_str()).cloned().unwrap();
    assert_eq!(listed["scenario"], "new_shores");
}

/// The New World (RULES-SCENARIOS 5): a board generated from the game's seed, public in full
/// with its generator and islands; robber and pirate off the board (NEW-5); the seed hidden
/// until the game is over (NEW-7, TC-132).
#[test]
fn a_new_world_game_shows_its_generated_board() {
    let app = spawn_app(Backend::Sqlite);
    for (players, variant, land) in [(4, "seafarers", 23), (5, "seafarers+five_six", 30)] {
        let request = json!({"max_players": players, "variant": variant, "scenario": "new_world", "seed": 12});
        let (id, users) = app.started_game_with(players, &request);
        let game = app.game(&id, Some(&users[0].token));
        assert_eq!(game["options"]["scenario"], "new_world");
        assert_eq!(game["vp_target"], 12, "NEW-2");
        let board = &game["board"];
        assert_eq!(board["generator"]["version"], "nw1", "NEW-8");
        assert!(board["generator"]["attempts"].as_u64().unwrap() >= 1);
        let hexes = board["hexes"].as_array().unwrap();
        let land_hexes = hexes.iter().filter(|h| h["terrain"] != "sea").count();
        assert_eq!(land_hexes, land, "NEW-GEN-2");
        assert!(hexes.iter().all(|h| h["terrain"] != "desert" && h["terrain"] != "gold"), "NEW-6");
        let islands = board["islands"].as_array().unwrap().len();
        assert!((3..=6).contains(&islands), "NEW-GEN-3: {islands} islands");
        assert!(board.get("robber").is_none() && board.get("pirate").is_none(), "NEW-5: {board}");
        assert!(game.get("seed").is_none(), "NEW-7: the seed is hidden until the game is over");
        let log = app.whole_log(&id, Some(&users[0].token));
        assert!(log[0]["events"][0].get("seed").is_none(), "NEW-7: not in the log either");
        assert_eq!(log[0]["events"][0]["board"]["generator"], board["generator"]);
    }
    // Another seed, another board.
    let board = |seed: u64| {
        let request = json!({"max_players": 3, "variant": "seafarers", "scenario": "new_world", "seed": seed});
        let (id, users) = app.started_game_with(3, &request);
        app.game(&id, Some(&users[0].token))["board"]["hexes"].clone()
    };
    assert_ne!(board(1), board(2));

    // NEW-8: the generator is the server's record; a custom board that claims one is refused
    // when the game is created (the field is `readOnly` in the spec).
    let user = app.register("cartographer");
    let mut custom = app.game(&app.started_game_with(3, &json!({"max_players": 3})).0, None)["board"].clone();
    custom["generator"] = json!({"version": "nw1", "attempts": 2_147_483_648_u64});
    let options = json!({"board": {"custom": custom}});
    let claimed = app.post("/api/v1/games", Some(&user.token), &json!({"max_players": 3, "options": options}));
    let problem: serde_json::Value = claimed.json().unwrap();
    assert_eq!(problem["code"], "invalid_config");
    assert!(problem["detail"].as_str().unwrap().contains("generator"), "{problem}");
    custom.as_object_mut().unwrap().remove("generator");
    let plain = app.post(
        "/api/v1/games",
        Some(&user.token),
        &json!({"max_players": 3, "options": {"board": {"custom": custom}}}),
    );
    assert_eq!(plain.status(), 201, "the same board without it is taken");
}

/// NEW-11 over HTTP: with `"new_world_harbours": "players_place"` the board starts without
/// harbours; before setup each player in turn, from the first clockwise, is shown the harbour
/// drawn (its kind public) and places it with `place_harbour`, which `legal-moves` lists;
/// then setup begins and the game is played to a winner.
#[test]
fn new_world_players_place_the_harbours_before_setup() {
    let app = spawn_app(Backend::Sqlite);
    let options = json!({"new_world_harbours": "players_place", "first_player": {"seat": 1}});
    let request =
        json!({"max_players": 3, "variant": "seafarers", "scenario": "new_world", "seed": 5, "options": options});
    let (id, users) = app.started_game_with(3, &request);
    let game = app.game(&id, None);
    assert_eq!(game["options"]["new_world_harbours"], "players_place");
    assert_eq!(game["board"]["harbours"], json!([]), "no harbour before the players place them");

    let mut placed = 0;
    let mut expected_seat = 1;
    loop {
        let game = app.game(&id, None);
        let phase = &game["turn"]["phase"];
        if phase["name"] != "place_harbour" {
            assert_eq!(phase["name"], "setup", "setup follows the harbours: {phase}");
            assert_eq!(phase["seat"], 1, "the first player begins setup");
            break;
        }
        assert_eq!(phase["seat"], expected_seat, "clockwise from the first player: {phase}");
        assert_eq!(game["turn"]["waiting_for"], json!([expected_seat]));
        let kind = phase["kind"].as_str().expect("the drawn harbour's kind is public").to_owned();
        let placing = &users[expected_seat];
        let waiting = &users[(expected_seat + 1) % 3];
        assert_eq!(app.legal_moves(&id, waiting)["moves"], json!([]));
        let legal = app.legal_moves(&id, placing);
        let moves = legal["moves"].as_array().expect("moves");
        assert!(!moves.is_empty() && moves.iter().all(|m| m["type"] == "place_harbour"), "{legal}");
        let mv = &moves[placed % moves.len()];
        assert_problem(app.submit(&id, waiting, mv), 422, "not_your_turn");
        let response = app.submit(&id, placing, mv);
        assert_eq!(response.status(), StatusCode::CREATED, "{mv}");
        let body: Value = response.json().unwrap();
        let events = body["entry"]["events"].as_array().expect("the log entry's events");
        assert!(
            events.iter().any(|e| e["type"] == "harbour_placed" && e["edge"] == mv["edge"] && e["kind"] == kind),
            "{body}"
        );
        placed += 1;
        expected_seat = (expected_seat + 1) % 3;
    }
    let board = &app.game(&id, None)["board"];
    assert_eq!(board["harbours"].as_array().unwrap().len(), placed);
    let log = app.whole_log(&id, Some(&users[0].token));
    let drawn = log.iter().flat_map(|e| e["events"].as_array().unwrap()).filter(|e| e["type"] == "harbour_drawn");
    assert_eq!(drawn.count(), placed, "every harbour placed was drawn in the log");
    play_to_a_winner(&app, &id, &users);
}

#[test]
fn scenario_requests_that_cannot_be_played_are_refused() {
    let app = spawn_app(Backend::Sqlite);
    let user = app.register("sailor");
    let unknown =
        app.post("/api/v1/games", Some(&user.token), &json!({"variant": "seafarers", "scenario": "atlantis"}));
    assert!(unknown.status().is_client_error(), "{}", unknown.status());
    // Five seats need the 5-6 player extension too.
    let five = app.post("/api/v1/games", Some(&user.token), &json!({"variant": "seafarers", "max_players": 5}));
    assert_problem(five, 422, "invalid_player_count");
    let combined = app.post(
        "/api/v1/games",
        Some(&user.token),
        &json!({"variant": "seafarers+jungle", "options": {"jungle_number": 6}}),
    );
    assert_problem(combined, 422, "invalid_config");
    // SCN-4: a land area the map lacks, and land areas outside Seafarers.
    let no_such_area = app.post(
        "/api/v1/games",
        Some(&user.token),
        &json!({"variant": "seafarers", "scenario": "forgotten_tribe", "options": {"robber_excluded_land_areas": [7]}}),
    );
    assert_problem(no_such_area, 422, "invalid_config");
    let base = app.post("/api/v1/games", Some(&user.token), &json!({"options": {"robber_excluded_land_areas": [0]}}));
    assert_problem(base, 422, "invalid_config");
}

both_backends!(every_scenario_is_played_to_a_winner);

fn every_scenario_is_played_to_a_winner(backend: Backend) {
    let app = spawn_app(backend);
    for (i, scenario) in SCENARIOS.into_iter().enumerate() {
        let players = if i % 2 == 0 { 4 } else { 3 };
        let mut request = json!({"max_players": players, "variant": "seafarers", "scenario": scenario, "seed": 40 + i});
        if scenario == "pirate_islands" {
            // PIR-8: random seats can wall their lanes in for good; the turn limit ends such a game.
            request["options"] = json!({"turn_limit": 250});
        }
        let (id, users) = app.started_game_with(players, &request);
        play_to_a_winner(&app, &id, &users);
        check_fog_secrecy(&app, &id, &users);
        if scenario == "forgotten_tribe" {
            check_tribe(&app, &id, &users);
        }
        if scenario == "cloth_for_catan" {
            check_cloth(&app, &id, &users);
        }
        if scenario == "pirate_islands" {
            check_pirates(&app, &id, &users);
        }
        // NEW-7 (and every game): the seed is published once the game is over.
        assert!(app.game(&id, None)["seed"].is_u64(), "{scenario}");
    }
}

/// FTR-7..10: the game shows the tribe's gifts, who claimed them and the cards set aside;
/// each gifted card is in every log, named once the game is over (FTR-8); the tribe's islands
/// are neutral (SCN-3) and kept from the robber (SCN-4).
fn check_tribe(app: &TestApp, id: &str, users: &[User]) {
    let spectator = app.game(id, None);
    let tribe = &spectator["forgotten_tribe"];
    let claimed = tribe["claimed"].as_array().unwrap();
    let left = tribe["gifts"].as_array().unwrap();
    assert_eq!(claimed.len() + left.len(), 8 + 4 + 6, "every gift is on its edge or claimed: {tribe}");
    assert!(tribe["development_cards_set_aside"].as_u64().unwrap() <= 4);
    assert_eq!(spectator["board"]["neutral"].as_array().unwrap().len(), 12, "SCN-3");
    assert_eq!(spectator["board"]["robber_excluded"].as_array().unwrap().len(), 12, "SCN-4");
    let areas = spectator["board"]["land_areas"].as_array().unwrap();
    assert_eq!((areas[0]["area"].as_u64(), areas[0]["hexes"].as_array().unwrap().len()), (Some(0), 12), "SCN-3");
    let mut gifted = 0;
    for user in users {
        let you = app.game(id, Some(&user.token))["you"].as_u64().unwrap();
        for event in app.whole_log(id, Some(&user.token)).iter().flat_map(|e| e["events"].as_array().unwrap().clone()) {
            if event["type"] == "development_card_gifted" {
                gifted += 1;
                // The game is over: every log is whole, as for bought cards (while it runs the
                // card is its owner's only: the engine's redaction, checked by its invariants).
                assert!(event["card"].is_string(), "seat {you} reads {event}");
            }
        }
    }
    let cards = claimed.iter().filter(|c| c["gift"] == "development_card").count();
    assert_eq!(gifted, cards * users.len(), "each reader's log has each card gift once");
}

/// CLV-5..14: the game shows the villages, their cloth and connections and each seat's cloth,
/// all of it the same for every reader; cloth is conserved; the village islands are neutral
/// (SCN-3) and kept from the robber (SCN-4); the game ended by points or by exhaustion.
fn check_cloth(app: &TestApp, id: &str, users: &[User]) {
    let spectator = app.game(id, None);
    let cloth = &spectator["cloth_for_catan"];
    let villages = cloth["villages"].as_array().unwrap();
    assert_eq!(villages.len(), 8, "CLV-5: {cloth}");
    let in_villages: u64 = villages.iter().map(|v| v["cloth"].as_u64().unwrap()).sum();
    let held: u64 = cloth["cloth"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum();
    assert_eq!(in_villages + held + cloth["general_supply"].as_u64().unwrap(), 8 * 5 + 10, "cloth is conserved");
    assert!(villages.iter().any(|v| !v["connected"].as_array().unwrap().is_empty()), "someone reached a village");
    assert_eq!(spectator["board"]["neutral"].as_array().unwrap().len(), 4, "SCN-3");
    assert_eq!(spectator["board"]["robber_excluded"].as_array().unwrap().len(), 4, "SCN-4");
    let won_by = spectator["won_by"].as_str().unwrap();
    let with_cloth = villages.iter().filter(|v| v["cloth"].as_u64() > Some(0)).count();
    match won_by {
        "villages_exhausted" => assert!(with_cloth < 4, "CLV-14: {with_cloth} villages with cloth"),
        "victory_points" => assert!(with_cloth >= 4),
        other => panic!("won by {other}"),
    }
    for user in users {
        assert_eq!(&app.game(id, Some(&user.token))["cloth_for_catan"], cloth, "cloth is public");
    }
}

/// PIR-4..21: the game shows the fleet's path and place, each seat's lane, lone vertex,
/// fortress strength and warships, the same to every reader; there is no robber (PIR-2).
fn check_pirates(app: &TestApp, id: &str, users: &[User]) {
    let spectator = app.game(id, None);
    let pirates = &spectator["pirate_islands"];
    assert_eq!(pirates["fleet_path"].as_array().unwrap().len(), 14, "PIR-11: {pirates}");
    let seats = pirates["seats"].as_array().unwrap();
    assert_eq!(seats.len(), users.len());
    for seat in seats {
        assert!(!seat["lane"].as_array().unwrap().is_empty(), "PIR-7");
        assert!(seat["fortress_strength"].as_u64().unwrap() <= 3, "PIR-4");
    }
    assert!(spectator["board"]["robber"].is_null(), "PIR-2: no robber");
    let won_by = spectator["won_by"].as_str().unwrap();
    assert!(["victory_points", "turn_limit"].contains(&won_by), "{won_by}");
    if won_by == "victory_points" {
        let winner = spectator["winner"].as_u64().unwrap() as usize;
        assert_eq!(seats[winner]["fortress_strength"], 0, "PIR-20: the winner conquered its fortress");
    }
    for user in users {
        assert_eq!(&app.game(id, Some(&user.token))["pirate_islands"], pirates, "public to every reader");
    }
}

/// SEA-13: fog hexes show no terrain or number to anyone, and every hex that left the fog did
/// so through a `fog_revealed` event (so views and logs agree on what is known).
pub(crate) fn check_fog_secrecy(app: &TestApp, id: &str, users: &[User]) {
    let tokens: Vec<Option<&str>> = users.iter().map(|u| Some(u.token.as_str())).chain([None]).collect();
    for token in tokens {
        let entries = app.whole_log(id, token);
        let started = &entries[0]["events"][0];
        assert_eq!(started["type"], "game_started");
        let hexes = |board: &Value| board["hexes"].as_array().unwrap().clone();
        let fog_at_start: Vec<Value> = hexes(&started["board"]).into_iter().filter(|h| h["terrain"] == "fog").collect();
        for hex in &fog_at_start {
            assert!(hex.get("number").is_none(), "a fog hex carries no token: {hex}");
        }
        let revealed: Vec<&Value> = entries
            .iter()
            .flat_map(|e| e["events"].as_array().unwrap())
            .filter(|e| e["type"] == "fog_revealed")
            .collect();
        let game = app.game(id, token);
        let fog_now: Vec<Value> = hexes(&game["board"]).into_iter().filter(|h| h["terrain"] == "fog").collect();
        assert_eq!(fog_now.len() + revealed.len(), fog_at_start.len(), "every reveal is in the log");
        for event in revealed {
            let hex = hexes(&game["board"]).into_iter().find(|h| h["hex"] == event["hex"]).expect("revealed hex");
            assert_eq!(hex["terrain"], event["terrain"], "{event}");
            assert_eq!(hex.get("number"), event.get("number"), "{event}");
        }
        for hex in &fog_now {
            assert!(hex.get("number").is_none(), "{hex}");
        }
    }
}
