//! Browsers: CORS for the configured origins only, `OPTIONS` answered on every path, and
//! stream tickets for `EventSource`.

use reqwest::{blocking::Response, Method, StatusCode};
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{assert_problem, postgres, spawn_app, spawn_app_with, Backend, TestApp},
    stream::Sse,
};

both_backends!(
    without_configured_origins_no_cors_header_is_sent,
    configured_origins_get_preflights_and_readable_headers,
    a_stream_ticket_opens_one_seat_stream_of_one_game_for_a_while,
);

const APP: &str = "https://app.example.test";

fn database(backend: Backend) -> Option<String> {
    match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(postgres::fresh_database()),
    }
}

fn header(response: &Response, name: &str) -> Option<String> {
    response.headers().get(name).map(|v| v.to_str().unwrap().to_owned())
}

fn preflight(app: &TestApp, path: &str, origin: &str, method: &str) -> Response {
    app.client
        .request(Method::OPTIONS, app.url(path))
        .header("Origin", origin)
        .header("Access-Control-Request-Method", method)
        .header("Access-Control-Request-Headers", "authorization, content-type, idempotency-key")
        .send()
        .unwrap()
}

fn without_configured_origins_no_cors_header_is_sent(backend: Backend) {
    let app = spawn_app(backend);
    let response = app.send(app.client.get(app.url("/api/v1/games")).header("Origin", APP));
    assert_eq!(response.status(), StatusCode::OK);
    let cors: Vec<_> = response.headers().keys().filter(|name| name.as_str().starts_with("access-control-")).collect();
    assert!(cors.is_empty(), "{cors:?}");
    // OPTIONS is answered (no 405), with Allow, but a browser gets no permission.
    let response = preflight(&app, "/api/v1/games", APP, "POST");
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(header(&response, "allow").as_deref(), Some("GET, POST, HEAD, OPTIONS"));
    assert_eq!(header(&response, "access-control-allow-origin"), None);
    assert_eq!(header(&response, "access-control-allow-methods"), None);
}

fn configured_origins_get_preflights_and_readable_headers(backend: Backend) {
    let app = spawn_app_with(database(backend), |config| {
        config.browser.cors_origins = vec![format!("{APP}/"), "http://localhost:5173".into()];
    });
    let alice = app.register("alice");
    let game = app.create_game(&alice, &json!({"max_players": 2}));
    let moves = format!("/api/v1/games/{}/moves", game["id"].as_str().unwrap());

    let response = preflight(&app, &moves, APP, "POST");
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(header(&response, "access-control-allow-origin").as_deref(), Some(APP));
    assert_eq!(header(&response, "access-control-allow-methods").as_deref(), Some("GET, POST, HEAD, OPTIONS"));
    let allowed = header(&response, "access-control-allow-headers").unwrap();
    for name in ["Authorization", "Content-Type", "If-Match", "Idempotency-Key", "Last-Event-ID"] {
        assert!(allowed.contains(name), "{name} in {allowed}");
    }
    assert_eq!(header(&response, "access-control-max-age").as_deref(), Some("7200"));
    assert!(header(&response, "vary").unwrap().contains("Origin"));
    // Another origin: answered, but without permission.
    let response = preflight(&app, &moves, "https://evil.test", "POST");
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(header(&response, "access-control-allow-origin"), None);
    // A path the API does not have is still a 404.
    assert_problem(preflight(&app, "/api/v1/nothing", APP, "GET"), 404, "not_found");

    // The actual request: allowed, with the headers a script may read.
    let response = app
        .client
        .post(app.url("/api/v1/games"))
        .bearer_auth(&alice.token)
        .header("Origin", APP)
        .json(&json!({}))
        .send()
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(header(&response, "access-control-allow-origin").as_deref(), Some(APP));
    let exposed = header(&response, "access-control-expose-headers").unwrap();
    for name in ["ETag", "Location", "Retry-After", "RateLimit-Remaining", "Idempotent-Replayed"] {
        assert!(exposed.contains(name), "{name} in {exposed}");
    }
    assert!(header(&response, "vary").unwrap().contains("Origin"));
    // Errors too, so that a script can read the problem.
    let response = app.send(app.client.get(app.url("/api/v1/games/nope")).header("Origin", "http://localhost:5173"));
    assert_eq!(header(&response, "access-control-allow-origin").as_deref(), Some("http://localhost:5173"));
    assert_problem(response, 404, "not_found");
    // Not for other origins, nor without one.
    let response = app.send(app.client.get(app.url("/api/v1/games")).header("Origin", "https://evil.test"));
    assert_eq!(header(&response, "access-control-allow-origin"), None);
    assert_eq!(header(&app.get("/api/v1/games", None), "access-control-allow-origin"), None);
}

fn ticket(app: &TestApp, game: &str, token: Option<&str>) -> Response {
    app.post(&format!("/api/v1/games/{game}/stream-tickets"), token, &Value::Null)
}

fn stream_with(app: &TestApp, game: &str, ticket: &str) -> Response {
    app.send(app.client.get(app.url(&format!("/api/v1/games/{game}/stream?ticket={ticket}"))))
}

fn a_stream_ticket_opens_one_seat_stream_of_one_game_for_a_while(backend: Backend) {
    let app = spawn_app_with(database(backend), |config| {
        config.browser.stream_ticket_lifetime = std::time::Duration::from_secs(1);
    });
    let (game, players) = app.started_game(2, 11);
    let (other, _) = app.started_game(2, 12);
    let spectator = app.register("spectator");

    let response = ticket(&app, &game, Some(&players[1].token));
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(header(&response, "cache-control").as_deref(), Some("no-store"));
    let body: Value = response.json().unwrap();
    assert_eq!(body["seat"], 1);
    let expires = chrono::DateTime::parse_from_rfc3339(body["expires_at"].as_str().unwrap()).unwrap();
    let left = expires.signed_duration_since(chrono::Utc::now()).num_milliseconds();
    assert!((-500..=1000).contains(&left), "{left} ms left");
    let pass = body["ticket"].as_str().unwrap().to_owned();

    // The seat's view, without a token.
    let mut sse = Sse::open(&app, &game, None, None, &format!("?ticket={pass}"));
    let snapshot = sse.next();
    assert_eq!(snapshot.event, "snapshot");
    assert_eq!(snapshot.data["you"], 1);
    assert!(snapshot.data["hand"].is_object(), "the seat's own hand");
    drop(sse);

    // Only that game's stream, and no Bearer token anywhere.
    assert_problem(stream_with(&app, &other, &pass), 403, "ticket_for_another_game");
    assert_problem(app.get(&format!("/api/v1/games/{game}"), Some(&pass)), 401, "unauthorized");
    assert_problem(app.get(&format!("/api/v1/games/{game}/legal-moves"), Some(&pass)), 401, "unauthorized");
    assert_problem(stream_with(&app, &game, "forged"), 401, "invalid_ticket");
    // A token is no ticket, and a ticket goes alone.
    assert_problem(stream_with(&app, &game, &players[1].token), 401, "invalid_ticket");
    let both = app
        .client
        .get(app.url(&format!("/api/v1/games/{game}/stream?ticket={pass}")))
        .bearer_auth(&players[1].token)
        .send()
        .unwrap();
    assert_problem(both, 400, "invalid_query");

    // Only for a seated player.
    assert_problem(ticket(&app, &game, Some(&spectator.token)), 403, "forbidden");
    assert_problem(ticket(&app, &game, None), 401, "unauthorized");
    assert_problem(ticket(&app, "0190f0a1-0000-7000-8000-000000000000", Some(&players[0].token)), 404, "not_found");

    // It expires (the expiry is in whole seconds).
    std::thread::sleep(std::time::Duration::from_millis(2100));
    assert_problem(stream_with(&app, &game, &pass), 401, "invalid_ticket");

    // And dies with the token it came from.
    let body: Value = ticket(&app, &game, Some(&players[0].token)).json().unwrap();
    let pass = body["ticket"].as_str().unwrap();
    let revoked = app.send(app.client.delete(app.url("/api/v1/tokens/current")).bearer_auth(&players[0].token));
    assert_eq!(revoked.status(), StatusCode::NO_CONTENT);
    assert_problem(stream_with(&app, &game, pass), 401, "invalid_ticket");
}
