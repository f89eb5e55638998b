//! Every error class answers `application/problem+json` with a stable code.

use std::collections::HashSet;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    games::active_seat,
    helpers::{assert_problem, spawn_app, Backend},
};

both_backends!(errors_are_problems_with_codes);

fn errors_are_problems_with_codes(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(3, 5);
    let outsider = app.register("outsider");
    let moves_path = format!("/api/v1/games/{id}/moves");

    // 401: no token, a bad token.
    assert_problem(app.post("/api/v1/games", None, &json!({})), 401, "unauthorized");
    assert_problem(app.post("/api/v1/games", Some("not-a-jwt"), &json!({})), 401, "unauthorized");
    assert_problem(app.post(&moves_path, None, &json!({"type": "roll_dice"})), 401, "unauthorized");
    assert_problem(app.get(&format!("/api/v1/games/{id}"), Some("x.y.z")), 401, "unauthorized");

    // 403: moving in a game you have no seat in.
    assert_problem(app.post(&moves_path, Some(&outsider.token), &json!({"type": "roll_dice"})), 403, "forbidden");

    // 404: unknown game, id that is not a UUID, unknown route.
    let unknown = uuid::Uuid::new_v4();
    assert_problem(app.get(&format!("/api/v1/games/{unknown}"), None), 404, "not_found");
    assert_problem(app.get("/api/v1/games/not-a-uuid", None), 404, "not_found");
    assert_problem(app.get("/api/v1/nothing-here", None), 404, "not_found");
    assert_problem(app.get("/api", None), 404, "not_found");
    // 405 with `Allow`: a path the API has, with a method it does not take there.
    let wrong_method = app.send(app.client.delete(app.url("/api/v1/games")));
    assert_eq!(wrong_method.headers().get("allow").unwrap(), "GET, POST, HEAD, OPTIONS");
    assert_problem(wrong_method, 405, "method_not_allowed");
    let wrong_method = app.send(app.client.put(app.url(&format!("/api/v1/games/{unknown}/moves"))));
    assert_eq!(wrong_method.headers().get("allow").unwrap(), "GET, POST, HEAD, OPTIONS");
    assert_problem(wrong_method, 405, "method_not_allowed");
    assert_problem(
        app.post(&format!("/api/v1/games/{unknown}/moves"), Some(&users[0].token), &json!({"type": "roll_dice"})),
        404,
        "not_found",
    );

    // 400: malformed JSON, an unknown move type, a bad query.
    let malformed = app
        .client
        .post(app.url(&moves_path))
        .bearer_auth(&users[0].token)
        .header("content-type", "application/json")
        .body("{\"type\": ")
        .send()
        .unwrap();
    assert_problem(malformed, 400, "malformed_body");
    assert_problem(app.post(&moves_path, Some(&users[0].token), &json!({"type": "fly_away"})), 400, "malformed_body");
    // 415: a body that does not say it is JSON is never played (a browser form or text/plain
    // post cannot make a move for a signed-in player).
    for content_type in [Some("text/plain"), Some("application/x-www-form-urlencoded"), None] {
        let mut request =
            app.client.post(app.url(&moves_path)).bearer_auth(&users[0].token).body(r#"{"type": "roll_dice"}"#);
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        assert_problem(request.send().unwrap(), 415, "unsupported_media_type");
    }
    let text_join = app
        .client
        .post(app.url(&format!("/api/v1/games/{id}/players")))
        .bearer_auth(&outsider.token)
        .header("content-type", "text/plain")
        .body(r#"{"bot": "random"}"#)
        .send()
        .unwrap();
    assert_problem(text_join, 415, "unsupported_media_type");
    // Unknown fields are refused on every move, those without fields included.
    for (body, field) in [
        (json!({"type": "roll_dice", "twice": true}), "#/twice"),
        (json!({"type": "build_road", "edge": "0,-1,NE", "free": true}), "#/free"),
    ] {
        let response = app.post(&moves_path, Some(&users[0].token), &body);
        let problem = assert_problem(response, 400, "malformed_body");
        assert_eq!(problem["errors"][0]["pointer"], field, "{problem}");
        assert!(problem["errors"][0]["detail"].as_str().unwrap().starts_with("is not a field here"), "{problem}");
    }
    assert_problem(app.get(&format!("/api/v1/games/{id}/moves?after=abc"), None), 400, "invalid_query");

    // 413: a body over the limit.
    let huge = format!("{{\"type\": \"end_turn\", \"pad\": \"{}\"}}", "x".repeat(200_000));
    let too_large = app
        .client
        .post(app.url(&moves_path))
        .bearer_auth(&users[0].token)
        .header("content-type", "application/json")
        .body(huge)
        .send()
        .unwrap();
    assert_problem(too_large, 413, "payload_too_large");
    let too_large_join = app
        .client
        .post(app.url(&format!("/api/v1/games/{id}/players")))
        .bearer_auth(&outsider.token)
        .body(vec![b' '; 100_000])
        .send()
        .unwrap();
    assert_problem(too_large_join, 413, "payload_too_large");

    // 422: rule violations carry the engine's code.
    let active = active_seat(&app, &id);
    let other = (active + 1) % users.len();
    assert_problem(
        app.post(&moves_path, Some(&users[other].token), &json!({"type": "roll_dice"})),
        422,
        "not_your_turn",
    );
    assert_problem(
        app.post(&moves_path, Some(&users[active].token), &json!({"type": "roll_dice"})),
        422,
        "wrong_phase",
    );

    // settlement_too_close: the next seat tries a neighbour of the first settlement.
    let all_sites: HashSet<String> = vertices(&app.legal_moves(&id, &users[active]));
    let first = app.legal_moves(&id, &users[active])["moves"][0].clone();
    let placed = first["vertex"].as_str().unwrap().to_owned();
    assert_eq!(app.submit(&id, &users[active], &first).status(), StatusCode::CREATED);
    let road = app.legal_moves(&id, &users[active])["moves"][0].clone();
    assert_eq!(app.submit(&id, &users[active], &road).status(), StatusCode::CREATED);
    let next = active_seat(&app, &id);
    let open_sites = vertices(&app.legal_moves(&id, &users[next]));
    let neighbour = all_sites
        .iter()
        .find(|v| **v != placed && !open_sites.contains(*v))
        .expect("a neighbour of the first settlement");
    assert_problem(
        app.submit(&id, &users[next], &json!({"type": "build_settlement", "vertex": neighbour})),
        422,
        "settlement_too_close",
    );

    // 412: If-Match with a stale version, and the current version in the body.
    let version = app.game(&id, None)["version"].as_i64().unwrap();
    let stale = app
        .client
        .post(app.url(&moves_path))
        .bearer_auth(&users[next].token)
        .header("If-Match", format!("\"v{}\"", version - 1))
        .json(&app.legal_moves(&id, &users[next])["moves"][0])
        .send()
        .unwrap();
    let body = assert_problem(stale, 412, "version_conflict");
    assert_eq!(body["version"], version);
    // ... and the right version is accepted.
    let fresh = app
        .client
        .post(app.url(&moves_path))
        .bearer_auth(&users[next].token)
        .header("If-Match", format!("\"v{version}\""))
        .json(&app.legal_moves(&id, &users[next])["moves"][0])
        .send()
        .unwrap();
    assert_eq!(fresh.status(), StatusCode::CREATED);
    let body: Value = fresh.json().unwrap();
    assert_eq!(body["version"], version + 1);
    assert_eq!(body["entry"]["seq"], version + 1);

    // 409: moving before the game starts.
    let lobby = app.create_game(&users[0], &json!({"max_players": 2}));
    assert_problem(
        app.submit(lobby["id"].as_str().unwrap(), &users[0], &json!({"type": "roll_dice"})),
        409,
        "game_not_started",
    );

    // 422: bad game options.
    assert_problem(
        app.post("/api/v1/games", Some(&users[0].token), &json!({"max_players": 7})),
        422,
        "invalid_max_players",
    );
    // Invalid combinations of variant options name the problem (6 players need the 5-6
    // extension; the jungle needs its number; jungle and big river exclude each other; the
    // river reshuffles the board, so not on the beginner board).
    for (request, code) in [
        (json!({"max_players": 6}), "invalid_player_count"),
        (json!({"max_players": 4, "options": {"five_six_extension": true}}), "invalid_player_count"),
        // JUN-2: the jungle's token is not a 7 (without one it takes the default, 5).
        (json!({"max_players": 4, "options": {"jungle": true, "jungle_number": 7}}), "invalid_config"),
        (json!({"max_players": 4, "variant": "jungle", "options": {"jungle_number": 7}}), "invalid_config"),
        (json!({"variant": "seafarers+five_six", "max_players": 4}), "invalid_player_count"),
        (
            json!({"max_players": 4, "board": "random",
                   "options": {"jungle": true, "jungle_number": 5, "big_river": true, "river_gold_number": 9}}),
            "invalid_config",
        ),
        // The beginner board has no river (without a board named, Big River takes a random one).
        (json!({"max_players": 4, "board": "beginner", "options": {"big_river": true}}), "invalid_config"),
        (json!({"max_players": 4, "options": {"big_river": true, "board": "beginner"}}), "invalid_config"),
        // B-WIN-1: a target beyond the 22 points a seat can hold would never end.
        (json!({"max_players": 4, "options": {"vp_target": 30}}), "invalid_config"),
    ] {
        assert_problem(app.post("/api/v1/games", Some(&users[0].token), &request), 422, code);
    }

    // None of this broke the log.
    let check = app.check_replay(&id);
    assert!(check.contiguous && check.matches_snapshot, "{check:?}");
}

fn vertices(legal: &Value) -> HashSet<String> {
    legal["moves"].as_array().unwrap().iter().filter_map(|m| m["vertex"].as_str().map(str::to_owned)).collect()
}

#[test]
fn health_answers_503_when_the_database_is_gone() {
    let url = crate::helpers::postgres::fresh_database();
    let name = url.rsplit('/').next().unwrap().to_owned();
    let app = crate::helpers::spawn_app_at(Some(url));
    assert_eq!(app.get("/healthz", None).status(), StatusCode::OK);

    // Lock the database and cut the server's connections.
    crate::helpers::postgres::admin(&format!("ALTER DATABASE {name} ALLOW_CONNECTIONS false"));
    crate::helpers::postgres::admin(&format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
    ));
    assert_problem(app.get("/healthz", None), 503, "database_unavailable");

    // And back.
    crate::helpers::postgres::admin(&format!("ALTER DATABASE {name} ALLOW_CONNECTIONS true"));
    assert_eq!(app.get("/healthz", None).status(), StatusCode::OK);
}

#[test]
fn health_answers_ok() {
    let app = spawn_app(Backend::Sqlite);
    let response = app.get("/healthz", None);
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().unwrap();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["database"], "sqlite");
}

/// The server runs database work on as many threads as it has connections, so requests can
/// queue for a thread: one that could not start within the pool's timeout answers 503 and
/// touches nothing, while the request that held the thread completes.
#[test]
fn a_request_queued_past_the_pool_timeout_answers_503() {
    use diesel::{connection::SimpleConnection, Connection};

    let url = crate::helpers::postgres::fresh_database();
    let app = crate::helpers::spawn_app_with(Some(url.clone()), |config| {
        config.workers = Some(1);
        config.pool_size = 1;
        config.db_timeout = std::time::Duration::from_secs(1);
    });
    let (id, users) = app.started_game(2, 5);
    let seat = crate::games::active_seat(&app, &id);
    let mv = app.legal_moves(&id, &users[seat])["moves"][0].clone();

    // Hold the game's row from outside: the move waits inside the database, on the one thread.
    let mut locker = diesel::PgConnection::establish(&url).expect("connect");
    locker.batch_execute(&format!("BEGIN; SELECT 1 FROM games WHERE id = '{id}' FOR UPDATE")).expect("lock");
    let mover = {
        let (client, url, token) =
            (app.client.clone(), app.url(&format!("/api/v1/games/{id}/moves")), users[seat].token.clone());
        std::thread::spawn(move || client.post(url).bearer_auth(token).json(&mv).send().expect("move").status())
    };
    std::thread::sleep(std::time::Duration::from_millis(300));
    let reader = {
        let (client, url) = (app.client.clone(), app.url(&format!("/api/v1/games/{id}")));
        std::thread::spawn(move || client.get(url).send().expect("read"))
    };
    std::thread::sleep(std::time::Duration::from_millis(1500));
    locker.batch_execute("COMMIT").expect("unlock");

    assert_eq!(mover.join().unwrap(), StatusCode::CREATED, "the move that held the thread completes");
    assert_problem(reader.join().unwrap(), 503, "database_unavailable");
    assert_eq!(app.game(&id, None)["version"], 2, "and the game moved exactly once");
}
