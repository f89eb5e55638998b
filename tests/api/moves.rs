//! Submitting moves and reading the log: long-polling and idempotent retries.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    games::active_seat,
    helpers::{assert_problem, spawn_app, Backend},
};

both_backends!(
    long_poll_wakes_when_a_move_commits,
    idempotency_keys_make_retries_safe,
    a_log_read_after_the_largest_seq_is_an_empty_page,
    legal_moves_need_a_token,
);

/// `legal-moves` is a seat's question: without a token it is 401, so a bot that forgot its
/// header does not read "nothing to do"; a user without a seat gets an empty list, and
/// spectators read whom the game waits for in `turn.waiting_for`.
fn legal_moves_need_a_token(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(2, 5);
    let path = format!("/api/v1/games/{id}/legal-moves");
    for _ in 0..2 {
        // Twice: the second answer would come from the read cache.
        assert_problem(app.get(&path, None), 401, "unauthorized");
    }
    let seat = active_seat(&app, &id);
    assert!(!app.legal_moves(&id, &users[seat])["moves"].as_array().unwrap().is_empty());
    assert_problem(app.get(&path, None), 401, "unauthorized");
    let outsider = app.register("outsider");
    let page: Value = app.get(&path, Some(&outsider.token)).json().unwrap();
    assert_eq!(page["moves"], json!([]), "{page}");
    assert_eq!(app.game(&id, None)["turn"]["waiting_for"], json!([seat]));
}

fn long_poll_wakes_when_a_move_commits(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(2, 11);
    let seat = active_seat(&app, &id);
    let mv = app.legal_moves(&id, &users[seat])["moves"][0].clone();

    let started = std::time::Instant::now();
    let waiter = {
        let url = app.url(&format!("/api/v1/games/{id}/moves?after=1&wait=20"));
        let client = app.client.clone();
        std::thread::spawn(move || -> Value { client.get(url).send().unwrap().json().unwrap() })
    };
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(app.submit(&id, &users[seat], &mv).status(), StatusCode::CREATED);
    let log = waiter.join().unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "woken, not timed out");
    assert_eq!(log["entries"][0]["seq"], 2);
    // A spectator sees only the type of another seat's move.
    assert_eq!(log["entries"][0]["move"], json!({"type": mv["type"], "hidden": true}));

    // Nothing new: an empty answer after the wait.
    let started = std::time::Instant::now();
    let empty = app.log_after_wait(&id, 2, 1);
    assert!(empty["entries"].as_array().unwrap().is_empty());
    assert!(started.elapsed() >= std::time::Duration::from_millis(900));
}

fn idempotency_keys_make_retries_safe(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(2, 3);
    let seat = active_seat(&app, &id);
    let moves = app.legal_moves(&id, &users[seat]);
    let (first, second) = (&moves["moves"][0], &moves["moves"][1]);
    let post = |mv: &Value, key: &str| {
        app.client
            .post(app.url(&format!("/api/v1/games/{id}/moves")))
            .bearer_auth(&users[seat].token)
            .header("Idempotency-Key", key)
            .json(mv)
            .send()
            .unwrap()
    };

    let original = post(first, "key-1");
    assert_eq!(original.status(), StatusCode::CREATED);
    assert!(original.headers().get("idempotent-replayed").is_none());
    let original: Value = original.json().unwrap();

    // The retry returns the first result and plays nothing.
    let retry = post(first, "key-1");
    assert_eq!(retry.status(), StatusCode::CREATED);
    assert_eq!(retry.headers()["idempotent-replayed"], "true");
    let retry: Value = retry.json().unwrap();
    assert_eq!(retry["entry"], original["entry"]);
    assert_eq!(app.game(&id, None)["version"], original["version"]);

    // The same key for another move is refused; a bad key is a bad request.
    assert_problem(post(second, "key-1"), 422, "idempotency_key_reused");
    assert_problem(post(second, " "), 400, "invalid_idempotency_key");

    let check = app.check_replay(&id);
    assert!(check.contiguous && check.matches_snapshot, "{check:?}");
}

impl crate::helpers::TestApp {
    fn log_after_wait(&self, id: &str, after: i64, wait: u64) -> Value {
        self.get(&format!("/api/v1/games/{id}/moves?after={after}&wait={wait}"), None).json().unwrap()
    }
}

/// Issue 32: `after=9223372036854775807` made the cached read's key range wrap to i64::MIN
/// and the handler panic (`capacity overflow`), dropping the connection without an answer.
/// Any `after` past the log is an empty page at the game's version, from memory (the entries
/// were just read, so they are cached) or from the database (a fresh key range).
fn a_log_read_after_the_largest_seq_is_an_empty_page(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(2, 11);
    let seat = active_seat(&app, &id);
    let mv = app.legal_moves(&id, &users[seat])["moves"][0].clone();
    assert_eq!(app.submit(&id, &users[seat], &mv).status(), StatusCode::CREATED);
    let all = app.log(&id, None, 0);
    let version = all["version"].as_i64().unwrap();
    assert!(version >= 1 && all["entries"].as_array().unwrap().len() as i64 == version);
    for after in [i64::MAX, i64::MAX - 1, i64::MAX - 7, version, version + 1] {
        for query in [format!("after={after}"), format!("after={after}&limit=1000"), format!("after={after}&wait=0")] {
            let page = app.get(&format!("/api/v1/games/{id}/moves?{query}"), Some(&users[0].token));
            assert_eq!(page.status(), StatusCode::OK, "{query}");
            let page: Value = page.json().unwrap();
            assert_eq!(page["entries"], json!([]), "{query}");
            assert_eq!(page["version"], json!(version), "{query}");
        }
    }
    // Below the log is below the spec's minimum, 0: refused, naming the parameter.
    let below =
        assert_problem(app.get(&format!("/api/v1/games/{id}/moves?after={}", i64::MIN), None), 400, "invalid_query");
    assert_eq!(below["errors"][0]["pointer"], "#/after");
    // The stream resumes after the largest seq too: its head arrives, nothing is replayed.
    let stream = app.send(
        app.client.get(app.url(&format!("/api/v1/games/{id}/stream"))).header("Last-Event-ID", i64::MAX.to_string()),
    );
    assert_eq!(stream.status(), StatusCode::OK);
}
