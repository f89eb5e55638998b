//! Importing game records (issue 31 part 5): `POST /games/import` replays a full record move
//! by move and stores it as a finished game. Export, import and export again gives the same
//! entries and the same final position for games of every ruleset; a bad record is refused
//! with the entry and the check that failed, and nothing of it is stored.

use catan_engine::{Draw, Event, Game, GameConfig, Move, ScriptedChance, Seat};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    bots::wait_until_finished,
    helpers::{assert_problem, spawn_app, Backend, TestApp, User},
    records::{record, rulesets, with},
};

both_backends!(
    records_of_every_ruleset_round_trip_through_import,
    bad_records_are_refused_naming_the_entry_and_the_check_and_nothing_is_stored,
    large_compressed_and_retried_imports
);

const IMPORT: &str = "/api/v1/games/import";

/// Plays a game of `ruleset` between bots to its end (a short turn limit) and returns its id.
pub fn finished_game(app: &TestApp, host: &User, ruleset: &Value, seed: u64, turns: u32) -> String {
    let players = ruleset["max_players"].as_u64().unwrap() as usize;
    let request = with(ruleset, &json!({"seed": seed, "seat_creator": false, "options": {"turn_limit": turns}}));
    let game = app.create_game(host, &request);
    let id = game["id"].as_str().unwrap().to_owned();
    for seat in 0..players {
        let kind = if seat % 2 == 0 { "heuristic" } else { "random" };
        let added = app.post(&format!("/api/v1/games/{id}/players"), Some(&host.token), &json!({"bot": kind}));
        assert_eq!(added.status(), StatusCode::CREATED);
    }
    assert_eq!(app.start(&id, host).status(), StatusCode::OK);
    wait_until_finished(app, &id);
    id
}

fn import(app: &TestApp, user: &User, record: &Value) -> Value {
    let response = app.post(IMPORT, Some(&user.token), record);
    let status = response.status();
    let location = response.headers().get("location").map(|l| l.to_str().unwrap().to_owned());
    let body: Value = response.json().unwrap();
    assert_eq!(status, StatusCode::CREATED, "import refused: {body}");
    assert_eq!(location, Some(format!("/api/v1/games/{}", body["id"].as_str().unwrap())));
    body
}

/// A game view without what belongs to the game resource rather than to its position: its
/// id, links, creator, times and the seats' holders (seat 0's is changed by the test).
fn position_of(view: &Value) -> Value {
    let mut view = view.clone();
    for field in ["id", "links", "created_by", "created_at", "imported_from", "you", "hand"] {
        view.as_object_mut().unwrap().remove(field);
    }
    for player in view["players"].as_array_mut().unwrap() {
        let player = player.as_object_mut().unwrap();
        player.remove("username");
        player.remove("imported_name");
        player.remove("bot");
        // Whose account holds a seat is the seat's holder, not the position.
        player.remove("kind");
    }
    view
}

fn records_of_every_ruleset_round_trip_through_import(backend: Backend) {
    let app = spawn_app(backend);
    let host = app.register("host");
    let importer = app.register("importer");
    for (i, ruleset) in rulesets().iter().enumerate() {
        let id = finished_game(&app, &host, ruleset, 300 + i as u64, 30);
        let mut exported = record(&app, &id, None);
        // A seat of a person: imported under the name it had, as no account of this server.
        exported["seats"][0] = json!({"seat": 0, "username": "Ada", "bot": null});
        let game = import(&app, &importer, &exported);
        let copy = game["id"].as_str().unwrap().to_owned();
        assert_ne!(copy, id);
        assert_eq!(game["status"], "finished", "{ruleset}");
        assert_eq!(game["imported_from"], json!(id));
        assert_eq!(game["created_by"], "importer");
        assert_eq!(game["players"][0]["imported_name"], "Ada");
        assert_eq!(game["players"][0]["username"], Value::Null);
        assert_eq!(game["players"][0]["kind"], Value::Null, "an imported person holds no account here");
        assert_eq!(game["players"][1]["bot"], exported["seats"][1]["bot"]);
        assert_eq!(position_of(&game), position_of(&app.game(&id, None)), "{ruleset}: another final position");
        assert_eq!(app.whole_log(&copy, None), app.whole_log(&id, None), "{ruleset}: another log");
        // Export again: the same entries, the same record but for the game's own facts.
        let again = record(&app, &copy, Some(&importer.token));
        assert_eq!(again["entries"], exported["entries"], "{ruleset}: export, import, export changed the entries");
        for field in ["format", "version", "redaction", "seed", "board"] {
            assert_eq!(again[field], exported[field], "{ruleset}: {field}");
        }
        assert_eq!(
            again["seats"][0],
            json!({"seat": 0, "username": null, "bot": null, "kind": null, "imported_name": "Ada"})
        );
        assert_eq!(again["seats"].as_array().unwrap()[1..], exported["seats"].as_array().unwrap()[1..]);
        for field in ["status", "version", "variant", "options", "seeded", "winner", "won_by"] {
            assert_eq!(again["game"][field], exported["game"][field], "{ruleset}: game.{field}");
        }
        assert_eq!(again["game"]["imported_from"], json!(id));
        // And once more: an imported game's record imports, keeping where the game was played.
        let twice = import(&app, &importer, &again);
        assert_eq!(twice["imported_from"], json!(id));
        assert_eq!(record(&app, twice["id"].as_str().unwrap(), None)["entries"], exported["entries"]);
        let check = app.check_replay(&copy);
        assert!(check.contiguous && check.matches_snapshot, "{ruleset}: the stored snapshot is not the log's replay");
    }
    // Imported games are finished games of the lobby, with their origin.
    let listed: Value = app.get("/api/v1/games?status=finished&limit=100", None).json().unwrap();
    let imported = listed["games"].as_array().unwrap().iter().filter(|g| g["imported_from"].is_string()).count();
    assert_eq!(imported, 2 * rulesets().len());
}

/// Refuses `record`, asserting the problem's check and entry; returns the problem.
fn refused(app: &TestApp, user: &User, record: &Value, check: &str, entry: Option<i64>) -> Value {
    let problem = assert_problem(app.post(IMPORT, Some(&user.token), record), 422, "invalid_record");
    assert_eq!(problem["check"], check, "{problem}");
    assert_eq!(problem["entry"], json!(entry), "{problem}");
    problem
}

fn entry_where(record: &Value, found: impl Fn(&Value) -> bool) -> usize {
    record["entries"].as_array().unwrap().iter().position(found).expect("such an entry")
}

fn bad_records_are_refused_naming_the_entry_and_the_check_and_nothing_is_stored(backend: Backend) {
    // Not a sandbox: a record's chance must be its seed's (tests/api/sandbox.rs has the other).
    let database = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(crate::helpers::postgres::fresh_database()),
    };
    let app = crate::helpers::spawn_app_with(database, |config| config.sandbox = false);
    let host = app.register("host");
    let importer = app.register("importer");
    let id = finished_game(&app, &host, &json!({"max_players": 3}), 77, 30);
    let good = record(&app, &id, None);
    let entries = good["entries"].as_array().unwrap().len() as i64;

    // Not the format, or another version of it.
    let mut other = good.clone();
    other["version"] = json!(2);
    let problem = assert_problem(app.post(IMPORT, Some(&importer.token), &other), 422, "unsupported_record_version");
    assert_eq!(problem["errors"][0]["pointer"], "#/version");
    other["format"] = json!("pgn");
    assert_problem(app.post(IMPORT, Some(&importer.token), &other), 422, "unsupported_record_version");
    // A record of a running game, as a seat or a spectator reads it.
    let (running, players) = app.started_game_with(3, &json!({"max_players": 3}));
    let seat_record = record(&app, &running, Some(&players[0].token));
    refused(&app, &importer, &seat_record, "not_full", None);
    refused(&app, &importer, &record(&app, &running, None), "not_full", None);

    // An illegal move: entry 2 (the first settlement) played by another seat (B-SET-3: the
    // setup goes round in order).
    let mut bad = good.clone();
    let first = bad["entries"][1]["seat"].as_u64().unwrap();
    bad["entries"][1]["seat"] = json!((first + 1) % 3);
    refused(&app, &importer, &bad, "not_your_turn", Some(2));
    // A roll whose dice in the events are not those of its chance.
    let roll = entry_where(&good, |e| e["kind"] == "roll_dice");
    let mut bad = good.clone();
    let red = bad["entries"][roll]["chance"][0]["outcome"].as_u64().unwrap();
    bad["entries"][roll]["chance"][0]["outcome"] = json!((red + 1) % 6);
    refused(&app, &importer, &bad, "events_differ", Some(roll as i64 + 1));
    // The same roll with other dice and the events they make: a legal move, with the chance
    // and the events agreeing, but not what the game's seed draws there.
    let config: GameConfig = serde_json::from_value(good["game"]["options"].clone()).unwrap();
    let before: Vec<Event> = good["entries"].as_array().unwrap()[..roll]
        .iter()
        .flat_map(|entry| serde_json::from_value::<Vec<Event>>(entry["events"].clone()).unwrap())
        .collect();
    let game = Game::replay(config, &before).unwrap();
    let white = good["entries"][roll]["chance"][1]["outcome"].as_u64().unwrap() as usize;
    let other = (0..6).find(|&r| r != red as usize && r + white + 2 != 7).unwrap();
    let picks = [(Draw::RED_DIE, other), (Draw::WHITE_DIE, white)];
    let seat = Seat(good["entries"][roll]["seat"].as_u64().unwrap() as u8);
    let events = game.decide(seat, &Move::RollDice, &mut ScriptedChance::new(picks)).unwrap();
    bad["entries"][roll]["events"] = serde_json::to_value(&events).unwrap();
    bad["entries"][roll]["chance"] =
        json!([{"draw": "red_die", "outcome": other}, {"draw": "white_die", "outcome": white}]);
    refused(&app, &importer, &bad, "chance_not_seeded", Some(roll as i64 + 1));
    // A chance of a draw that the move does not make, and one that no ruleset makes.
    let mut bad = good.clone();
    bad["entries"][roll]["chance"].as_array_mut().unwrap().push(json!({"draw": "red_die", "outcome": 0}));
    refused(&app, &importer, &bad, "chance_differs", Some(roll as i64 + 1));
    bad["entries"][roll]["chance"][2] = json!({"draw": "tarot_card", "outcome": 0});
    refused(&app, &importer, &bad, "chance_differs", Some(roll as i64 + 1));
    let mut bad = good.clone();
    bad["entries"][roll].as_object_mut().unwrap().remove("chance");
    refused(&app, &importer, &bad, "chance_missing", Some(roll as i64 + 1));
    // Entries missing: a gap in the seqs, the end cut off.
    let mut bad = good.clone();
    bad["entries"].as_array_mut().unwrap().remove(5);
    refused(&app, &importer, &bad, "seq_gap", Some(7));
    let mut bad = good.clone();
    bad["entries"].as_array_mut().unwrap().truncate(40);
    refused(&app, &importer, &bad, "not_finished", Some(40));
    let mut bad = good.clone();
    bad["entries"] = json!([]);
    refused(&app, &importer, &bad, "no_entries", None);
    // An entry after the end: the game is over (B-WIN-4).
    let mut bad = good.clone();
    let last = good["entries"][entries as usize - 1].clone();
    let mut extra = last.clone();
    extra["seq"] = json!(entries + 1);
    bad["entries"].as_array_mut().unwrap().push(extra);
    let problem = assert_problem(app.post(IMPORT, Some(&importer.token), &bad), 422, "invalid_record");
    assert_eq!(problem["entry"], json!(entries + 1), "{problem}");
    // A start that is not the seed's: another seed, or a board changed.
    let mut bad = good.clone();
    bad["seed"] = json!(good["seed"].as_u64().unwrap() ^ 1);
    refused(&app, &importer, &bad, "start_differs", Some(1));
    let mut bad = good.clone();
    let board = &good["entries"][0]["events"][0]["board"];
    let elsewhere = board["hexes"].as_array().unwrap().iter().find(|h| h["hex"] != board["robber"]).unwrap();
    bad["entries"][0]["events"][0]["board"]["robber"] = elsewhere["hex"].clone();
    refused(&app, &importer, &bad, "start_differs", Some(1));
    // What the game waits for after an entry, said wrong.
    let mut bad = good.clone();
    bad["entries"][3]["waiting_for"] = json!([9]);
    refused(&app, &importer, &bad, "waiting_for_differs", Some(4));
    let mut bad = good.clone();
    bad["entries"][3]["phase"] = json!("discard");
    refused(&app, &importer, &bad, "phase_differs", Some(4));
    // Seats: too few, a bot kind the server lacks, nobody in a seat, a name too long.
    let mut bad = good.clone();
    bad["seats"].as_array_mut().unwrap().pop();
    refused(&app, &importer, &bad, "seats_differ", None);
    let mut bad = good.clone();
    bad["seats"][1]["bot"] = json!("alphacatan");
    refused(&app, &importer, &bad, "unknown_bot", None);
    let mut bad = good.clone();
    bad["seats"][1] = json!({"seat": 1, "username": null, "bot": null});
    refused(&app, &importer, &bad, "seats_differ", None);
    let mut bad = good.clone();
    bad["seats"][1] = json!({"seat": 1, "username": "x".repeat(65), "bot": null});
    refused(&app, &importer, &bad, "invalid_seat_name", None);
    // Options outside a new game's bounds, and a field of the wrong shape.
    let mut bad = good.clone();
    bad["game"]["options"]["vp_target"] = json!(300);
    let problem = assert_problem(app.post(IMPORT, Some(&importer.token), &bad), 422, "invalid_config");
    assert_eq!(problem["errors"][0]["pointer"], "#/game/options/vp_target");
    let mut bad = good.clone();
    bad["entries"][2]["move"] = json!({"type": "build_settlement", "hidden": true});
    assert_problem(app.post(IMPORT, Some(&importer.token), &bad), 400, "malformed_body");
    assert_problem(app.post(IMPORT, Some(&importer.token), &json!([good])), 400, "malformed_body");
    // Without a token.
    assert_problem(app.post(IMPORT, None, &good), 401, "unauthorized");

    // Nothing of any refused record was stored.
    let listed: Value = app.get("/api/v1/games?limit=100", None).json().unwrap();
    assert!(listed["games"].as_array().unwrap().iter().all(|g| g["imported_from"].is_null()), "{listed}");
    // And the good record imports.
    import(&app, &importer, &good);
}

fn large_compressed_and_retried_imports(backend: Backend) {
    let app = spawn_app(backend);
    let host = app.register("host");
    let id = finished_game(&app, &host, &json!({"variant": "cities_and_knights", "max_players": 4}), 9, 200);
    let full = record(&app, &id, None);
    let text = serde_json::to_vec(&full).unwrap();
    assert!(text.len() > 64 * 1024, "the record is over the other bodies' limit: {} bytes", text.len());
    // Sent gzipped: inflated within the import's own limit, not the 64 KiB of other bodies.
    let gzipped = {
        use std::io::Write;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(&text).unwrap();
        encoder.finish().unwrap()
    };
    let send = |body: Vec<u8>, gzip: bool, key: &str| {
        let mut request = app
            .client
            .post(app.url(IMPORT))
            .bearer_auth(&host.token)
            .header("content-type", "application/json")
            .header("idempotency-key", key)
            .body(body);
        if gzip {
            request = request.header("content-encoding", "gzip");
        }
        app.send(request)
    };
    let first = send(gzipped.clone(), true, "import-1");
    assert_eq!(first.status(), StatusCode::CREATED);
    let first: Value = first.json().unwrap();
    // Retried with its key: the same game, not a second one.
    let retried = send(text.clone(), false, "import-1");
    assert_eq!(retried.status(), StatusCode::CREATED);
    assert_eq!(retried.headers().get("idempotent-replayed").map(|v| v.to_str().unwrap()), Some("true"));
    let retried: Value = retried.json().unwrap();
    assert_eq!(retried["id"], first["id"]);
    // The same key with another record.
    let mut other = full.clone();
    other["seats"][0] = json!({"seat": 0, "username": "someone", "bot": null});
    let reused = send(serde_json::to_vec(&other).unwrap(), false, "import-1");
    assert_problem(reused, 422, "idempotency_key_reused");
    // Over the import's limit: 413, inflated or not.
    let mut huge = full.clone();
    huge["padding"] = json!("x".repeat(9 * 1024 * 1024));
    let huge = serde_json::to_vec(&huge).unwrap();
    assert_problem(send(huge.clone(), false, "import-2"), 413, "payload_too_large");
    let huge_gzipped = {
        use std::io::Write;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(&huge).unwrap();
        encoder.finish().unwrap()
    };
    assert_problem(send(huge_gzipped, true, "import-3"), 413, "payload_too_large");
    // Other bodies keep their limit.
    let big = json!({"max_players": 4, "padding": "x".repeat(70 * 1024)});
    assert_problem(app.post("/api/v1/games", Some(&host.token), &big), 413, "payload_too_large");
}
