//! The bot ladder on a server (issue 34, part 5): `accept_chosen_seed` lets an account into a
//! seeded game whose host does not play, and the ladder's server venue plays an account's
//! program (here a thread of this test playing over HTTP) against the built-in bots in
//! seeded round-robin games, reading the finish order from the finished games.

use std::collections::BTreeSet;

use reqwest::StatusCode;
use serde_json::{json, Value};

use catan_engine::bots::BotKind;
use catan_server::rated::{
    ladder::{
        remote::{Server, ServerOptions},
        Entrant, Ladder,
    },
    Pool,
};

use crate::{
    bot_loop::play_by_the_book,
    both_backends,
    helpers::{assert_problem, spawn_production_app, Backend, TestApp, User},
};

both_backends!(
    a_seeded_game_takes_an_account_that_accepts_its_seed_only_from_a_host_who_does_not_play,
    a_server_ladder_plays_an_accounts_program_against_the_built_in_bots
);

fn join(app: &TestApp, game: &str, user: &User, body: &Value) -> reqwest::blocking::Response {
    app.post(&format!("/api/v1/games/{game}/players"), Some(&user.token), body)
}

fn a_seeded_game_takes_an_account_that_accepts_its_seed_only_from_a_host_who_does_not_play(backend: Backend) {
    let app = spawn_production_app(backend);
    let (host, ada) = (app.register("host"), app.register("ada"));
    let hosted = app.create_game(&host, &json!({"seed": 5, "seat_creator": false, "max_players": 2}));
    let hosted = hosted["id"].as_str().unwrap();
    // Without accepting the seed: refused, and nothing is seated.
    let refused = assert_problem(app.join(hosted, &ada), 422, "seeded_game");
    assert!(refused["detail"].as_str().unwrap().contains("accept_chosen_seed"), "{refused}");
    assert_problem(join(&app, hosted, &ada, &json!({"accept_chosen_seed": false})), 422, "seeded_game");
    assert_eq!(app.game(hosted, Some(&host.token))["players"].as_array().unwrap().len(), 0);
    let seated = join(&app, hosted, &ada, &json!({"accept_chosen_seed": true}));
    assert_eq!(seated.status(), StatusCode::CREATED);
    // Nobody reads the seed before the game is over, the host neither.
    assert!(app.game(hosted, Some(&host.token))["seed"].is_null());
    assert_eq!(app.game(hosted, Some(&ada.token))["seeded"], true);

    // A creator who plays in the game knows its dice: accepting does not let anyone in.
    let played = app.create_game(&host, &json!({"seed": 6, "max_players": 2}));
    let played = played["id"].as_str().unwrap();
    let refused = assert_problem(join(&app, played, &ada, &json!({"accept_chosen_seed": true})), 422, "seeded_game");
    assert!(refused["detail"].as_str().unwrap().contains("plays in it"), "{refused}");
    // A game without a chosen seed does not care.
    let open = app.create_game(&host, &json!({"max_players": 2}));
    let response = join(&app, open["id"].as_str().unwrap(), &ada, &json!({"accept_chosen_seed": true}));
    assert_eq!(response.status(), StatusCode::CREATED);
}

/// Ada's program: plays every game she is seated in as it starts, `games` in all, the way
/// docs/bots.md tells a bot to; returns the ids it played.
fn adas_program(app: &TestApp, ada: &User, games: usize) -> Vec<String> {
    let mut played: Vec<String> = Vec::new();
    let started = std::time::Instant::now();
    while played.len() < games {
        assert!(started.elapsed() < std::time::Duration::from_secs(300), "no new game for ada");
        let list = app.get("/api/v1/games?mine=true&status=playing", Some(&ada.token));
        let list: Value = list.json().unwrap();
        let waiting: Vec<String> = list["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|game| game["id"].as_str().unwrap().to_owned())
            .filter(|id| !played.contains(id))
            .collect();
        if waiting.is_empty() {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        for id in waiting {
            play_by_the_book(app, &id, ada, played.len() as u64);
            played.push(id);
        }
    }
    played
}

fn a_server_ladder_plays_an_accounts_program_against_the_built_in_bots(backend: Backend) {
    let app = spawn_production_app(backend);
    let ada = app.register("ada");
    let host = app.register("ladder-host");
    let entrants = vec![Entrant::Builtin(BotKind::Random), Entrant::Account("ada".into())];
    // Three seats: ada in one, the random bot in two; a group is the three rotations.
    let ladder = Ladder::new(3, 3, vec![(Pool::Base, 3)], entrants.clone()).unwrap();

    // A token that is someone else's, or a host who is an entrant, is refused before any game.
    let options = |accounts: Vec<(String, String)>, host: &User| ServerOptions {
        url: app.base.clone(),
        host_token: Some(host.token.clone()),
        accounts,
        turn_timer_seconds: 30,
        patience: std::time::Duration::from_secs(300),
    };
    let wrong = Server::connect(options(vec![("ada".into(), host.token.clone())], &host)).err().unwrap();
    assert!(wrong.contains("is ladder-host's"), "{wrong}");
    let hosting = Server::connect(options(vec![("ada".into(), ada.token.clone())], &ada)).err().unwrap();
    assert!(hosting.contains("is an entrant"), "{hosting}");
    let bad_url = ServerOptions { url: "https://example.org".into(), ..options(vec![], &host) };
    assert!(Server::connect(bad_url).err().unwrap().contains("plain http://"));

    let (server, host_name) = Server::connect(options(vec![("ada".into(), ada.token.clone())], &host)).unwrap();
    assert_eq!(host_name, "ladder-host");
    let tables = std::thread::scope(|scope| {
        let program = scope.spawn(|| adas_program(&app, &ada, 3));
        let tables = ladder.run_at(&server, 1, &mut |_, _, _| {}).unwrap();
        (tables, program.join().unwrap())
    });
    let (tables, played) = tables;
    let table = &tables[0];
    assert_eq!((table.games, table.unfinished, table.abandoned), (3, 0, 0), "{}", table.markdown());
    let row = |entrant: &Entrant| table.rows.iter().find(|row| &row.entrant == entrant).unwrap();
    let (bot, account) = (row(&entrants[0]), row(&entrants[1]));
    assert_eq!((account.games, account.seats), (3, 3), "one seat a game: {}", table.markdown());
    assert_eq!((bot.games, bot.seats), (3, 6), "{}", table.markdown());
    assert_eq!(account.seats_won + bot.seats_won, 3, "every game has one winner");
    assert!(table.markdown().contains("| ada | 3 | 3 |"), "{}", table.markdown());

    // The games on the server: seeded by the ladder, hosted by a host without a seat, unrated,
    // ada's seat rotating through the three seats, finished with the winner the table counts.
    assert_eq!(played.len(), 3);
    let mut adas_seats = BTreeSet::new();
    let mut adas_wins = 0;
    for (number, id) in played.iter().enumerate() {
        let game = app.game(id, Some(&host.token));
        assert_eq!(game["status"], "finished");
        assert_eq!(game["seeded"], true);
        assert_eq!(game["rated"], false);
        let seed = catan_server::rated::ladder::game_seed(3, Pool::Base, 3, number as u32) & (i64::MAX as u64);
        assert_eq!(game["seed"], seed, "game {number} is the ladder's game {number}");
        let players = game["players"].as_array().unwrap();
        assert_eq!(players.len(), 3);
        let seat = players.iter().position(|p| p["username"] == "ada").unwrap();
        assert_eq!(players.iter().filter(|p| p["bot"] == "random").count(), 2);
        adas_seats.insert(seat);
        adas_wins += u32::from(game["winner"] == seat);
    }
    assert_eq!(adas_seats.len(), 3, "ada held every seat once");
    assert_eq!(adas_wins, account.seats_won);
}
