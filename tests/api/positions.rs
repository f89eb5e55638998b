//! `POST /api/v1/positions/legal-moves` and `POST /api/v1/positions/moves`: positions reached
//! in real self-played games of every ruleset, sent over HTTP, answer exactly what the engine
//! answers for them; bad positions, versions, seats, bodies, moves and chance are refused
//! with their codes; the analyses are rate-limited. These endpoints read no database, so one
//! backend (SQLite) is enough.

use std::collections::VecDeque;

use catan_engine::{
    board::layout::beginner_layout,
    sim::{Bot, RandomBot},
    BoardSpec, BuildingKind, CardKind, Chance, DevCard, Draw, Event, EventFace, Game, GameConfig, Move, Phase,
    Resource, Resources, ScenarioId, Seat, SeededChance, Setup, EVENT_DIE,
};
use serde_json::{json, Value};

use crate::helpers::{assert_problem, spawn_app_at, spawn_app_with, TestApp};

const LEGAL_MOVES: &str = "/api/v1/positions/legal-moves";
const MOVES: &str = "/api/v1/positions/moves";

/// One configuration per ruleset the engine plays, named.
fn rulesets() -> Vec<(&'static str, GameConfig)> {
    let mut rulesets = vec![
        ("base", GameConfig::for_players(4)),
        ("five_six", GameConfig { five_six_extension: true, ..GameConfig::for_players(5) }),
        ("jungle", GameConfig { jungle: true, jungle_number: Some(5), ..GameConfig::for_players(4) }),
        (
            "big_river",
            GameConfig {
                big_river: true,
                river_gold_number: Some(4),
                board: BoardSpec::Random,
                ..GameConfig::for_players(4)
            },
        ),
    ];
    for (name, scenario) in [
        ("seafarers new_shores", ScenarioId::NewShores),
        ("seafarers four_islands", ScenarioId::FourIslands),
        ("seafarers fog_islands", ScenarioId::FogIslands),
        ("seafarers through_the_desert", ScenarioId::ThroughTheDesert),
        ("wonders", ScenarioId::Wonders),
    ] {
        rulesets.push((name, GameConfig { seafarers: true, scenario: Some(scenario), ..GameConfig::for_players(4) }));
    }
    rulesets.push((
        "cities_knights",
        GameConfig { cities_and_knights: true, board: BoardSpec::Random, ..GameConfig::for_players(4) },
    ));
    rulesets.push((
        "cities_knights seafarers",
        GameConfig {
            cities_and_knights: true,
            seafarers: true,
            scenario: Some(ScenarioId::NewShores),
            ..GameConfig::for_players(4)
        },
    ));
    rulesets
}

/// Plays `config` with random bots for `moves` moves (fewer if it ends), then on until the
/// seat to act may roll the dice: a mid-game position.
fn mid_game(config: GameConfig, seed: u64, moves: usize) -> Game {
    let mut game = Game::new(config, seed).expect("a game");
    let mut bot = RandomBot::new(seed);
    let mut played = 0;
    while !game.is_over() && played < moves + 400 {
        let seat = game.next_to_act().expect("a seat to act");
        let legal = game.legal_moves(seat);
        if played >= moves && legal.contains(&Move::RollDice) {
            break;
        }
        let mv = legal[bot.choose(&game, seat, &legal)].clone();
        let events = game.decide(seat, &mv, &mut game.chance()).expect("a legal move");
        for event in &events {
            game.apply(event);
        }
        played += 1;
    }
    assert!(!game.is_over(), "the game must still run");
    game
}

/// The caller's outcomes over the position's own stream, as the server feeds them.
struct Scripted {
    queued: Vec<(Draw, VecDeque<usize>)>,
    fallback: SeededChance,
}

impl Chance for Scripted {
    fn pick(&mut self, draw: Draw, weights: &[u32]) -> usize {
        match self.queued.iter_mut().find(|(d, _)| *d == draw).and_then(|(_, q)| q.pop_front()) {
            Some(index) => index,
            None => self.fallback.pick(draw, weights),
        }
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("json")
}

fn ask_legal_moves(app: &TestApp, game: &Game, seat: Seat) -> reqwest::blocking::Response {
    let body = json!({"format": "catan-position", "version": 1, "position": Setup::from(game), "seat": seat});
    app.post(LEGAL_MOVES, None, &body)
}

/// Every ruleset: a mid-game position answers each seat's legal moves as the engine lists
/// them, and a roll with chosen dice answers the engine's events and resulting position.
#[test]
fn positions_of_every_ruleset_answer_as_the_engine_does() {
    let app = spawn_app_at(None);
    for (i, (name, config)) in rulesets().into_iter().enumerate() {
        let ck = config.cities_and_knights;
        let game = mid_game(config, 40 + i as u64, 120);
        for seat in game.seats() {
            let response = ask_legal_moves(&app, &game, seat);
            assert_eq!(response.status(), 200, "{name}, seat {seat}");
            let body: Value = response.json().expect("json");
            assert_eq!(body["moves"], to_json(&game.legal_moves(seat)), "{name}, seat {seat}");
            assert_eq!(body["you"], json!(seat), "{name}");
            assert_eq!(body["version"], json!(game.events_applied()), "{name}");
            assert_eq!(body["waiting_for"], to_json(&game.waiting_for()), "{name}");
            assert_eq!(body["may_offer_trade"], json!(game.may_offer_trade(seat)), "{name}");
        }

        // The seat to act rolls 2 and 4 (and, in Cities & Knights, the ship on the event die).
        let seat = game.next_to_act().expect("a seat to act");
        let mut chance = json!({"dice": [2, 4]});
        let mut queued = vec![(Draw::RED_DIE, VecDeque::from([1])), (Draw::WHITE_DIE, VecDeque::from([3]))];
        if ck {
            chance["event_die"] = json!("ship");
            queued.push((EVENT_DIE, VecDeque::from([EventFace::Ship.index()])));
        }
        let mut expected = game.clone();
        let mut scripted = Scripted { queued, fallback: game.chance() };
        let events = expected.decide(seat, &Move::RollDice, &mut scripted).expect("the roll");
        assert!(events.iter().any(|e| matches!(e, Event::DiceRolled { .. })), "{name}: {events:?}");
        for event in &events {
            expected.apply(event);
        }
        let body =
            json!({"position": Setup::from(&game), "seat": seat, "move": {"type": "roll_dice"}, "chance": chance});
        let response = app.post(MOVES, None, &body);
        assert_eq!(response.status(), 200, "{name}");
        let answer: Value = response.json().expect("json");
        assert_eq!(answer["events"], to_json(&events), "{name}");
        assert_eq!(answer["position"], to_json(&Setup::from(&expected)), "{name}");
        assert_eq!(answer["waiting_for"], to_json(&expected.waiting_for()), "{name}");
        assert_eq!(answer["phase"], to_json(expected.phase()), "{name}");
        assert_eq!(answer["winner"], Value::Null, "{name}");
        // The resulting position is itself a body: its legal moves are the engine's.
        let rebuilt: Setup = serde_json::from_value(answer["position"].clone()).expect("a position");
        let next = rebuilt.position().expect("a valid position");
        for seat in next.waiting_for() {
            let response = ask_legal_moves(&app, &next, seat);
            let body: Value = response.json().expect("json");
            assert_eq!(body["moves"], to_json(&expected.legal_moves(seat)), "{name} after the roll");
        }
    }
}

/// Without `chance`, a move draws from the position's own seeded stream, as `game.chance()`
/// does: the same request always answers the same.
#[test]
fn a_move_without_chance_draws_from_the_positions_stream() {
    let app = spawn_app_at(None);
    let game = mid_game(GameConfig::for_players(3), 7, 60);
    let seat = game.next_to_act().expect("a seat");
    let mut expected = game.clone();
    let events = expected.decide(seat, &Move::RollDice, &mut game.chance()).expect("the roll");
    for event in &events {
        expected.apply(event);
    }
    let body = json!({"position": Setup::from(&game), "seat": seat, "move": {"type": "roll_dice"}});
    for _ in 0..2 {
        let answer: Value = app.post(MOVES, None, &body).json().expect("json");
        assert_eq!(answer["events"], to_json(&events));
        assert_eq!(answer["position"], to_json(&Setup::from(&expected)));
    }
}

/// B-BLD-4: a position with two buildings one edge apart is refused, naming the check and
/// its rules; the body's other faults have their own codes.
#[test]
fn bad_positions_versions_and_seats_are_refused_with_their_codes() {
    let app = spawn_app_at(None);
    let close = Setup::new(GameConfig::for_players(3), beginner_layout())
        .with_building("0,0,N".parse().unwrap(), Seat(0), BuildingKind::Settlement)
        .with_building("1,-1,S".parse().unwrap(), Seat(1), BuildingKind::Settlement);
    let problem =
        assert_problem(app.post(LEGAL_MOVES, None, &json!({"position": close, "seat": 0})), 422, "invalid_position");
    assert_eq!(problem["check"], "buildings_too_close", "{problem}");
    assert_eq!(problem["rule"], "B-BLD-4", "{problem}");
    assert_eq!(problem["rules"], json!(["B-BLD-4", "B-GEO-9"]), "{problem}");
    assert_eq!(problem["errors"][0]["pointer"], "#/position", "{problem}");
    let mv = json!({"position": close, "seat": 0, "move": {"type": "end_turn"}});
    let problem = assert_problem(app.post(MOVES, None, &mv), 422, "invalid_position");
    assert_eq!(problem["rule"], "B-BLD-4");

    let game = mid_game(GameConfig::for_players(4), 3, 40);
    let position = Setup::from(&game);
    for version in [json!(2), json!(0), json!("1")] {
        let body = json!({"version": version, "position": position, "seat": 0});
        let problem = assert_problem(app.post(LEGAL_MOVES, None, &body), 422, "unsupported_position_version");
        assert_eq!(problem["errors"][0]["pointer"], "#/version");
    }
    // A missing version is the current one; a wrong format name is malformed.
    assert_eq!(app.post(LEGAL_MOVES, None, &json!({"position": position, "seat": 0})).status(), 200);
    let body = json!({"format": "chess-fen", "position": position, "seat": 0});
    assert_problem(app.post(LEGAL_MOVES, None, &body), 400, "malformed_body");

    let problem =
        assert_problem(app.post(LEGAL_MOVES, None, &json!({"position": position, "seat": 4})), 422, "seat_not_in_game");
    assert_eq!(problem["errors"][0]["pointer"], "#/seat");
    let body = json!({"position": position, "seat": 5, "move": {"type": "roll_dice"}});
    assert_problem(app.post(MOVES, None, &body), 422, "seat_not_in_game");

    // A field the position does not have is malformed, named by its pointer.
    let mut extra = to_json(&position);
    extra["castles"] = json!([]);
    let problem =
        assert_problem(app.post(LEGAL_MOVES, None, &json!({"position": extra, "seat": 0})), 400, "malformed_body");
    assert!(problem["errors"][0]["pointer"].as_str().unwrap().starts_with("#/position"), "{problem}");
}

/// Malformed JSON is 400, a body over the limit 413, a move the rules refuse 422 with the
/// rule's code, and chance that cannot be used 422.
#[test]
fn bad_bodies_moves_and_chance_are_refused() {
    let app = spawn_app_at(None);
    for path in [LEGAL_MOVES, MOVES] {
        let request = app.client.post(app.url(path)).header("content-type", "application/json").body("{\"seat\": ");
        assert_problem(app.send(request), 400, "malformed_body");
        let huge = json!({"seat": 0, "position": {}, "padding": "x".repeat(70 * 1024)});
        assert_problem(app.post(path, None, &huge), 413, "payload_too_large");
    }

    let game = mid_game(GameConfig::for_players(4), 11, 80);
    let position = Setup::from(&game);
    let active = game.next_to_act().expect("a seat");
    let other = Seat((active.0 + 1) % 4);
    // B-TURN-1: only the player whose turn it is rolls.
    let body = json!({"position": position, "seat": other, "move": {"type": "roll_dice"}});
    assert_problem(app.post(MOVES, None, &body), 422, "not_your_turn");
    // The dice before the roll; a move that draws none.
    let body = json!({"position": position, "seat": active, "move": {"type": "roll_dice"}, "chance": {"dice": [7, 1]}});
    let problem = assert_problem(app.post(MOVES, None, &body), 422, "invalid_chance");
    assert_eq!(problem["errors"][0]["pointer"], "#/chance/dice");
    let body = json!({"position": position, "seat": active, "move": {"type": "roll_dice"}, "chance": {"dice": [1, 1], "development_card": "knight"}});
    let problem = assert_problem(app.post(MOVES, None, &body), 422, "chance_not_applicable");
    assert!(problem["detail"].as_str().unwrap().contains("knight"), "{problem}");
    // A card out of range of a move's counts.
    let body = json!({"position": position, "seat": active, "move": {"type": "discard", "resources": {"ore": 1000}}});
    assert_problem(app.post(MOVES, None, &body), 422, "invalid_card_count");
}

/// The analyses are limited per client address: past the burst, 429 with `Retry-After`.
#[test]
fn analyses_past_the_rate_limit_are_429() {
    let app = spawn_app_with(None, |config| {
        config.limits.positions_per_sec = 1;
        config.limits.positions_burst = 3;
        config.limits.refusal_delay_ms = 0;
    });
    let game = mid_game(GameConfig::for_players(3), 5, 30);
    for _ in 0..3 {
        assert_eq!(ask_legal_moves(&app, &game, Seat(0)).status(), 200);
    }
    let response = ask_legal_moves(&app, &game, Seat(0));
    assert!(response.headers().contains_key("retry-after"));
    assert_problem(response, 429, "rate_limited");
    // Both endpoints draw on the same budget.
    let body = json!({"position": Setup::from(&game), "seat": 0, "move": {"type": "roll_dice"}});
    assert_problem(app.post(MOVES, None, &body), 429, "rate_limited");
}

/// Answers `body` and the engine's answer for `seat`'s `mv` in `game` with `queued` outcomes
/// over the position's own stream, as JSON events and resulting position.
fn compare_move(
    app: &TestApp,
    game: &Game,
    seat: Seat,
    mv: &Move,
    chance: Value,
    queued: Vec<(Draw, VecDeque<usize>)>,
) -> Vec<Event> {
    let mut expected = game.clone();
    let events = expected.decide(seat, mv, &mut Scripted { queued, fallback: game.chance() }).expect("a legal move");
    for event in &events {
        expected.apply(event);
    }
    let body = json!({"position": Setup::from(game), "seat": seat, "move": mv, "chance": chance});
    let response = app.post(MOVES, None, &body);
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().expect("json");
    assert_eq!(answer["events"], to_json(&events));
    assert_eq!(answer["position"], to_json(&Setup::from(&expected)));
    events
}

/// The development card bought (B-DEV-1) and the card the robber steals (B-ROB-3) are the
/// ones named in `chance`.
#[test]
fn chosen_cards_are_drawn() {
    let app = spawn_app_at(None);
    let mut stolen = false;
    for seed in 20..40 {
        let game = mid_game(GameConfig::for_players(4), seed, 80);
        let seat = game.next_to_act().expect("a seat");
        // After a roll of 6, with the price of a development card in hand.
        let mut setup = Setup::from(&game);
        setup.phase = Phase::Main;
        setup.turn.dice = Some((2, 4));
        setup.bank = None;
        setup.seats[seat.index()].resources += Resources::new(0, 0, 1, 1, 1);
        let Ok(buying) = setup.position() else { continue };
        let events = compare_move(
            &app,
            &buying,
            seat,
            &Move::BuyDevelopmentCard,
            json!({"development_card": "monopoly"}),
            vec![(Draw::DEVELOPMENT_CARD, VecDeque::from([CardKind::index(DevCard::Monopoly)]))],
        );
        assert!(to_json(&events).to_string().contains("monopoly"), "{events:?}");

        // After a 7, the robber moves next to a seat holding cards: the card named is stolen.
        let mut setup = Setup::from(&game);
        setup.phase = Phase::MoveRobber;
        setup.turn.dice = Some((3, 4));
        let Ok(robbing) = setup.position() else { continue };
        let theft = robbing.legal_moves(seat).into_iter().find_map(|mv| match &mv {
            Move::MoveRobber { steal_from: Some(victim), .. } => {
                let hand = *robbing.player(*victim).expect("a seat").resources();
                Resource::ALL.into_iter().find(|r| hand.get(*r) > 0).map(|r| (mv.clone(), r))
            }
            _ => None,
        });
        let Some((mv, resource)) = theft else { continue };
        let events = compare_move(
            &app,
            &robbing,
            seat,
            &mv,
            json!({"stolen_resource": resource}),
            vec![(Draw::STOLEN_CARD, VecDeque::from([CardKind::index(resource)]))],
        );
        assert!(
            events.iter().any(|e| matches!(e, Event::ResourceStolen { resource: Some(r), .. } if *r == resource)),
            "{events:?}"
        );
        stolen = true;
        break;
    }
    assert!(stolen, "a position with a victim to rob");
}

/// Numbers no game reaches are refused or played without overflowing (the sweep and
/// schemathesis send them): a turn number past the spec's `int32` is 400, one at its edge
/// plays on, and progress cards counted past the decks are refused (CK-CMP-2).
#[test]
fn absurd_numbers_are_refused_or_played_never_overflowed() {
    let app = spawn_app_at(None);
    let game = mid_game(GameConfig::for_players(3), 9, 60);
    let seat = game.next_to_act().expect("a seat");
    let body = json!({"position": Setup::from(&game), "seat": seat, "move": {"type": "roll_dice"}, "chance": {"dice": [2, 4]}});
    let answer: Value = app.post(MOVES, None, &body).json().expect("json");
    let mut position = answer["position"].clone();
    position["turn"]["number"] = json!(u32::MAX);
    let body = json!({"position": position, "seat": seat, "move": {"type": "end_turn"}});
    assert_problem(app.post(MOVES, None, &body), 400, "malformed_body");
    position["turn"]["number"] = json!(i32::MAX - 1);
    let body = json!({"position": position, "seat": seat, "move": {"type": "end_turn"}});
    let response = app.post(MOVES, None, &body);
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().expect("json");
    assert_eq!(answer["position"]["turn"]["number"], json!(i32::MAX), "{answer}");

    let ck = mid_game(GameConfig { cities_and_knights: true, ..GameConfig::for_players(3) }, 9, 60);
    let mut position = to_json(&Setup::from(&ck));
    position["cities_knights"]["progress"] = json!([[0, {"alchemist": i32::MAX}]]);
    position["cities_knights"]["returned"] = json!(["alchemist"]);
    let problem =
        assert_problem(app.post(LEGAL_MOVES, None, &json!({"position": position, "seat": 0})), 422, "invalid_position");
    assert_eq!(problem["check"], "cities_knights_state_inconsistent", "{problem}");
    assert_eq!(problem["rule"], "CK-CMP-2", "{problem}");
}

/// A body's numbers stay within what the spec states, where the Rust types would read more
/// (schemathesis sends the values just past them): a 32-bit field past `i32::MAX` is 400, and
/// the position's options keep a new game's bounds (422 `invalid_config`).
#[test]
fn numbers_past_the_specs_bounds_are_refused() {
    let app = spawn_app_at(None);
    let game = mid_game(GameConfig::for_players(3), 2, 30);
    let mut position = to_json(&Setup::from(&game));
    position["next_offer_id"] = json!(2_147_483_648u64);
    let problem =
        assert_problem(app.post(LEGAL_MOVES, None, &json!({"position": position, "seat": 0})), 400, "malformed_body");
    assert_eq!(problem["errors"][0]["pointer"], "#/position/next_offer_id", "{problem}");
    // The seed is a 64-bit field.
    let mut position = to_json(&Setup::from(&game));
    position["seed"] = json!(i64::MAX);
    assert_eq!(app.post(LEGAL_MOVES, None, &json!({"position": position, "seat": 0})).status(), 200);
    position["seed"] = json!(u64::MAX);
    assert_problem(app.post(LEGAL_MOVES, None, &json!({"position": position, "seat": 0})), 400, "malformed_body");
    let mut position = to_json(&Setup::from(&game));
    position["config"]["turn_limit"] = json!(10_001);
    let problem =
        assert_problem(app.post(LEGAL_MOVES, None, &json!({"position": position, "seat": 0})), 422, "invalid_config");
    assert_eq!(problem["errors"][0]["pointer"], "#/position/config/turn_limit", "{problem}");
}
