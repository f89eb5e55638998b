//! The bot author's loop (issue 31): every log entry says what the game waits for after it,
//! a long-poll can wait for the caller's own move and bring its legal moves, so a bot plays
//! each move with one long-poll and one `POST`; and a bot playing its seat as fast as the
//! server answers meets no rate limit in a whole game of any ruleset, under the default limits.

use std::time::{Duration, Instant};

use rand::{rngs::StdRng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{assert_problem, choose, spawn_app, spawn_app_with, Backend, TestApp, User},
};

both_backends!(
    every_entry_says_what_the_game_waits_for_after_it,
    a_log_page_brings_the_legal_moves_it_is_asked_for,
    a_bot_plays_the_base_game_with_two_requests_a_move_and_no_refusal
);

/// How long one game may take before the test fails (generous: a shared machine).
const GAME_TIMEOUT: Duration = Duration::from_secs(300);

fn seats(value: &Value) -> Vec<u64> {
    value.as_array().expect("seats").iter().map(|seat| seat.as_u64().expect("a seat")).collect()
}

fn every_entry_says_what_the_game_waits_for_after_it(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(3, 21);
    let mut rng = StdRng::seed_from_u64(3);
    // Setup and a few turns, with discards and robber moves when the dice bring them.
    for _ in 0..60 {
        let game = app.game(&id, None);
        let Some(&seat) = seats(&game["turn"]["waiting_for"]).first() else { break };
        let user = &users[seat as usize];
        let legal = app.legal_moves(&id, user);
        let mv = choose(legal["moves"].as_array().expect("moves"), &mut rng).clone();
        assert_eq!(app.submit(&id, user, &mv).status(), StatusCode::CREATED, "{mv}");
    }
    let entries = app.whole_log(&id, None);
    assert!(entries.len() > 50);
    for entry in &entries {
        let seq = entry["seq"].as_i64().expect("seq");
        let view = app.game(&id, None);
        let past = if seq == view["version"].as_i64().unwrap() {
            view
        } else {
            app.get(&format!("/api/v1/games/{id}?at={seq}"), None).json::<Value>().expect("a past position")
        };
        assert_eq!(entry["waiting_for"], past["turn"]["waiting_for"], "entry {seq}: {entry}");
        assert_eq!(entry["phase"], past["turn"]["phase"]["name"], "entry {seq}: {entry}");
    }
    assert_eq!(entries[0]["phase"], "setup");
    assert_eq!(entries[0]["waiting_for"], json!([entries[0]["events"][0]["first_seat"]]));
    // The move's own response and the stream say the same.
    let last = entries.last().unwrap();
    let sse = app.get(&format!("/api/v1/games/{id}/stream?after={}", last["seq"].as_i64().unwrap() - 1), None);
    let text = read_first_entry(sse);
    let streamed: Value = serde_json::from_str(&text).expect("an entry");
    assert_eq!(&streamed, last);
}

/// The data of the first `entry` event of an event stream.
fn read_first_entry(response: reqwest::blocking::Response) -> String {
    use std::io::{BufRead, BufReader};
    let mut lines = BufReader::new(response).lines();
    let mut is_entry = false;
    while let Some(Ok(line)) = lines.next() {
        if line == "event: entry" {
            is_entry = true;
        } else if let (true, Some(data)) = (is_entry, line.strip_prefix("data: ")) {
            return data.to_owned();
        }
    }
    panic!("no entry event");
}

fn a_log_page_brings_the_legal_moves_it_is_asked_for(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(2, 5);
    let legal = app.legal_moves(&id, &users[0]);
    let page: Value =
        app.get(&format!("/api/v1/games/{id}/moves?include=legal_moves"), Some(&users[0].token)).json().unwrap();
    assert_eq!(page["legal_moves"], legal);
    // For the seat that does not move, its own (empty) answer.
    let page: Value =
        app.get(&format!("/api/v1/games/{id}/moves?include=legal_moves"), Some(&users[1].token)).json().unwrap();
    assert_eq!(page["legal_moves"], app.legal_moves(&id, &users[1]));
    assert_eq!(page["legal_moves"]["moves"], json!([]));
    // Without it, no such field.
    assert!(app.log(&id, Some(&users[0].token), 0).get("legal_moves").is_none());

    // `until=my_move` answers at once when the caller must move: nothing to wait for.
    let started = Instant::now();
    let page: Value = app
        .get(
            &format!("/api/v1/games/{id}/moves?after=1&wait=20&until=my_move&include=legal_moves"),
            Some(&users[0].token),
        )
        .json()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(10), "it waited for a move the caller must make itself");
    assert_eq!(page["entries"], json!([]));
    assert_eq!(page["legal_moves"], legal);
    // For the other seat it waits until its own move: seat 0's two placements come first.
    let waiter = {
        let (base, token, id) = (app.base.clone(), users[1].token.clone(), id.clone());
        std::thread::spawn(move || {
            let url = format!("{base}/api/v1/games/{id}/moves?after=1&wait=30&until=my_move&include=legal_moves");
            reqwest::blocking::Client::new().get(url).bearer_auth(token).send().unwrap().json::<Value>().unwrap()
        })
    };
    std::thread::sleep(Duration::from_millis(300));
    let settlement = legal["moves"][0].clone();
    assert_eq!(app.submit(&id, &users[0], &settlement).status(), StatusCode::CREATED);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!waiter.is_finished(), "seat 1 was woken by seat 0's settlement, not its own move");
    let road = app.legal_moves(&id, &users[0])["moves"][0].clone();
    assert_eq!(app.submit(&id, &users[0], &road).status(), StatusCode::CREATED);
    let page = waiter.join().unwrap();
    let kinds: Vec<&str> = page["entries"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["build_settlement", "build_road"]);
    assert_eq!(page["entries"][1]["waiting_for"], json!([1]));
    assert_eq!(page["legal_moves"], app.legal_moves(&id, &users[1]));
    assert!(!page["legal_moves"]["moves"].as_array().unwrap().is_empty());

    // Bad or tokenless questions.
    let bad = app.get(&format!("/api/v1/games/{id}/moves?include=everything"), Some(&users[0].token));
    assert_problem(bad, 400, "invalid_query");
    let bad = app.get(&format!("/api/v1/games/{id}/moves?until=later"), Some(&users[0].token));
    assert_problem(bad, 400, "invalid_query");
    assert_problem(app.get(&format!("/api/v1/games/{id}/moves?include=legal_moves"), None), 401, "unauthorized");
    assert_problem(app.get(&format!("/api/v1/games/{id}/moves?until=my_move&wait=1"), None), 401, "unauthorized");
}

/// Counts what one bot did over HTTP.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    requests: u32,
    own_moves: u32,
    refused: u32,
}

/// Plays `alice`'s seat of game `id` to the end the way docs/bots.md tells a bot to: one
/// long-poll that waits for her move and brings her legal moves, then one `POST`.
pub(crate) fn play_by_the_book(app: &TestApp, id: &str, alice: &User, seed: u64) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let mut after = 0;
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < GAME_TIMEOUT, "no end within {GAME_TIMEOUT:?}: {tally:?}");
        let path = format!("/api/v1/games/{id}/moves?after={after}&wait=30&until=my_move&include=legal_moves");
        let response = app.get(&path, Some(&alice.token));
        tally.requests += 1;
        if response.status() == StatusCode::TOO_MANY_REQUESTS {
            tally.refused += 1;
            continue;
        }
        let page: Value = response.json().expect("a page");
        if let Some(last) = page["entries"].as_array().and_then(|entries| entries.last()) {
            after = last["seq"].as_i64().unwrap();
        }
        if page["status"] == "finished" {
            return tally;
        }
        let legal = &page["legal_moves"];
        let Some(options) = legal["moves"].as_array().filter(|moves| !moves.is_empty()) else { continue };
        let mv = choose(options, &mut rng);
        let request = app
            .client
            .post(app.url(&format!("/api/v1/games/{id}/moves")))
            .bearer_auth(&alice.token)
            .header("If-Match", format!("\"v{}\"", legal["version"]))
            .json(mv);
        let response = app.send(request);
        tally.requests += 1;
        match response.status() {
            StatusCode::CREATED => tally.own_moves += 1,
            StatusCode::TOO_MANY_REQUESTS => tally.refused += 1,
            // A bot answered an offer meanwhile: the next long-poll brings the new moves.
            StatusCode::PRECONDITION_FAILED => {}
            other => panic!("{mv} at v{}: {other} {}", legal["version"], response.text().unwrap_or_default()),
        }
    }
}

/// Alice against random bots (long games: she makes more moves than the moves limit's whole
/// burst) in a game of `request`; returns what her bot loop did.
fn a_game_against_bots(app: &TestApp, request: Value, seed: u64) -> Tally {
    let alice = app.register(&format!("alice{seed}"));
    let id = app.create_game(&alice, &request)["id"].as_str().unwrap().to_owned();
    let players = request["max_players"].as_u64().unwrap();
    for _ in 1..players {
        let kind = "random";
        let response = app.post(&format!("/api/v1/games/{id}/players"), Some(&alice.token), &json!({ "bot": kind }));
        assert_eq!(response.status(), StatusCode::CREATED);
    }
    assert_eq!(app.start(&id, &alice).status(), StatusCode::OK);
    let tally = play_by_the_book(app, &id, &alice, seed);
    let per_move = f64::from(tally.requests) / f64::from(tally.own_moves.max(1));
    println!("{request}: {tally:?}, {per_move:.2} requests per own move");
    assert_eq!(tally.refused, 0, "{request}: refused under the default limits: {tally:?}");
    let burst = catan_server::http::limits::LimitsConfig::default().moves_burst;
    assert!(tally.own_moves > burst, "{request}: a game shorter than the moves burst proves nothing: {tally:?}");
    assert!(per_move <= 2.2, "{request}: {per_move:.2} requests per own move: {tally:?}");
    tally
}

/// The server with its default limits (the other tests switch the moves limit off).
fn with_default_limits(backend: Backend) -> TestApp {
    let database_url = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(crate::helpers::postgres::fresh_database()),
    };
    spawn_app_with(database_url, |config| config.limits = catan_server::http::limits::LimitsConfig::default())
}

fn a_bot_plays_the_base_game_with_two_requests_a_move_and_no_refusal(backend: Backend) {
    let app = with_default_limits(backend);
    a_game_against_bots(&app, json!({"max_players": 2, "seed": 11}), 1);
}

/// One long game of every other ruleset (SQLite: the backend does not change what is limited).
#[test]
fn a_bot_plays_every_ruleset_with_two_requests_a_move_and_no_refusal() {
    let app = with_default_limits(Backend::Sqlite);
    let rulesets = [
        json!({"max_players": 5, "variant": "five_six", "seed": 12}),
        json!({"max_players": 2, "variant": "jungle", "seed": 13}),
        json!({"max_players": 2, "variant": "big_river", "seed": 14}),
        json!({"max_players": 2, "variant": "seafarers", "scenario": "fog_islands", "seed": 15}),
        json!({"max_players": 3, "variant": "wonders", "seed": 16}),
        json!({"max_players": 2, "variant": "cities_and_knights", "seed": 17}),
        json!({"max_players": 2, "variant": "seafarers+cities_and_knights", "scenario": "fog_islands", "seed": 18}),
    ];
    for (i, request) in rulesets.into_iter().enumerate() {
        a_game_against_bots(&app, request, 100 + i as u64);
    }
}
