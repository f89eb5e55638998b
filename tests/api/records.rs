//! Game records (issue 31 part 5): `GET /games/{id}/record` and `GET /games/export`. The
//! hidden-information rules hold at every redaction level of games of every ruleset; full
//! records replay through the engine with their recorded chance; records equal the log the
//! same reader reads, and validate against `docs/game-record.schema.json` and the spec.

use std::{
    sync::{Arc, OnceLock},
    time::{Duration, Instant},
};

use catan_engine::{Draw, Event, Game, GameConfig, Move, ScriptedChance, Seat};
use jsonschema::{Draft, Validator};
use rand::{rngs::StdRng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    bots::wait_until_finished,
    helpers::{assert_problem, choose, spawn_app, Backend, TestApp, User},
};

both_backends!(
    finished_games_of_every_ruleset_have_full_records_that_replay_with_their_chance,
    running_games_of_every_ruleset_hide_what_each_reader_may_not_see,
    the_export_streams_records_with_filters_and_a_cursor
);

/// A game of every ruleset, as `POST /games` takes it (without players and seed).
pub fn rulesets() -> Vec<Value> {
    let mut rulesets = vec![
        json!({"max_players": 4}),
        json!({"variant": "five_six", "max_players": 5}),
        json!({"variant": "jungle", "max_players": 3}),
        json!({"variant": "big_river", "max_players": 3}),
    ];
    for scenario in ["new_shores", "four_islands", "fog_islands", "through_the_desert"] {
        rulesets.push(json!({"variant": "seafarers", "scenario": scenario, "max_players": 3}));
    }
    rulesets.push(json!({"variant": "wonders", "max_players": 3}));
    rulesets.push(json!({"variant": "cities_and_knights", "max_players": 3}));
    rulesets.push(json!({"variant": "seafarers+cities_and_knights", "scenario": "fog_islands", "max_players": 3}));
    rulesets
}

pub fn with(base: &Value, extra: &Value) -> Value {
    let mut request = base.clone();
    for (key, value) in extra.as_object().unwrap() {
        request[key] = value.clone();
    }
    request
}

pub fn record(app: &TestApp, id: &str, token: Option<&str>) -> Value {
    let response = app.get(&format!("/api/v1/games/{id}/record"), token);
    assert_eq!(response.status(), StatusCode::OK);
    response.json().expect("a record")
}

/// The committed JSON Schema of records.
fn schema() -> Arc<Validator> {
    static SCHEMA: OnceLock<Arc<Validator>> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/game-record.schema.json"))
                .expect("the committed record schema");
            let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
            Arc::new(jsonschema::options().with_draft(Draft::Draft202012).build(&schema).expect("the schema compiles"))
        })
        .clone()
}

fn assert_valid(record: &Value) {
    let errors: Vec<String> =
        schema().iter_errors(record).take(5).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "a record that does not match docs/game-record.schema.json: {errors:?}");
}

/// The record's entries without `chance`: what the move log shows.
fn as_log(record: &Value) -> Vec<Value> {
    record["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            let mut entry = entry.clone();
            entry.as_object_mut().unwrap().remove("chance");
            entry
        })
        .collect()
}

fn finished_games_of_every_ruleset_have_full_records_that_replay_with_their_chance(backend: Backend) {
    let app = spawn_app(backend);
    let host = app.register("host");
    for (i, ruleset) in rulesets().iter().enumerate() {
        let players = ruleset["max_players"].as_u64().unwrap() as usize;
        let kinds: Vec<&str> = (0..players).map(|s| if s % 2 == 0 { "heuristic" } else { "random" }).collect();
        let request = with(ruleset, &json!({"seed": 100 + i, "seat_creator": false, "options": {"turn_limit": 30}}));
        let game = app.create_game(&host, &request);
        let id = game["id"].as_str().unwrap().to_owned();
        for kind in &kinds {
            let added = app.post(&format!("/api/v1/games/{id}/players"), Some(&host.token), &json!({"bot": kind}));
            assert_eq!(added.status(), StatusCode::CREATED);
        }
        assert_eq!(app.start(&id, &host).status(), StatusCode::OK);
        let view = wait_until_finished(&app, &id);
        let full = record(&app, &id, None);
        assert_valid(&full);
        assert_eq!(full["format"], "catan-game-record");
        assert_eq!(full["version"], 1);
        assert_eq!(full["redaction"], "full", "{ruleset}");
        assert!(full.get("seat").is_none());
        assert_eq!(full["seed"], view["seed"], "the seed, once the game is over");
        assert_eq!(full["game"]["status"], "finished");
        assert_eq!(full["game"]["winner"], view["winner"]);
        assert_eq!(full["game"]["won_by"], view["won_by"]);
        assert_eq!(full["game"]["variant"], view["variant"]);
        assert_eq!(full["game"]["options"], view["options"]);
        assert_eq!(full["game"]["version"], view["version"]);
        assert_eq!(full["seats"].as_array().unwrap().len(), players);
        // Everybody reads the same full record, equal to the log everybody reads.
        assert_eq!(record(&app, &id, Some(&host.token)), full);
        assert_eq!(as_log(&full), app.whole_log(&id, None), "{ruleset}: the record and the log disagree");
        let entries = full["entries"].as_array().unwrap();
        assert_eq!(entries.len() as i64, view["version"].as_i64().unwrap());
        assert_eq!(&full["board"], &entries[0]["events"][0]["board"], "the board of game_started");
        for entry in entries {
            assert!(entry["chance"].is_array(), "{ruleset}: a full entry without chance: {entry}");
            assert!(entry["move"].get("hidden").is_none(), "a hidden move in a full record: {entry}");
        }
        let draws = replay_with_recorded_chance(&full);
        assert!(draws.contains(&"red_die".to_owned()), "{ruleset}: no die was rolled: {draws:?}");
    }
}

/// Replays a full record through the engine: from its `game_started`, each move decided with
/// its recorded chance only must give the entry's events. Returns every draw's name.
fn replay_with_recorded_chance(full: &Value) -> Vec<String> {
    let config: GameConfig = serde_json::from_value(full["game"]["options"].clone()).expect("the options");
    let entries = full["entries"].as_array().unwrap();
    let events_of = |entry: &Value| -> Vec<Event> { serde_json::from_value(entry["events"].clone()).expect("events") };
    let opening = events_of(&entries[0]);
    assert!(matches!(opening[0], Event::GameStarted { seed: Some(seed), .. } if Some(seed) == full["seed"].as_u64()));
    assert_eq!(entries[0]["chance"], json!([]), "the start's randomness is in game_started");
    let mut game = Game::replay(config, &opening).expect("the record's start replays");
    let mut draws = Vec::new();
    for entry in &entries[1..] {
        let seat = Seat(entry["seat"].as_u64().expect("a seat") as u8);
        let mv: Move = serde_json::from_value(entry["move"].clone()).expect("a full move");
        let picks: Vec<(Draw, usize)> = entry["chance"]
            .as_array()
            .unwrap()
            .iter()
            .map(|pick| {
                let name = pick["draw"].as_str().unwrap();
                draws.push(name.to_owned());
                (Draw::named(name).expect("a known draw"), pick["outcome"].as_u64().unwrap() as usize)
            })
            .collect();
        let mut chance = ScriptedChance::new(picks);
        let decided = game.decide(seat, &mv, &mut chance).expect("the move is legal");
        chance.finish().unwrap_or_else(|e| panic!("entry {}: {e}", entry["seq"]));
        let stored = events_of(entry);
        assert_eq!(decided, stored, "entry {}: decided with its chance, the move gives other events", entry["seq"]);
        for event in &stored {
            game.apply(event);
        }
    }
    assert!(game.is_over());
    draws
}

/// The hidden fields of events, with the seats that may see them while the game runs.
const HIDDEN: &[(&str, &str, &[&str])] = &[
    ("resources_discarded", "resources", &["seat"]),
    ("resource_stolen", "resource", &["thief", "victim"]),
    ("development_card_bought", "card", &["seat"]),
    ("cards_discarded", "cards", &["seat"]),
    ("progress_card_drawn", "card", &["seat"]),
    ("commodity_stolen", "commodity", &["thief", "victim"]),
    ("progress_card_discarded", "card", &["seat"]),
    ("progress_card_taken", "card", &["seat", "from"]),
    ("progress_cards_revealed", "cards", &["seat", "target"]),
    ("cards_given", "cards", &["seat", "to"]),
    ("commercial_harbor_offered", "resource", &["seat", "with"]),
    ("commercial_harbor_answered", "commodity", &["seat", "to"]),
    ("hand_shown", "cards", &["seat", "target"]),
    ("cards_taken", "cards", &["seat", "from"]),
];

/// Asserts that a redacted record shows `reader` (a seat, or none for a spectator) nothing
/// hidden from it: no seed, no chance, no other seat's move body or cards. Returns how many
/// hidden cards of events it found hidden.
fn assert_redacted(record: &Value, reader: Option<u64>) -> usize {
    assert!(record.get("seed").is_none(), "a seed before the end");
    assert_no_seed(record);
    let mut hidden = 0;
    let mut hidden_moves = 0;
    for entry in record["entries"].as_array().unwrap() {
        assert!(entry.get("chance").is_none(), "chance before the end: {entry}");
        if let Some(seat) = entry["seat"].as_u64() {
            let mv = &entry["move"];
            if Some(seat) == reader {
                assert!(mv.get("hidden").is_none(), "the reader's own move hidden: {entry}");
            } else {
                assert_eq!(mv.as_object().unwrap().len(), 2, "another seat's move shown: {entry}");
                assert_eq!(mv["hidden"], true);
                hidden_moves += 1;
            }
        }
        for event in entry["events"].as_array().unwrap() {
            if event["type"] == "game_started" {
                assert!(event["seed"].is_null(), "the seed in game_started before the end: {event}");
            }
            for (kind, field, seats) in HIDDEN {
                if event["type"] != *kind {
                    continue;
                }
                let sees = seats.iter().any(|s| event[*s].as_u64().is_some() && event[*s].as_u64() == reader);
                let value = &event[*field];
                let public_card = *kind == "progress_card_drawn"
                    && ["printer", "constitution"].contains(&value.as_str().unwrap_or(""));
                if !sees && !public_card {
                    assert!(value.is_null(), "{field} of {kind} shown to {reader:?}: {event}");
                    hidden += 1;
                }
            }
        }
    }
    assert!(hidden_moves > 0 || record["entries"].as_array().unwrap().len() < 2, "no move of another seat");
    hidden
}

/// No `seed` with a value anywhere in `value` (the seed orders every draw still to come).
fn assert_no_seed(value: &Value) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                assert!(key != "seed" || item.is_null(), "a seed before the end: {key}: {item}");
                assert_no_seed(item);
            }
        }
        Value::Array(items) => items.iter().for_each(assert_no_seed),
        _ => {}
    }
}

fn running_games_of_every_ruleset_hide_what_each_reader_may_not_see(backend: Backend) {
    let app = spawn_app(backend);
    let stranger = app.register("stranger");
    let mut rng = StdRng::seed_from_u64(31);
    let mut hidden_seen = 0;
    for (i, ruleset) in rulesets().iter().enumerate() {
        let players = ruleset["max_players"].as_u64().unwrap() as usize;
        let request = with(ruleset, &json!({"seed": 200 + i, "board": "random"}));
        // Two people, the other seats bots.
        let tag = format!("{i}-{}", &uuid::Uuid::new_v4().simple().to_string()[..6]);
        let users = [app.register(&format!("anna{tag}")), app.register(&format!("ben{tag}"))];
        let id = app.create_game(&users[0], &request)["id"].as_str().unwrap().to_owned();
        assert_eq!(app.join(&id, &users[1]).status(), StatusCode::CREATED);
        for _ in 2..players {
            let added =
                app.post(&format!("/api/v1/games/{id}/players"), Some(&users[0].token), &json!({"bot": "heuristic"}));
            assert_eq!(added.status(), StatusCode::CREATED);
        }
        // Before the start: a record with no board and no entries.
        let open = record(&app, &id, Some(&users[1].token));
        assert_valid(&open);
        assert_eq!((open["redaction"].clone(), open["seat"].clone()), (json!("seat"), json!(1)));
        assert_eq!((open["board"].clone(), open["entries"].clone()), (Value::Null, json!([])));
        assert_eq!(record(&app, &id, None)["redaction"], "spectator");
        assert_eq!(app.start(&id, &users[0]).status(), StatusCode::OK);
        play_humans(&app, &id, &users, 90, &mut rng);
        let view = app.game(&id, None);
        assert_eq!(view["status"], "playing", "{ruleset}: the game ended too soon for the test");
        for (reader, token) in [
            (None, None),
            (None, Some(&stranger.token)),
            (Some(0), Some(&users[0].token)),
            (Some(1), Some(&users[1].token)),
        ] {
            let redacted = record(&app, &id, token.map(String::as_str));
            assert_valid(&redacted);
            match reader {
                Some(seat) => {
                    assert_eq!(redacted["redaction"], "seat");
                    assert_eq!(redacted["seat"], seat);
                }
                None => {
                    assert_eq!(redacted["redaction"], "spectator");
                    assert!(redacted.get("seat").is_none());
                }
            }
            // Entries were added by bots meanwhile: compare up to the record's version.
            let version = redacted["game"]["version"].as_i64().unwrap();
            let log: Vec<Value> = app
                .whole_log(&id, token.map(String::as_str))
                .into_iter()
                .filter(|e| e["seq"].as_i64().unwrap() <= version)
                .collect();
            let entries = as_log(&redacted);
            assert_eq!(entries.len() as i64, version, "{ruleset}: the record holds entries 1 to its version");
            assert_eq!(entries.len(), log.len());
            for (entry, logged) in entries.iter().zip(&log) {
                assert_eq!(entry, logged, "{ruleset}: the record and the log of {reader:?} disagree");
            }
            hidden_seen += assert_redacted(&redacted, reader);
            // The reader's game view hides the others' hands too.
            let view = app.game(&id, token.map(String::as_str));
            for player in view["players"].as_array().unwrap() {
                if player["seat"].as_u64() != reader {
                    assert!(player.get("resources").is_none() && player.get("development_cards").is_none());
                }
            }
        }
    }
    assert!(hidden_seen > 0, "no event had a hidden card: the test proves nothing");
}

/// Plays the two people's moves at random until the log has `entries` entries (the bots play
/// their own).
pub fn play_humans(app: &TestApp, id: &str, users: &[User; 2], entries: i64, rng: &mut StdRng) {
    let started = Instant::now();
    loop {
        let game = app.game(id, None);
        let version = game["version"].as_i64().unwrap();
        if version >= entries || game["status"] == "finished" {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "the game is stuck: {game}");
        let waiting: Vec<u64> =
            game["turn"]["waiting_for"].as_array().unwrap().iter().filter_map(Value::as_u64).collect();
        let Some(&seat) = waiting.iter().find(|s| **s < 2) else {
            let _ = app.get(&format!("/api/v1/games/{id}/moves?after={version}&wait=2&limit=1"), None);
            continue;
        };
        let user = &users[seat as usize];
        let legal = app.legal_moves(id, user);
        let moves = legal["moves"].as_array().unwrap();
        if moves.is_empty() {
            continue;
        }
        let mv = choose(moves, rng).clone();
        let response = app.submit(id, user, &mv);
        // A bot may have moved in between (a trade answered): the next round reads again.
        assert!(response.status().is_success() || response.status().is_client_error());
    }
}

fn export(app: &TestApp, query: &str, token: Option<&str>) -> (Vec<Value>, Option<String>) {
    let mut request = app.client.get(app.url(&format!("/api/v1/games/export{query}")));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = app.send(request);
    assert_eq!(response.status(), StatusCode::OK, "export{query}");
    let content_type = response.headers()["content-type"].to_str().unwrap().to_owned();
    assert_eq!(content_type, "application/x-ndjson");
    let next = response.headers().get("x-next-cursor").map(|v| v.to_str().unwrap().to_owned());
    let text = response.text().unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "every line ends with a newline");
    let records: Vec<Value> = text.lines().map(|line| serde_json::from_str(line).expect("a JSON line")).collect();
    for record in &records {
        crate::conformance::check("GET", "/api/v1/games/export", 200, "application/x-ndjson", record);
        assert_valid(record);
    }
    (records, next)
}

fn ids(records: &[Value]) -> Vec<String> {
    records.iter().map(|r| r["game"]["id"].as_str().unwrap().to_owned()).collect()
}

fn the_export_streams_records_with_filters_and_a_cursor(backend: Backend) {
    let app = spawn_app(backend);
    let host = app.register("host");
    let before = chrono::Utc::now();
    // A finished bot game, a C&K game being played by two people, and an open game.
    let finished = {
        let request = json!({"max_players": 2, "seed": 5, "seat_creator": false, "options": {"turn_limit": 20}});
        let id = app.create_game(&host, &request)["id"].as_str().unwrap().to_owned();
        for kind in ["heuristic", "random"] {
            let added = app.post(&format!("/api/v1/games/{id}/players"), Some(&host.token), &json!({"bot": kind}));
            assert_eq!(added.status(), StatusCode::CREATED);
        }
        assert_eq!(app.start(&id, &host).status(), StatusCode::OK);
        wait_until_finished(&app, &id);
        id
    };
    let (running, users) =
        app.started_game_with(3, &json!({"max_players": 3, "variant": "cities_and_knights", "seed": 9}));
    let open = app.create_game(&host, &json!({"max_players": 3}))["id"].as_str().unwrap().to_owned();

    // Everything, newest first, each line the record the caller reads.
    let (all, next) = export(&app, "", Some(&users[0].token));
    assert_eq!(ids(&all), [open.as_str(), running.as_str(), finished.as_str()]);
    assert!(next.is_none(), "one page");
    for line in &all {
        let id = line["game"]["id"].as_str().unwrap();
        assert_eq!(line, &record(&app, id, Some(&users[0].token)), "the export's line is the record");
    }
    assert_eq!(all[1]["redaction"], "seat");
    assert_eq!(all[2]["redaction"], "full");
    assert_eq!(export(&app, "", None).0[1]["redaction"], "spectator");
    assert_redacted(&all[1], Some(0));

    // Filters.
    assert_eq!(ids(&export(&app, "?status=finished", None).0), [finished.as_str()]);
    assert_eq!(ids(&export(&app, "?status=open", None).0), [open.as_str()]);
    assert_eq!(ids(&export(&app, "?variant=cities_and_knights", None).0), [running.as_str()]);
    assert_eq!(ids(&export(&app, "?variant=base", None).0), [open.as_str(), finished.as_str()]);
    let name = app.game(&running, None)["players"][1]["username"].as_str().unwrap().to_owned();
    assert_eq!(ids(&export(&app, &format!("?user={name}"), None).0), [running.as_str()]);
    let shouted = name.to_ascii_uppercase();
    assert_eq!(ids(&export(&app, &format!("?user={shouted}"), None).0), [running.as_str()], "names in any case");
    assert_eq!(ids(&export(&app, "?user=nobody-at-all", None).0), Vec::<String>::new());
    let since = before.to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
    assert_eq!(export(&app, &format!("?since={since}"), None).0.len(), 3);
    assert_eq!(export(&app, &format!("?until={since}"), None).0.len(), 0);
    let later = (chrono::Utc::now() + chrono::Duration::hours(1)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    assert_eq!(export(&app, &format!("?since={later}"), None).0.len(), 0);
    assert_eq!(export(&app, &format!("?until={later}"), None).0.len(), 3);

    // Pages: the cursor in X-Next-Cursor.
    let (first, next) = export(&app, "?limit=2", None);
    assert_eq!(ids(&first), [open.as_str(), running.as_str()]);
    let next = next.expect("a next page");
    let (second, last) = export(&app, &format!("?limit=2&cursor={next}"), None);
    assert_eq!(ids(&second), [finished.as_str()]);
    assert!(last.is_none());

    // Bad filters.
    for query in [
        "?status=won",
        "?variant=chess",
        "?since=yesterday",
        "?until=2026-13-01T00:00:00Z",
        "?limit=0",
        "?limit=101",
        "?limit=many",
        "?cursor=not-a-cursor",
        "?user=%00",
        "?user=no",
        "?user=not%20a%20name",
    ] {
        assert_problem(app.get(&format!("/api/v1/games/export{query}"), None), 400, "invalid_query");
    }
    assert_problem(app.get("/api/v1/games/00000000-0000-7000-8000-000000000000/record", None), 404, "not_found");
}
