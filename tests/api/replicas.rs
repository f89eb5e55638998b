//! Reads from replicas (`DATABASE_READ_URL`, issue 33): a read goes to a replica only when the
//! replica holds the game's latest version, so no client reads a version older than one the
//! server has told anyone about; a lagging or unreachable replica sends the read to the leader.
//!
//! The "replica" here is a second database that the test fills with a copy of the leader's
//! rows, and marks (a renamed player) so that the answers show where they were read.

use reqwest::StatusCode;
use serde_json::Value;

use crate::{
    helpers::{postgres, spawn_app_with, TestApp, User},
    processes::server_command,
};

/// The tables a game's view and log are read from, parents first.
const TABLES: [&str; 4] = ["users", "games", "game_players", "game_moves"];

/// Makes `replica` an exact copy of `leader`'s games, then marks every player's name there.
fn catch_up(leader: &str, replica: &str) {
    let mut from = ::postgres::Client::connect(leader, ::postgres::NoTls).unwrap();
    let mut to = ::postgres::Client::connect(replica, ::postgres::NoTls).unwrap();
    to.batch_execute(&format!("TRUNCATE {} CASCADE", TABLES.join(", "))).unwrap();
    for table in TABLES {
        let mut rows = Vec::new();
        std::io::Read::read_to_end(&mut from.copy_out(&format!("COPY {table} TO STDOUT")).unwrap(), &mut rows).unwrap();
        let mut writer = to.copy_in(&format!("COPY {table} FROM STDIN")).unwrap();
        std::io::Write::write_all(&mut writer, &rows).unwrap();
        writer.finish().unwrap();
    }
    to.batch_execute("UPDATE users SET username = username || '-r'").unwrap();
}

/// The game as a spectator reads it: its version, and whether it was read on the replica
/// (its first player's name bears the replica's mark).
fn seen(app: &TestApp, id: &str) -> (i64, bool) {
    let game: Value = app.get(&format!("/api/v1/games/{id}"), None).json().unwrap();
    (game["version"].as_i64().unwrap(), game["players"][0]["username"].as_str().unwrap().ends_with("-r"))
}

/// Plays the active seat's first legal move.
fn play(app: &TestApp, id: &str, users: &[User]) {
    let seat = crate::games::active_seat(app, id);
    let mv = app.legal_moves(id, &users[seat])["moves"][0].clone();
    let moved = app.post(&format!("/api/v1/games/{id}/moves"), Some(&users[seat].token), &mv);
    assert_eq!(moved.status(), StatusCode::CREATED);
}

#[test]
fn reads_go_to_a_replica_only_when_it_holds_the_latest_version() {
    let leader = postgres::fresh_database();
    let replica = postgres::fresh_database();
    // The replica's tables, as a server makes them (a replica is never migrated by one).
    let migrated = server_command(&replica).arg("migrate").output().unwrap();
    assert!(migrated.status.success(), "{}", String::from_utf8_lossy(&migrated.stderr));
    let app = spawn_app_with(Some(leader.clone()), |config| config.read_database_url = Some(replica.clone()));
    let (id, users) = app.started_game(2, 36);
    play(&app, &id, &users);

    // The replica lacks the game altogether: the leader answers.
    assert_eq!(seen(&app, &id), (2, false));

    // Caught up (the next version: the view of version 2 is in the server's memory now).
    play(&app, &id, &users);
    catch_up(&leader, &replica);
    assert_eq!(seen(&app, &id), (3, true), "read on the replica");
    let log: Value = app.get(&format!("/api/v1/games/{id}/moves?after=0"), None).json().unwrap();
    assert_eq!(log["version"], 3);

    // The leader moves on and the replica lags: the leader answers, at the new version.
    play(&app, &id, &users);
    assert_eq!(seen(&app, &id), (4, false), "never the replica's older version");
    let log: Value = app.get(&format!("/api/v1/games/{id}/moves?after=2"), None).json().unwrap();
    assert_eq!((log["version"].as_i64(), log["entries"].as_array().map(Vec::len)), (Some(4), Some(2)));
}

#[test]
fn an_unreachable_replica_sends_reads_to_the_leader_and_a_replica_beside_sqlite_is_refused() {
    let leader = postgres::fresh_database();
    // Nothing listens on port 9 of the loopback: every replica connection is refused.
    let nowhere = "postgres://postgres@127.0.0.1:9/catan".to_owned();
    let app = spawn_app_with(Some(leader), |config| config.read_database_url = Some(nowhere.clone()));
    let (id, users) = app.started_game(2, 37);
    play(&app, &id, &users);
    assert_eq!(seen(&app, &id).0, 2);
    let log = app.get(&format!("/api/v1/games/{id}/moves?after=0"), None);
    assert_eq!(log.status(), StatusCode::OK);

    let mut config = catan_server::config::Config {
        data_dir: std::env::temp_dir().join(format!("catan-replica-{}", std::process::id())),
        read_database_url: Some(nowhere),
        ..Default::default()
    };
    config.database_url = None;
    let refused = catan_server::startup::open_read_replicas(&config).unwrap_err();
    assert!(refused.to_string().contains("DATABASE_READ_URL"), "{refused}");
}
