//! Every JSON body the tests read through the helpers is checked against the committed
//! `openapi/openapi.json` (issue 16): the operation must document the status and the content
//! type, and the body must validate against its schema under JSON Schema 2020-12 (the dialect
//! of OpenAPI 3.1). A server that drifts from its spec fails the build, not a client.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, OnceLock},
};

use jsonschema::{Draft, Validator};
use reqwest::blocking::Response;
use serde_json::{json, Value};

struct Spec {
    doc: Value,
    validators: Mutex<HashMap<String, Arc<Validator>>>,
}

fn spec() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    SPEC.get_or_init(|| {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json"))
            .expect("the committed spec");
        Spec { doc: serde_json::from_str(&text).expect("the spec is JSON"), validators: Mutex::default() }
    })
}

/// The spec's path template for a request path (`/api/v1/games/{game_id}` for
/// `/api/v1/games/6f…`), if it documents one.
fn template(path: &str) -> Option<String> {
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let paths = spec().doc["paths"].as_object()?;
    paths
        .keys()
        .find(|candidate| {
            let parts: Vec<&str> = candidate.split('/').collect();
            parts.len() == segments.len()
                && parts.iter().zip(&segments).all(|(t, s)| (t.starts_with('{') && t.ends_with('}')) || t == s)
        })
        .cloned()
}

fn validator(key: &str, schema: &Value) -> Arc<Validator> {
    let spec = spec();
    let mut validators = spec.validators.lock().unwrap();
    validators
        .entry(key.to_owned())
        .or_insert_with(|| {
            // The schema's `$ref`s point into the document's components: give the schema
            // the components as a sibling, so that they resolve against its own root.
            let mut root = schema.clone();
            if let Some(object) = root.as_object_mut() {
                object.insert("components".into(), spec.doc["components"].clone());
            } else {
                root = json!({"allOf": [schema], "components": spec.doc["components"]});
            }
            Arc::new(
                jsonschema::options()
                    .with_draft(Draft::Draft202012)
                    .build(&root)
                    .unwrap_or_else(|e| panic!("the spec's schema for {key} does not compile: {e}")),
            )
        })
        .clone()
}

/// Asserts that `body`, answered to `method` on `path` with `status` and `content_type`, is
/// documented and valid.
pub fn check(method: &str, path: &str, status: u16, content_type: &str, body: &Value) {
    let path = path.split('?').next().unwrap_or(path);
    let Some(template) = template(path) else { panic!("{path} is not in the spec") };
    let operation = &spec().doc["paths"][&template][method.to_ascii_lowercase()];
    assert!(operation.is_object(), "{method} {template} is not in the spec");
    let responses = &operation["responses"];
    let response = match responses.get(status.to_string()) {
        Some(response) => response,
        None => panic!("{method} {template} does not document {status}; the server answered {body}"),
    };
    let response = resolve(response);
    let media = content_type.split(';').next().unwrap_or_default().trim();
    let Some(schema) = response["content"][media].get("schema") else {
        panic!("{method} {template} {status} does not document {media}; the server answered {body}")
    };
    let key = format!("{method} {template} {status} {media}");
    let validator = validator(&key, schema);
    let errors: Vec<String> =
        validator.iter_errors(body).take(5).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    if !errors.is_empty() {
        let mut shown = body.to_string();
        shown.truncate(2000);
        panic!("{key}: the body does not match the spec:\n{}\nbody: {shown}", errors.join("\n"));
    }
}

/// A response component (`$ref: #/components/responses/...`) or the response itself.
fn resolve(response: &Value) -> &Value {
    match response["$ref"].as_str().and_then(|r| r.strip_prefix("#/components/responses/")) {
        Some(name) => &spec().doc["components"]["responses"][name],
        None => response,
    }
}

/// Checks a problem body: its shape, and that some operation on the path documents the
/// status (the helpers that read problems do not know the method).
pub fn problem(path: &str, status: u16, body: &Value) {
    let path = path.split('?').next().unwrap_or(path);
    let problem = json!({"$ref": "#/components/schemas/Problem"});
    let validator = validator("Problem", &problem);
    let errors: Vec<String> = validator.iter_errors(body).take(5).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "a problem body that does not match the spec: {errors:?}: {body}");
    let Some(template) = template(path) else { return };
    let documented = spec().doc["paths"][&template]
        .as_object()
        .is_some_and(|ops| ops.values().any(|op| op["responses"].get(status.to_string()).is_some()));
    assert!(documented, "no operation on {template} documents {status}: {body}");
}

/// Checks any response against the spec and hands it back unread: JSON bodies of documented
/// paths against their operation, problem bodies against `Problem` (whatever the path). Other
/// bodies (the event stream, Swagger UI, the spec itself) pass through unchecked.
pub fn checked(method: &str, response: Response) -> Response {
    let path = response.url().path().to_owned();
    let status = response.status();
    let content_type =
        response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let media = content_type.split(';').next().unwrap_or_default().trim().to_owned();
    let documented = path.starts_with("/api/v1/") || path == "/healthz";
    if !documented || !(media == "application/json" || media == "application/problem+json") {
        return response;
    }
    let url = response.url().clone();
    let headers = response.headers().clone();
    let version = response.version();
    let bytes = response.bytes().expect("the body");
    if let Ok(body) = serde_json::from_slice::<Value>(&bytes) {
        if media == "application/problem+json" {
            problem(&path, status.as_u16(), &body);
        } else {
            check(method, &path, status.as_u16(), &media, &body);
        }
    }
    let mut rebuilt = reqwest::ResponseBuilderExt::url(http::Response::builder().status(status).version(version), url)
        .body(bytes)
        .expect("a response");
    *rebuilt.headers_mut() = headers;
    Response::from(rebuilt)
}
