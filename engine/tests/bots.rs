//! Built-in bots: the heuristic bot must beat weighted random bots, and no bot may stall a
//! game. Every test counts the games it actually played and fails if that is not the number
//! it set out to play.

use std::time::Instant;

use catan_engine::{
    bots::{new_bot, Bot, BotKind},
    sim::{self, TURN_CAP},
    BoardSpec, Event, GameConfig, ScenarioId, Seat, VictoryCondition,
};

fn random_board(players: u8) -> GameConfig {
    GameConfig { board: BoardSpec::Random, ..GameConfig::for_players(players) }
}

/// A Seafarers game of `scenario` (5-6 players bring the extension, as `for_players` does).
fn seafarers(scenario: ScenarioId, players: u8) -> GameConfig {
    GameConfig { seafarers: true, scenario: Some(scenario), ..random_board(players) }
}

/// 95% Wilson score interval for `wins` successes in `n` trials.
fn wilson(wins: u64, n: u64) -> (f64, f64) {
    let n = n.max(1) as f64;
    let p = wins as f64 / n;
    let z = 1.96_f64;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (centre - half, centre + half)
}

/// What a series of games came to.
struct Series {
    played: u64,
    /// The heuristic bot's wins.
    wins: u64,
    /// Seeds of the games that hit the turn cap.
    unfinished: Vec<u64>,
    /// Games in which the heuristic bot built a ship, and in which it earned an island bonus.
    shipped: u64,
    bonus: u64,
    /// Games in which the heuristic bot claimed a wonder (Wonders of Catan).
    claimed: u64,
    /// How the heuristic bot's wins were won, in the order of its wins.
    won_by: Vec<VictoryCondition>,
}

impl Series {
    /// Fails unless exactly `games` games (at least one) were played and all of them finished.
    fn assert_all_played_and_finished(&self, games: u64, what: &str) {
        assert!(games > 0 && self.played == games, "{what}: played {} of {games} games", self.played);
        assert!(self.unfinished.is_empty(), "{what}: games hit the {TURN_CAP}-turn cap: seeds {:?}", self.unfinished);
    }
}

/// Plays `games` games with one heuristic bot rotating over the seats and random bots in
/// the others.
fn heuristic_against_random(players: u8, games: u64, seed: u64) -> Series {
    heuristic_against_random_in(&random_board(players), games, seed)
}

/// [`heuristic_against_random`] with any configuration.
fn heuristic_against_random_in(config: &GameConfig, games: u64, seed: u64) -> Series {
    let players = config.players;
    let mut series =
        Series { played: 0, wins: 0, unfinished: Vec::new(), shipped: 0, bonus: 0, claimed: 0, won_by: Vec::new() };
    for i in 0..games {
        let game_seed = seed.wrapping_add(i).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
        let hero = (i % u64::from(players)) as u8;
        let kinds: Vec<BotKind> =
            (0..players).map(|s| if s == hero { BotKind::Heuristic } else { BotKind::Random }).collect();
        let record = sim::play_bots_game(config.clone(), game_seed, &kinds).expect("valid configuration");
        series.played += 1;
        if !record.finished {
            series.unfinished.push(game_seed);
        }
        if record.game.winner() == Some(Seat(hero)) {
            series.wins += 1;
        }
        let by_hero = |kind: fn(&Event) -> Option<Seat>| record.events.iter().any(|e| kind(e) == Some(Seat(hero)));
        series.shipped += u64::from(by_hero(|e| match e {
            Event::ShipBuilt { seat, cost, .. } if !cost.is_empty() => Some(*seat),
            _ => None,
        }));
        series.bonus += u64::from(by_hero(|e| match e {
            Event::IslandBonusEarned { seat, .. } => Some(*seat),
            _ => None,
        }));
        series.claimed += u64::from(by_hero(|e| match e {
            Event::WonderClaimed { seat, .. } => Some(*seat),
            _ => None,
        }));
        series.won_by.extend(record.events.iter().filter_map(|e| match e {
            Event::GameWon { seat, condition, .. } if *seat == Seat(hero) => Some(*condition),
            _ => None,
        }));
    }
    series
}

#[test]
fn heuristic_bot_wins_most_four_player_games_against_random_bots() {
    const GAMES: u64 = 1_000;
    let started = Instant::now();
    let series = heuristic_against_random(4, GAMES, 2026);
    let wins = series.wins;
    let rate = wins as f64 / GAMES as f64;
    let (low, high) = wilson(wins, GAMES);
    println!(
        "heuristic vs 3 random, {GAMES} games: win rate {rate:.3} (95% Wilson CI {low:.3}..{high:.3}), {:.1} s",
        started.elapsed().as_secs_f64()
    );
    series.assert_all_played_and_finished(GAMES, "4 players");
    assert!(rate >= 0.60, "win rate {rate:.3} (95% CI {low:.3}..{high:.3}) is below 0.60");
}

#[test]
fn heuristic_bot_beats_random_bots_at_two_and_three_players() {
    const GAMES: u64 = 150;
    let mut played = 0;
    for players in [2u8, 3] {
        let series = heuristic_against_random(players, GAMES, 77);
        let rate = series.wins as f64 / GAMES as f64;
        let (low, high) = wilson(series.wins, GAMES);
        println!("{players} players: win rate {rate:.3} (95% CI {low:.3}..{high:.3})");
        series.assert_all_played_and_finished(GAMES, &format!("{players} players"));
        assert!(rate > 1.0 / f64::from(players), "{players} players: rate {rate:.3}");
        played += series.played;
    }
    assert_eq!(played, 2 * GAMES, "games played over 2 and 3 players");
}

#[test]
fn heuristic_bots_alone_always_finish() {
    const GAMES: u64 = 100;
    let mut finished = 0;
    for i in 0..GAMES {
        let players = 2 + (i % 3) as u8;
        let kinds = [BotKind::Heuristic];
        let record = sim::play_bots_game(random_board(players), 1000 + i, &kinds).unwrap();
        assert!(
            record.finished,
            "game {i} ({players} heuristic bots) hit the turn cap at turn {}",
            record.game.turn_number()
        );
        finished += 1;
    }
    assert_eq!(finished, GAMES, "games finished");
}

#[test]
fn bots_are_deterministic_given_their_seed() {
    let kinds = [BotKind::Heuristic, BotKind::Random, BotKind::Heuristic, BotKind::Random];
    let a = sim::play_bots_game(random_board(4), 5, &kinds).unwrap();
    let b = sim::play_bots_game(random_board(4), 5, &kinds).unwrap();
    assert!(a.finished && a.moves > 0, "the game was not played to the end");
    assert_eq!(a.events, b.events);
}

#[test]
fn all_random_kinds_replay_play_random_game() {
    let a = sim::play_random_game(random_board(4), 9).unwrap();
    let b = sim::play_bots_game(random_board(4), 9, &[BotKind::Random]).unwrap();
    assert!(a.finished && a.moves > 0, "the game was not played to the end");
    assert_eq!(a.events, b.events);
}

#[test]
fn a_boxed_bot_from_the_factory_drives_play_game() {
    let mut bots: Vec<Box<dyn Bot + Send>> = (0..3).map(|i| new_bot(BotKind::Heuristic, i)).collect();
    let record = sim::play_game(GameConfig::for_players(3), 3, &mut bots).unwrap();
    assert!(record.finished && record.moves > 0, "the game was not played to the end");
}

/// Rule variants (5-6 players, Jungle, Big River) bring moves and phases the bot does not
/// know; it must still finish every game. Every configuration must be accepted: one the
/// engine rejects fails the test rather than being skipped.
#[test]
fn heuristic_bots_finish_games_with_rule_variants() {
    const GAMES: u64 = 40;
    let configs = [
        r#"{"players": 5, "board": "random", "five_six_extension": true}"#,
        r#"{"players": 6, "board": "random", "five_six_extension": true}"#,
        r#"{"players": 4, "board": "random", "jungle": true, "jungle_number": 8}"#,
        r#"{"players": 4, "board": "random", "big_river": true, "river_gold_number": 6}"#,
        r#"{"players": 4, "board": "random", "dev_cards_before_roll": "any", "allow_trade_build_interleaving": false, "robber_may_enter_desert": false}"#,
    ];
    let mut finished = 0;
    for text in configs {
        let config: GameConfig = serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        for seed in 300..300 + GAMES {
            let kinds = [BotKind::Heuristic, BotKind::Random];
            let record = sim::play_bots_game(config.clone(), seed, &kinds)
                .unwrap_or_else(|e| panic!("{text}: the engine rejects the configuration: {e}"));
            assert!(record.finished, "{text}, seed {seed}: hit the turn cap");
            finished += 1;
        }
        println!("{GAMES} games finished: {text}");
    }
    assert_eq!(finished, configs.len() as u64 * GAMES, "games finished over every configuration");
}

/// The issue's bar for Seafarers: one heuristic bot against three random ones wins at least
/// 80% of 500 four-player New Shores games, its seat rotating.
#[test]
fn heuristic_bot_wins_most_four_player_new_shores_games_against_random_bots() {
    const GAMES: u64 = 500;
    let started = Instant::now();
    let series = heuristic_against_random_in(&seafarers(ScenarioId::NewShores, 4), GAMES, 2027);
    let rate = series.wins as f64 / GAMES as f64;
    let (low, high) = wilson(series.wins, GAMES);
    println!(
        "New Shores, heuristic vs 3 random, {GAMES} games: win rate {rate:.3} (95% Wilson CI {low:.3}..{high:.3}), \
         bought ships in {} games, earned an island bonus in {}, {:.1} s",
        series.shipped,
        series.bonus,
        started.elapsed().as_secs_f64()
    );
    series.assert_all_played_and_finished(GAMES, "New Shores, 4 players");
    assert!(rate >= 0.80, "win rate {rate:.3} (95% CI {low:.3}..{high:.3}) is below 0.80");
    assert!(series.shipped > 0 && series.bonus > 0, "the heuristic bot never sailed to an island");
}

/// The other scenarios: the heuristic bot wins a clear majority against three random bots.
#[test]
fn heuristic_bot_wins_most_four_player_games_of_every_other_seafarers_scenario() {
    const GAMES: u64 = 100;
    let mut played = 0;
    let others =
        [ScenarioId::FourIslands, ScenarioId::FogIslands, ScenarioId::ThroughTheDesert, ScenarioId::ForgottenTribe];
    for scenario in others {
        let series = heuristic_against_random_in(&seafarers(scenario, 4), GAMES, 91);
        let rate = series.wins as f64 / GAMES as f64;
        let (low, high) = wilson(series.wins, GAMES);
        println!(
            "{}: win rate {rate:.3} (95% CI {low:.3}..{high:.3}), bought ships in {} games, an island bonus in {}",
            scenario.name(),
            series.shipped,
            series.bonus
        );
        series.assert_all_played_and_finished(GAMES, scenario.name());
        assert!(rate >= 0.80, "{}: win rate {rate:.3} (95% CI {low:.3}..{high:.3})", scenario.name());
        played += series.played;
    }
    assert_eq!(played, others.len() as u64 * GAMES, "games played over the scenarios");
}

/// Every scenario at every player count it has a map for finishes with heuristic and random
/// bots mixed: no stall, no game at the turn cap. Every configuration must be accepted.
#[test]
fn heuristic_and_random_bots_finish_every_seafarers_scenario_at_every_player_count() {
    const GAMES: u64 = 24;
    let mut finished = 0;
    let mut configurations = 0;
    for scenario in ScenarioId::ALL {
        let counts = scenario.player_counts();
        assert!(counts.contains(&4), "{}: no 4-player map", scenario.name());
        for players in counts {
            configurations += 1;
            for i in 0..GAMES {
                // Heuristic and random seats alternate, either one first; every third game
                // heuristic bots alone.
                let kinds: &[BotKind] = match i % 3 {
                    0 => &[BotKind::Heuristic, BotKind::Random],
                    1 => &[BotKind::Random, BotKind::Heuristic],
                    _ => &[BotKind::Heuristic],
                };
                let seed = 500 + i;
                let record = sim::play_bots_game(seafarers(scenario, players), seed, kinds).unwrap_or_else(|e| {
                    panic!("{} with {players} players: the engine rejects the configuration: {e}", scenario.name())
                });
                assert!(
                    record.finished,
                    "{} with {players} players, seed {seed}: stopped unfinished at turn {}",
                    scenario.name(),
                    record.game.turn_number()
                );
                finished += 1;
            }
        }
    }
    assert_eq!(finished, configurations * GAMES, "games finished over every scenario and player count");
}

/// NEW-11: with the players placing The New World's harbours, heuristic and random bots place
/// every harbour drawn before setup and finish the game, at every player count.
#[test]
fn bots_place_the_new_world_harbours_and_finish_at_every_player_count() {
    const GAMES: u64 = 8;
    for players in ScenarioId::NewWorld.player_counts() {
        let config = GameConfig {
            new_world_harbours: catan_engine::config::NewWorldHarbours::PlayersPlace,
            ..seafarers(ScenarioId::NewWorld, players)
        };
        for i in 0..GAMES {
            let kinds: &[BotKind] = match i % 3 {
                0 => &[BotKind::Heuristic, BotKind::Random],
                1 => &[BotKind::Random, BotKind::Heuristic],
                _ => &[BotKind::Heuristic],
            };
            let seed = 700 + i;
            let record = sim::play_bots_game(config.clone(), seed, kinds).expect("a valid configuration");
            assert!(record.finished, "{players} players, seed {seed}: stopped at turn {}", record.game.turn_number());
            assert!(!record.game.board().layout().harbours.is_empty(), "{players} players, seed {seed}: no harbour");
        }
    }
}

/// Wonders of Catan: one heuristic bot against three random ones wins a clear majority of
/// 500 four-player games, its seat rotating. It must claim a wonder and build its stages:
/// without the stage lead ten points do not win (WON-11).
#[test]
fn heuristic_bot_wins_most_four_player_wonders_games_against_random_bots() {
    const GAMES: u64 = 500;
    let started = Instant::now();
    let series = heuristic_against_random_in(&seafarers(ScenarioId::Wonders, 4), GAMES, 2028);
    let rate = series.wins as f64 / GAMES as f64;
    let (low, high) = wilson(series.wins, GAMES);
    let share = |condition: VictoryCondition| {
        series.won_by.iter().filter(|c| **c == condition).count() as f64 / series.won_by.len().max(1) as f64
    };
    println!(
        "Wonders, heuristic vs 3 random, {GAMES} games: win rate {rate:.3} (95% Wilson CI {low:.3}..{high:.3}), \
         claimed a wonder in {} games; wins by the fourth stage {:.3}, by points with the stage lead {:.3}, {:.1} s",
        series.claimed,
        share(VictoryCondition::WonderCompleted),
        share(VictoryCondition::VictoryPointsAndWonderLead),
        started.elapsed().as_secs_f64()
    );
    series.assert_all_played_and_finished(GAMES, "Wonders, 4 players");
    assert_eq!(series.won_by.len() as u64, series.wins, "every win of the heuristic bot says how it was won");
    assert!(rate >= 0.95, "win rate {rate:.3} (95% CI {low:.3}..{high:.3}) is below 0.95");
    assert!(series.claimed >= GAMES * 9 / 10, "the heuristic bot claimed a wonder in only {} games", series.claimed);
    assert!(
        !series.won_by.contains(&VictoryCondition::VictoryPoints),
        "a Wonders game was won on points alone, which WON-11 does not allow"
    );
}

/// A Cities & Knights game on a random board.
fn cities_and_knights(players: u8) -> GameConfig {
    let mut config = random_board(players);
    config.enable_variants("cities_and_knights").expect("a known variant");
    config
}

/// The issue's bar for Cities & Knights (issue 13): one heuristic bot against three random
/// ones wins at least 80% of 500 four-player games, its seat rotating, and every game
/// finishes (no game at the turn cap). It must play the expansion, not only the base game:
/// it builds city improvements in most games and, defending against the barbarians with
/// knights, earns a Defender of Catan point in most games.
#[test]
fn heuristic_bot_wins_most_four_player_cities_and_knights_games_against_random_bots() {
    const GAMES: u64 = 500;
    let started = Instant::now();
    let config = cities_and_knights(4);
    let (mut played, mut wins, mut turns) = (0u64, 0u64, 0u64);
    let mut unfinished = Vec::new();
    let (mut improved, mut defended, mut hero_lost, mut others_lost) = (0u64, 0u64, 0u64, 0u64);
    let mut hero_cards = 0u64;
    for i in 0..GAMES {
        let game_seed = 4000 + i;
        let hero = Seat((i % 4) as u8);
        let kinds: Vec<BotKind> =
            (0..4).map(|s| if Seat(s) == hero { BotKind::Heuristic } else { BotKind::Random }).collect();
        let record = sim::play_bots_game(config.clone(), game_seed, &kinds).expect("valid configuration");
        played += 1;
        turns += u64::from(record.game.turn_number());
        if !record.finished {
            unfinished.push(game_seed);
        }
        wins += u64::from(record.game.winner() == Some(hero));
        improved +=
            u64::from(record.events.iter().any(|e| matches!(e, Event::ImprovementBuilt { seat, .. } if *seat == hero)));
        defended +=
            u64::from(record.events.iter().any(|e| matches!(e, Event::DefenderOfCatan { seat, .. } if *seat == hero)));
        // CK-PC-2: the heuristic bot plays its progress cards.
        hero_cards += record
            .events
            .iter()
            .filter(|e| matches!(e, Event::ProgressCardPlayed { seat, .. } if *seat == hero))
            .count() as u64;
        for event in &record.events {
            if let Event::CityPillaged { seat, .. } = event {
                if *seat == hero {
                    hero_lost += 1;
                } else {
                    others_lost += 1;
                }
            }
        }
    }
    let rate = wins as f64 / GAMES as f64;
    let (low, high) = wilson(wins, GAMES);
    println!(
        "Cities & Knights, heuristic vs 3 random, {GAMES} games: win rate {rate:.3} (95% Wilson CI {low:.3}..{high:.3}), \
         {:.1} turns per game; built improvements in {improved} games, Defender of Catan in {defended}; cities lost: \
         heuristic {hero_lost}, random seats {others_lost} (three seats); {hero_cards} progress cards played by \
         the heuristic bot; {:.1} s",
        turns as f64 / GAMES as f64,
        started.elapsed().as_secs_f64()
    );
    assert_eq!(played, GAMES, "games played");
    assert!(unfinished.is_empty(), "games hit the {TURN_CAP}-turn cap: seeds {unfinished:?}");
    assert!(rate >= 0.80, "win rate {rate:.3} (95% CI {low:.3}..{high:.3}) is below 0.80");
    assert!(improved * 2 > GAMES, "the heuristic bot built improvements in only {improved} games");
    assert!(defended * 2 > GAMES, "the heuristic bot was Defender of Catan in only {defended} games");
    assert!(hero_cards > GAMES, "the heuristic bot played only {hero_cards} progress cards in {GAMES} games");
}

/// Heuristic bots alone, and mixed with random ones, finish Cities & Knights games at every
/// player count (5-6 with the extension): no bot stalls a game or leaves it at the turn cap.
#[test]
fn heuristic_bots_finish_cities_and_knights_games_at_every_player_count() {
    const GAMES: u64 = 20;
    let mut finished = 0;
    for players in 3..=6u8 {
        // `for_players` brings the 5-6 extension at 5 and 6 players.
        let config = cities_and_knights(players);
        for i in 0..GAMES {
            let kinds: &[BotKind] = match i % 3 {
                0 => &[BotKind::Heuristic],
                1 => &[BotKind::Heuristic, BotKind::Random],
                _ => &[BotKind::Random, BotKind::Heuristic],
            };
            let seed = 900 + i;
            let record = sim::play_bots_game(config.clone(), seed, kinds)
                .unwrap_or_else(|e| panic!("{players} players: the engine rejects the configuration: {e}"));
            assert!(
                record.finished,
                "{players} players, seed {seed}: stopped unfinished at turn {}",
                record.game.turn_number()
            );
            finished += 1;
        }
    }
    assert_eq!(finished, 4 * GAMES, "games finished over every player count");
}
