//! Cities & Knights over HTTP (RULES 8.6, CK): creating games of the variant, the combinations
//! the rules refuse, and a complete game on both backends in which three people play over HTTP
//! against a heuristic bot. Every state they read is checked for what Cities & Knights
//! adds to the game resource (the barbarians, improvements, knights, walls, commodities) and
//! for hidden information: other seats' commodities and progress cards appear only as counts,
//! in the game resource and in the log, until the game is over.

use std::time::{Duration, Instant};

use catan_engine::{bots::RandomBot, Move};
use rand::{rngs::StdRng, Rng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{assert_problem, spawn_app, Backend, TestApp, User},
};

/// Commodity cards in a game: 12 each of paper, cloth and coin (CK-CMP-1).
const COMMODITIES: u64 = 36;
const COMMODITY: [&str; 3] = ["paper", "cloth", "coin"];
const GAME_TIMEOUT: Duration = Duration::from_secs(600);
const GAME_SEED: u64 = 3;

both_backends!(
    cities_and_knights_games_are_created_by_variant_and_refused_in_combinations_it_does_not_have,
    a_cities_and_knights_game_is_played_to_the_end_over_http
);

fn cities_and_knights_games_are_created_by_variant_and_refused_in_combinations_it_does_not_have(backend: Backend) {
    let app = spawn_app(backend);
    let host = app.register("host");
    for request in [
        json!({"max_players": 4, "variant": "cities_and_knights"}),
        json!({"max_players": 6, "variant": "five_six+cities_and_knights"}),
        json!({"max_players": 3, "options": {"cities_and_knights": true}}),
    ] {
        let game = app.create_game(&host, &request);
        assert!(game["variant"].as_str().unwrap().contains("cities_and_knights"), "{game}");
        assert_eq!(game["vp_target"], 13, "CK-GEN-1: {game}");
        // Nothing of the game exists before the start.
        assert!(game.get("cities_and_knights").is_none(), "{game}");
    }
    // Cities & Knights combines with the 5-6 extension and the Seafarers scenarios but Wonders
    // (SEA-15, tests/api/ck_seafarers.rs); 6 seats need the extension.
    for (request, code) in [
        (json!({"max_players": 4, "variant": "wonders+cities_and_knights"}), "invalid_config"),
        (
            json!({"max_players": 4, "variant": "cities_and_knights", "options": {"jungle": true, "jungle_number": 5}}),
            "invalid_config",
        ),
        (json!({"max_players": 6, "variant": "cities_and_knights"}), "invalid_player_count"),
        // CK-PC-4: the progress hand limit is 1 to 10.
        (
            json!({"max_players": 4, "variant": "cities_and_knights", "options": {"progress_hand_limit": 11}}),
            "invalid_config",
        ),
    ] {
        assert_problem(app.post("/api/v1/games", Some(&host.token), &request), 422, code);
    }
}

/// The seats played over HTTP; the last is a heuristic bot, which ends the game in a
/// reasonable number of turns.
const PEOPLE: [usize; 3] = [0, 1, 2];

fn a_cities_and_knights_game_is_played_to_the_end_over_http(backend: Backend) {
    let app = spawn_app(backend);
    let request = json!({"max_players": 4, "variant": "cities_and_knights", "seed": GAME_SEED});
    play_to_the_end(&app, &request, |_| {});
}

/// Plays the 4-seat C&K game `request` creates to its end over HTTP, three people and a
/// heuristic bot, checking every view as it goes (and with `also`, for what another variant
/// adds) and the log's hidden cards; returns the game's id and the people.
pub(crate) fn play_to_the_end(app: &TestApp, request: &Value, also: impl Fn(&Value)) -> (String, Vec<User>) {
    let people: Vec<User> = PEOPLE.iter().map(|seat| app.register(&format!("knight{seat}"))).collect();
    let id = app.create_game(&people[0], request)["id"].as_str().unwrap().to_owned();
    // Seats in order of joining: three people, then the bot.
    for person in &people[1..] {
        assert_eq!(app.join(&id, person).status(), StatusCode::CREATED);
    }
    add_bot(app, &id, &people[0]);
    assert_eq!(app.start(&id, &people[0]).status(), StatusCode::OK);
    // Card counts beyond any game's are refused before the rules are asked, commodities too.
    for mv in [
        json!({"type": "discard_cards", "cards": {"commodities": {"coin": 1000}}}),
        json!({"type": "trade_cards_with_bank", "give": {"resources": {"ore": 101}}, "get": {"commodities": {"coin": 1}}}),
    ] {
        assert_problem(app.submit(&id, &people[0], &mv), 422, "invalid_card_count");
    }

    let mut rng = StdRng::seed_from_u64(GAME_SEED);
    let started = Instant::now();
    let mut played = 0;
    let mut refused_decisions = 0;
    let mut kinds = std::collections::BTreeSet::new();
    let mut readers: Vec<LogReader> = PEOPLE
        .iter()
        .zip(&people)
        .map(|(seat, p)| LogReader { token: Some(p.token.clone()), seat: Some(*seat as u64), after: 0, redacted: 0 })
        .chain([LogReader { token: None, seat: None, after: 0, redacted: 0 }])
        .collect();
    loop {
        for reader in &mut readers {
            reader.read(app, &id);
        }
        let views: Vec<Value> = people.iter().map(|p| app.game(&id, Some(&p.token))).collect();
        let spectator = app.game(&id, None);
        for (person, view) in PEOPLE.iter().zip(&views) {
            check_view(view, Some(*person as u64));
            also(view);
        }
        check_view(&spectator, None);
        also(&spectator);
        if spectator["status"] == "finished" {
            break;
        }
        assert!(started.elapsed() < GAME_TIMEOUT, "no winner within {GAME_TIMEOUT:?} and {played} moves");
        let waiting: Vec<usize> = spectator["turn"]["waiting_for"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s.as_u64())
            .map(|s| s as usize)
            .collect();
        let Some(index) = PEOPLE.iter().position(|seat| waiting.contains(seat)) else {
            // The bots' turn: wait for their next commit.
            let version = spectator["version"].as_i64().unwrap();
            let _ = app.get(&format!("/api/v1/games/{id}/moves?after={version}&wait=2&limit=1"), None);
            continue;
        };
        let person = &people[index];
        let legal = app.legal_moves(&id, person);
        let options = legal["moves"].as_array().expect("moves");
        assert!(!options.is_empty(), "seat {} must act but has no legal move", PEOPLE[index]);
        let parsed: Vec<Move> = options.iter().map(|mv| serde_json::from_value(mv.clone()).unwrap()).collect();
        // A decision that interrupts the game is one seat's: the other person cannot make it.
        let phase = spectator["turn"]["phase"]["name"].as_str().unwrap_or_default().to_owned();
        if waiting.len() == 1
            && ["lose_city", "relocate_knight", "defender_draw", "card_decision"].contains(&phase.as_str())
        {
            let other = &people[(index + 1) % people.len()];
            let refused = app.submit(&id, other, &options[0]);
            assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY, "{phase}: {}", options[0]);
            refused_decisions += 1;
        }
        let mv = &options[pick(&parsed, &mut rng)];
        let response = app.submit(&id, person, mv);
        assert_eq!(response.status(), StatusCode::CREATED, "move {mv}");
        kinds.insert(mv["type"].as_str().unwrap().to_owned());
        played += 1;
    }
    assert!(played > 50, "the people played only {played} moves");
    // Knights are activated too (the log's `knight_activated` below), by a move or a Warlord.
    for kind in ["build_city", "build_improvement", "recruit_knight", "play_progress_card"] {
        assert!(kinds.contains(kind), "the people never played {kind}: {kinds:?}");
    }
    let check = app.check_replay(&id);
    assert!(check.contiguous && check.matches_snapshot, "{check:?}");
    for reader in &readers {
        assert!(reader.redacted > 0, "seat {:?} never met a hidden card of another seat", reader.seat);
    }
    let log = app.whole_log(&id, None);
    let events = |kind: &str| -> usize {
        log.iter().flat_map(|e| e["events"].as_array().unwrap().iter()).filter(|e| e["type"] == kind).count()
    };
    for kind in [
        "event_die_rolled",
        "commodities_produced",
        "improvement_built",
        "progress_card_drawn",
        "knight_recruited",
        "knight_activated",
        "barbarians_attacked",
        "progress_card_played",
    ] {
        assert!(events(kind) > 0, "no {kind} in {} entries", log.len());
    }

    // After game over every hand is public.
    let over = app.game(&id, None);
    assert!(over["winner"].is_u64(), "{over}");
    for seat in over["cities_and_knights"]["seats"].as_array().unwrap() {
        assert!(seat["progress_cards"].is_object(), "{seat}");
    }
    for player in over["players"].as_array().unwrap() {
        assert!(player["commodities"].is_object(), "{player}");
    }
    eprintln!("{played} moves over HTTP ({kinds:?}), {refused_decisions} decisions refused to the wrong seat");
    (id, people)
}

fn add_bot(app: &TestApp, game: &str, host: &User) {
    let response = app.post(&format!("/api/v1/games/{game}/players"), Some(&host.token), &json!({"bot": "heuristic"}));
    assert_eq!(response.status(), StatusCode::CREATED);
}

/// Mostly Cities & Knights' own moves when listed (improvements, knights, walls), then often a
/// progress card, so that the game shows them; otherwise as the engine's random bot.
fn pick(moves: &[Move], rng: &mut StdRng) -> usize {
    let own = moves.iter().position(|mv| {
        matches!(
            mv,
            Move::BuildImprovement { .. }
                | Move::RecruitKnight { .. }
                | Move::ActivateKnight { .. }
                | Move::PromoteKnight { .. }
                | Move::BuildCityWall { .. }
                | Move::BuildCity { .. }
        )
    });
    let card = moves.iter().position(|mv| matches!(mv, Move::PlayProgressCard { .. }));
    match (own, card) {
        (Some(index), _) if rng.gen_bool(0.8) => index,
        (_, Some(index)) if rng.gen_bool(0.5) => index,
        _ => RandomBot::weighted_pick(moves, |bound| rng.gen_range(0..bound)),
    }
}

fn count(value: &Value) -> u64 {
    COMMODITY.iter().map(|c| value[*c].as_u64().unwrap_or(0)).sum()
}

/// What Cities & Knights adds to the game resource, as `you` (a seat, or a spectator) sees it.
fn check_view(game: &Value, you: Option<u64>) {
    if game["status"] == "open" {
        return;
    }
    let over = game["status"] == "finished";
    let ck = &game["cities_and_knights"];
    assert!(ck["barbarians"].as_u64().unwrap() < ck["barbarian_steps"].as_u64().unwrap(), "CK-BAR-1: {ck}");
    assert_eq!(ck["decks"].as_array().unwrap().len(), 3);
    // Commodities are conserved (CK-CMP-1): hands and bank.
    let players = game["players"].as_array().unwrap();
    let held: u64 = players.iter().map(|p| p["commodity_count"].as_u64().expect("a count per seat")).sum();
    assert_eq!(held + count(&game["commodity_bank"]), COMMODITIES, "{}", game["commodity_bank"]);
    for (player, seat_view) in players.iter().zip(ck["seats"].as_array().unwrap()) {
        let seat = player["seat"].as_u64().unwrap();
        assert_eq!(seat_view["seat"], seat);
        let levels = seat_view["improvements"].as_array().unwrap();
        assert!(levels.iter().all(|l| l.as_u64().unwrap() <= 5), "{seat_view}");
        assert!(seat_view["knights"].as_array().unwrap().len() <= 6, "CK-KNT-1: {seat_view}");
        for knight in seat_view["knights"].as_array().unwrap() {
            assert!((1..=3).contains(&knight["rank"].as_u64().unwrap()), "{knight}");
            assert!(knight["active"].is_boolean(), "{knight}");
        }
        assert!(seat_view["walls"].as_array().unwrap().len() <= 3, "CK-WALL-1: {seat_view}");
        // Hidden information: another seat's cards are counts until the game is over.
        let sees = over || you == Some(seat);
        assert_eq!(seat_view["progress_cards"].is_object(), sees, "seat {seat} seen by {you:?}: {seat_view}");
        assert_eq!(player["commodities"].is_object(), over, "{player}");
    }
    match you {
        Some(seat) => {
            let hand = &game["hand"]["commodities"];
            assert_eq!(count(hand), players[seat as usize]["commodity_count"].as_u64().unwrap(), "{hand}");
        }
        None => assert!(game.get("hand").is_none()),
    }
}

/// Reads the log as one reader (a seat or a spectator) while the game runs, and checks that
/// it shows other seats' hidden cards only as counts: drawn progress cards (but the revealed VP
/// cards, CK-EVT-3), commodities stolen between others, others' discards and discard moves.
struct LogReader {
    token: Option<String>,
    seat: Option<u64>,
    after: i64,
    /// How many hidden cards of others the reader saw redacted.
    redacted: usize,
}

impl LogReader {
    fn read(&mut self, app: &TestApp, id: &str) {
        let page = app.log(id, self.token.as_deref(), self.after);
        let running = page["status"] != "finished";
        for entry in page["entries"].as_array().unwrap() {
            self.after = entry["seq"].as_i64().unwrap();
            if !running {
                continue;
            }
            let own = |seat: &Value| seat.as_u64().is_some() && seat.as_u64() == self.seat;
            if entry["kind"] == "discard_cards" && !own(&entry["seat"]) {
                assert_eq!(entry["move"], json!({"type": "discard_cards", "hidden": true}), "{entry}");
            }
            for event in entry["events"].as_array().unwrap() {
                let hidden = match event["type"].as_str().unwrap() {
                    "progress_card_drawn" if !own(&event["seat"]) => {
                        let points = ["printer", "constitution"].contains(&event["card"].as_str().unwrap_or_default());
                        (!points).then_some("card")
                    }
                    "commodity_stolen" if !own(&event["thief"]) && !own(&event["victim"]) => Some("commodity"),
                    "cards_discarded" if !own(&event["seat"]) => Some("cards"),
                    "progress_card_discarded" if !own(&event["seat"]) => Some("card"),
                    "progress_card_taken" if !own(&event["seat"]) && !own(&event["from"]) => Some("card"),
                    // Spy, Wedding, Commercial Harbor, Master Merchant: the two seats only.
                    "progress_cards_revealed" | "hand_shown" if !own(&event["seat"]) && !own(&event["target"]) => {
                        Some("cards")
                    }
                    "cards_given" if !own(&event["seat"]) && !own(&event["to"]) => Some("cards"),
                    "cards_taken" if !own(&event["seat"]) && !own(&event["from"]) => Some("cards"),
                    "commercial_harbor_offered" if !own(&event["seat"]) && !own(&event["with"]) => Some("resource"),
                    "commercial_harbor_answered" if !own(&event["seat"]) && !own(&event["to"]) => Some("commodity"),
                    _ => None,
                };
                if let Some(field) = hidden {
                    assert!(event[field].is_null(), "seat {:?} sees {event}", self.seat);
                    self.redacted += 1;
                }
            }
        }
    }
}
