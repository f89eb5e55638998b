//! What a request must be, and how a refusal says what is wrong (issue 30): every body is a
//! JSON object, a wrong field is named by a JSON pointer with its rule in plain words, what
//! the spec bounds is refused outside its bounds with the status the spec documents, and a
//! `+` of a variant filter may arrive as a space.

use reqwest::{blocking::Response, StatusCode};
use serde_json::{json, Value};

use crate::{
    both_backends,
    games::active_seat,
    helpers::{assert_problem, spawn_app, Backend, TestApp},
};

both_backends!(
    every_body_must_be_an_object,
    a_wrong_field_is_named_by_its_pointer,
    numbers_and_names_outside_the_spec_are_refused_as_documented,
    a_variant_filter_takes_a_plus_decoded_as_a_space,
    the_query_bounds_of_streams_and_pictures_are_the_specs,
    a_seed_fits_in_an_int64,
    the_pointers_the_spec_shows_are_ones_the_server_writes,
    whole_numbers_written_with_a_fraction_are_integers,
    byte_fields_say_their_bound_in_the_spec,
    the_stream_schema_describes_its_events,
);

/// Posts `body` as it is, as JSON.
fn post_raw(app: &TestApp, path: &str, token: Option<&str>, body: &str) -> Response {
    let mut request = app.client.post(app.url(path)).header("content-type", "application/json").body(body.to_owned());
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    app.send(request)
}

/// Asserts a problem naming the fields at `pointers`, and returns it.
fn assert_fields(response: Response, status: u16, code: &str, pointers: &[&str]) -> Value {
    let body = assert_problem(response, status, code);
    let errors = body["errors"].as_array().unwrap_or_else(|| panic!("errors in {body}"));
    let named: Vec<&str> = errors.iter().map(|e| e["pointer"].as_str().unwrap()).collect();
    assert_eq!(named, pointers, "{body}");
    for error in errors {
        let detail = error["detail"].as_str().unwrap();
        for internal in ["u8", "u32", "u64", "line 1", "internally tagged", "struct "] {
            assert!(!detail.contains(internal), "Rust's words in {body}");
        }
    }
    body
}

/// Serde reads a derived struct from an array too (its fields in order): no body of any
/// endpoint is taken in that form, nor as a string, number or boolean.
fn every_body_must_be_an_object(backend: Backend) {
    let app = spawn_app(backend);
    for body in [r#"["arrayuser", "secret-password"]"#, r#""arrayuser""#, "3", "true"] {
        assert_fields(post_raw(&app, "/api/v1/users", None, body), 400, "malformed_body", &["#"]);
    }
    let alice = app.register("alice");
    let login = post_raw(&app, "/api/v1/tokens", None, r#"["alice", "secret-password"]"#);
    assert_fields(login, 400, "malformed_body", &["#"]);
    assert_fields(post_raw(&app, "/api/v1/games", Some(&alice.token), "[]"), 400, "malformed_body", &["#"]);
    let listed: Value = app.get("/api/v1/games", None).json().unwrap();
    assert_eq!(listed["games"], json!([]), "no game was created");

    let (id, users) = app.started_game(2, 5);
    let user = &users[active_seat(&app, &id)];
    let before = app.game(&id, None)["version"].clone();
    for body in [r#"["build_road", "0,-3,SE"]"#, r#"["build_settlement", "0,-1,N"]"#, r#"["roll_dice"]"#] {
        let response = post_raw(&app, &format!("/api/v1/games/{id}/moves"), Some(&user.token), body);
        assert_fields(response, 400, "malformed_body", &["#"]);
    }
    let trade = post_raw(&app, &format!("/api/v1/games/{id}/trades"), Some(&user.token), "[[1,0,0,0,0],[0,1,0,0,0]]");
    assert_fields(trade, 400, "malformed_body", &["#"]);
    assert_eq!(app.game(&id, None)["version"], before, "nothing was played");

    let open = app.create_game(&alice, &json!({"max_players": 3}));
    let players = format!("/api/v1/games/{}/players", open["id"].as_str().unwrap());
    let bob = app.register("bob");
    assert_fields(post_raw(&app, &players, Some(&bob.token), r#"["heuristic"]"#), 400, "malformed_body", &["#"]);
    // No body, `null` and `{}` still join.
    assert_eq!(post_raw(&app, &players, Some(&bob.token), "{}").status(), StatusCode::CREATED);
}

/// A body that does not fit names the field (`#/options/barbarian_steps`) and its rule in
/// plain words, never serde's message about Rust types; a token that expired or was revoked
/// says so.
fn a_wrong_field_is_named_by_its_pointer(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register("alice");
    let create = |body: Value| app.post("/api/v1/games", Some(&alice.token), &body);

    let problem = assert_fields(
        create(json!({"options": {"barbarian_steps": "four"}})),
        400,
        "malformed_body",
        &["#/options/barbarian_steps"],
    );
    assert_eq!(problem["errors"][0]["detail"], "must be an integer from 0 to 255 (got string \"four\")");
    let problem = assert_fields(create(json!({"seed": 1.8446744073709552e19})), 400, "malformed_body", &["#/seed"]);
    assert!(problem["errors"][0]["detail"].as_str().unwrap().starts_with("must be an integer from 0 to "), "{problem}");
    assert_fields(create(json!({"board": "hexagonal"})), 400, "malformed_body", &["#/board"]);
    assert_fields(create(json!({"options": {"jungle": "yes"}})), 400, "malformed_body", &["#/options/jungle"]);
    assert_fields(create(json!({"colour": "red"})), 400, "malformed_body", &["#/colour"]);

    let register = |body: Value| app.post("/api/v1/users", None, &body);
    let problem = assert_fields(register(json!({"username": "bob"})), 400, "malformed_body", &["#/password"]);
    assert_eq!(problem["errors"][0]["detail"], "is required");
    let problem = assert_fields(
        register(json!({"username": "Zoë", "password": "secret-password"})),
        422,
        "invalid_username",
        &["#/username"],
    );
    assert!(problem["detail"].as_str().unwrap().contains("ASCII letters"), "{problem}");
    assert_fields(register(json!({"username": "bob", "password": "short"})), 422, "invalid_password", &["#/password"]);

    let (id, users) = app.started_game(2, 5);
    let user = &users[active_seat(&app, &id)];
    let moves = format!("/api/v1/games/{id}/moves");
    let submit = |body: Value| app.post(&moves, Some(&user.token), &body);
    assert_fields(submit(json!({})), 400, "malformed_body", &["#/type"]);
    assert_fields(submit(json!({"type": "fly_away"})), 400, "malformed_body", &["#/type"]);
    assert_fields(submit(json!({"type": "build_settlement"})), 400, "malformed_body", &["#/vertex"]);
    assert_fields(submit(json!({"type": "roll_dice", "dice": 12})), 400, "malformed_body", &["#/dice"]);
    let discard = json!({"type": "discard", "resources": {"brick": 1, "grain": "two"}});
    let problem = assert_fields(submit(discard), 400, "malformed_body", &["#/resources/grain"]);
    let detail = problem["errors"][0]["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("must be an integer from 0 to ") && detail.ends_with("(got string \"two\")"),
        "{problem}"
    );
    let trade = json!({"give": {"brick": -1}, "get": {"ore": 1}});
    let response = app.post(&format!("/api/v1/games/{id}/trades"), Some(&user.token), &trade);
    assert_fields(response, 400, "malformed_body", &["#/give/brick"]);
    assert_fields(
        submit(json!({"type": "play_progress_card", "play": {"card": "inventor", "hexes": ["0,0", "0,1", "1,0"]}})),
        400,
        "malformed_body",
        &["#/play/hexes"],
    );
}

/// The spec's bounds are the server's: `vp_target` 3 to 30 (31 and 300 alike: 422
/// `invalid_config`), `max_players` 2 to 6, the list's `limit` 1 to 100, the log's `after`
/// from 0; an unknown scenario is 422 `unsupported_scenario` as an unknown variant is 422
/// `unsupported_variant`; the Inventor names exactly two hexes.
fn numbers_and_names_outside_the_spec_are_refused_as_documented(backend: Backend) {
    let app = spawn_app(backend);
    let spec: Value = app.get("/api-docs/openapi.json", None).json().unwrap();
    let schemas = &spec["components"]["schemas"];
    let vp_target = &schemas["GameConfig"]["properties"]["vp_target"];
    assert_eq!((vp_target["minimum"].as_i64(), vp_target["maximum"].as_i64()), (Some(3), Some(30)), "{vp_target}");
    let max_players = &schemas["CreateGameRequest"]["properties"]["max_players"];
    assert_eq!((max_players["minimum"].as_i64(), max_players["maximum"].as_i64()), (Some(2), Some(6)));
    let hexes = &schemas["ProgressPlayInventor"]["properties"]["hexes"];
    assert_eq!((hexes["minItems"].as_i64(), hexes["maxItems"].as_i64()), (Some(2), Some(2)), "{hexes}");
    assert!(schemas["Problem"]["properties"]["errors"].is_object(), "the problem documents its errors");

    let alice = app.register("alice");
    let create = |body: Value| app.post("/api/v1/games", Some(&alice.token), &body);
    for target in [2, 31, 300, -1] {
        let problem = assert_fields(
            create(json!({"options": {"vp_target": target}})),
            422,
            "invalid_config",
            &["#/options/vp_target"],
        );
        assert_eq!(problem["errors"][0]["detail"], format!("must be an integer from 3 to 30 (got {target})"));
    }
    assert_eq!(create(json!({"options": {"vp_target": 12}})).status(), StatusCode::CREATED);
    for players in [1, 7, 300] {
        assert_fields(create(json!({"max_players": players})), 422, "invalid_max_players", &["#/max_players"]);
    }
    assert_fields(create(json!({"scenario": "atlantis"})), 422, "unsupported_scenario", &["#/scenario"]);
    assert_fields(
        create(json!({"options": {"seafarers": true, "scenario": "atlantis"}})),
        422,
        "unsupported_scenario",
        &["#/options/scenario"],
    );
    assert_fields(create(json!({"variant": "atlantis"})), 422, "unsupported_variant", &["#/variant"]);

    for query in ["limit=0", "limit=101", "limit=-5", "limit=many"] {
        assert_fields(app.get(&format!("/api/v1/games?{query}"), None), 400, "invalid_query", &["#/limit"]);
    }
    let problem = assert_fields(app.get("/api/v1/games?status=won", None), 400, "invalid_query", &["#/status"]);
    assert_eq!(problem["errors"][0]["detail"], "must be one of open, playing, finished (got \"won\")");
    assert_eq!(app.get("/api/v1/games?limit=100", None).status(), StatusCode::OK);
    let (id, _) = app.started_game(2, 5);
    for (query, pointer) in
        [("after=-5", "#/after"), ("wait=31", "#/wait"), ("limit=0", "#/limit"), ("limit=1001", "#/limit")]
    {
        assert_fields(app.get(&format!("/api/v1/games/{id}/moves?{query}"), None), 400, "invalid_query", &[pointer]);
    }
    assert_eq!(app.get(&format!("/api/v1/games/{id}/moves?after=0&wait=0&limit=1000"), None).status(), StatusCode::OK);
}

/// A game reports `"variant": "seafarers+wonders"`; pasted into a URL, its `+` decodes to a
/// space, and the filter takes it so.
fn a_variant_filter_takes_a_plus_decoded_as_a_space(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register("alice");
    let wonders = app.create_game(&alice, &json!({"variant": "wonders", "max_players": 3}));
    app.create_game(&alice, &json!({"max_players": 3}));
    let variant = wonders["variant"].as_str().unwrap();
    assert_eq!(variant, "seafarers+wonders");
    for filter in [variant.to_owned(), variant.replace('+', "%2B"), variant.replace('+', "%20")] {
        let response = app.get(&format!("/api/v1/games?variant={filter}"), None);
        assert_eq!(response.status(), StatusCode::OK, "variant={filter}");
        let page: Value = response.json().unwrap();
        let ids: Vec<&Value> = page["games"].as_array().unwrap().iter().map(|g| &g["id"]).collect();
        assert_eq!(ids, [&wonders["id"]], "variant={filter}");
    }
    assert_problem(app.get("/api/v1/games?variant=seafarers+atlantis", None), 400, "invalid_query");
}

/// The declared `minimum`/`maximum` of `name` among the query parameters of `GET path`.
fn query_bounds(spec: &Value, path: &str, name: &str) -> (Option<i64>, Option<i64>) {
    let parameters = spec["paths"][path]["get"]["parameters"].as_array().unwrap_or_else(|| panic!("{path}"));
    let parameter =
        parameters.iter().find(|p| p["name"] == name && p["in"] == "query").unwrap_or_else(|| panic!("{name}"));
    (parameter["schema"]["minimum"].as_i64(), parameter["schema"]["maximum"].as_i64())
}

/// What the spec bounds of the stream's `keepalive` and `after` and of `at` (the board's
/// picture, the game resource) is the server's: 400 `invalid_query` naming the parameter
/// just outside, served at the bounds; never silently clamped (the stream took `keepalive=0`
/// as 1 and `after=-5` as 0, the pictures answered `at=0` with a 422).
fn the_query_bounds_of_streams_and_pictures_are_the_specs(backend: Backend) {
    let app = spawn_app(backend);
    let spec: Value = app.get("/api-docs/openapi.json", None).json().unwrap();
    let stream = "/api/v1/games/{game_id}/stream";
    assert_eq!(query_bounds(&spec, stream, "keepalive"), (Some(1), Some(15)));
    assert_eq!(query_bounds(&spec, stream, "after"), (Some(0), None));
    assert_eq!(query_bounds(&spec, "/api/v1/games/{game_id}/board.svg", "at"), (Some(1), None));
    assert_eq!(query_bounds(&spec, "/api/v1/games/{game_id}", "at"), (Some(1), None));

    let (id, _) = app.started_game(2, 5);
    let stream = format!("/api/v1/games/{id}/stream");
    for (query, pointer) in [
        ("keepalive=0", "#/keepalive"),
        ("keepalive=16", "#/keepalive"),
        ("keepalive=-1", "#/keepalive"),
        ("after=-1", "#/after"),
        ("after=-5&keepalive=3", "#/after"),
    ] {
        assert_fields(app.get(&format!("{stream}?{query}"), None), 400, "invalid_query", &[pointer]);
    }
    let detail = assert_problem(app.get(&format!("{stream}?keepalive=16"), None), 400, "invalid_query");
    assert_eq!(detail["errors"][0]["detail"], "must be an integer from 1 to 15 (got 16)");
    for query in ["keepalive=1", "keepalive=15", "after=0"] {
        let open = app.client.get(app.url(&format!("{stream}?{query}"))).send().expect("the stream");
        assert_eq!(open.status(), StatusCode::OK, "{query}");
        assert_eq!(open.headers()["content-type"], "text/event-stream", "{query}");
    }
    for path in [format!("/api/v1/games/{id}/board.svg"), format!("/api/v1/games/{id}")] {
        for at in ["0", "-1", "-9223372036854775808"] {
            assert_fields(app.get(&format!("{path}?at={at}"), None), 400, "invalid_query", &["#/at"]);
        }
        assert_eq!(app.get(&format!("{path}?at=1"), None).status(), StatusCode::OK, "{path}");
        let version = app.game(&id, None)["version"].as_i64().unwrap();
        assert_problem(app.get(&format!("{path}?at={}", version + 1), None), 422, "seq_out_of_range");
    }
}

/// A seed is an `int64` in the spec, which a Go client holds in an `int64`: the server
/// takes 0 to 2^63 - 1 (above: 422 `invalid_config`, as other bounded numbers) and draws a
/// random seed in that range too (it drew all 64 bits, so a finished game's `seed` broke the
/// generated Go client half of the time).
fn a_seed_fits_in_an_int64(backend: Backend) {
    let app = spawn_app(backend);
    let spec: Value = app.get("/api-docs/openapi.json", None).json().unwrap();
    let seed = &spec["components"]["schemas"]["CreateGameRequest"]["properties"]["seed"];
    assert_eq!((seed["minimum"].as_i64(), seed["maximum"].as_i64()), (Some(0), Some(i64::MAX)), "{seed}");

    let alice = app.register("alice");
    let create = |body: Value| app.post("/api/v1/games", Some(&alice.token), &body);
    for seed in [json!(9_223_372_036_854_775_808_u64), json!(u64::MAX), json!(-1)] {
        let problem = assert_fields(create(json!({"seed": seed})), 422, "invalid_config", &["#/seed"]);
        assert_eq!(
            problem["errors"][0]["detail"],
            format!("must be an integer from 0 to 9223372036854775807 (got {seed})")
        );
    }
    let problem = assert_fields(create(json!({"seed": 1.5})), 400, "malformed_body", &["#/seed"]);
    assert_eq!(
        problem["errors"][0]["detail"],
        "must be an integer from 0 to 9223372036854775807 (got floating point 1.5)"
    );
    assert_eq!(create(json!({"seed": i64::MAX, "max_players": 2})).status(), StatusCode::CREATED);

    // Random seeds: each of 19 games (an account's unfinished games are limited to 20) drew
    // 64 bits before, so one above 2^63 - 1 was all but certain (1 - 2^-19); the row keeps
    // the seed's bits in a signed BIGINT, negative above.
    let bob = app.register("bob");
    let mut conn = app.pool.get().expect("a connection");
    for _ in 0..19 {
        let game = app.create_game(&bob, &json!({"max_players": 2}));
        let id = uuid::Uuid::parse_str(game["id"].as_str().unwrap()).unwrap();
        let record = catan_server::store::load_game(&mut conn, id).expect("the game");
        assert!(record.game.seed >= 0, "seed {} is above 2^63 - 1", record.game.seed());
    }
}

/// Every pointer the spec's `FieldError` shows (its description and example) is one the
/// server writes for some request (the description showed `#/give/0`, but `give` is an
/// object of counts: no request gets that pointer).
fn the_pointers_the_spec_shows_are_ones_the_server_writes(backend: Backend) {
    let app = spawn_app(backend);
    let spec: Value = app.get("/api-docs/openapi.json", None).json().unwrap();
    let field_error = &spec["components"]["schemas"]["FieldError"];
    let description = field_error["properties"]["pointer"]["description"].as_str().unwrap();
    let mut shown: Vec<String> =
        description.split('`').skip(1).step_by(2).filter(|code| code.starts_with('#')).map(str::to_owned).collect();
    shown.push(field_error["example"]["pointer"].as_str().unwrap().to_owned());
    shown.sort();
    shown.dedup();

    let alice = app.register("alice");
    let (id, users) = app.started_game(2, 5);
    let user = &users[active_seat(&app, &id)];
    let trade = json!({"give": {"brick": 1}, "get": {"ore": 1}, "to": ["x"]});
    let written: Vec<(&str, Response)> = vec![
        ("#", post_raw(&app, "/api/v1/users", None, "[]")),
        ("#/options/vp_target", app.post("/api/v1/games", Some(&alice.token), &json!({"options": {"vp_target": 300}}))),
        ("#/to/0", app.post(&format!("/api/v1/games/{id}/trades"), Some(&user.token), &trade)),
        ("#/limit", app.get("/api/v1/games?limit=0", None)),
    ];
    let mut produced = Vec::new();
    for (pointer, response) in written {
        let body: Value = response.json().unwrap();
        assert_eq!(body["errors"][0]["pointer"], pointer, "{body}");
        produced.push(pointer.to_owned());
    }
    for pointer in &shown {
        assert!(produced.contains(pointer), "the spec shows {pointer}, which no request here gets: {shown:?}");
    }
}

/// JSON Schema's `integer` takes any number whose fractional part is zero (`3.0`, `1e1`), so
/// the server reads them as the integers they are (schemathesis sent `"vp_target": 28.0`,
/// which serde refused for a `u8`: 400 for a body the spec allows).
fn whole_numbers_written_with_a_fraction_are_integers(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register("alice");
    let created = post_raw(
        &app,
        "/api/v1/games",
        Some(&alice.token),
        r#"{"max_players": 3.0, "seed": 7.0, "options": {"vp_target": 1.2e1, "turn_limit": 500.0}}"#,
    );
    assert_eq!(created.status(), StatusCode::CREATED);
    let game: Value = created.json().unwrap();
    assert_eq!((game["max_players"].as_i64(), game["vp_target"].as_i64()), (Some(3), Some(12)), "{game}");
    // Read as integers, they meet the bounds as integers do.
    let far = post_raw(&app, "/api/v1/games", Some(&alice.token), r#"{"options": {"vp_target": 1e2}}"#);
    let problem = assert_fields(far, 422, "invalid_config", &["#/options/vp_target"]);
    assert_eq!(problem["errors"][0]["detail"], "must be an integer from 3 to 30 (got 100)");
    // A fraction is still no integer.
    assert_fields(
        post_raw(&app, "/api/v1/games", Some(&alice.token), r#"{"options": {"vp_target": 12.5}}"#),
        400,
        "malformed_body",
        &["#/options/vp_target"],
    );
    let (id, users) = app.started_game(2, 5);
    let user = &users[active_seat(&app, &id)];
    let moves = format!("/api/v1/games/{id}/moves");
    let offer = r#"{"type": "offer_trade", "give": {"brick": 1.0}, "get": {"ore": 1.0}, "to": [1.0]}"#;
    let refused = assert_problem(post_raw(&app, &moves, Some(&user.token), offer), 422, "wrong_phase");
    assert!(refused.get("errors").is_none(), "read, then refused by the rules: {refused}");
}

/// A seat, and each other request number read into a byte, says so in the spec
/// (`maximum: 255`), as the server's 400 above it does: the spec allowed any `int32`
/// (schemathesis: `"to": [2147483646]` refused as a malformed body).
fn byte_fields_say_their_bound_in_the_spec(backend: Backend) {
    let app = spawn_app(backend);
    let spec: Value = app.get("/api-docs/openapi.json", None).json().unwrap();
    let schemas = &spec["components"]["schemas"];
    assert_eq!(schemas["Seat"]["maximum"], 255, "{}", schemas["Seat"]);
    for field in ["river_gold_bonus_vp", "island_bonus_vp"] {
        assert_eq!(schemas["GameConfig"]["properties"][field]["maximum"], 255, "{field}");
    }
    let alice = app.register("alice");
    for field in ["river_gold_bonus_vp", "island_bonus_vp"] {
        let response = app.post("/api/v1/games", Some(&alice.token), &json!({"options": {field: 256}}));
        let problem = assert_fields(response, 400, "malformed_body", &[&format!("#/options/{field}")]);
        assert_eq!(problem["errors"][0]["detail"], "must be an integer from 0 to 255 (got 256)");
    }
    let (id, users) = app.started_game(2, 5);
    let user = &users[active_seat(&app, &id)];
    let trades = format!("/api/v1/games/{id}/trades");
    let offer = |to: u32| json!({"give": {"brick": 1}, "get": {"ore": 1}, "to": [to]});
    let problem = assert_fields(app.post(&trades, Some(&user.token), &offer(256)), 400, "malformed_body", &["#/to/0"]);
    assert_eq!(problem["errors"][0]["detail"], "must be an integer from 0 to 255 (got 256)");
    // 255 is read, then refused by the game.
    let refused = app.post(&trades, Some(&user.token), &offer(255));
    assert_ne!(refused.status(), StatusCode::BAD_REQUEST);
    let confirm = format!("/api/v1/games/{id}/trades/1/confirm");
    assert_fields(app.post(&confirm, Some(&user.token), &json!({"with": 256})), 400, "malformed_body", &["#/with"]);
    // A game has at most six seats to offer to, and the spec says so (`maxItems`).
    assert_eq!(schemas["CreateTradeRequest"]["properties"]["to"]["maxItems"], 6);
    let seven = json!({"give": {"brick": 1}, "get": {"ore": 1}, "to": [1, 1, 1, 1, 1, 1, 1]});
    let problem = assert_fields(app.post(&trades, Some(&user.token), &seven), 400, "malformed_body", &["#/to"]);
    assert_eq!(problem["errors"][0]["detail"], "must be an array of at most 6 entries, one per seat (got 7 items)");
}

/// The stream's schema is that of one event (OpenAPI 3.1 reads `schema` of
/// `text/event-stream` so; it said `type: string`, which no event is): its `event` names and
/// `data`, and the first event a client reads fits it.
fn the_stream_schema_describes_its_events(backend: Backend) {
    let app = spawn_app(backend);
    let spec: Value = app.get("/api-docs/openapi.json", None).json().unwrap();
    let stream = &spec["paths"]["/api/v1/games/{game_id}/stream"]["get"]["responses"]["200"]["content"];
    let event = &stream["text/event-stream"]["schema"];
    assert_eq!(event["type"], "object", "{event}");
    assert_eq!(event["required"], json!(["event", "data"]));
    assert_eq!(event["properties"]["event"]["enum"], json!(["snapshot", "entry", "end"]));

    let (id, _) = app.started_game(2, 5);
    let mut response = app.client.get(app.url(&format!("/api/v1/games/{id}/stream"))).send().expect("the stream");
    let mut text = String::new();
    let mut chunk = [0u8; 4096];
    while !text.contains("event: snapshot\ndata: ") || !text.ends_with("\n\n") {
        let read = std::io::Read::read(&mut response, &mut chunk).expect("read the stream");
        assert!(read > 0, "the stream ended: {text}");
        text.push_str(std::str::from_utf8(&chunk[..read]).unwrap());
    }
    let block = text.split("\n\n").find(|block| block.contains("event: ")).unwrap();
    let fields: Vec<(&str, &str)> = block.lines().filter_map(|line| line.split_once(": ")).collect();
    let names: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, ["event", "data"], "{block}");
    let allowed = event["properties"]["event"]["enum"].as_array().unwrap();
    assert!(allowed.contains(&json!(fields[0].1)), "{block}");
    let data: Value = serde_json::from_str(fields[1].1).expect("data is JSON");
    assert_eq!(data["id"], id.as_str());
}
