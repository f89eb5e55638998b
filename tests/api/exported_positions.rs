//! A game's position as the caller may see it (`GET /games/{id}/position`, issue 31 part 4):
//! in games of every ruleset, each reader's position hides what its game view hides (no other
//! seat's hand, no seed before the end), and a seat's own position sent to
//! `POST /positions/legal-moves` answers exactly what `GET .../legal-moves` answers it.

use rand::{rngs::StdRng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{assert_problem, spawn_app, Backend, TestApp, User},
    imports::finished_game,
    records::{play_humans, rulesets, with},
};

both_backends!(
    each_reader_s_position_hides_what_it_may_not_see_and_answers_its_legal_moves,
    finished_games_show_whole_positions_and_bad_requests_are_refused
);

fn position(app: &TestApp, id: &str, token: Option<&str>, at: Option<i64>) -> Value {
    let query = at.map(|at| format!("?at={at}")).unwrap_or_default();
    let response = app.get(&format!("/api/v1/games/{id}/position{query}"), token);
    assert_eq!(response.status(), StatusCode::OK);
    response.json().unwrap()
}

/// Asserts that `position` (for `reader`, or a spectator) shows no card of another seat but
/// the victory point progress cards, which lie face up, and no seed.
fn assert_hidden(position: &Value, reader: Option<u64>) {
    assert_eq!(position["seed"], 0, "a seed before the end");
    let hides = |value: &Value| value.as_object().unwrap().values().all(|n| n == 0);
    for (index, seat) in position["seats"].as_array().unwrap().iter().enumerate() {
        if Some(index as u64) == reader {
            assert!(seat.get("hidden").is_none(), "the reader's own cards are hidden: {seat}");
            continue;
        }
        assert!(seat["hidden"].is_object(), "seat {index} is shown to {reader:?}: {seat}");
        for cards in ["resources", "dev_cards", "new_dev_cards"] {
            assert!(seat.get(cards).is_none_or(hides), "seat {index}'s {cards} shown to {reader:?}: {seat}");
        }
        assert!(seat.get("commodities").is_none_or(hides), "seat {index}'s commodities shown: {seat}");
    }
    for (seat, cards) in position["cities_knights"]["progress"].as_array().into_iter().flatten().map(|p| (&p[0], &p[1]))
    {
        if seat.as_u64() == reader {
            continue;
        }
        for (card, count) in cards.as_object().unwrap() {
            let face_up = ["printer", "constitution"].contains(&card.as_str());
            assert!(face_up || count == 0, "seat {seat}'s face-down progress card {card} shown to {reader:?}");
        }
    }
    assert!(position["unseen"].is_object());
}

/// Compares the seat's legal moves in its exported position with `GET .../legal-moves`, at
/// one version (bots move meanwhile: read again until both reads agree on it).
fn assert_same_legal_moves(app: &TestApp, id: &str, seat: u64, user: &User) -> bool {
    for _ in 0..20 {
        let before = app.legal_moves(id, user);
        let exported = position(app, id, Some(&user.token), None);
        let after = app.legal_moves(id, user);
        if before["version"] != after["version"] || exported["at"] != before["version"] {
            continue;
        }
        assert_eq!(exported["redaction"], "seat");
        assert_eq!(exported["seat"], seat);
        let body = json!({"format": exported["format"], "version": exported["version"],
                          "position": exported["position"], "seat": seat});
        let response = app.post("/api/v1/positions/legal-moves", None, &body);
        let status = response.status();
        let analysed: Value = response.json().unwrap();
        assert_eq!(status, StatusCode::OK, "the exported position is refused: {analysed}");
        for field in ["you", "waiting_for", "may_offer_trade", "moves"] {
            assert_eq!(analysed[field], before[field], "seat {seat}'s {field} at version {}", before["version"]);
        }
        // For another seat, the position holds a deal of the unseen cards, not its hand.
        let other = json!({"position": exported["position"], "seat": (seat + 1) % 2});
        assert_problem(app.post("/api/v1/positions/legal-moves", None, &other), 422, "seat_hidden");
        return !before["moves"].as_array().unwrap().is_empty();
    }
    panic!("the game never held still for two reads");
}

fn each_reader_s_position_hides_what_it_may_not_see_and_answers_its_legal_moves(backend: Backend) {
    let app = spawn_app(backend);
    let stranger = app.register("stranger");
    let mut rng = StdRng::seed_from_u64(7);
    let mut with_moves = 0;
    for (i, ruleset) in rulesets().iter().enumerate() {
        let players = ruleset["max_players"].as_u64().unwrap() as usize;
        let request = with(ruleset, &json!({"seed": 400 + i, "board": "random"}));
        let tag = format!("{i}-{}", &uuid::Uuid::new_v4().simple().to_string()[..6]);
        let users = [app.register(&format!("cleo{tag}")), app.register(&format!("dan{tag}"))];
        let id = app.create_game(&users[0], &request)["id"].as_str().unwrap().to_owned();
        assert_eq!(app.join(&id, &users[1]).status(), StatusCode::CREATED);
        for _ in 2..players {
            let added =
                app.post(&format!("/api/v1/games/{id}/players"), Some(&users[0].token), &json!({"bot": "heuristic"}));
            assert_eq!(added.status(), StatusCode::CREATED);
        }
        assert_problem(app.get(&format!("/api/v1/games/{id}/position"), None), 422, "seq_out_of_range");
        assert_eq!(app.start(&id, &users[0]).status(), StatusCode::OK);
        for entries in [20, 60, 100] {
            play_humans(&app, &id, &users, entries, &mut rng);
            if app.game(&id, None)["status"] == "finished" {
                break;
            }
            for (reader, token) in [
                (None, None),
                (None, Some(&stranger.token)),
                (Some(0), Some(&users[0].token)),
                (Some(1), Some(&users[1].token)),
            ] {
                let exported = position(&app, &id, token.map(String::as_str), None);
                assert_eq!(exported["format"], "catan-position");
                assert_eq!(exported["redaction"], if reader.is_some() { "seat" } else { "spectator" });
                assert_hidden(&exported["position"], reader);
                // A past position too, redacted the same way.
                let past = position(&app, &id, token.map(String::as_str), Some(entries / 2));
                assert_eq!(past["at"], entries / 2);
                assert_hidden(&past["position"], reader);
            }
            for (seat, user) in users.iter().enumerate() {
                if assert_same_legal_moves(&app, &id, seat as u64, user) {
                    with_moves += 1;
                }
            }
        }
    }
    assert!(with_moves > 10, "too few positions in which the seat had moves: {with_moves}");
}

fn finished_games_show_whole_positions_and_bad_requests_are_refused(backend: Backend) {
    let app = spawn_app(backend);
    let host = app.register("host");
    let id = finished_game(&app, &host, &json!({"variant": "cities_and_knights", "max_players": 3}), 5, 30);
    let game = app.game(&id, None);
    for at in [None, Some(10)] {
        let whole = position(&app, &id, None, at);
        assert_eq!(whole["redaction"], "full");
        assert_eq!(whole["position"]["seed"], game["seed"], "the seed, once the game is over");
        assert!(whole["position"].get("unseen").is_none());
        assert!(whole["position"]["seats"].as_array().unwrap().iter().all(|s| s.get("hidden").is_none()));
    }
    // The final position is a position the analysis takes, for any seat.
    let whole = position(&app, &id, None, None);
    let analysed = app.post("/api/v1/positions/legal-moves", None, &json!({"position": whole["position"], "seat": 1}));
    assert_eq!(analysed.status(), StatusCode::OK);
    let version = game["version"].as_i64().unwrap();
    assert_problem(app.get(&format!("/api/v1/games/{id}/position?at={}", version + 1), None), 422, "seq_out_of_range");
    assert_problem(app.get(&format!("/api/v1/games/{id}/position?at=0"), None), 400, "invalid_query");
    assert_problem(app.get(&format!("/api/v1/games/{id}/position?at=x"), None), 400, "invalid_query");
    assert_problem(app.get(&format!("/api/v1/games/{}/position", uuid::Uuid::now_v7()), None), 404, "not_found");
    assert_problem(app.get(&format!("/api/v1/games/{id}/position"), Some("not-a-token")), 401, "unauthorized");
}
