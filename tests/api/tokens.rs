//! Tokens: revocation (`DELETE /api/v1/tokens/current`) holds on every server process, and
//! the lifetime of issued tokens is configurable.

use reqwest::{blocking::Response, StatusCode};
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{assert_problem, postgres, spawn_app, spawn_app_at, spawn_app_with, Backend, TestApp},
};

both_backends!(
    a_revoked_token_is_refused_and_others_are_not,
    tokens_live_as_long_as_configured,
    expired_revoked_and_malformed_tokens_each_have_their_code,
);

impl TestApp {
    fn revoke(&self, token: &str) -> Response {
        self.client.delete(self.url("/api/v1/tokens/current")).bearer_auth(token).send().expect("DELETE")
    }

    fn log_in(&self, username: &str) -> Value {
        let response = self.post("/api/v1/tokens", None, &json!({"username": username, "password": "secret-password"}));
        assert_eq!(response.status(), StatusCode::OK);
        response.json().expect("json")
    }
}

fn a_revoked_token_is_refused_and_others_are_not(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register("alice");
    let second = app.log_in("alice")["token"].as_str().unwrap().to_owned();
    let game = app.create_game(&alice, &json!({"max_players": 2}));
    let view = format!("/api/v1/games/{}", game["id"].as_str().unwrap());
    assert_eq!(app.get(&view, Some(&alice.token)).status(), StatusCode::OK);

    let revoked = app.revoke(&alice.token);
    assert_eq!(revoked.status(), StatusCode::NO_CONTENT);
    // Refused where a token is required, and where it is optional (no silent spectator).
    assert_problem(app.post("/api/v1/games", Some(&alice.token), &json!({})), 401, "token_revoked");
    assert_problem(app.get(&view, Some(&alice.token)), 401, "token_revoked");
    assert_problem(app.revoke(&alice.token), 401, "token_revoked");
    // The user's other token, and no token at all, are fine.
    assert_eq!(app.post("/api/v1/games", Some(&second), &json!({})).status(), StatusCode::CREATED);
    assert_eq!(app.get(&view, None).status(), StatusCode::OK);
    assert_problem(app.send(app.client.delete(app.url("/api/v1/tokens/current"))), 401, "unauthorized");

    // The revocation is stored: a server starting on this database refuses the token too.
    let mut conn = app.pool.get().unwrap();
    let loaded = catan_server::auth::revocation::Revocations::load(&mut conn, true).unwrap();
    assert_eq!(loaded.remembered(), 1);
}

/// On PostgreSQL, several processes serve one database: a token revoked through one is
/// refused by the other at once, even one that had just accepted it.
#[test]
fn a_token_revoked_on_one_process_is_refused_by_another() {
    let url = postgres::fresh_database();
    let (one, other) = (spawn_app_at(Some(url.clone())), spawn_app_at(Some(url)));
    let alice = one.register("alice");
    assert_eq!(other.post("/api/v1/games", Some(&alice.token), &json!({})).status(), StatusCode::CREATED);
    assert_eq!(one.revoke(&alice.token).status(), StatusCode::NO_CONTENT);
    assert_problem(other.post("/api/v1/games", Some(&alice.token), &json!({})), 401, "token_revoked");
    assert_problem(other.revoke(&alice.token), 401, "token_revoked");
}

/// A client must know whether to log in again: an expired token is 401 `token_expired`, a
/// revoked one `token_revoked`, anything else that is not a token of this server
/// `unauthorized`; none of them shows the JWT library's words.
fn expired_revoked_and_malformed_tokens_each_have_their_code(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register("alice");
    let key = jsonwebtoken::DecodingKey::from_secret(b"test-secret");
    let mut claims: Value =
        jsonwebtoken::decode(&alice.token, &key, &jsonwebtoken::Validation::default()).unwrap().claims;
    let now = chrono::Utc::now().timestamp();
    claims["iat"] = json!(now - 7200);
    claims["exp"] = json!(now - 3600);
    let sign = |claims: &Value, secret: &[u8]| {
        let key = jsonwebtoken::EncodingKey::from_secret(secret);
        jsonwebtoken::encode(&jsonwebtoken::Header::default(), claims, &key).unwrap()
    };
    let expired = sign(&claims, b"test-secret");
    let problem = assert_problem(app.post("/api/v1/games", Some(&expired), &json!({})), 401, "token_expired");
    assert!(!problem["detail"].as_str().unwrap().contains("ExpiredSignature"), "{problem}");
    claims["exp"] = json!(now + 3600);
    let foreign = sign(&claims, b"another-secret");
    for token in [foreign.as_str(), "not-a-jwt", "x.y.z"] {
        let problem = assert_problem(app.post("/api/v1/games", Some(token), &json!({})), 401, "unauthorized");
        let detail = problem["detail"].as_str().unwrap();
        assert!(!detail.contains("InvalidSignature") && !detail.contains("InvalidToken"), "{problem}");
    }
    let response = app.post("/api/v1/games", Some(&expired), &json!({}));
    assert_eq!(response.headers()["www-authenticate"], "Bearer error=\"invalid_token\"");
    assert_eq!(app.revoke(&alice.token).status(), StatusCode::NO_CONTENT);
    assert_problem(app.get("/api/v1/users/me", Some(&alice.token)), 401, "token_revoked");
}

fn tokens_live_as_long_as_configured(backend: Backend) {
    let url = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(postgres::fresh_database()),
    };
    let app = spawn_app_with(url, |config| config.token_lifetime = std::time::Duration::from_secs(2 * 3600));
    let response = app.post("/api/v1/users", None, &json!({"username": "alice", "password": "secret-password"}));
    assert_eq!(response.status(), StatusCode::CREATED);
    let registered: Value = response.json().unwrap();
    for expires_at in [&registered["expires_at"], &app.log_in("alice")["expires_at"]] {
        let expires_at: chrono::DateTime<chrono::Utc> = serde_json::from_value(expires_at.clone()).unwrap();
        let left = expires_at - chrono::Utc::now();
        assert!(left > chrono::Duration::minutes(119) && left <= chrono::Duration::hours(2), "{left}");
    }
    // The default stays a week.
    let default = spawn_app(backend).register("bob");
    let key = jsonwebtoken::DecodingKey::from_secret(b"test-secret");
    let claims: Value =
        jsonwebtoken::decode(&default.token, &key, &jsonwebtoken::Validation::default()).unwrap().claims;
    let lifetime = claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap();
    assert_eq!(lifetime, 7 * 24 * 3600);
    assert!(claims["jti"].is_string(), "a token has an id to revoke it by: {claims}");
}
