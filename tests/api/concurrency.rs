//! Many clients submitting moves to one game at once: no gaps, no duplicates, no lost
//! moves, and the log still replays to the snapshot.

use std::sync::{Arc, Mutex};

use rand::{rngs::StdRng, Rng, SeedableRng};
use serde_json::Value;

use crate::{
    both_backends,
    helpers::{spawn_app, Backend},
};

const CLIENTS_PER_SEAT: usize = 3;
const ATTEMPTS_PER_CLIENT: usize = 25;

both_backends!(concurrent_moves_never_collide);

fn concurrent_moves_never_collide(backend: Backend) {
    let app = Arc::new(spawn_app(backend));
    let (id, users) = app.started_game(4, 31);
    let accepted = Arc::new(Mutex::new(Vec::<i64>::new()));

    let threads: Vec<_> = (0..users.len() * CLIENTS_PER_SEAT)
        .map(|client| {
            let app = Arc::clone(&app);
            let user = users[client % users.len()].clone();
            let id = id.clone();
            let accepted = Arc::clone(&accepted);
            std::thread::spawn(move || {
                let mut rng = StdRng::seed_from_u64(client as u64);
                for attempt in 0..ATTEMPTS_PER_CLIENT {
                    let legal = app.legal_moves(&id, &user);
                    let moves = legal["moves"].as_array().unwrap();
                    if moves.is_empty() {
                        std::thread::yield_now();
                        continue;
                    }
                    let mv = &moves[rng.gen_range(0..moves.len())];
                    // Half the clients race blind, half with If-Match.
                    let mut request = app
                        .client
                        .post(app.url(&format!("/api/v1/games/{id}/moves")))
                        .bearer_auth(&user.token)
                        .json(mv);
                    if (client + attempt) % 2 == 0 {
                        request = request.header("If-Match", format!("\"v{}\"", legal["version"]));
                    }
                    let response = request.send().unwrap();
                    let status = response.status().as_u16();
                    let body: Value = response.json().unwrap();
                    match status {
                        201 => accepted.lock().unwrap().push(body["version"].as_i64().unwrap()),
                        409 | 412 | 422 => assert!(body["code"].is_string()),
                        other => panic!("unexpected {other}: {body}"),
                    }
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("client thread");
    }

    let mut accepted = accepted.lock().unwrap().clone();
    accepted.sort_unstable();
    let check = app.check_replay(&id);
    assert!(check.contiguous, "gaps or duplicates: {check:?}");
    assert!(check.matches_snapshot, "log does not replay: {check:?}");
    // Every accepted move is in the log exactly once, at the version it was told.
    let expected: Vec<i64> = (2..=check.version).collect();
    assert_eq!(accepted, expected, "accepted versions vs the log");
    assert!(accepted.len() >= 10, "too few moves got through: {}", accepted.len());
}

both_backends!(concurrent_joins_fill_each_seat_once);

fn concurrent_joins_fill_each_seat_once(backend: Backend) {
    let app = Arc::new(spawn_app(backend));
    let owner = app.register("owner");
    let game = app.create_game(&owner, &serde_json::json!({"max_players": 4}));
    let id = game["id"].as_str().unwrap().to_owned();
    let joiners: Vec<_> = (0..6).map(|i| app.register(&format!("joiner{i}"))).collect();

    let threads: Vec<_> = joiners
        .into_iter()
        .map(|user| {
            let app = Arc::clone(&app);
            let id = id.clone();
            std::thread::spawn(move || {
                let response = app.join(&id, &user);
                let status = response.status().as_u16();
                let body: Value = response.json().unwrap();
                (status, body)
            })
        })
        .collect();
    let results: Vec<(u16, Value)> = threads.into_iter().map(|t| t.join().unwrap()).collect();

    let joined = results.iter().filter(|(status, _)| *status == 201).count();
    assert_eq!(joined, 3, "{results:?}");
    for (status, body) in &results {
        if *status != 201 {
            assert_eq!((*status, body["code"].as_str()), (409, Some("game_full")));
        }
    }
    let game = app.game(&id, None);
    let seats: Vec<u64> = game["players"].as_array().unwrap().iter().map(|p| p["seat"].as_u64().unwrap()).collect();
    assert_eq!(seats, vec![0, 1, 2, 3]);
}
