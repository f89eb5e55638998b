//! Wonders of Catan over HTTP (RULES 8.5, WON): the scenario list, creating games on it,
//! claims the rules refuse, and a complete game on both backends with the wonders in every
//! view and the claims, stages and the way it was won in the log.

use catan_engine::{bots::RandomBot, Move};
use rand::{rngs::StdRng, Rng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{assert_problem, choose, spawn_app, Backend, TestApp, User},
};

const WONDERS: [&str; 5] = ["theater", "great_bridge", "colossus", "great_wall", "cathedral"];

/// Fail if a game takes more moves than this.
const MOVE_CAP: usize = 5000;

#[test]
fn the_scenario_list_has_wonders_of_catan() {
    let app = spawn_app(Backend::Sqlite);
    let body: Value = app.get("/api/v1/scenarios", None).json().unwrap();
    let wonders = body["scenarios"].as_array().unwrap().iter().find(|s| s["id"] == "wonders").expect("wonders listed");
    assert_eq!(wonders["title"], "Wonders of Catan");
    assert_eq!(wonders["variant"], "seafarers+wonders");
    assert!(wonders["description"].as_str().unwrap().contains("wonder"), "{wonders}");
    assert_eq!(wonders["player_counts"], json!([3, 4]));
    assert_eq!(wonders["vp_targets"], json!([{"players": 3, "vp_target": 10}, {"players": 4, "vp_target": 10}]));
}

/// The scenario, the variant `wonders` and `seafarers+wonders` are the same game; the started
/// game shows the five wonders, free and unbuilt, and the marked vertices of the map.
#[test]
fn a_wonders_game_is_created_by_scenario_or_variant_and_shows_its_wonders() {
    let app = spawn_app(Backend::Sqlite);
    let requests = [
        json!({"max_players": 3, "scenario": "wonders", "seed": 1}),
        json!({"max_players": 4, "variant": "wonders", "seed": 2}),
        json!({"max_players": 3, "variant": "seafarers+wonders", "scenario": "wonders", "seed": 3}),
        json!({"max_players": 4, "variant": "seafarers", "scenario": "wonders", "seed": 4}),
    ];
    for request in requests {
        let players = request["max_players"].as_u64().unwrap() as usize;
        let (id, users) = app.started_game_with(players, &request);
        for token in users.iter().map(|u| Some(u.token.as_str())).chain([None]) {
            let game = app.game(&id, token);
            assert_eq!(game["variant"], "seafarers+wonders", "{request}");
            assert_eq!(game["options"]["scenario"], "wonders");
            assert_eq!(game["vp_target"], 10);
            let wonders = game["wonders"].as_array().expect("the wonders are in the view");
            let ids: Vec<&str> = wonders.iter().map(|w| w["wonder"].as_str().unwrap()).collect();
            assert_eq!(ids, WONDERS);
            for wonder in wonders {
                assert!(!wonder["name"].as_str().unwrap().is_empty());
                assert!(!wonder["requirements"].as_array().unwrap().is_empty(), "{wonder}");
                for requirement in wonder["requirements"].as_array().unwrap() {
                    assert!(requirement["kind"].is_string(), "{requirement}");
                }
                let cost: u64 = wonder["stage_cost"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
                assert_eq!(cost, 5, "WON-10: five cards a stage: {wonder}");
                assert_eq!(wonder["stages"], 4);
                assert_eq!(wonder["stages_built"], 0);
                assert!(wonder["owner"].is_null(), "free, and said so: {wonder}");
            }
            // WON-9's known card, as the data writes it.
            assert_eq!(
                wonders[2]["requirements"],
                json!([{"kind": "city_on_harbour"}, {"kind": "route_length_at_least", "length": 5}])
            );
            assert_eq!(wonders[0]["requirements"], json!([{"kind": "cities_at_least", "count": 2}]));
            let sets: Vec<&str> = game["board"]["marked_vertices"]
                .as_array()
                .expect("marked vertices")
                .iter()
                .map(|m| m["set"].as_str().unwrap())
                .collect();
            for set in ["wasteland", "strait"] {
                assert!(sets.contains(&set), "{sets:?}");
            }
            // WON-6: no pirate.
            assert!(game["board"]["pirate"].is_null(), "{}", game["board"]["pirate"]);
        }
        let listed = app.get("/api/v1/games?limit=10", None).json::<Value>().unwrap();
        let summary = listed["games"].as_array().unwrap().iter().find(|g| g["id"] == id.as_str()).cloned().unwrap();
        assert_eq!(summary["scenario"], "wonders");
        assert_eq!(summary["variant"], "seafarers+wonders");
    }
    // Other games show no wonders.
    let (id, _) = app.started_game_with(3, &json!({"max_players": 3, "scenario": "new_shores", "seed": 5}));
    let game = app.game(&id, None);
    assert!(game.get("wonders").is_none(), "{}", game["wonders"]);
    assert!(game["board"].get("marked_vertices").is_none());
}

#[test]
fn wonders_games_that_cannot_be_played_are_refused() {
    let app = spawn_app(Backend::Sqlite);
    let user = app.register("builder");
    for request in [
        json!({"max_players": 2, "scenario": "wonders"}),
        json!({"max_players": 2, "variant": "wonders"}),
        json!({"max_players": 5, "scenario": "wonders"}),
        json!({"max_players": 5, "variant": "seafarers+five_six+wonders"}),
    ] {
        let problem =
            assert_problem(app.post("/api/v1/games", Some(&user.token), &request), 422, "invalid_player_count");
        assert!(problem["detail"].as_str().unwrap().contains("Wonders of Catan is for 3 or 4 players"), "{problem}");
    }
    // The variant `wonders` is a map of its own.
    let other_map = json!({"variant": "wonders", "scenario": "new_shores"});
    assert_problem(app.post("/api/v1/games", Some(&user.token), &other_map), 422, "invalid_config");
    // A game for 4 that only 2 joined cannot start either.
    let game = app.create_game(&user, &json!({"max_players": 4, "scenario": "wonders"}));
    let id = game["id"].as_str().unwrap();
    let second = app.register("second");
    assert_eq!(app.join(id, &second).status(), StatusCode::CREATED);
    assert_problem(app.start(id, &user), 422, "invalid_player_count");
}

/// WON-9: a claim whose condition does not hold is refused with the part that is unmet; a
/// stage needs a wonder; an unknown wonder is not a move.
#[test]
fn a_claim_without_its_condition_is_refused() {
    let app = spawn_app(Backend::Sqlite);
    let (id, users) = app.started_game_with(3, &json!({"max_players": 3, "scenario": "wonders", "seed": 7}));
    let mut rng = StdRng::seed_from_u64(7);
    // Play setup and the first roll (and whatever a 7 brings) to the main phase.
    let seat = loop {
        let game = app.game(&id, None);
        let seat = game["turn"]["waiting_for"][0].as_u64().unwrap() as usize;
        if game["turn"]["phase"]["name"] == "main" {
            break seat;
        }
        let legal = app.legal_moves(&id, &users[seat]);
        let moves = legal["moves"].as_array().unwrap();
        let mv = moves.iter().find(|m| m["type"] == "roll_dice").unwrap_or_else(|| choose(moves, &mut rng));
        assert_eq!(app.submit(&id, &users[seat], mv).status(), StatusCode::CREATED, "{mv}");
    };
    let user = &users[seat];
    let legal = app.legal_moves(&id, user);
    let listed = |kind: &str| legal["moves"].as_array().unwrap().iter().any(|m| m["type"] == kind);
    assert!(!listed("claim_wonder") && !listed("build_wonder_stage"), "{legal}");

    let theater = app.submit(&id, user, &json!({"type": "claim_wonder", "wonder": "theater"}));
    let problem = assert_problem(theater, 422, "wonder_condition_unmet");
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("Theater") && detail.contains("at least 2 cities") && detail.contains("you have 0"),
        "{detail}"
    );
    assert_eq!(problem["type"], "urn:catan:problem:wonder_condition_unmet");

    let colossus = app.submit(&id, user, &json!({"type": "claim_wonder", "wonder": "colossus"}));
    let detail = assert_problem(colossus, 422, "wonder_condition_unmet")["detail"].as_str().unwrap().to_owned();
    assert!(detail.contains("Colossus") && detail.contains("harbour"), "{detail}");

    assert_problem(app.submit(&id, user, &json!({"type": "build_wonder_stage"})), 422, "no_wonder");
    let unknown = app.submit(&id, user, &json!({"type": "claim_wonder", "wonder": "pyramid"}));
    assert_problem(unknown, 400, "malformed_body");
    // Another seat, out of turn.
    let other = &users[(seat + 1) % users.len()];
    assert_problem(app.submit(&id, other, &json!({"type": "claim_wonder", "wonder": "theater"})), 422, "not_your_turn");
    // Nothing was played.
    assert_eq!(app.game(&id, None)["version"], legal["version"]);
}

/// Picks what a seat plays: a claim or a stage whenever one is listed (so the game is about
/// its wonders), otherwise like the engine's random bot.
fn pick(moves: &[Move], rng: &mut StdRng) -> usize {
    moves
        .iter()
        .position(|mv| matches!(mv, Move::ClaimWonder { .. } | Move::BuildWonderStage))
        .unwrap_or_else(|| RandomBot::weighted_pick(moves, |bound| rng.gen_range(0..bound)))
}

both_backends!(a_wonders_game_is_played_to_the_end);

fn a_wonders_game_is_played_to_the_end(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game_with(4, &json!({"max_players": 4, "scenario": "wonders", "seed": GAME_SEED}));
    play_to_the_end(&app, &id, &users);
}

/// A seed (of the board, the dice and the picks) whose game has a wonder claimed and built to
/// its fourth stage, which wins (WON-11 a), in about 850 moves.
const GAME_SEED: u64 = 15;

fn play_to_the_end(app: &TestApp, id: &str, users: &[User]) {
    let mut rng = StdRng::seed_from_u64(GAME_SEED);
    let mut moves = 0;
    let mut refused_claims = 0;
    loop {
        let game = app.game(id, None);
        let wonders = game["wonders"].as_array().expect("a spectator sees the wonders").clone();
        if game["status"] == "finished" {
            break;
        }
        assert!(moves < MOVE_CAP, "no winner after {MOVE_CAP} moves");
        let seat = game["turn"]["waiting_for"][0].as_u64().expect("someone must act") as usize;
        let legal = app.legal_moves(id, &users[seat]);
        let options = legal["moves"].as_array().expect("moves");
        let parsed: Vec<Move> = options.iter().map(|mv| serde_json::from_value(mv.clone()).unwrap()).collect();
        let owned = wonders.iter().find(|w| w["owner"] == seat);
        // Claims and stages are listed only when the rules allow them (WON-8, WON-10).
        for mv in options {
            match mv["type"].as_str().unwrap() {
                "claim_wonder" => {
                    assert!(owned.is_none(), "one wonder per seat: {mv}");
                    let wonder = wonders.iter().find(|w| w["wonder"] == mv["wonder"]).unwrap();
                    assert!(wonder["owner"].is_null(), "{wonder} is taken");
                }
                "build_wonder_stage" => {
                    let owned = owned.expect("a stage of one's own wonder");
                    assert!(owned["stages_built"].as_u64().unwrap() < 4);
                }
                _ => {}
            }
        }
        // Wonders not listed while a claim is: the rules refuse them, and say why.
        if refused_claims < 3 && options.iter().any(|m| m["type"] == "claim_wonder") {
            for wonder in WONDERS {
                if !options.iter().any(|m| m["type"] == "claim_wonder" && m["wonder"] == wonder) {
                    let refused = app.submit(id, &users[seat], &json!({"type": "claim_wonder", "wonder": wonder}));
                    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
                    let code = refused.json::<Value>().unwrap()["code"].as_str().unwrap().to_owned();
                    assert!(["wonder_condition_unmet", "wonder_taken"].contains(&code.as_str()), "{code}");
                }
            }
            refused_claims += 1;
        }
        let mv = &options[pick(&parsed, &mut rng)];
        let response = app.submit(id, &users[seat], mv);
        assert_eq!(response.status(), StatusCode::CREATED, "move {mv}");
        moves += 1;
    }
    let check = app.check_replay(id);
    assert!(check.contiguous && check.matches_snapshot, "{check:?}");

    let events: Vec<Value> = app
        .whole_log(id, None)
        .iter()
        .flat_map(|e| e["events"].as_array().unwrap().clone())
        .filter(|e| e["type"].as_str().is_some_and(|t| t.starts_with("wonder_") || t == "game_won"))
        .collect();
    let of_type = |kind: &str| events.iter().filter(|e| e["type"] == kind).cloned().collect::<Vec<_>>();
    let claims = of_type("wonder_claimed");
    let stages = of_type("wonder_stage_built");
    assert!(!claims.is_empty(), "a wonder was claimed in {moves} moves");
    assert!(!stages.is_empty(), "a stage was built in {moves} moves");
    let won = of_type("game_won");
    assert_eq!(won.len(), 1);
    let won = &won[0];
    let condition = won["condition"].as_str().expect("game_won says how");
    assert!(["victory_points_and_wonder_lead", "wonder_completed"].contains(&condition), "{won}");
    if condition == "wonder_completed" {
        assert!(stages.iter().any(|s| s["seat"] == won["seat"] && s["stage"] == 4), "{won}");
    }

    // Every seat and a spectator see the wonders as the log built them.
    for token in users.iter().map(|u| Some(u.token.as_str())).chain([None]) {
        let game = app.game(id, token);
        assert_eq!(game["status"], "finished");
        assert_eq!(game["winner"], won["seat"]);
        let wonders = game["wonders"].as_array().expect("the wonders");
        assert_eq!(wonders.len(), WONDERS.len());
        for wonder in wonders {
            let claim = claims.iter().find(|c| c["wonder"] == wonder["wonder"]);
            assert_eq!(wonder["owner"], claim.map_or(Value::Null, |c| c["seat"].clone()), "{wonder}");
            let built = stages.iter().filter(|s| s["wonder"] == wonder["wonder"]).count();
            assert_eq!(wonder["stages_built"], built, "{wonder}");
        }
    }
}
