//! Issue 32: no request may panic. Every operation of the committed OpenAPI document is
//! sent extreme and malformed values, one parameter or body field at a time (integer
//! limits, negative, empty, non-numeric, very long, wrong JSON types, deep nesting), against
//! real ids of a game in play. Each answer must arrive (no dropped connection), be no 5xx,
//! carry a status the operation documents and, for an error, a problem body with a known
//! code; no thread of the server may panic (counted by a panic hook).

use std::{
    collections::BTreeSet,
    sync::{
        atomic::{AtomicUsize, Ordering},
        OnceLock,
    },
    time::Duration,
};

use reqwest::{blocking::Client, header::HeaderValue, Method};
use serde_json::{json, Map, Value};

use crate::{
    both_backends,
    helpers::{spawn_app_with, Backend, TestApp},
};

both_backends!(every_operation_survives_extreme_and_malformed_values);

/// Panics on threads that are not a test's: the servers' workers and blocking threads (a
/// test thread is named after its test's path, which has `::`).
static SERVER_PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_server_panics() {
    static HOOK: OnceLock<()> = OnceLock::new();
    HOOK.get_or_init(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let name = std::thread::current().name().unwrap_or_default().to_owned();
            if !name.contains("::") && name != "main" {
                SERVER_PANICS.fetch_add(1, Ordering::SeqCst);
            }
            previous(info);
        }));
    });
}

/// A value for a path, query or header parameter: percent-encoded for the URL unless `raw`.
#[derive(Debug, Clone)]
struct Text {
    value: String,
    raw: bool,
}

fn text(value: impl Into<String>) -> Text {
    Text { value: value.into(), raw: false }
}

fn raw(value: &str) -> Text {
    Text { value: value.into(), raw: true }
}

impl Text {
    /// The value as it stands in a path segment or a query string.
    fn in_url(&self) -> String {
        if self.raw {
            self.value.clone()
        } else {
            encode(&self.value)
        }
    }
}

fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The values every parameter is tried with, whatever its type.
fn text_values(schema: &Value) -> Vec<Text> {
    let mut values = vec![
        text(""),
        text(" "),
        text("abc"),
        text("null"),
        text("-1"),
        text("0"),
        text("1"),
        text(i64::MAX.to_string()),
        text(i64::MIN.to_string()),
        text((i64::MAX - 7).to_string()),
        text(u64::MAX.to_string()),
        text("18446744073709551616"),
        text("-9223372036854775809"),
        text("99999999999999999999999999999999999999"),
        text("1.5"),
        text("1e3"),
        text("0x10"),
        text("+5"),
        text("٣"),
        text("９"),
        text("true"),
        text("yes"),
        text("é<script>\"'"),
        text("9".repeat(2000)),
        text("a".repeat(2000)),
        raw("%00"),
        raw("%FF%FE"),
        raw("%"),
        raw("..%2F..%2F"),
    ];
    if schema.get("format").and_then(Value::as_str) == Some("uuid") || schema.get("type") == Some(&json!("string")) {
        values.push(text("00000000-0000-0000-0000-000000000000"));
        values.push(text(uuid::Uuid::new_v4().to_string()));
        values.push(text("ffffffff-ffff-ffff-ffff-ffffffffffff"));
    }
    values
}

/// The JSON values every body field is tried with.
fn json_values() -> Vec<Value> {
    let mut deep = json!(1);
    for _ in 0..200 {
        deep = json!([deep]);
    }
    vec![
        Value::Null,
        json!(true),
        json!(-1),
        json!(0),
        json!(i64::MAX),
        json!(i64::MIN),
        json!(u64::MAX),
        json!(1.8446744073709552e19),
        json!(1e308),
        json!(-1e308),
        json!(0.5),
        json!(""),
        json!("x".repeat(5000)),
        json!("é\u{0}\u{202e}"),
        json!([]),
        json!([-1, u64::MAX, "x", null]),
        json!({}),
        json!({"a": {"b": [1]}}),
        deep,
    ]
}

/// Whole bodies that are not what any operation takes.
fn raw_bodies() -> Vec<Vec<u8>> {
    vec![
        b"".to_vec(),
        b"null".to_vec(),
        b"[]".to_vec(),
        b"[1,2]".to_vec(),
        b"\"text\"".to_vec(),
        b"1e999".to_vec(),
        b"{".to_vec(),
        b"{\"a\":".to_vec(),
        b"{}}".to_vec(),
        vec![0xff, 0xfe, b'{', b'}'],
        format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)).into_bytes(),
        format!("{}1{}", "{\"a\":".repeat(10_000), "}".repeat(10_000)).into_bytes(),
        format!("{{\"k\":\"{}\"}}", "x".repeat(70_000)).into_bytes(),
    ]
}

fn resolve<'a>(spec: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => spec.pointer(reference.trim_start_matches('#')).unwrap_or(schema),
        None => schema,
    }
}

/// The objects a body schema can be: each variant with its tag fixed, and its properties.
fn body_shapes(spec: &Value, schema: &Value) -> Vec<(Map<String, Value>, Vec<String>)> {
    let schema = resolve(spec, schema);
    if let Some(variants) = schema.get("oneOf").or_else(|| schema.get("anyOf")).and_then(Value::as_array) {
        return variants.iter().flat_map(|v| body_shapes(spec, v)).collect();
    }
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut fixed = Map::new();
    let mut free = Vec::new();
    for (name, property) in properties {
        let property = resolve(spec, property);
        match property.get("enum").and_then(Value::as_array) {
            Some(values) if values.len() == 1 => {
                fixed.insert(name.clone(), values[0].clone());
            }
            _ => free.push(name.clone()),
        }
    }
    vec![(fixed, free)]
}

/// One request of the sweep.
struct Probe {
    method: Method,
    path: String,
    query: Option<(String, Text)>,
    header: Option<(String, Text)>,
    body: Option<Vec<u8>>,
    /// The `Authorization` header instead of the seat's token (`Some("")`: none at all).
    auth: Option<String>,
    what: String,
}

struct Sweep<'a> {
    app: &'a TestApp,
    client: Client,
    codes: BTreeSet<String>,
    failures: Vec<String>,
    sent: usize,
}

impl Sweep<'_> {
    fn send(&mut self, token: &str, documented: &BTreeSet<String>, probe: Probe) {
        let mut url = format!("{}{}", self.app.base, probe.path);
        if let Some((name, value)) = &probe.query {
            url = format!("{url}?{name}={}", value.in_url());
        }
        let mut request = self.client.request(probe.method.clone(), &url);
        match probe.auth.as_deref() {
            None => request = request.bearer_auth(token),
            Some("") => {}
            Some(auth) => request = request.header("Authorization", auth),
        }
        if let Some((name, value)) = &probe.header {
            let Ok(value) = HeaderValue::from_bytes(value.value.as_bytes()) else { return };
            request = request.header(name.as_str(), value);
        }
        if let Some(body) = &probe.body {
            request = request.header("Content-Type", "application/json").body(body.clone());
        }
        self.sent += 1;
        let response = match request.send() {
            Ok(response) => response,
            Err(error) => {
                self.failures.push(format!("{}: no answer ({error})", probe.what));
                return;
            }
        };
        let status = response.status();
        let media = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_owned();
        if status.is_server_error() {
            self.failures.push(format!("{}: {status}", probe.what));
        }
        if !documented.contains(status.as_str()) && !documented.contains("default") {
            self.failures.push(format!("{}: {status} is not documented ({documented:?})", probe.what));
        }
        if media == "text/event-stream" {
            return;
        }
        let bytes = match response.bytes() {
            Ok(bytes) => bytes,
            Err(error) => {
                self.failures.push(format!("{}: the body was cut ({error})", probe.what));
                return;
            }
        };
        if status.is_client_error() || status.is_server_error() {
            if media != "application/problem+json" {
                self.failures.push(format!("{}: {status} as {media:?}, not a problem", probe.what));
                return;
            }
            let problem: Value = serde_json::from_slice(&bytes).unwrap_or_default();
            let code = problem["code"].as_str().unwrap_or_default();
            if problem["status"] != json!(status.as_u16()) || !self.codes.contains(code) {
                self.failures.push(format!("{}: a problem that is not one: {problem}", probe.what));
            }
        }
    }
}

/// The path with its parameters filled from `ids`, and `name` set to `value` if given.
fn fill(template: &str, ids: &Map<String, Value>, replaced: Option<(&str, &Text)>) -> String {
    let mut path = template.to_owned();
    for (name, id) in ids {
        let value = match replaced {
            Some((n, value)) if n == name => value.in_url(),
            _ => id.as_str().map_or_else(|| id.to_string(), str::to_owned),
        };
        path = path.replace(&format!("{{{name}}}"), &value);
    }
    path
}

fn every_operation_survives_extreme_and_malformed_values(backend: Backend) {
    count_server_panics();
    let panics_before = SERVER_PANICS.load(Ordering::SeqCst);
    let database = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(crate::helpers::postgres::fresh_database()),
    };
    let app = spawn_app_with(database, |config| {
        let limits = &mut config.limits;
        limits.login_per_account_per_min = 0;
        limits.login_per_address_per_min = 0;
        limits.register_per_account_per_min = 0;
        limits.register_per_address_per_min = 0;
        limits.games_per_min = 0;
        limits.max_open_games = 0;
    });
    let spec: Value = serde_json::from_str(&std::fs::read_to_string("openapi/openapi.json").unwrap()).unwrap();
    let codes: BTreeSet<String> = spec["components"]["schemas"]["Problem"]["properties"]["code"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();

    // A game in play with a move in its log, as its first seat sees it.
    let (game, players) = app.started_game(3, 11);
    let mover = players
        .iter()
        .find(|player| !app.legal_moves(&game, player)["moves"].as_array().unwrap().is_empty())
        .expect("a seat that may move");
    let first = app.legal_moves(&game, mover)["moves"][0].clone();
    assert_eq!(app.submit(&game, mover, &first).status(), 201);
    let token = mover.token.clone();
    let ids_of = |game: &str| -> Map<String, Value> {
        [("game_id".to_owned(), json!(game)), ("trade_id".to_owned(), json!("1"))].into_iter().collect()
    };
    // And a game still open, as its creator sees it.
    let creator = app.register("sweeper");
    let open = app.create_game(&creator, &json!({"max_players": 4}))["id"].as_str().unwrap().to_owned();
    // (ids, token, whether the log has an entry: a long-poll on an empty log waits its
    // `wait` out, up to 30 s a value, so `wait` is swept on the game in play only.)
    let games = [(ids_of(&game), token.clone(), true), (ids_of(&open), creator.token.clone(), false)];

    let mut sweep = Sweep {
        app: &app,
        client: Client::builder().timeout(Duration::from_secs(40)).build().unwrap(),
        codes,
        failures: Vec::new(),
        sent: 0,
    };
    // Deletes last: revoking the token first would leave the rest answering 401.
    let mut operations: Vec<(String, String, Value)> = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            if operation.get("responses").is_some() {
                operations.push((method.to_uppercase(), path.clone(), operation.clone()));
            }
        }
    }
    operations.sort_by_key(|(method, _, _)| method == "DELETE");

    for ((ids, token, logged), (method, template, operation)) in
        games.iter().flat_map(|g| operations.iter().map(move |o| (g, o)))
    {
        let token = token.as_str();
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        let documented: BTreeSet<String> = operation["responses"].as_object().unwrap().keys().cloned().collect();
        let parameters = operation["parameters"].as_array().cloned().unwrap_or_default();
        let base_path = fill(template, ids, None);
        let base_body = operation.get("requestBody").map(|_| b"{}".to_vec());
        for parameter in &parameters {
            let (name, place) = (parameter["name"].as_str().unwrap(), parameter["in"].as_str().unwrap());
            if name == "wait" && !*logged {
                continue;
            }
            for value in text_values(&parameter["schema"]) {
                let what = format!("{method} {template} with {place} {name}={:?}", truncate(&value.value));
                let mut probe = Probe {
                    method: method.clone(),
                    path: base_path.clone(),
                    query: None,
                    header: None,
                    body: base_body.clone(),
                    auth: None,
                    what,
                };
                match place {
                    "path" => probe.path = fill(template, ids, Some((name, &value))),
                    "query" => probe.query = Some((name.to_owned(), value)),
                    "header" => probe.header = Some((name.to_owned(), value)),
                    _ => continue,
                }
                sweep.send(token, &documented, probe);
            }
        }
        for auth in authorizations(token) {
            let what = format!("{method} {template} with Authorization {:?}", truncate(&auth));
            let probe = Probe {
                method: method.clone(),
                path: base_path.clone(),
                query: None,
                header: None,
                body: base_body.clone(),
                auth: Some(auth),
                what,
            };
            sweep.send(token, &documented, probe);
        }
        let Some(schema) = operation.pointer("/requestBody/content/application~1json/schema") else { continue };
        for body in raw_bodies() {
            let what = format!("{method} {template} with the body {:?}", truncate(&String::from_utf8_lossy(&body)));
            let probe = Probe {
                method: method.clone(),
                path: base_path.clone(),
                query: None,
                header: None,
                body: Some(body),
                auth: None,
                what,
            };
            sweep.send(token, &documented, probe);
        }
        for (fixed, free) in body_shapes(&spec, schema) {
            for field in &free {
                for value in json_values() {
                    let mut body = fixed.clone();
                    body.insert(field.clone(), value.clone());
                    let what = format!(
                        "{method} {template} with the body {}",
                        truncate(&Value::Object(body.clone()).to_string())
                    );
                    let body = Some(serde_json::to_vec(&body).unwrap());
                    let probe = Probe {
                        method: method.clone(),
                        path: base_path.clone(),
                        query: None,
                        header: None,
                        body,
                        auth: None,
                        what,
                    };
                    sweep.send(token, &documented, probe);
                }
            }
        }
    }

    let panics = SERVER_PANICS.load(Ordering::SeqCst) - panics_before;
    let sent = sweep.sent;
    let failures = std::mem::take(&mut sweep.failures);
    assert!(sent > 2000, "the sweep sent only {sent} requests");
    assert!(
        failures.is_empty() && panics == 0,
        "{} of {sent} requests failed, {panics} server panics:\n{}",
        failures.len(),
        failures.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
    // The server still serves the game (the sweep revoked the seat's token on its way).
    assert_eq!(app.get(&format!("/api/v1/games/{game}"), None).status(), 200);
}

fn truncate(text: &str) -> String {
    if text.chars().count() > 60 {
        format!("{}… ({} chars)", text.chars().take(60).collect::<String>(), text.chars().count())
    } else {
        text.to_owned()
    }
}

/// `Authorization` headers that are no valid token (`""`: none sent).
fn authorizations(token: &str) -> Vec<String> {
    let mut tampered = token.to_owned();
    let last = tampered.pop().map_or('A', |c| if c == 'A' { 'B' } else { 'A' });
    tampered.push(last);
    vec![
        String::new(),
        "Bearer".into(),
        "Bearer ".into(),
        "Bearer x".into(),
        format!("Bearer {}", "a".repeat(5000)),
        "Basic dXNlcjpwYXNzd29yZA==".into(),
        // An unsigned token (`alg: none`) claiming a user.
        "Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIwMDAwMDAwMC0wMDAwLTAwMDAtMDAwMC0wMDAwMDAwMDAwMDAiLCJleHAiOjQxMDI0NDQ4MDB9.".into(),
        format!("Bearer {tampered}"),
        format!("bearer {token}"),
        format!("Bearer {token} {token}"),
    ]
}
