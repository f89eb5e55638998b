//! HTTP hygiene: gzip when asked (never for the event stream), entity tags that are weak on
//! compressed bodies and keep conditional requests working, `HEAD` for every `GET`, and
//! `Allow` naming them.

use std::{
    io::{BufRead, BufReader, Read},
    time::{Duration, Instant},
};

use reqwest::{
    blocking::{RequestBuilder, Response},
    Method, StatusCode,
};
use serde_json::{json, Value};

use crate::{
    both_backends,
    bots::{bot_only_game, wait_until_finished},
    helpers::{assert_problem, spawn_app, Backend, TestApp, User},
};

both_backends!(
    json_is_gzipped_when_asked_and_tags_keep_conditional_requests_working,
    head_answers_every_get_and_allow_names_it,
    the_stream_is_sent_uncompressed_and_events_arrive_at_once,
    a_finished_games_log_shrinks_several_times_gzipped,
);

fn header(response: &Response, name: &str) -> Option<String> {
    response.headers().get(name).map(|v| v.to_str().unwrap().to_owned())
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut out).expect("a gzip body");
    out
}

fn gzip(request: RequestBuilder) -> Response {
    request.header("Accept-Encoding", "gzip").send().unwrap()
}

/// The seat that may move now, and its first legal move, at `version`.
fn a_legal_move(app: &TestApp, game: &str, players: &[User]) -> (usize, Value, i64) {
    for (seat, player) in players.iter().enumerate() {
        let legal = app.legal_moves(game, player);
        if let Some(mv) = legal["moves"].as_array().unwrap().first() {
            return (seat, mv.clone(), legal["version"].as_i64().unwrap());
        }
    }
    panic!("nobody can move");
}

fn json_is_gzipped_when_asked_and_tags_keep_conditional_requests_working(backend: Backend) {
    let app = spawn_app(backend);
    let (game, players) = app.started_game(3, 5);
    let url = app.url(&format!("/api/v1/games/{game}"));
    let token = players[0].token.clone();

    let plain = app.send(app.client.get(&url).bearer_auth(&token));
    assert_eq!(header(&plain, "content-encoding"), None);
    let version = app.game(&game, Some(&token))["version"].as_i64().unwrap();
    let strong = format!("\"v{version}\"");
    let weak = format!("W/{strong}");
    assert_eq!(header(&plain, "etag").as_deref(), Some(strong.as_str()));
    let plain = plain.bytes().unwrap();

    let zipped = gzip(app.client.get(&url).bearer_auth(&token));
    assert_eq!(zipped.status(), StatusCode::OK);
    assert_eq!(header(&zipped, "content-encoding").as_deref(), Some("gzip"));
    let vary: Vec<String> =
        zipped.headers().get_all("vary").iter().map(|v| v.to_str().unwrap().to_lowercase()).collect();
    assert!(vary.iter().any(|v| v.contains("accept-encoding")), "{vary:?}");
    // Other bytes, so a weak tag of the same version.
    assert_eq!(header(&zipped, "etag").as_deref(), Some(weak.as_str()));
    let zipped = zipped.bytes().unwrap();
    assert!(zipped.len() * 2 < plain.len(), "{} bytes gzipped, {} plain", zipped.len(), plain.len());
    assert_eq!(gunzip(&zipped), plain);

    // Either tag matches (If-None-Match compares weakly); a 304 carries the tag the 200 would.
    for sent in [&strong, &weak] {
        let again = gzip(app.client.get(&url).bearer_auth(&token).header("If-None-Match", sent.as_str()));
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{sent}");
        assert_eq!(header(&again, "etag").as_deref(), Some(weak.as_str()));
        let again = app.send(app.client.get(&url).bearer_auth(&token).header("If-None-Match", sent.as_str()));
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{sent}");
        assert_eq!(header(&again, "etag").as_deref(), Some(strong.as_str()));
    }

    // Problems are compressed too, and stay problems.
    let missing = gzip(app.client.get(app.url("/api/v1/games/nope")));
    assert_eq!(header(&missing, "content-encoding").as_deref(), Some("gzip"));
    let problem: Value = serde_json::from_slice(&gunzip(&missing.bytes().unwrap())).unwrap();
    assert_eq!(problem["code"], "not_found");

    // Nothing acceptable on offer: a 406 problem.
    let refused = app.client.get(app.url("/api/v1/games")).header("Accept-Encoding", "identity;q=0").send().unwrap();
    assert_problem(refused, 406, "not_acceptable");

    // If-Match takes the weak form of the tag; a stale one is a 412.
    let (seat, mv, at) = a_legal_move(&app, &game, &players);
    assert_eq!(at, version);
    let moves = app.url(&format!("/api/v1/games/{game}/moves"));
    let played = app
        .client
        .post(&moves)
        .bearer_auth(&players[seat].token)
        .header("If-Match", weak.as_str())
        .json(&mv)
        .send()
        .unwrap();
    assert_eq!(played.status(), StatusCode::CREATED);
    let (seat, mv, _) = a_legal_move(&app, &game, &players);
    let stale = app
        .client
        .post(&moves)
        .bearer_auth(&players[seat].token)
        .header("If-Match", weak.as_str())
        .json(&mv)
        .send()
        .unwrap();
    assert_problem(stale, 412, "version_conflict");

    // An open game's tag counts its seats; If-Match takes it as version 0.
    let host = app.register("host");
    let open = app.create_game(&host, &json!({"max_players": 3}));
    let open = open["id"].as_str().unwrap();
    let tag = |response: Response| header(&response, "etag").unwrap();
    assert_eq!(tag(app.get(&format!("/api/v1/games/{open}"), None)), "\"v0.1\"");
    assert_eq!(tag(app.join(open, &app.register("guest"))), "\"v0.2\"");
    let old = app.send(app.client.get(app.url(&format!("/api/v1/games/{open}"))).header("If-None-Match", "\"v0.1\""));
    assert_eq!(old.status(), StatusCode::OK);
    let stale = app
        .client
        .post(&moves)
        .bearer_auth(&players[seat].token)
        .header("If-Match", "\"v0.2\"")
        .json(&mv)
        .send()
        .unwrap();
    assert_problem(stale, 412, "version_conflict");
}

fn head_answers_every_get_and_allow_names_it(backend: Backend) {
    let app = spawn_app(backend);
    let (game, players) = app.started_game(2, 8);
    let view = app.url(&format!("/api/v1/games/{game}"));
    let head = app.send(app.client.head(&view).bearer_auth(&players[0].token));
    assert_eq!(head.status(), StatusCode::OK);
    let etag = header(&head, "etag").unwrap();
    assert_eq!(header(&head, "content-type").as_deref(), Some("application/json"));
    assert!(head.bytes().unwrap().is_empty());
    let cached = app.send(app.client.head(&view).header("If-None-Match", etag.as_str()));
    assert_eq!(cached.status(), StatusCode::NOT_MODIFIED);
    for path in ["/api/v1/games", "/api/v1/scenarios", "/healthz", &format!("/api/v1/games/{game}/moves")] {
        assert_eq!(app.send(app.client.head(app.url(path))).status(), StatusCode::OK, "HEAD {path}");
    }
    // The endless stream answers its headers and ends.
    let started = Instant::now();
    let stream = app.send(app.client.head(app.url(&format!("/api/v1/games/{game}/stream"))));
    assert_eq!(stream.status(), StatusCode::OK);
    assert_eq!(header(&stream, "content-type").as_deref(), Some("text/event-stream"));
    assert!(stream.bytes().unwrap().is_empty());
    assert!(started.elapsed() < Duration::from_secs(5));
    // HEAD where there is no GET, and a wrong method: 405 naming what the path takes.
    let response = app.send(app.client.head(app.url("/api/v1/tokens")));
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(header(&response, "allow").as_deref(), Some("POST, OPTIONS"));
    let response = app.send(app.client.request(Method::PUT, app.url("/api/v1/games")));
    assert_eq!(header(&response, "allow").as_deref(), Some("GET, POST, HEAD, OPTIONS"));
    assert_problem(response, 405, "method_not_allowed");
}

fn the_stream_is_sent_uncompressed_and_events_arrive_at_once(backend: Backend) {
    let app = spawn_app(backend);
    let (game, players) = app.started_game(2, 9);
    let url = app.url(&format!("/api/v1/games/{game}/stream?keepalive=15"));
    let response = gzip(app.client.get(&url).bearer_auth(&players[0].token));
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(header(&response, "content-encoding"), None);
    let mut lines = BufReader::new(response);
    let mut next_event = || loop {
        let mut line = String::new();
        assert!(lines.read_line(&mut line).unwrap() > 0, "the stream ended");
        if let Some(event) = line.trim_end().strip_prefix("event: ") {
            return event.to_owned();
        }
    };
    assert_eq!(next_event(), "snapshot");
    // A move arrives long before the next keep-alive (15 s) could push it out of a buffer.
    let (seat, mv, _) = a_legal_move(&app, &game, &players);
    let moved = Instant::now();
    assert_eq!(app.submit(&game, &players[seat], &mv).status(), StatusCode::CREATED);
    assert_eq!(next_event(), "entry");
    assert!(moved.elapsed() < Duration::from_secs(3), "the entry took {:?}", moved.elapsed());
}

/// Measures a finished game's whole log (`GET .../moves?limit=1000`, page by page) with and
/// without gzip; the README quotes these figures.
fn a_finished_games_log_shrinks_several_times_gzipped(backend: Backend) {
    let app = spawn_app(backend);
    let host = app.register("host");
    let id = bot_only_game(&app, &host, &["heuristic"; 4], 16);
    assert_eq!(app.start(&id, &host).status(), StatusCode::OK);
    wait_until_finished(&app, &id);
    let (mut plain, mut zipped, mut entries, mut after) = (0, 0, 0, 0);
    loop {
        let url = app.url(&format!("/api/v1/games/{id}/moves?after={after}&limit=1000"));
        let body = app.send(app.client.get(&url)).bytes().unwrap();
        let compressed = gzip(app.client.get(&url));
        assert_eq!(header(&compressed, "content-encoding").as_deref(), Some("gzip"));
        let compressed = compressed.bytes().unwrap();
        assert_eq!(gunzip(&compressed), body);
        let page: Value = serde_json::from_slice(&body).unwrap();
        let page = page["entries"].as_array().unwrap();
        if page.is_empty() {
            break;
        }
        (plain, zipped, entries) = (plain + body.len(), zipped + compressed.len(), entries + page.len());
        after = page.last().unwrap()["seq"].as_i64().unwrap();
    }
    eprintln!("a finished 4-bot game's log: {entries} entries, {plain} bytes, {zipped} bytes gzipped");
    assert!(entries > 100);
    assert!(zipped * 5 < plain, "{zipped} bytes gzipped of {plain}");
}
