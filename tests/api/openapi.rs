//! The committed OpenAPI document matches the one the code produces.

const COMMITTED: &str = "openapi/openapi.json";

#[test]
fn committed_openapi_matches_the_code() {
    let generated = catan_server::api::openapi_json();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(COMMITTED);
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, &generated).expect("write openapi.json");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{COMMITTED} differs from the API the code serves. Regenerate it with\n\n    \
         cargo run -q -- openapi > {COMMITTED}\n\nor UPDATE_OPENAPI=1 cargo test --test api openapi, \
         then review and commit the diff."
    );
}

/// The committed JSON Schema of game records (docs/game-records.md) is the one derived from
/// the code's OpenAPI document.
#[test]
fn committed_record_schema_matches_the_code() {
    const SCHEMA: &str = "docs/game-record.schema.json";
    let schema = catan_server::api::spec::record_schema(&catan_server::api::openapi());
    let mut generated = serde_json::to_string_pretty(&schema).unwrap();
    generated.push('\n');
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SCHEMA);
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, &generated).expect("write the record schema");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{SCHEMA} differs from the record the code serves. Regenerate it with\n\n    \
         UPDATE_OPENAPI=1 cargo test --test api openapi\n\nthen review and commit the diff."
    );
}

#[test]
fn spec_declares_bearer_auth_and_every_path() {
    let spec: serde_json::Value = serde_json::from_str(&catan_server::api::openapi_json()).unwrap();
    assert!(spec["openapi"].as_str().unwrap().starts_with("3.1"));
    assert_eq!(spec["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
    for path in [
        "/api/v1/users",
        "/api/v1/tokens",
        "/api/v1/games",
        "/api/v1/games/{game_id}",
        "/api/v1/games/{game_id}/players",
        "/api/v1/games/{game_id}/start",
        "/api/v1/games/{game_id}/legal-moves",
        "/api/v1/games/{game_id}/moves",
        "/api/v1/games/{game_id}/board.svg",
        "/api/v1/games/{game_id}/record",
        "/api/v1/games/export",
        "/healthz",
    ] {
        assert!(spec["paths"][path].is_object(), "{path} is documented");
    }
    let picture = &spec["paths"]["/api/v1/games/{game_id}/board.svg"]["get"];
    assert!(picture["responses"]["200"]["content"]["image/svg+xml"].is_object(), "the board is SVG");
    let params = |operation: &serde_json::Value| -> Vec<String> {
        operation["parameters"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(params(picture), ["game_id", "at", "labels"]);
    assert_eq!(params(&spec["paths"]["/api/v1/games/{game_id}"]["get"]), ["game_id", "at"]);
    for schema in ["Move", "Event", "Problem", "GameResponse"] {
        assert!(spec["components"]["schemas"][schema].is_object(), "{schema} schema");
    }
}

/// Wonders of Catan: its moves, events and view parts are in the document.
#[test]
fn spec_declares_the_wonders_of_catan() {
    let spec: serde_json::Value = serde_json::from_str(&catan_server::api::openapi_json()).unwrap();
    let schemas = &spec["components"]["schemas"];
    for schema in ["WonderId", "Requirement", "MarkedSet", "WonderView", "MarkedVerticesView", "VictoryCondition"] {
        assert!(schemas[schema].is_object(), "{schema} schema");
    }
    // Each variant is a named component, found through the discriminator's mapping.
    let tags = |schema: &str| -> Vec<String> {
        schemas[schema]["discriminator"]["mapping"]
            .as_object()
            .unwrap()
            .values()
            .map(|target| {
                let name = target.as_str().unwrap().trim_start_matches("#/components/schemas/");
                schemas[name]["properties"]["type"]["enum"][0].to_string()
            })
            .collect()
    };
    for (schema, tag) in [
        ("Move", "claim_wonder"),
        ("Move", "build_wonder_stage"),
        ("Event", "wonder_claimed"),
        ("Event", "wonder_stage_built"),
    ] {
        assert!(tags(schema).contains(&format!("\"{tag}\"")), "{schema} has {tag}");
    }
    assert!(schemas["GameResponse"]["properties"]["wonders"]["items"]["$ref"]
        .as_str()
        .unwrap()
        .ends_with("/WonderView"));
    assert!(schemas["BoardView"]["properties"]["marked_vertices"].is_object());
}

/// The response checker of `conformance` rejects what the spec does not allow: a log entry
/// whose move is neither a full move nor a hidden one, and a status the operation does not
/// document.
#[test]
fn the_spec_check_refuses_bodies_the_spec_does_not_allow() {
    let entry = |mv: serde_json::Value| {
        serde_json::json!({"version": 2, "status": "playing", "entries": [{
            "seq": 2, "seat": 1, "kind": "roll_dice", "move": mv, "events": [],
            "created_at": "2026-12-01T00:00:00Z", "phase": "main", "waiting_for": [1]}]})
    };
    let path = "/api/v1/games/6f0e0bde-94d1-4a8e-9c3c-1f6d7d1d1a11/moves";
    let check = |body: serde_json::Value, status: u16| {
        std::panic::catch_unwind(|| crate::conformance::check("GET", path, status, "application/json", &body)).is_ok()
    };
    assert!(check(entry(serde_json::json!({"type": "roll_dice"})), 200), "a full move");
    assert!(check(entry(serde_json::json!({"type": "roll_dice", "hidden": true})), 200), "a hidden move");
    // Before issue 16 a hidden move had only its type, and matched both alternatives.
    assert!(!check(entry(serde_json::json!({"type": "build_road"})), 200), "a move without its edge");
    assert!(!check(entry(serde_json::json!({"type": "roll_dice", "hidden": "true"})), 200), "a string flag");
    assert!(!check(entry(serde_json::json!({"type": "roll_dice", "extra": 1})), 200));
    assert!(!check(entry(serde_json::json!({"type": "roll_dice"})), 418), "an undocumented status");
}

/// Issue 30: openapi-generator's `python` client compares the values of a boolean or numeric
/// `enum` with strings (`'true'`), so a one-value enum of anything but a string rejects every
/// body that holds it (`HiddenMove.hidden` once was `enum: [true]`, and no page of another
/// seat's moves could be read). Every enum and `const` of the document holds strings only.
#[test]
fn no_enum_of_the_spec_holds_anything_but_strings() {
    fn walk(value: &serde_json::Value, path: &str, found: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(object) => {
                if let Some(values) = object.get("enum").and_then(|e| e.as_array()) {
                    if values.iter().any(|v| !v.is_string()) {
                        found.push(format!("{path}: {values:?}"));
                    }
                }
                if object.get("const").is_some_and(|c| !c.is_string()) {
                    found.push(format!("{path}: const {}", object["const"]));
                }
                for (key, child) in object {
                    walk(child, &format!("{path}/{key}"), found);
                }
            }
            serde_json::Value::Array(items) => {
                for (index, child) in items.iter().enumerate() {
                    walk(child, &format!("{path}/{index}"), found);
                }
            }
            _ => {}
        }
    }
    let spec: serde_json::Value = serde_json::from_str(&catan_server::api::openapi_json()).unwrap();
    let mut found = Vec::new();
    walk(&spec, "", &mut found);
    assert!(found.is_empty(), "enums of non-strings, which generated clients misread: {found:#?}");
    let hidden = &spec["components"]["schemas"]["HiddenMove"]["properties"]["hidden"];
    assert_eq!(hidden["type"], "boolean", "{hidden}");
    // And a hidden move is read as one: openapi-generator's python client ignores
    // `additionalProperties: false`, so `{"type": "roll_dice", "hidden": true}` fits
    // `MoveRollDice` too; of an `anyOf` it takes the first alternative that fits.
    let logged = &spec["components"]["schemas"]["LoggedMove"];
    assert!(logged.get("oneOf").is_none(), "{logged}");
    assert_eq!(logged["anyOf"][0]["$ref"], "#/components/schemas/HiddenMove", "{logged}");
}
