//! The lobby: `GET /api/v1/users/me`, the filters of `GET /api/v1/games` (mine, joinable,
//! variant), and one answer to an invalid token on every endpoint.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{assert_problem, postgres, spawn_app, spawn_app_with, Backend, TestApp},
};

both_backends!(
    me_is_the_caller_with_their_unfinished_games,
    the_game_list_finds_my_games_joinable_games_and_variants,
    seeded_games_are_not_joinable_outside_a_sandbox,
    an_invalid_token_is_refused_on_every_endpoint,
);

/// The ids of the games of a list response, newest first.
fn ids(response: reqwest::blocking::Response) -> Vec<String> {
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().unwrap();
    body["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_owned()).collect()
}

fn me_is_the_caller_with_their_unfinished_games(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register("alice");
    let bob = app.register("bob");
    let me: Value = app.get("/api/v1/users/me", Some(&alice.token)).json().unwrap();
    assert_eq!(me["username"], "alice");
    assert!(me["id"].is_string() && me["created_at"].is_string(), "{me}");
    assert_eq!((me["open_games"].as_i64(), me["playing_games"].as_i64()), (Some(0), Some(0)));

    // One game open, one being played (alice joined bob's, which bob started).
    app.create_game(&alice, &json!({"max_players": 3}));
    let bobs = app.create_game(&bob, &json!({"max_players": 2}));
    let bobs = bobs["id"].as_str().unwrap();
    assert_eq!(app.join(bobs, &alice).status(), StatusCode::CREATED);
    assert_eq!(app.start(bobs, &bob).status(), StatusCode::OK);
    let me: Value = app.get("/api/v1/users/me", Some(&alice.token)).json().unwrap();
    assert_eq!((me["open_games"].as_i64(), me["playing_games"].as_i64()), (Some(1), Some(1)), "{me}");
    let me: Value = app.get("/api/v1/users/me", Some(&bob.token)).json().unwrap();
    assert_eq!((me["username"].as_str(), me["open_games"].as_i64()), (Some("bob"), Some(0)));

    assert_problem(app.get("/api/v1/users/me", None), 401, "unauthorized");
    assert_problem(app.get("/api/v1/users/me", Some("garbage")), 401, "unauthorized");
}

fn the_game_list_finds_my_games_joinable_games_and_variants(backend: Backend) {
    let app = spawn_app(backend);
    let (alice, bob, carol, dave) =
        (app.register("alice"), app.register("bob"), app.register("carol"), app.register("dave"));
    let id = |game: &Value| game["id"].as_str().unwrap().to_owned();
    // a: alice's base game with free seats; b: bob's Seafarers game, alice joined; c: carol's
    // full 2-seat game; d: dave's game he only hosts (no seat taken by him).
    let a = id(&app.create_game(&alice, &json!({"max_players": 3})));
    let b = id(&app.create_game(&bob, &json!({"variant": "seafarers", "max_players": 3})));
    assert_eq!(app.join(&b, &alice).status(), StatusCode::CREATED);
    let c = id(&app.create_game(&carol, &json!({"max_players": 2})));
    assert_eq!(app.join(&c, &dave).status(), StatusCode::CREATED);
    let d = id(&app.create_game(&dave, &json!({"max_players": 2, "seat_creator": false})));

    let list = |query: &str, token: Option<&str>| ids(app.get(&format!("/api/v1/games{query}"), token));
    assert_eq!(list("", None), [d.as_str(), c.as_str(), b.as_str(), a.as_str()]);
    // Mine: created or seated.
    assert_eq!(list("?mine=true", Some(&alice.token)), [b.as_str(), a.as_str()]);
    assert_eq!(list("?mine=true", Some(&dave.token)), [d.as_str(), c.as_str()]);
    assert_eq!(list("?mine=false", Some(&dave.token)), [d.as_str(), c.as_str(), b.as_str(), a.as_str()]);
    assert_eq!(list("?mine=true&status=playing", Some(&alice.token)), Vec::<String>::new());
    assert_problem(app.get("/api/v1/games?mine=true", None), 401, "unauthorized");
    // Joinable: open with a free seat, and not already joined by the caller.
    assert_eq!(list("?joinable=true", None), [d.as_str(), b.as_str(), a.as_str()]);
    assert_eq!(list("?joinable=true", Some(&alice.token)), [d.as_str()]);
    assert_eq!(list("?joinable=true", Some(&carol.token)), [d.as_str(), b.as_str(), a.as_str()]);
    assert_eq!(list("?joinable=true&mine=true", Some(&bob.token)), Vec::<String>::new());
    // Once started, a game is no longer joinable.
    assert_eq!(app.start(&b, &bob).status(), StatusCode::OK);
    assert_eq!(list("?joinable=true", Some(&carol.token)), [d.as_str(), a.as_str()]);
    // Variants.
    assert_eq!(list("?variant=seafarers", None), [b.as_str()]);
    assert_eq!(list("?variant=base", None), [d.as_str(), c.as_str(), a.as_str()]);
    assert_eq!(list("?variant=jungle", None), Vec::<String>::new());
    assert_eq!(list("?variant=seafarers&mine=true", Some(&carol.token)), Vec::<String>::new());
    assert_problem(app.get("/api/v1/games?variant=seafaring", None), 400, "invalid_query");
    assert_problem(app.get("/api/v1/games?joinable=maybe", None), 400, "invalid_query");
    // Pages of a filtered list.
    let page: Value = app.get("/api/v1/games?variant=base&limit=2", None).json().unwrap();
    let first: Vec<&str> = page["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(first, [d.as_str(), c.as_str()]);
    let cursor = page["next_cursor"].as_str().expect("a next page");
    let page: Value = app.get(&format!("/api/v1/games?variant=base&limit=2&cursor={cursor}"), None).json().unwrap();
    assert_eq!(page["games"].as_array().unwrap().len(), 1);
    assert_eq!(page["games"][0]["id"], a.as_str());
    assert!(page["next_cursor"].is_null());
    let page: Value = app.get("/api/v1/games?mine=true&limit=1", Some(&alice.token)).json().unwrap();
    assert_eq!(page["games"][0]["id"], b.as_str());
    let cursor = page["next_cursor"].as_str().expect("a next page");
    let rest = list(&format!("?mine=true&limit=1&cursor={cursor}"), Some(&alice.token));
    assert_eq!(rest, [a.as_str()]);
}

fn seeded_games_are_not_joinable_outside_a_sandbox(backend: Backend) {
    let url = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(postgres::fresh_database()),
    };
    let app = spawn_app_with(url, |config| config.sandbox = false);
    let (alice, bob) = (app.register("alice"), app.register("bob"));
    let seeded = app.create_game(&alice, &json!({"max_players": 3, "seed": 7}));
    let open = app.create_game(&alice, &json!({"max_players": 3}));
    let (seeded, open) = (seeded["id"].as_str().unwrap(), open["id"].as_str().unwrap());
    assert_eq!(ids(app.get("/api/v1/games?joinable=true", Some(&bob.token))), [open]);
    assert_eq!(ids(app.get("/api/v1/games?mine=true", Some(&alice.token))), [open, seeded]);
    // In a sandbox (the tests' default) anyone may join it, so it is listed.
    let sandbox = spawn_app(backend);
    let alice = sandbox.register("alice");
    let seeded = sandbox.create_game(&alice, &json!({"max_players": 3, "seed": 7}));
    assert_eq!(ids(sandbox.get("/api/v1/games?joinable=true", None)), [seeded["id"].as_str().unwrap()]);
}

/// A token signed with the tests' secret (`test-secret`) that expired an hour ago.
fn expired_token(app: &TestApp) -> String {
    let me: Value = app.get("/api/v1/users/me", Some(&app.register("late").token)).json().unwrap();
    let past = chrono::Utc::now().timestamp() - 3600;
    let claims = catan_server::auth::Claims {
        sub: me["id"].as_str().unwrap().parse().unwrap(),
        name: "late".into(),
        iat: past - 3600,
        exp: past,
        jti: Some(uuid::Uuid::new_v4()),
    };
    let key = jsonwebtoken::EncodingKey::from_secret(b"test-secret");
    jsonwebtoken::encode(&jsonwebtoken::Header::default(), &claims, &key).unwrap()
}

/// Every operation of the OpenAPI document answers 401 to a garbage, an expired and a revoked
/// token (`unauthorized`, `token_expired`, `token_revoked`: the last two mean "log in
/// again"), whether it needs a token or not: a client never silently
/// becomes a spectator. Only the two operations that issue tokens (register, log in) and the
/// health check read no token at all, so a stale token never keeps a client from logging in.
fn an_invalid_token_is_refused_on_every_endpoint(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register("alice");
    let (game, _) = app.started_game(2, 1);
    let revoked = app.register("revoked").token;
    let response = app.send(app.client.delete(app.url("/api/v1/tokens/current")).bearer_auth(&revoked));
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let bad_tokens = [
        ("garbage", "not-a-jwt".to_owned(), "unauthorized"),
        ("expired", expired_token(&app), "token_expired"),
        ("revoked", revoked, "token_revoked"),
    ];

    let doc: Value = app.get("/api-docs/openapi.json", None).json().unwrap();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, _) in item.as_object().unwrap() {
            let method: Method = method.to_uppercase().parse().unwrap();
            let open = matches!(
                (method.as_str(), path.as_str()),
                ("POST", "/api/v1/users") | ("POST", "/api/v1/tokens") | ("GET", "/healthz")
            );
            let url = app.url(&path.replace("{game_id}", &game).replace("{trade_id}", "1"));
            for (what, token, code) in &bad_tokens {
                let response = app.send(app.client.request(method.clone(), &url).bearer_auth(token).json(&json!({})));
                if open {
                    assert_ne!(response.status(), StatusCode::UNAUTHORIZED, "{method} {path} with a {what} token");
                } else {
                    assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{method} {path} with a {what} token");
                    assert_problem(response, 401, code);
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} operations in the document");
    // The endpoints where a token is optional still serve without one.
    assert_eq!(app.get("/api/v1/games", None).status(), StatusCode::OK);
    assert_eq!(app.get("/api/v1/scenarios", None).status(), StatusCode::OK);
    assert_eq!(app.get("/api/v1/games", Some(&alice.token)).status(), StatusCode::OK);
}
