//! Reads served from memory (`src/reads/mod.rs`): every reader gets exactly their own view, a
//! finished game is public to all, a version known to be the latest is answered without the
//! database, and the cache stays within its cap.

use std::time::{Duration, Instant};

use reqwest::{blocking::Response, StatusCode};
use serde_json::Value;

use crate::{
    both_backends,
    bots::{bot_only_game, wait_until_finished},
    games::active_seat,
    helpers::{assert_problem, spawn_app, spawn_app_with, Backend, TestApp},
};

/// Plays `count` moves, each the first legal move of the seat that must act.
fn play(app: &TestApp, id: &str, users: &[crate::helpers::User], count: usize) {
    for _ in 0..count {
        let seat = active_seat(app, id);
        let mv = app.legal_moves(id, &users[seat])["moves"][0].clone();
        assert_eq!(app.submit(id, &users[seat], &mv).status(), StatusCode::CREATED, "{mv}");
    }
}

fn get_text(app: &TestApp, path: &str, token: Option<&str>) -> String {
    let response = app.get(path, token);
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    response.text().unwrap()
}

/// The fields of a logged move other than `hidden` (a hidden move has only its `type`).
fn body_keys(value: &Value) -> usize {
    value.as_object().map_or(0, |object| object.keys().filter(|k| *k != "hidden").count())
}

both_backends!(no_reader_is_ever_served_another_readers_view);

/// Each seat, a signed-in user without a seat, and an anonymous spectator read the game, its
/// legal moves and its log twice, in turns (so that every second read comes from the cache):
/// each sees their own hand and moves only, and the same bytes both times.
fn no_reader_is_ever_served_another_readers_view(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(4, 31);
    // Through the setup: every seat now holds the cards of its second settlement.
    play(&app, &id, &users, 16);
    let outsider = app.register("outsider");
    let mut readers: Vec<(Option<u64>, Option<&str>)> =
        users.iter().enumerate().map(|(seat, user)| (Some(seat as u64), Some(user.token.as_str()))).collect();
    readers.push((None, Some(&outsider.token)));
    readers.push((None, None));

    let paths = [
        format!("/api/v1/games/{id}"),
        format!("/api/v1/games/{id}/legal-moves"),
        format!("/api/v1/games/{id}/moves?after=0&limit=100"),
    ];
    let mut first: Vec<Vec<String>> = Vec::new();
    for round in 0..2 {
        for (index, (seat, token)) in readers.iter().enumerate() {
            // `legal-moves` needs a token: the spectator without one is refused.
            let bodies: Vec<String> = paths
                .iter()
                .map(|path| match token {
                    None if path.ends_with("/legal-moves") => {
                        assert_problem(app.get(path, None), 401, "unauthorized");
                        String::new()
                    }
                    _ => get_text(&app, path, *token),
                })
                .collect();
            let view: Value = serde_json::from_str(&bodies[0]).unwrap();
            assert_eq!(view["you"].as_u64(), *seat, "{view}");
            match seat {
                Some(seat) => {
                    let hand = &view["hand"]["resources"];
                    let total: u64 = hand.as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
                    assert!(total > 0, "seat {seat} holds cards after the setup: {hand}");
                    assert_eq!(total, view["players"][*seat as usize]["resource_count"].as_u64().unwrap());
                }
                None => assert!(view.get("hand").is_none(), "a spectator sees no hand: {view}"),
            }
            for player in view["players"].as_array().unwrap() {
                assert!(player.get("resources").is_none() && player.get("development_cards").is_none());
            }
            if token.is_some() {
                let legal: Value = serde_json::from_str(&bodies[1]).unwrap();
                assert_eq!(legal["you"].as_u64(), *seat);
                let active = view["turn"]["waiting_for"][0].as_u64();
                assert_eq!(!legal["moves"].as_array().unwrap().is_empty(), seat.is_some() && *seat == active);
            }
            let log: Value = serde_json::from_str(&bodies[2]).unwrap();
            let entries = log["entries"].as_array().unwrap();
            assert_eq!(entries.len(), 17);
            for entry in &entries[1..] {
                let own = entry["seat"].as_u64() == *seat;
                assert_eq!(body_keys(&entry["move"]) > 1, own, "reader {seat:?}, entry {entry}");
            }
            if round == 0 {
                first.push(bodies);
            } else {
                assert_eq!(first[index], bodies, "the same bytes for reader {index} from the cache");
            }
        }
    }
    // Seats see different views; the two spectators the same one.
    for a in 0..readers.len() {
        for b in a + 1..readers.len() {
            let same = readers[a].0.is_none() && readers[b].0.is_none();
            assert_eq!(first[a][0] == first[b][0], same, "views of readers {a} and {b}");
        }
    }
}

both_backends!(a_finished_game_is_public_to_every_reader);

/// Entries and views cached while the game ran are not what anyone reads after game over:
/// then the log and the view show every move, hand and the seed.
fn a_finished_game_is_public_to_every_reader(backend: Backend) {
    let app = spawn_app(backend);
    let host = app.register("host");
    let id = bot_only_game(&app, &host, &["random", "random", "heuristic"], 7);
    assert_eq!(app.start(&id, &host).status(), StatusCode::OK);
    let log_path = format!("/api/v1/games/{id}/moves?after=0&limit=1000");
    let mut live_reads = 0;
    let over = loop {
        let log: Value = serde_json::from_str(&get_text(&app, &log_path, None)).unwrap();
        let view = app.game(&id, None);
        if view["status"] == "finished" {
            break log;
        }
        live_reads += 1;
        for entry in &log["entries"].as_array().unwrap()[1..] {
            assert_eq!(body_keys(&entry["move"]), 1, "hidden while the game runs: {entry}");
        }
        assert!(view.get("seed").is_none());
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(live_reads > 0, "the game was read while it ran");
    let over = if over["status"] == "finished" {
        over
    } else {
        serde_json::from_str(&get_text(&app, &log_path, None)).unwrap()
    };
    assert_eq!(over["status"], "finished");
    let entries = over["entries"].as_array().unwrap();
    let placements: Vec<&Value> =
        entries.iter().filter(|e| e["kind"] == "build_road" || e["kind"] == "build_settlement").collect();
    assert!(!placements.is_empty());
    for entry in placements {
        assert!(body_keys(&entry["move"]) > 1, "public after game over: {entry}");
    }
    let view = wait_until_finished(&app, &id);
    assert!(view["seed"].is_u64(), "the seed after game over: {view}");
    assert!(view["players"][0]["resources"].is_object());
}

fn get_with_tag(app: &TestApp, path: &str, tag: &str) -> Response {
    app.send(app.client.get(app.url(path)).header("If-None-Match", tag))
}

both_backends!(the_latest_version_is_answered_without_the_database);

/// With every database connection held elsewhere, a version this process knows to be the
/// latest is still answered from memory: a finished game on any backend, and on SQLite (one
/// process sees every commit) a game in progress too. On PostgreSQL another process may have
/// moved a game in progress, so that read needs the database.
fn the_latest_version_is_answered_without_the_database(backend: Backend) {
    let app = spawn_app(backend);
    let host = app.register("host");
    let finished = bot_only_game(&app, &host, &["random", "random"], 11);
    assert_eq!(app.start(&finished, &host).status(), StatusCode::OK);
    wait_until_finished(&app, &finished);
    let (playing, _) = app.started_game(2, 12);
    let token_for = |path: &str| path.ends_with("/legal-moves").then_some(host.token.as_str());
    let mut known = Vec::new();
    for id in [&finished, &playing] {
        let view = app.get(&format!("/api/v1/games/{id}"), None);
        let tag = view.headers()["etag"].to_str().unwrap().to_owned();
        let mut paths = vec![format!("/api/v1/games/{id}"), format!("/api/v1/games/{id}/moves?after=0&limit=100")];
        // `legal-moves` needs a token, and on PostgreSQL a token's revocation is looked up in
        // the database (other processes may revoke it); on SQLite this process knows them all.
        if backend == Backend::Sqlite {
            paths.push(format!("/api/v1/games/{id}/legal-moves"));
        }
        let bodies: Vec<String> = paths.iter().map(|path| get_text(&app, path, token_for(path))).collect();
        known.push((tag, paths, bodies));
    }

    let held: Vec<_> = (0..8).map(|_| app.pool.get().expect("a connection")).collect();
    assert_problem(app.get("/api/v1/games", None), 503, "database_unavailable");
    for (index, (tag, paths, bodies)) in known.iter().enumerate() {
        let in_memory = index == 0 || backend == Backend::Sqlite;
        let started = Instant::now();
        let response = get_with_tag(&app, &paths[0], tag);
        if !in_memory {
            assert_problem(response, 503, "database_unavailable");
            continue;
        }
        assert_eq!(response.status(), StatusCode::NOT_MODIFIED, "game {index}");
        assert_eq!(response.headers()["etag"], tag.as_str());
        assert_eq!(response.headers()["vary"], "Authorization");
        for (path, body) in paths.iter().zip(bodies) {
            assert_eq!(&get_text(&app, path, token_for(path)), body, "{path}, from memory");
        }
        assert!(started.elapsed() < Duration::from_secs(1), "no wait for a connection: {:?}", started.elapsed());
    }
    drop(held);
}

/// Many games read by every reader: the response cache never holds more than its cap, and
/// what it serves stays right.
#[test]
fn the_read_cache_stays_within_its_cap() {
    const CAP: usize = 200 * 1024;
    let app = spawn_app_with(None, |config| config.read_cache_bytes = CAP);
    let mut largest = 0;
    for seed in 0..8 {
        let (id, users) = app.started_game(3, seed);
        play(&app, &id, &users, 8);
        for user in &users {
            for _ in 0..2 {
                let view = app.game(&id, Some(&user.token));
                assert_eq!(view["version"], 9);
                let log = app.log(&id, Some(&user.token), 0);
                assert_eq!(log["entries"].as_array().unwrap().len(), 9);
                largest = largest.max(app.reads.cached_bytes());
                assert!(app.reads.cached_bytes() <= CAP, "{} bytes cached", app.reads.cached_bytes());
            }
        }
    }
    assert_eq!(app.reads.capacity(), CAP);
    assert!(largest > CAP / 2, "the cache was used up to its cap: {largest}");
}

/// A stream's entries are the log page's, byte for byte, and the stream keeps them in the
/// same cache: on SQLite (where this process is sure of the latest version), once a
/// spectator's stream has sent the log, the spectator's log page is served with every
/// database connection held elsewhere. And the cache holds each reader's own redaction.
#[test]
fn a_stream_shares_the_log_pages_cache() {
    let app = spawn_app(Backend::Sqlite);
    let (id, users) = app.started_game(3, 41);
    play(&app, &id, &users, 14);
    let version = app.game(&id, None)["version"].as_i64().expect("a version");

    let mut streamed = Vec::new();
    let mut sse = crate::stream::Sse::open(&app, &id, None, None, "?after=0");
    assert_eq!(sse.next().event, "snapshot");
    while streamed.len() < version as usize {
        streamed.push(sse.next_entry());
    }
    drop(sse);
    assert_eq!(streamed.last().and_then(|e| e.id), Some(version), "every entry up to the latest");

    let held: Vec<_> = (0..8).map(|_| app.pool.get().expect("a connection")).collect();
    let page: Value =
        serde_json::from_str(&get_text(&app, &format!("/api/v1/games/{id}/moves?after=0&limit=100"), None))
            .expect("the page is JSON");
    drop(held);
    let entries = page["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), streamed.len());
    for (entry, event) in entries.iter().zip(&streamed) {
        assert_eq!(entry, &event.data, "entry {:?}", event.id);
        assert_eq!(entry["seq"].as_i64(), event.id);
    }

    // A seat's stream is redacted for that seat, not served the spectators' bytes.
    let mut own = crate::stream::Sse::open(&app, &id, Some(&users[0].token), None, "?after=0");
    assert_eq!(own.next().event, "snapshot");
    let seat_page = app.log(&id, Some(&users[0].token), 0);
    for entry in seat_page["entries"].as_array().expect("entries") {
        assert_eq!(&own.next_entry().data, entry);
    }
}
