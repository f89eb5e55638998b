//! Rated play (issue 34): account kinds on every seat, rated games refused where their rules do
//! not hold, ratings settled when a rated game ends, profiles and leaderboards, and the seek
//! queue (a full round of mixed pools, bot fill, concurrency, expiry, cancellation).

use std::{
    collections::{HashMap, HashSet},
    time::{Duration, Instant},
};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    bots::wait_until_finished,
    helpers::{assert_problem, spawn_app, spawn_production_app, Backend, TestApp, User},
};

both_backends!(
    accounts_have_kinds_and_every_seat_says_which,
    a_rated_bot_game_rates_its_accounts_and_fills_profiles_and_leaderboards,
    a_matchmaking_round_of_six_seekers_in_mixed_pools,
    concurrent_seeks_seat_every_seeker_once,
    seeks_expire_are_cancelled_and_refuse_bad_requests,
    the_queue_shows_everyone_the_waiting_seeks_and_their_seekers
);

fn register_as(app: &TestApp, name: &str, kind: &str) -> (User, Value) {
    let body = json!({"username": name, "password": "secret-password", "kind": kind});
    let response = app.post("/api/v1/users", None, &body);
    assert_eq!(response.status(), StatusCode::CREATED, "register {name}");
    let body: Value = response.json().unwrap();
    (User { token: body["token"].as_str().unwrap().into() }, body)
}

fn patch_me(app: &TestApp, user: &User, body: &Value) -> reqwest::blocking::Response {
    app.send(app.client.patch(app.url("/api/v1/users/me")).bearer_auth(&user.token).json(body))
}

fn seek(app: &TestApp, user: &User, body: &Value) -> reqwest::blocking::Response {
    app.post("/api/v1/seeks", Some(&user.token), body)
}

fn seek_ok(app: &TestApp, user: &User, body: &Value) -> Value {
    let response = seek(app, user, body);
    assert_eq!(response.status(), StatusCode::CREATED, "seek {body}");
    response.json().unwrap()
}

fn poll_seek(app: &TestApp, user: &User, id: &str, wait: u64) -> Value {
    let response = app.get(&format!("/api/v1/seeks/{id}?wait={wait}"), Some(&user.token));
    assert_eq!(response.status(), StatusCode::OK);
    response.json().unwrap()
}

fn accounts_have_kinds_and_every_seat_says_which(backend: Backend) {
    let app = spawn_app(backend);
    let (bot, registered) = register_as(&app, "a-bot", "bot");
    assert_eq!(registered["user"]["kind"], "bot");
    let alice = app.register("alice");
    let me: Value = app.get("/api/v1/users/me", Some(&alice.token)).json().unwrap();
    assert_eq!(me["kind"], "human", "the default kind");
    let refused = app.post(
        "/api/v1/users",
        None,
        &json!({"username": "sneaky", "password": "secret-password", "kind": "builtin"}),
    );
    assert_eq!(assert_problem(refused, 422, "invalid_kind")["errors"][0]["pointer"], "#/kind");
    // Nobody logs in as a built-in bot's account.
    let login =
        app.post("/api/v1/tokens", None, &json!({"username": "builtin:heuristic", "password": "secret-password"}));
    assert_problem(login, 401, "unauthorized");

    // The kind changes once, before any rated game.
    let changed = patch_me(&app, &bot, &json!({"kind": "human"}));
    assert_eq!(changed.status(), StatusCode::OK);
    assert_eq!(changed.json::<Value>().unwrap()["kind"], "human");
    assert_problem(patch_me(&app, &bot, &json!({"kind": "bot"})), 409, "kind_locked");
    assert_eq!(patch_me(&app, &bot, &json!({"kind": "human"})).status(), StatusCode::OK, "no change is no change");
    assert_problem(patch_me(&app, &alice, &json!({"kind": "builtin"})), 422, "invalid_kind");

    // Every seat says whose account holds it, in the game and in the list.
    let (program, _) = register_as(&app, "program", "bot");
    let id = app.create_game(&alice, &json!({"max_players": 3}))["id"].as_str().unwrap().to_owned();
    assert_eq!(app.join(&id, &program).status(), StatusCode::CREATED);
    let seated = app.post(&format!("/api/v1/games/{id}/players"), Some(&alice.token), &json!({"bot": "random"}));
    assert_eq!(seated.status(), StatusCode::CREATED);
    let game = app.game(&id, None);
    let kinds: Vec<&Value> = game["players"].as_array().unwrap().iter().map(|p| &p["kind"]).collect();
    assert_eq!(kinds, [&json!("human"), &json!("bot"), &json!("builtin")]);
    assert_eq!((&game["rated"], game.get("pool")), (&json!(false), None));
    let list: Value = app.get("/api/v1/games", None).json().unwrap();
    let summary = list["games"].as_array().unwrap().iter().find(|g| g["id"] == id).unwrap();
    assert_eq!(summary["players"][1]["kind"], "bot");
    assert_eq!(summary["players"][2]["kind"], "builtin");

    // The built-in bots have public profiles of their own.
    let profile: Value = app.get("/api/v1/users/builtin:random", None).json().unwrap();
    assert_eq!((&profile["username"], &profile["kind"]), (&json!("builtin:random"), &json!("builtin")));
    let profile: Value = app.get("/api/v1/users/PROGRAM", None).json().unwrap();
    assert_eq!(
        (&profile["username"], &profile["kind"], &profile["ratings"]),
        (&json!("program"), &json!("bot"), &json!([]))
    );
    assert_problem(app.get("/api/v1/users/nobody-here", None), 404, "not_found");
}

/// The rules of rated games (issue 34, part 2): no chosen seed, no position, no sandbox, a
/// ruleset with a pool; a sandbox refuses rated seeks too.
#[test]
fn rated_games_are_refused_where_their_rules_do_not_hold() {
    let app = spawn_production_app(Backend::Sqlite);
    let alice = app.register("alice");
    let create = |body: Value| app.post("/api/v1/games", Some(&alice.token), &body);
    let pointer = |response| assert_problem(response, 422, "rated_game_not_allowed")["errors"][0]["pointer"].clone();
    assert_eq!(pointer(create(json!({"rated": true, "seed": 5}))), "#/seed");
    assert_eq!(pointer(create(json!({"rated": true, "variant": "jungle"}))), "#/variant");
    assert_eq!(pointer(create(json!({"rated": true, "variant": "big_river"}))), "#/variant");
    // A position start: the opening of a new game is one.
    let opening = catan_engine::Game::new(catan_engine::GameConfig::for_players(3), 1).unwrap();
    let position = catan_engine::Setup::from(&opening);
    assert_eq!(pointer(create(json!({"rated": true, "position": position}))), "#/position");

    // A rated game gets the pool of its ruleset and the rated turn timer.
    let game = app.create_game(&alice, &json!({"rated": true, "variant": "seafarers", "max_players": 3}));
    assert_eq!((&game["rated"], &game["pool"]), (&json!(true), &json!("seafarers")));
    assert_eq!(game["options"]["turn_timer_seconds"], 120);
    let game = app.create_game(&alice, &json!({"rated": true, "options": {"turn_timer_seconds": 30}}));
    assert_eq!((&game["pool"], &game["options"]["turn_timer_seconds"]), (&json!("base"), &json!(30)));

    // A sandbox plays no rated games, from the lobby or the queue.
    let sandbox = spawn_app(Backend::Sqlite);
    let bob = sandbox.register("bob");
    let refused = sandbox.post("/api/v1/games", Some(&bob.token), &json!({"rated": true}));
    assert_eq!(pointer(refused), "#/rated");
    assert_eq!(pointer(seek(&sandbox, &bob, &json!({"pool": "base"}))), "#/rated");
    let unrated = seek(&sandbox, &bob, &json!({"pool": "base", "rated": false}));
    assert_eq!(unrated.status(), StatusCode::CREATED);
}

fn a_rated_bot_game_rates_its_accounts_and_fills_profiles_and_leaderboards(backend: Backend) {
    let app = spawn_production_app(backend);
    let host = app.register("host");
    let game = app.create_game(&host, &json!({"rated": true, "max_players": 4, "seat_creator": false}));
    let id = game["id"].as_str().unwrap().to_owned();
    for kind in ["heuristic", "random", "heuristic", "random"] {
        let seated = app.post(&format!("/api/v1/games/{id}/players"), Some(&host.token), &json!({"bot": kind}));
        assert_eq!(seated.status(), StatusCode::CREATED);
    }
    assert_eq!(app.start(&id, &host).status(), StatusCode::OK);
    let finished = wait_until_finished(&app, &id);
    let winner = finished["winner"].as_u64().unwrap() as usize;
    let winning_bot = finished["players"][winner]["bot"].as_str().unwrap().to_owned();

    // Each built-in account is rated once for its two seats, its best place kept.
    let mut scores = Vec::new();
    for kind in ["heuristic", "random"] {
        let profile: Value = app.get(&format!("/api/v1/users/builtin:{kind}"), None).json().unwrap();
        assert_eq!(profile["games_played"], 1, "{profile}");
        assert_eq!(profile["rated_games"], 1);
        let rating = &profile["ratings"][0];
        assert_eq!((&rating["pool"], &rating["games"]), (&json!("base"), &json!(1)));
        assert!(rating["deviation"].as_f64().unwrap() < 25.0 / 3.0, "a game makes the model surer: {rating}");
        let history = &profile["rating_history"][0];
        assert_eq!((&history["game_id"], &history["players"]), (&json!(id), &json!(4)));
        assert_eq!((&history["rating_before"], &history["abandoned"]), (&json!(25.0), &json!(false)));
        if kind == winning_bot {
            assert_eq!(history["place"], 1);
            assert!(rating["rating"].as_f64().unwrap() > 25.0, "the winner's account gains: {rating}");
        }
        scores.push((kind, rating["score"].as_f64().unwrap()));
    }

    // The leaderboard, a page at a time, best score first.
    scores.sort_by(|a, b| b.1.total_cmp(&a.1));
    let first = app.get("/api/v1/leaderboards/base?limit=1", None);
    assert_eq!(first.status(), StatusCode::OK);
    let tag = first.headers()["etag"].to_str().unwrap().to_owned();
    assert!(first.headers()["cache-control"].to_str().unwrap().starts_with("public"));
    let first: Value = first.json().unwrap();
    assert!(first["model"].as_str().unwrap().contains("Weng-Lin"));
    assert_eq!(first["entries"][0]["rank"], 1);
    assert_eq!(first["entries"][0]["username"], format!("builtin:{}", scores[0].0));
    assert_eq!(first["entries"][0]["kind"], "builtin");
    let cursor = first["next_cursor"].as_str().unwrap();
    let second: Value = app.get(&format!("/api/v1/leaderboards/base?limit=1&cursor={cursor}"), None).json().unwrap();
    assert_eq!(second["entries"][0]["rank"], 2);
    assert_eq!(second["entries"][0]["username"], format!("builtin:{}", scores[1].0));
    let cursor = second["next_cursor"].as_str().unwrap();
    let third: Value = app.get(&format!("/api/v1/leaderboards/base?limit=1&cursor={cursor}"), None).json().unwrap();
    assert_eq!((&third["entries"], &third["next_cursor"]), (&json!([]), &Value::Null));
    let again = app.send(app.client.get(app.url("/api/v1/leaderboards/base?limit=1")).header("If-None-Match", &tag));
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    let empty: Value = app.get("/api/v1/leaderboards/wonders", None).json().unwrap();
    assert_eq!(empty["entries"], json!([]));
    assert_problem(app.get("/api/v1/leaderboards/chess", None), 404, "not_found");
    assert_problem(app.get("/api/v1/leaderboards/base?cursor=nonsense", None), 400, "invalid_query");
    assert_problem(app.get("/api/v1/leaderboards/base?limit=0", None), 400, "invalid_query");
}

/// Issue 34's full round: six seekers of mixed pools. Three meet in a base game as the third
/// seeks; two wait in Seafarers until one's bot fill starts their game; one waits alone in
/// Wonders and cancels.
fn a_matchmaking_round_of_six_seekers_in_mixed_pools(backend: Backend) {
    let app = spawn_production_app(backend);
    let users: Vec<User> = ["ann", "ben", "cat", "dan", "eve", "fay"].iter().map(|n| app.register(n)).collect();
    let base = json!({"pool": "base", "players": 3});
    let a = seek_ok(&app, &users[0], &base);
    assert_eq!((&a["status"], &a["rated"], &a["players"]), (&json!("waiting"), &json!(true), &json!(3)));
    let wonders = seek_ok(&app, &users[5], &json!({"pool": "wonders", "players": 3, "rated": false}));
    let b = seek_ok(&app, &users[1], &base);
    let d = seek_ok(&app, &users[3], &json!({"pool": "seafarers", "players": 3}));
    assert_eq!(b["status"], "waiting");
    let c = seek_ok(&app, &users[2], &base);
    assert_eq!(c["status"], "matched", "the third base seeker completes the game: {c}");
    let base_game = c["game_id"].as_str().unwrap().to_owned();
    assert_eq!(c["links"]["game"], format!("/api/v1/games/{base_game}"));
    // The others learn it by long-polling their seeks.
    for (user, placed) in [(&users[0], &a), (&users[1], &b)] {
        let seen = poll_seek(&app, user, placed["id"].as_str().unwrap(), 5);
        assert_eq!((&seen["status"], &seen["game_id"]), (&json!("matched"), &json!(base_game)));
    }
    let game = app.game(&base_game, None);
    assert_eq!((&game["status"], &game["rated"], &game["pool"]), (&json!("playing"), &json!(true), &json!("base")));
    let names: HashSet<&str> =
        game["players"].as_array().unwrap().iter().map(|p| p["username"].as_str().unwrap()).collect();
    assert_eq!(names, HashSet::from(["ann", "ben", "cat"]));
    assert_eq!(game["options"]["turn_timer_seconds"], 120);

    // Seafarers: two seekers of three seats wait, until eve's bot fill.
    let started = Instant::now();
    let e = seek_ok(
        &app,
        &users[4],
        &json!({"pool": "seafarers", "players": 3, "fill_with_bots_after": 1, "fill_bot": "random"}),
    );
    assert_eq!(e["status"], "waiting");
    let seen = poll_seek(&app, &users[3], d["id"].as_str().unwrap(), 20);
    assert_eq!(seen["status"], "matched", "{seen}");
    assert!(started.elapsed() >= Duration::from_millis(900), "filled before the seeker's time");
    let sea_game = seen["game_id"].as_str().unwrap().to_owned();
    assert_eq!(poll_seek(&app, &users[4], e["id"].as_str().unwrap(), 0)["game_id"], json!(sea_game));
    let game = app.game(&sea_game, None);
    assert_eq!((&game["pool"], &game["options"]["scenario"]), (&json!("seafarers"), &json!("new_shores")));
    let mut kinds: Vec<(String, String)> = game["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["kind"].as_str().unwrap().into(), p["username"].as_str().or(p["bot"].as_str()).unwrap().into()))
        .collect();
    kinds.sort();
    assert_eq!(
        kinds,
        [("builtin".into(), "random".into()), ("human".into(), "dan".into()), ("human".into(), "eve".into())]
    );

    // Fay waits alone; she cancels, and a matched seek cannot be.
    let fay_seek = wonders["id"].as_str().unwrap();
    assert_eq!(poll_seek(&app, &users[5], fay_seek, 1)["status"], "waiting");
    let cancel = |user: &User, id: &str| {
        app.send(app.client.delete(app.url(&format!("/api/v1/seeks/{id}"))).bearer_auth(&user.token))
    };
    assert_problem(cancel(&users[0], fay_seek), 404, "not_found");
    let cancelled = cancel(&users[5], fay_seek);
    assert_eq!(cancelled.status(), StatusCode::OK);
    assert_eq!(cancelled.json::<Value>().unwrap()["status"], "cancelled");
    assert_eq!(cancel(&users[5], fay_seek).json::<Value>().unwrap()["status"], "cancelled", "cancelling twice is once");
    assert_problem(cancel(&users[2], c["id"].as_str().unwrap()), 409, "seek_matched");
    // Another's seek is nobody's business.
    assert_problem(app.get(&format!("/api/v1/seeks/{fay_seek}"), Some(&users[0].token)), 404, "not_found");
}

/// Twelve seekers at once for three-seat games: four games, every seeker in exactly one, none
/// with a seat too few.
fn concurrent_seeks_seat_every_seeker_once(backend: Backend) {
    let app = spawn_production_app(backend);
    let users: Vec<(String, User)> =
        (0..12).map(|i| (format!("seeker{i}"), app.register(&format!("seeker{i}")))).collect();
    let placed: Vec<Value> = std::thread::scope(|scope| {
        let handles: Vec<_> = users
            .iter()
            .map(|(_, user)| {
                scope.spawn(|| seek_ok(&app, user, &json!({"pool": "base", "players": 3, "rated": false})))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut games: HashMap<String, Vec<String>> = HashMap::new();
    for ((name, user), seek) in users.iter().zip(&placed) {
        let seen = poll_seek(&app, user, seek["id"].as_str().unwrap(), 10);
        assert_eq!(seen["status"], "matched", "{name}: {seen}");
        games.entry(seen["game_id"].as_str().unwrap().into()).or_default().push(name.clone());
    }
    assert_eq!(games.len(), 4, "{games:?}");
    for (id, seekers) in &games {
        let game = app.game(id, None);
        let seated: HashSet<String> =
            game["players"].as_array().unwrap().iter().map(|p| p["username"].as_str().unwrap().to_owned()).collect();
        assert_eq!(seated.len(), 3, "{game}");
        assert_eq!(seated, seekers.iter().cloned().collect::<HashSet<_>>());
        assert_eq!((&game["status"], &game["rated"]), (&json!("playing"), &json!(false)));
    }
}

fn seeks_expire_are_cancelled_and_refuse_bad_requests(backend: Backend) {
    let app = spawn_production_app(backend);
    let user = app.register("lonely");
    let invalid = |body: Value| {
        let problem = assert_problem(seek(&app, &user, &body), 422, "invalid_seek");
        problem["errors"][0]["pointer"].as_str().unwrap().to_owned()
    };
    assert_eq!(invalid(json!({"pool": "five_six", "players": 4})), "#/players");
    assert_eq!(invalid(json!({"pool": "wonders", "players": 2})), "#/players");
    assert_eq!(invalid(json!({"pool": "base", "rating_range": {"min": 30, "max": 20}})), "#/rating_range");
    assert_eq!(invalid(json!({"pool": "base", "expires_after": 5})), "#/expires_after");
    assert_eq!(invalid(json!({"pool": "base", "fill_bot": "random"})), "#/fill_bot");
    assert_eq!(invalid(json!({"pool": "base", "fill_with_bots_after": 600})), "#/fill_with_bots_after");
    assert_problem(seek(&app, &user, &json!({"pool": "chess"})), 400, "malformed_body");
    assert_problem(app.get("/api/v1/seeks/not-a-uuid", Some(&user.token)), 404, "not_found");

    // With an Idempotency-Key, a retried seek is the first one, not a second in the queue.
    let body = json!({"pool": "cities_and_knights", "expires_after": 10});
    let keyed = || {
        app.send(
            app.client
                .post(app.url("/api/v1/seeks"))
                .bearer_auth(&user.token)
                .header("Idempotency-Key", "seek-1")
                .json(&body),
        )
    };
    let first = keyed();
    assert_eq!(first.status(), StatusCode::CREATED);
    let placed: Value = first.json().unwrap();
    let retried = keyed();
    assert_eq!(
        (retried.status(), retried.headers()["idempotent-replayed"].to_str().unwrap()),
        (StatusCode::CREATED, "true")
    );
    assert_eq!(retried.json::<Value>().unwrap()["id"], placed["id"]);
    assert_eq!(placed["players"], 4, "the pool's most seats by default");
    assert_problem(seek(&app, &user, &json!({"pool": "base"})), 409, "already_seeking");
    let id = placed["id"].as_str().unwrap();
    let started = Instant::now();
    let mut seen = poll_seek(&app, &user, id, 30);
    while seen["status"] == "waiting" && started.elapsed() < Duration::from_secs(30) {
        seen = poll_seek(&app, &user, id, 30);
    }
    assert_eq!(seen["status"], "expired", "{seen}");
    assert!(started.elapsed() >= Duration::from_secs(9), "expired early: {:?}", started.elapsed());
    // Once expired, the account may seek again.
    assert_eq!(seek(&app, &user, &json!({"pool": "base"})).status(), StatusCode::CREATED);
}

fn the_queue_shows_everyone_the_waiting_seeks_and_their_seekers(backend: Backend) {
    let app = spawn_production_app(backend);
    let queue = |query: &str| {
        let response = app.get(&format!("/api/v1/seeks{query}"), None);
        assert_eq!(response.status(), StatusCode::OK, "{query}");
        assert_eq!(response.headers()["cache-control"], "no-cache");
        response.json::<Value>().unwrap()["seeks"].as_array().unwrap().clone()
    };
    assert!(queue("").is_empty());
    let (ada, _) = register_as(&app, "ada", "human");
    let (bob, _) = register_as(&app, "bob-bot", "bot");
    let ranged = json!({"pool": "base", "players": 4, "rating_range": {"min": 10.0, "max": 40.0}});
    let adas = seek_ok(&app, &ada, &ranged);
    let bobs =
        seek_ok(&app, &bob, &json!({"pool": "seafarers", "players": 3, "rated": false, "fill_with_bots_after": 300}));
    // Bob has played rated Seafarers before: the queue shows his rating in the seek's pool.
    {
        let mut conn = app.pool.get().unwrap();
        let sql = "INSERT INTO ratings (user_id, pool, rating, deviation, score, games, updated_at) \
                   SELECT id, 'seafarers', 30.5, 4.0, 18.5, 7, created_at FROM users WHERE username = 'bob-bot'";
        diesel::RunQueryDsl::execute(diesel::sql_query(sql), &mut conn).unwrap();
    }

    let all = queue("");
    assert_eq!(all.len(), 2, "{all:?}");
    assert_eq!((&all[0]["id"], &all[1]["id"]), (&adas["id"], &bobs["id"]), "oldest first");
    assert_eq!(all[0]["pool"], "base");
    assert_eq!((all[0]["players"].as_u64(), all[0]["rated"].as_bool()), (Some(4), Some(true)));
    assert_eq!(all[0]["rating_range"], json!({"min": 10.0, "max": 40.0}));
    assert_eq!(all[0]["seeker"], json!({"username": "ada", "kind": "human"}), "no rating before a rated game");
    assert!(all[0].get("fill_at").is_none());
    assert_eq!(
        all[1]["seeker"],
        json!({"username": "bob-bot", "kind": "bot", "rating": {"rating": 30.5, "deviation": 4.0}})
    );
    assert_eq!(all[1]["fill_at"], bobs["fill_at"]);
    assert_eq!(all[1]["expires_at"], bobs["expires_at"]);
    assert_eq!(queue("?pool=seafarers").len(), 1);
    assert_eq!(queue("?pool=seafarers")[0]["id"], bobs["id"]);
    assert!(queue("?pool=wonders").is_empty());
    assert_eq!(queue("?limit=1").len(), 1);
    assert_eq!(queue("?limit=1")[0]["id"], adas["id"]);
    // The queue lists; only the seeker reads or cancels a seek by its id.
    let (eve, _) = register_as(&app, "eve", "human");
    assert_problem(
        app.get(&format!("/api/v1/seeks/{}", adas["id"].as_str().unwrap()), Some(&eve.token)),
        404,
        "not_found",
    );

    // A cancelled seek leaves the queue.
    let cancelled = app.send(
        app.client.delete(app.url(&format!("/api/v1/seeks/{}", adas["id"].as_str().unwrap()))).bearer_auth(&ada.token),
    );
    assert_eq!(cancelled.status(), StatusCode::OK);
    assert_eq!(queue("").len(), 1);

    for query in ["?pool=chess", "?limit=0", "?limit=101", "?limit=many"] {
        assert_problem(app.get(&format!("/api/v1/seeks{query}"), None), 400, "invalid_query");
    }
    assert_problem(app.get("/api/v1/seeks", Some("not-a-token")), 401, "unauthorized");
}
