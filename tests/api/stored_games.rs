//! A game stored by one version of the server loads in every later one (docs/stored-games.md,
//! "Stored games"). The engine's format-1 fixture games (`engine/tests/fixtures/format1/`, recorded
//! by main before the storage format got a version) are written into the database exactly as
//! that server wrote them: the bare JSON array of events per log entry, the bare `Game` as
//! snapshot, the trade-offer projection. This server must show them, list their legal moves
//! and play on — over HTTP, with the very events the recorded game had — and rebuild their
//! snapshots in the current format (on load, and for every stored game when it starts).

use catan_engine::{protocol::versioned, Event, Seat};
use catan_server::{
    store::schema::{game_moves, game_players, games},
    store::{self, GameRow, MoveRow},
};
use diesel::{ExpressionMethods, QueryDsl, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use crate::helpers::{postgres, spawn_app_at, Backend, TestApp, User};

/// A format-1 fixture game.
struct Fixture {
    json: Value,
}

impl Fixture {
    fn load(name: &str) -> Fixture {
        let path = format!("{}/engine/tests/fixtures/format1/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        Fixture { json: serde_json::from_str(&text).expect("fixture JSON") }
    }

    fn players(&self) -> usize {
        self.json["config"]["players"].as_u64().expect("players") as usize
    }

    /// The moves that followed in the recorded game: (seat, move, the events stored for it).
    fn continuation(&self) -> Vec<(Seat, Value, Vec<Event>)> {
        self.json["continuation"]
            .as_array()
            .expect("continuation")
            .iter()
            .map(|step| {
                let events = versioned::decode_events(&step["events"].to_string()).expect("events upcast");
                (Seat(step["seat"].as_u64().expect("seat") as u8), step["move"].clone(), events)
            })
            .collect()
    }
}

/// Writes `fixture` into the database as the format-1 server stored it; returns the game id
/// and the users by seat.
fn store_as_format_one(app: &TestApp, fixture: &Fixture) -> (String, Vec<User>) {
    let tag = &Uuid::new_v4().simple().to_string()[..8];
    let users: Vec<User> = (0..fixture.players()).map(|i| app.register(&format!("old{i}-{tag}"))).collect();
    let mut conn = app.pool.get().expect("a connection");
    let user_ids: Vec<String> = (0..fixture.players())
        .map(|i| store::find_user_by_name(&mut conn, &format!("old{i}-{tag}")).unwrap().expect("user").id)
        .collect();
    let id = Uuid::now_v7().to_string();
    let entries = fixture.json["entries"].as_array().expect("entries");
    let now = store::now();
    let over = fixture.json["snapshot"]["winner"].is_u64();
    let row = GameRow {
        rated: false,
        pool: None,
        id: id.clone(),
        created_by: user_ids[0].clone(),
        status: if over { "finished" } else { "playing" }.into(),
        max_players: fixture.players() as i32,
        config: fixture.json["config"].to_string(),
        seed: fixture.json["seed"].as_i64().expect("seed"),
        version: entries.len() as i64,
        snapshot: Some(fixture.json["snapshot"].to_string()),
        created_at: now,
        updated_at: now,
        seeded: true,
        imported_from: None,
        position: None,
    };
    diesel::insert_into(games::table).values(&row).execute(&mut conn).expect("insert the game");
    for (seat, user) in user_ids.iter().enumerate() {
        diesel::insert_into(game_players::table)
            .values((
                game_players::game_id.eq(&id),
                game_players::seat.eq(seat as i32),
                game_players::user_id.eq(user),
                game_players::joined_at.eq(now),
            ))
            .execute(&mut conn)
            .expect("seat a player");
    }
    for entry in entries {
        let events = entry["events"].to_string();
        assert!(events.starts_with('['), "format 1 stored a bare array");
        let stored = MoveRow {
            game_id: id.clone(),
            seq: entry["seq"].as_i64().expect("seq"),
            seat: entry["seat"].as_i64().map(|s| s as i32),
            kind: entry["kind"].as_str().expect("kind").into(),
            move_body: entry["move"].is_object().then(|| entry["move"].to_string()),
            events: events.clone(),
            idempotency_key: None,
            created_at: now,
            bot: None,
            // Written before entries kept what follows them: filled in by replay when read.
            phase: None,
            waiting_for: None,
            chance: None,
        };
        diesel::insert_into(game_moves::table).values(&stored).execute(&mut conn).expect("insert an entry");
        // The trade-offer projection, as the old server kept it beside each entry.
        let decoded = versioned::decode_events(&events).expect("events upcast");
        catan_server::store::trades::project(&mut conn, &id, stored.seq, now, &decoded).expect("project offers");
    }
    (id, users)
}

/// Plays the recorded continuation over HTTP and checks every stored event.
fn play_on_as_recorded(app: &TestApp, id: &str, users: &[User], fixture: &Fixture) {
    let mut version = fixture.json["entries"].as_array().expect("entries").len() as i64;
    for (step, (seat, mv, expected)) in fixture.continuation().into_iter().enumerate() {
        let user = &users[seat.index()];
        let listed = app.legal_moves(id, user);
        let is_offer = mv["type"] == "offer_trade";
        assert!(
            is_offer || listed["moves"].as_array().expect("moves").contains(&mv),
            "step {step}: {mv} is not listed for seat {seat}"
        );
        let response = app.submit(id, user, &mv);
        assert_eq!(response.status().as_u16(), 201, "step {step}: {mv}: {}", response.text().unwrap_or_default());
        version += 1;
        let mut conn = app.pool.get().expect("a connection");
        let uuid = Uuid::parse_str(id).expect("uuid");
        let entry = store::load_moves(&mut conn, uuid, version - 1, 1).expect("the entry").pop().expect("stored");
        assert!(entry.events.starts_with(r#"{"format":"#), "new entries carry their format");
        assert_eq!(entry.events().expect("events read"), expected, "step {step}: {mv}");
    }
    let check = app.check_replay(id);
    assert!(check.contiguous && check.matches_snapshot, "the log replays to the snapshot: {check:?}");
}

fn stored_snapshot(app: &TestApp, id: &str) -> String {
    let mut conn = app.pool.get().expect("a connection");
    games::table.find(id).select(games::snapshot).first::<Option<String>>(&mut conn).expect("row").expect("snapshot")
}

fn database_url(backend: Backend) -> String {
    match backend {
        Backend::Sqlite => {
            let dir = std::env::temp_dir().join(format!("catan-stored-{}", Uuid::new_v4().simple()));
            std::fs::create_dir_all(&dir).expect("temp dir");
            dir.join("catan.sqlite3").to_string_lossy().into_owned()
        }
        Backend::Postgres => postgres::fresh_database(),
    }
}

fn format_one_games_load_and_play_on(backend: Backend) {
    let url = database_url(backend);
    let app = spawn_app_at(Some(url.clone()));

    // Read on load: the outdated snapshot is rebuilt from the log when the game is read.
    let trades = Fixture::load("base_4p_trades_and_cards");
    let (id, users) = store_as_format_one(&app, &trades);
    let view = app.game(&id, Some(&users[0].token));
    assert_eq!(view["turn"]["phase"]["name"], "discard", "cut while seats owe a discard: {view}");
    assert_eq!(view["turn"]["then"][0]["name"], "move_robber");
    assert_eq!(view["turn"]["waiting_for"], serde_json::json!([1, 2]));
    let log = app.log(&id, Some(&users[0].token), 0);
    let entries = log["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 239, "the whole old log reads");
    // Old entries did not keep what the game waits for after them: filled in by replay.
    let last = entries.last().unwrap();
    assert_eq!(last["waiting_for"], view["turn"]["waiting_for"], "{last}");
    assert_eq!(last["phase"], "discard");
    assert_eq!(entries[0]["phase"], "setup");
    play_on_as_recorded(&app, &id, &users, &trades);

    // Rebuilt at start-up: a server starting on the database rewrites every old snapshot.
    let gold = Fixture::load("big_river_gold_choice");
    let (gold_id, gold_users) = store_as_format_one(&app, &gold);
    let finished = Fixture::load("base_4p_finished");
    let (finished_id, finished_users) = store_as_format_one(&app, &finished);
    assert!(!stored_snapshot(&app, &gold_id).starts_with(r#"{"format":"#));
    drop(app);
    let app = spawn_app_at(Some(url.clone()));
    for game in [&gold_id, &finished_id] {
        let snapshot = stored_snapshot(&app, game);
        assert!(snapshot.starts_with(&format!(r#"{{"format":{},"#, versioned::FORMAT)), "rebuilt: {game}");
    }
    play_on_as_recorded(&app, &gold_id, &gold_users, &gold);
    let over = app.game(&finished_id, Some(&finished_users[1].token));
    assert_eq!(over["winner"], 1, "the finished game still shows its winner");
    assert!(app.check_replay(&finished_id).matches_snapshot);
    // Its record (issue 31 part 5): decided again with the game's own chance, every move of
    // the old log gives its stored events, so the record carries each move's chance.
    let response = app.get(&format!("/api/v1/games/{finished_id}/record"), None);
    assert_eq!(response.status().as_u16(), 200, "the record of a format-1 game");
    let record: Value = response.json().expect("a record");
    assert_eq!(record["redaction"], "full");
    let entries = record["entries"].as_array().expect("entries");
    assert!(entries.iter().all(|entry| entry["chance"].is_array()));
    let rolled = |entry: &Value| entry["chance"].as_array().unwrap().iter().any(|pick| pick["draw"] == "red_die");
    assert!(entries.iter().any(rolled), "the dice of the old game are in its record");

    // The other way round: data in a format newer than this server's is never misread; the
    // server refuses to start on it and says why.
    {
        let mut conn = app.pool.get().expect("a connection");
        let newer = versioned::FORMAT + 1;
        diesel::update(games::table.find(&gold_id))
            .set(games::snapshot.eq(Some(format!(r#"{{"format":{newer},"game":{{}}}}"#))))
            .execute(&mut conn)
            .expect("a newer snapshot");
        diesel::update(game_moves::table.filter(game_moves::game_id.eq(&gold_id)))
            .set(game_moves::events.eq(format!(r#"{{"format":{newer},"events":[]}}"#)))
            .execute(&mut conn)
            .expect("newer entries");
    }
    drop(app);
    let dir = std::env::temp_dir().join(format!("catan-newer-{}", Uuid::new_v4().simple()));
    let config = catan_server::config::Config {
        bind: "127.0.0.1:0".into(),
        data_dir: dir.clone(),
        database_url: Some(url),
        jwt_secret: Some("test-secret".into()),
        ..Default::default()
    };
    let refused = catan_server::startup::Application::build(&config).err().expect("an older server refuses newer data");
    assert!(refused.to_string().contains("newer"), "{refused}");
    let _ = std::fs::remove_dir_all(dir);
}

crate::both_backends!(format_one_games_load_and_play_on);
