//! Registering and logging in.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{assert_problem, spawn_app, Backend},
};

both_backends!(register_then_log_in);

fn register_then_log_in(backend: Backend) {
    let app = spawn_app(backend);

    let response = app.post("/api/v1/users", None, &json!({"username": "alice", "password": "secret-password"}));
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().unwrap();
    assert_eq!(body["user"]["username"], "alice");
    assert!(body["token"].as_str().unwrap().len() > 20);

    // The same name again is a conflict.
    let again = app.post("/api/v1/users", None, &json!({"username": "alice", "password": "another-password"}));
    assert_problem(again, 409, "username_taken");

    // Log in.
    let response = app.post("/api/v1/tokens", None, &json!({"username": "alice", "password": "secret-password"}));
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().unwrap();
    let token = body["token"].as_str().unwrap().to_owned();
    assert!(body["expires_at"].is_string());

    // The token works: alice can create a game.
    let response = app.post("/api/v1/games", Some(&token), &json!({}));
    assert_eq!(response.status(), StatusCode::CREATED);

    // Wrong password, unknown user.
    let wrong = app.post("/api/v1/tokens", None, &json!({"username": "alice", "password": "wrong-password"}));
    assert_problem(wrong, 401, "unauthorized");
    let unknown = app.post("/api/v1/tokens", None, &json!({"username": "nobody", "password": "secret-password"}));
    assert_problem(unknown, 401, "unauthorized");
}

#[test]
fn short_passwords_and_odd_usernames_are_rejected() {
    let app = spawn_app(Backend::Sqlite);
    let short = app.post("/api/v1/users", None, &json!({"username": "bob", "password": "short"}));
    assert_problem(short, 422, "invalid_password");
    let odd = app.post("/api/v1/users", None, &json!({"username": "b o b", "password": "long-enough"}));
    assert_problem(odd, 422, "invalid_username");
}
