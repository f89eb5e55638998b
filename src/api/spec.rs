//! The last touches on the OpenAPI document, for generated clients (issue 16).
//!
//! utoipa writes a serde-tagged enum (`Move`, `Event`, `Phase`, ...) as a `oneOf` of inline,
//! untitled objects. Generators then name the variants `MoveOneOf0..37`, and nothing tells them
//! which property picks the variant. Here every such variant becomes a named component
//! (`MoveBuildSettlement`, `EventDiceRolled`, `PhaseMain`, ...) and the enum gets a
//! `discriminator` with its mapping. A `oneOf` that mixes one-value strings with objects
//! (`BoardSpec`) gets its strings merged into one string `enum`, so that no two of its
//! alternatives are the same type. The work is on the document's JSON, so that new variants
//! are covered without a line here.

use serde_json::{json, Map, Value};
use utoipa::openapi::OpenApi as OpenApiDoc;

/// Applies every touch to the finished document: the request-body timeout's response, then
/// the named variants, the shared answers, the codes, the bounds and the tuples.
pub fn finish(doc: &mut OpenApiDoc) {
    crate::http::body_timeout::document(doc);
    crate::http::inflate::document(doc);
    let Ok(mut json) = serde_json::to_value(&*doc) else { return };
    name_variants(&mut json);
    list_hidden_moves(&mut json);
    document_common_answers(&mut json);
    list_problem_codes(&mut json);
    bound_numbers(&mut json);
    mark_read_only(&mut json);
    tuples_as_arrays(&mut json);
    describe_event_stream(&mut json);
    constrain_headers(&mut json);
    document_response_headers(&mut json);
    name_sandbox_dice(&mut json);
    say_object_defaults_in_words(&mut json);
    match serde_json::from_value(json) {
        Ok(done) => *doc = done,
        // The document is built from our own types: a failure here is a programming error
        // that the openapi tests catch, not something to take the server down for.
        Err(error) => tracing::error!(%error, "the OpenAPI document could not be finished"),
    }
}

/// `roll_dice` may name its dice on a sandbox server (`crate::api::moves::named_dice`): the
/// one field a move body takes that the engine's `Move` does not have.
fn name_sandbox_dice(json: &mut Value) {
    let Some(properties) =
        json.pointer_mut("/components/schemas/MoveRollDice/properties").and_then(Value::as_object_mut)
    else {
        return;
    };
    properties.insert(
        "dice".into(),
        serde_json::json!({
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 6},
            "minItems": 2,
            "maxItems": 2,
            "description": "Only on a sandbox server (`CATAN_SANDBOX=1`), in a move you send: the dice to roll, `[red, white]`, instead of the game's own; elsewhere 422 `dice_not_allowed`. Never in a move the server lists or logs (the roll's `dice_rolled` event shows the dice)."
        }),
    );
}

/// A field whose type is another schema and whose default is an object (a position's hands and
/// decks, all zero when absent) keeps its default in its description instead: to
/// openapi-python-client a `default` beside a model is an error that drops the whole schema,
/// and with it every schema that reaches it (a position's `Setup`, so the `position_set` event,
/// so every log entry: the generated client could not read a move's answer).
fn say_object_defaults_in_words(value: &mut Value) {
    match value {
        Value::Object(object) => {
            let names_a_schema = ["$ref", "oneOf", "allOf", "anyOf"].iter().any(|key| object.contains_key(*key));
            if names_a_schema && object.get("default").is_some_and(Value::is_object) {
                if let Some(default) = object.remove("default") {
                    let sentence = format!("Absent, it is `{default}`.");
                    let one_member = object.get("oneOf").and_then(Value::as_array).is_some_and(|m| m.len() == 1);
                    let described = if one_member { &mut object["oneOf"][0] } else { &mut *value };
                    let text = match described.get("description").and_then(Value::as_str) {
                        Some(text) => format!("{text}\n\n{sentence}"),
                        None => sentence,
                    };
                    described["description"] = Value::String(text);
                }
                return;
            }
            object.values_mut().for_each(say_object_defaults_in_words);
        }
        Value::Array(items) => items.iter_mut().for_each(say_object_defaults_in_words),
        _ => {}
    }
}

/// The JSON Schema of a game record (format version 1, `docs/game-record.schema.json`),
/// derived from the finished OpenAPI document: `GameRecordDocument` and every schema it
/// reaches, as `$defs` of one JSON Schema 2020-12 document, with `format` and `version` fixed.
/// The committed file is kept identical to this by the `openapi` tests.
pub fn record_schema(doc: &OpenApiDoc) -> Value {
    const ROOT: &str = "GameRecordDocument";
    let Ok(json) = serde_json::to_value(doc) else { return Value::Null };
    let schemas = &json["components"]["schemas"];
    let mut defs = Map::new();
    let mut todo = vec![ROOT.to_owned()];
    while let Some(name) = todo.pop() {
        if defs.contains_key(&name) {
            continue;
        }
        let mut schema = schemas[&name].clone();
        rewrite_refs(&mut schema, &mut todo);
        defs.insert(name, schema);
    }
    if let Some(properties) = defs.get_mut(ROOT).and_then(|root| root.get_mut("properties")) {
        properties["format"] = json!({"const": crate::views::records::FORMAT});
        properties["version"] = json!({"const": crate::views::records::VERSION});
    }
    let defs: Map<String, Value> = {
        let mut sorted: Vec<(String, Value)> = defs.into_iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        sorted.into_iter().collect()
    };
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Catan game record, format version 1",
        "description": "A game record of the Catan game server (docs/game-records.md): format `catan-game-record`, version 1. Derived from the server's OpenAPI document (`GameRecordDocument` and the schemas it uses).",
        "$ref": format!("#/$defs/{ROOT}"),
        "$defs": defs,
    })
}

/// Points every `#/components/schemas/X` of `value` at `#/$defs/X`, collecting the names.
fn rewrite_refs(value: &mut Value, found: &mut Vec<String>) {
    match value {
        Value::String(text) => {
            if let Some(name) = text.strip_prefix("#/components/schemas/") {
                found.push(name.to_owned());
                *text = format!("#/$defs/{name}");
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| rewrite_refs(item, found)),
        Value::Object(map) => map.values_mut().for_each(|item| rewrite_refs(item, found)),
        _ => {}
    }
}

/// The schemas whose bodies the server refuses with unknown fields (`deny_unknown_fields`):
/// their variants say so with `additionalProperties: false`.
const CLOSED: &[&str] = &["Move", "ProgressPlay"];

fn name_variants(doc: &mut Value) {
    let Some(schemas) = doc.pointer_mut("/components/schemas").and_then(Value::as_object_mut) else { return };
    let mut added = Map::new();
    for (name, schema) in schemas.iter_mut() {
        let Some(variants) = schema.get_mut("oneOf").and_then(Value::as_array_mut) else { continue };
        merge_string_variants(variants);
        let Some(tag) = tag_property(variants) else { continue };
        let mut mapping = Map::new();
        for variant in variants.iter_mut() {
            let value = variant["properties"][&tag]["enum"][0].as_str().unwrap_or_default().to_owned();
            let component = format!("{name}{}", pascal(&value));
            let mut body = std::mem::replace(variant, json!({ "$ref": format!("#/components/schemas/{component}") }));
            if let Some(object) = body.as_object_mut() {
                object.insert("title".into(), Value::String(component.clone()));
                if CLOSED.contains(&name.as_str()) {
                    object.insert("additionalProperties".into(), Value::Bool(false));
                }
            }
            mapping.insert(value, Value::String(format!("#/components/schemas/{component}")));
            added.insert(component, body);
        }
        schema["discriminator"] = json!({ "propertyName": tag, "mapping": mapping });
    }
    schemas.extend(added);
}

/// Answers that come from the server's frame rather than from one handler, on every operation
/// they can reach: 405 (another method on a served path), 406 (no acceptable encoding), 503 (no database connection in
/// time, or the connection lost), 400 for a malformed `Idempotency-Key`, 413 for a body over
/// the limit.
fn document_common_answers(doc: &mut Value) {
    let problem = |description: &str| {
        json!({
            "description": description,
            "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
        })
    };
    if let Some(responses) = doc.pointer_mut("/components/responses").and_then(Value::as_object_mut) {
        let mut not_allowed =
            problem("This path does not serve the method (`method_not_allowed`); `Allow` lists the methods it serves");
        not_allowed["headers"] = json!({"Allow": {"description": "The methods this path serves, e.g. `GET, POST`", "schema": {"type": "string"}}});
        responses.insert("MethodNotAllowed".into(), not_allowed);
        let mut unavailable = problem(
            "The database is unavailable (`database_unavailable`: no connection within the pool's timeout, the connection was lost, or a failover is under way); retry after `Retry-After` seconds. A move answered so may have been played: retry it with the same `Idempotency-Key`",
        );
        unavailable["headers"] =
            json!({"Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}});
        responses.insert("ServiceUnavailable".into(), unavailable);
    }
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for (path, item) in paths.iter_mut() {
        let Some(operations) = item.as_object_mut() else { continue };
        for operation in operations.values_mut() {
            let takes_key = takes_idempotency_key(operation);
            let takes_body = operation.get("requestBody").is_some();
            let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) else { continue };
            responses.entry("405").or_insert_with(|| json!({"$ref": "#/components/responses/MethodNotAllowed"}));
            responses.entry("406").or_insert_with(|| {
                problem("`Accept-Encoding` refuses every encoding the server has (`not_acceptable`), e.g. `identity;q=0` with no `gzip`")
            });
            // The positions' analyses never touch the database.
            let without_database = path == "/api/v1/scenarios" || path.starts_with("/api/v1/positions/");
            if path.starts_with("/api/v1/") && !without_database {
                responses.entry("503").or_insert_with(|| json!({"$ref": "#/components/responses/ServiceUnavailable"}));
            }
            if takes_key {
                responses.entry("400").or_insert_with(|| {
                    problem(
                        "A malformed `Idempotency-Key` (`invalid_idempotency_key`: 1 to 255 visible ASCII characters)",
                    )
                });
            }
            if takes_body {
                responses
                    .entry("413")
                    .or_insert_with(|| problem("The body is over the size limit (`payload_too_large`)"));
            }
        }
    }
}

/// `Problem.code` is one of a known set: the server's own codes and the engine's rule and
/// setup codes, so that a client can switch over them exhaustively.
fn list_problem_codes(doc: &mut Value) {
    if let Some(code) = doc.pointer_mut("/components/schemas/Problem/properties/code") {
        code["enum"] = json!(crate::error::problem_codes());
    }
    if let Some(problem) = doc.pointer_mut("/components/schemas/Problem") {
        problem["examples"] = problem_examples();
    }
}

/// utoipa writes a Rust tuple (a position's `(Seat, VertexId)` pairs, its dice `(red, white)`)
/// as JSON Schema 2020-12's `prefixItems` with `items: false`, which openapi-python-client
/// cannot read and openapi-generator reads poorly. Each becomes a plain array of its length:
/// `items` is the members' schema when they all have one (the dice), else a `oneOf` of their
/// schemas (the field's description says what each place holds).
fn tuples_as_arrays(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if let Some(Value::Array(members)) = object.remove("prefixItems") {
                let bare = |member: &Value| {
                    let mut member = member.clone();
                    if let Some(fields) = member.as_object_mut() {
                        fields.remove("description");
                        fields.remove("examples");
                    }
                    member
                };
                let mut kinds: Vec<Value> = Vec::new();
                for member in members.iter().map(bare) {
                    if !kinds.contains(&member) {
                        kinds.push(member);
                    }
                }
                let items = match kinds.len() {
                    1 => kinds.remove(0),
                    _ => json!({"oneOf": kinds}),
                };
                object.insert("items".into(), items);
                object.insert("minItems".into(), json!(members.len()));
                object.insert("maxItems".into(), json!(members.len()));
            }
            object.values_mut().for_each(tuples_as_arrays);
        }
        Value::Array(items) => items.iter_mut().for_each(tuples_as_arrays),
        _ => {}
    }
}

/// The bounds the server checks on numbers and arrays of a body, in the schemas: a new game's
/// options ([`crate::api::games::CREATE_GAME_RANGES`]: `CreateGameRequest` for its own
/// fields, `GameConfig` for `options`), and the Inventor's two hexes.
fn bound_numbers(doc: &mut Value) {
    let Some(schemas) = doc.pointer_mut("/components/schemas").and_then(Value::as_object_mut) else { return };
    for (pointer, min, max, _) in crate::api::games::CREATE_GAME_RANGES {
        let (schema, field) = match pointer.strip_prefix("/options/") {
            Some(field) => ("GameConfig", field),
            None => ("CreateGameRequest", pointer.trim_start_matches('/')),
        };
        if let Some(property) = schemas.get_mut(schema).and_then(|s| s.pointer_mut(&format!("/properties/{field}"))) {
            property["minimum"] = json!(min);
            property["maximum"] = json!(max);
        }
    }
    if let Some(hexes) = schemas.get_mut("ProgressPlayInventor").and_then(|s| s.pointer_mut("/properties/hexes")) {
        hexes["minItems"] = json!(2);
        hexes["maxItems"] = json!(2);
    }
    // Numbers read into a byte that no rule bounds more tightly: above 255 the server answers
    // 400 `malformed_body` (`must be an integer from 0 to 255`), so the spec says 255.
    if let Some(seat) = schemas.get_mut("Seat") {
        seat["maximum"] = json!(u8::MAX);
    }
    for (schema, field) in BYTE_FIELDS {
        if let Some(property) = schemas.get_mut(*schema).and_then(|s| s.pointer_mut(&format!("/properties/{field}"))) {
            property["maximum"] = json!(u8::MAX);
        }
    }
    // A land area is a byte too (SCN-4); one the map lacks is `invalid_config`.
    let areas =
        schemas.get_mut("GameConfig").and_then(|s| s.pointer_mut("/properties/robber_excluded_land_areas/items"));
    if let Some(area) = areas {
        area["maximum"] = json!(u8::MAX);
    }
}

/// Fields of a request schema that only the server writes: a client leaving them out is the
/// contract, and the server refuses them (a custom board's `generator`, NEW-8). utoipa puts
/// can carry `readOnly` on an object only, so the field is inlined (`#[schema(inline)]`) and its
/// one-member `oneOf` unwrapped here.
fn mark_read_only(doc: &mut Value) {
    for (schema, field) in [("BoardLayout", "generator")] {
        let Some(property) = doc.pointer_mut(&format!("/components/schemas/{schema}/properties/{field}")) else {
            continue;
        };
        if let Some([only]) = property.get("oneOf").and_then(Value::as_array).map(Vec::as_slice) {
            let mut object = only.clone();
            object["description"] = property["description"].clone();
            *property = object;
        }
        property["readOnly"] = json!(true);
    }
}

/// The request fields of type `u8` besides seats and [`crate::api::games::CREATE_GAME_RANGES`].
const BYTE_FIELDS: &[(&str, &str)] = &[("GameConfig", "river_gold_bonus_vp"), ("GameConfig", "island_bonus_vp")];

/// The stream's events, as OpenAPI before 3.2 reads the `schema` of `text/event-stream`: one
/// event (its `event`, `data`, `id` and `retry` fields), not the whole stream as a string.
fn describe_event_stream(doc: &mut Value) {
    let Some(content) =
        doc.pointer_mut("/paths/~1api~1v1~1games~1{game_id}~1stream/get/responses/200/content/text~1event-stream")
    else {
        return;
    };
    content["schema"] = json!({
        "type": "object",
        "description": "One event of the stream. Comment lines (`: keep-alive`) and the opening `retry: 2000` carry no event.",
        "required": ["event", "data"],
        "properties": {
            "event": {
                "type": "string",
                "enum": ["snapshot", "entry", "end"],
                "description": "`snapshot` first (the caller's view, as `GET /api/v1/games/{game_id}`), then one `entry` per log entry, `end` once the game is over",
            },
            "data": {
                "type": "string",
                "contentMediaType": "application/json",
                "description": "JSON: a `GameResponse` for `snapshot`, a `MoveLogEntry` for `entry`, `{\"status\": \"finished\", \"version\": <seq>}` for `end`",
            },
            "id": {
                "type": "string",
                "description": "For `entry`: the entry's `seq`, which `Last-Event-ID` resumes after",
            },
            "retry": {"type": "integer", "minimum": 0},
        },
    });
}

/// One problem of each class a client meets, as the server writes them.
fn problem_examples() -> Value {
    let example = |status: u16, title: &str, code: &str, detail: &str| json!({"type": format!("urn:catan:problem:{code}"), "title": title, "status": status, "detail": detail, "code": code});
    let mut conflict = example(
        412,
        "Precondition Failed",
        "version_conflict",
        "the game is at version 42, not 41 (If-Match); read it again",
    );
    conflict["version"] = json!(42);
    let mut malformed = example(
        400,
        "Bad Request",
        "malformed_body",
        "the body does not fit this request at #/options/barbarian_steps: must be an integer from 0 to 255 (got string \"four\")",
    );
    malformed["errors"] = json!([{"pointer": "#/options/barbarian_steps", "detail": "must be an integer from 0 to 255 (got string \"four\")"}]);
    let mut out_of_range =
        example(422, "Unprocessable Entity", "invalid_config", "vp_target must be an integer from 3 to 30 (got 300)");
    out_of_range["errors"] =
        json!([{"pointer": "#/options/vp_target", "detail": "must be an integer from 3 to 30 (got 300)"}]);
    let mut invalid_position = example(
        422,
        "Unprocessable Entity",
        "invalid_position",
        "the position is invalid: the buildings on 0,0,N and 1,-1,S are one edge apart (B-BLD-4, B-GEO-9)",
    );
    invalid_position["check"] = json!("buildings_too_close");
    invalid_position["rule"] = json!("B-BLD-4");
    invalid_position["rules"] = json!(["B-BLD-4", "B-GEO-9"]);
    invalid_position["errors"] = json!([{"pointer": "#/position", "detail": "the position is invalid: the buildings on 0,0,N and 1,-1,S are one edge apart (B-BLD-4, B-GEO-9)"}]);
    json!([
        malformed,
        example(401, "Unauthorized", "unauthorized", "the token is not valid: it is not a token this server issued"),
        example(401, "Unauthorized", "token_expired", "the token has expired: log in again (POST /api/v1/tokens)"),
        example(
            401,
            "Unauthorized",
            "token_revoked",
            "this token has been revoked (logged out): log in again (POST /api/v1/tokens)"
        ),
        example(403, "Forbidden", "forbidden", "only the game's creator can start it"),
        example(404, "Not Found", "not_found", "there is no game 5f0c6a8e-7b2d-4c1e-9a3f-2d6e8b1c4a7f"),
        example(405, "Method Not Allowed", "method_not_allowed", "this path does not serve DELETE"),
        example(409, "Conflict", "game_full", "all 4 seats of this game are taken"),
        conflict,
        example(413, "Payload Too Large", "payload_too_large", "the body is larger than 65536 bytes"),
        example(415, "Unsupported Media Type", "unsupported_media_type", "send the body as application/json"),
        example(
            422,
            "Unprocessable Entity",
            "settlement_too_close",
            "a settlement at 0,-1,N would be next to another building"
        ),
        out_of_range,
        invalid_position,
        example(429, "Too Many Requests", "rate_limited", "too many moves: retry after 1 s"),
        example(503, "Service Unavailable", "database_unavailable", "no database connection in time; retry"),
    ])
}

/// The headers' rules, which the server checks (400 `invalid_idempotency_key`,
/// `invalid_if_match`), as schemas: a generated client can check them before it sends.
fn constrain_headers(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for operation in paths.values_mut().filter_map(Value::as_object_mut).flat_map(|ops| ops.values_mut()) {
        let Some(parameters) = operation.get_mut("parameters").and_then(Value::as_array_mut) else { continue };
        for parameter in parameters {
            let schema = match parameter["name"].as_str() {
                Some("Idempotency-Key") => {
                    json!({"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"})
                }
                // `"v<N>"`, also weak, unquoted or bare, an open game's `"v0.<seats>"`, or `*`.
                Some("If-Match") => {
                    json!({"type": "string", "pattern": "^\\s*(\\*|(W/)?\"?v?[0-9]+(\\.[0-9]+)?\"?)\\s*$"})
                }
                _ => continue,
            };
            parameter["schema"] = schema;
        }
    }
}

/// Response headers the handlers set besides the ones their annotations name: `Location` of a
/// created game or offer, the game's `ETag` after a move or a trade action, and
/// `Idempotent-Replayed` on a replayed answer wherever an `Idempotency-Key` is taken.
fn document_response_headers(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for (path, item) in paths.iter_mut() {
        let Some(operations) = item.as_object_mut() else { continue };
        for (method, operation) in operations.iter_mut() {
            let takes_key = takes_idempotency_key(operation);
            let plays = path.ends_with("/moves") && method == "post" || path.contains("/trades") && method != "get";
            let creates = method == "post" && (path == "/api/v1/games" || path == "/api/v1/games/{game_id}/trades");
            let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) else { continue };
            for (status, response) in responses.iter_mut().filter(|(status, _)| status.starts_with('2')) {
                let Some(response) = response.as_object_mut().filter(|r| !r.contains_key("$ref")) else { continue };
                let headers = response.entry("headers").or_insert_with(|| json!({}));
                let Some(headers) = headers.as_object_mut() else { continue };
                if takes_key {
                    headers.entry("Idempotent-Replayed").or_insert_with(|| {
                        json!({"description": "`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`", "schema": {"type": "string", "enum": ["true"]}})
                    });
                }
                if plays || creates {
                    headers.entry("ETag").or_insert_with(|| {
                        json!({"description": "The game's version after the request, `\"v<version>\"` (`\"v0.<seats taken>\"` for a game still open)", "schema": {"type": "string"}})
                    });
                }
                if creates && status == "201" {
                    headers.entry("Location").or_insert_with(
                        || json!({"description": "The path of the created resource", "schema": {"type": "string"}}),
                    );
                }
            }
        }
    }
}

fn takes_idempotency_key(operation: &Value) -> bool {
    operation["parameters"].as_array().is_some_and(|params| params.iter().any(|p| p["name"] == "Idempotency-Key"))
}

/// A hidden log entry's `hidden` is always `true`, and a full move never has the field: with
/// the moves' `additionalProperties: false`, exactly one of `LoggedMove`'s alternatives
/// matches any entry. The field is a plain boolean, not `enum: [true]`: openapi-generator's
/// `python` client compares a boolean enum with the string `'true'` and so rejected every
/// hidden entry (issue 30); no schema of the document is a one-value enum of a non-string.
///
/// `LoggedMove` is an `anyOf`, `HiddenMove` first: the alternatives exclude each other all
/// the same, but openapi-generator's python client ignores `additionalProperties: false`, so
/// to it `{"type": "roll_dice", "hidden": true}` is a `MoveRollDice` too, and a `oneOf`'s
/// "multiple matches" refused it; of an `anyOf` it takes the first that fits.
///
/// `LoggedMove` lists the move variants themselves beside `HiddenMove`, not the `Move` union:
/// a union inside a union is what openapi-generator's typescript-fetch cannot compile (it
/// asks `Move` for an `instanceOfMove` that a union never has).
fn list_hidden_moves(doc: &mut Value) {
    let moves = doc.pointer("/components/schemas/Move/oneOf").cloned();
    if let (Some(Value::Array(moves)), Some(logged)) = (moves, doc.pointer_mut("/components/schemas/LoggedMove")) {
        let mut alternatives = vec![json!({"$ref": "#/components/schemas/HiddenMove"})];
        alternatives.extend(moves);
        if let Some(logged) = logged.as_object_mut() {
            logged.remove("oneOf");
        }
        logged["anyOf"] = Value::Array(alternatives);
    }
}

/// The property every variant has as a one-value string `enum` (serde's tag), if all the
/// `oneOf`'s alternatives are such objects.
fn tag_property(variants: &[Value]) -> Option<String> {
    let first = variants.first()?.get("properties")?.as_object()?;
    first
        .iter()
        .filter(|(_, p)| is_one_value_string(p))
        .map(|(name, _)| name)
        .find(|name| {
            variants.iter().all(|v| v["type"] == "object" && is_one_value_string(&v["properties"][name.as_str()]))
        })
        .cloned()
}

fn is_one_value_string(schema: &Value) -> bool {
    schema["type"] == "string" && schema["enum"].as_array().is_some_and(|values| values.len() == 1)
}

/// `oneOf: [{enum: [a]}, {enum: [b]}, {object}]` becomes `oneOf: [{enum: [a, b]}, {object}]`:
/// two string alternatives would both be string types to a generator.
fn merge_string_variants(variants: &mut Vec<Value>) {
    let strings: Vec<usize> = (0..variants.len()).filter(|i| is_one_value_string(&variants[*i])).collect();
    if strings.len() < 2 {
        return;
    }
    let values: Vec<Value> = strings.iter().map(|i| variants[*i]["enum"][0].clone()).collect();
    let descriptions: Vec<String> = strings
        .iter()
        .filter_map(|i| {
            let value = variants[*i]["enum"][0].as_str()?;
            let description = variants[*i]["description"].as_str()?;
            Some(format!("`{value}`: {description}"))
        })
        .collect();
    let mut merged = json!({ "type": "string", "enum": values });
    if !descriptions.is_empty() {
        merged["description"] = Value::String(descriptions.join("\n"));
    }
    let first = strings[0];
    for index in strings.iter().rev() {
        variants.remove(*index);
    }
    variants.insert(first, merged);
}

/// `build_settlement` → `BuildSettlement`.
fn pascal(snake: &str) -> String {
    snake
        .split(['_', '-', ' '])
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tagged_variants_become_named_components_with_a_discriminator() {
        let mut doc = json!({"components": {"schemas": {"Move": {"oneOf": [
            {"type": "object", "required": ["type"], "properties": {"type": {"type": "string", "enum": ["roll_dice"]}}},
            {"type": "object", "required": ["type", "edge"], "properties": {
                "type": {"type": "string", "enum": ["build_road"]}, "edge": {"type": "string"}}},
        ]}}}});
        name_variants(&mut doc);
        let schemas = &doc["components"]["schemas"];
        assert_eq!(schemas["Move"]["oneOf"][1], json!({"$ref": "#/components/schemas/MoveBuildRoad"}));
        assert_eq!(schemas["Move"]["discriminator"]["propertyName"], "type");
        assert_eq!(schemas["Move"]["discriminator"]["mapping"]["roll_dice"], "#/components/schemas/MoveRollDice");
        assert_eq!(schemas["MoveBuildRoad"]["title"], "MoveBuildRoad");
        assert_eq!(schemas["MoveBuildRoad"]["additionalProperties"], false);
        assert_eq!(schemas["MoveBuildRoad"]["required"], json!(["type", "edge"]));
    }

    #[test]
    fn an_object_default_beside_a_schema_moves_into_the_description() {
        let mut doc = json!({"components": {"schemas": {"SeatSetup": {"type": "object", "properties": {
            "resources": {"oneOf": [{"$ref": "#/components/schemas/Resources", "description": "The hand."}],
                          "default": {"brick": 0}},
            "walls": {"type": "array", "items": {"type": "integer"}, "default": []},
            "plain": {"$ref": "#/components/schemas/CardTurn", "default": {}},
        }}}}});
        say_object_defaults_in_words(&mut doc);
        let properties = &doc["components"]["schemas"]["SeatSetup"]["properties"];
        assert!(properties["resources"].get("default").is_none());
        assert_eq!(properties["resources"]["oneOf"][0]["description"], "The hand.\n\nAbsent, it is `{\"brick\":0}`.");
        assert_eq!(properties["walls"]["default"], json!([]));
        assert!(properties["plain"].get("default").is_none());
        assert_eq!(properties["plain"]["description"], "Absent, it is `{}`.");
    }

    #[test]
    fn one_value_strings_are_merged_and_mixed_unions_get_no_discriminator() {
        let mut doc = json!({"components": {"schemas": {"BoardSpec": {"oneOf": [
            {"type": "string", "enum": ["beginner"], "description": "Fixed."},
            {"type": "string", "enum": ["random"], "description": "Shuffled."},
            {"type": "object", "properties": {"custom": {"type": "object"}}},
        ]}}}});
        name_variants(&mut doc);
        let spec = &doc["components"]["schemas"]["BoardSpec"];
        assert_eq!(spec["oneOf"].as_array().unwrap().len(), 2);
        assert_eq!(spec["oneOf"][0]["enum"], json!(["beginner", "random"]));
        assert!(spec.get("discriminator").is_none());
    }
}
