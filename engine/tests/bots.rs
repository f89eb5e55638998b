//! Built-in bots: the heuristic bot must beat weighted random bots, and no bot may stall a
//! game.

use std::time::Instant;

use catan_engine::{
    bots::{new_bot, Bot, BotKind},
    sim::{self, TURN_CAP},
    BoardSpec, GameConfig, Seat,
};

fn random_board(players: u8) -> GameConfig {
    GameConfig { board: BoardSpec::Random, ..GameConfig::for_players(players) }
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

/// Plays `games` games with one heuristic bot rotating over the seats and random bots in
/// the others; returns (heuristic wins, unfinished games).
fn heuristic_against_random(players: u8, games: u64, seed: u64) -> (u64, Vec<u64>) {
    let mut wins = 0;
    let mut unfinished = Vec::new();
    for i in 0..games {
        let game_seed = seed.wrapping_add(i).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
        let hero = (i % u64::from(players)) as u8;
        let kinds: Vec<BotKind> =
            (0..players).map(|s| if s == hero { BotKind::Heuristic } else { BotKind::Random }).collect();
        let record = sim::play_bots_game(random_board(players), game_seed, &kinds).expect("valid configuration");
        if !record.finished {
            unfinished.push(game_seed);
        }
        if record.game.winner() == Some(Seat(hero)) {
            wins += 1;
        }
    }
    (wins, unfinished)
}

#[test]
fn heuristic_bot_wins_most_four_player_games_against_random_bots() {
    const GAMES: u64 = 1_000;
    let started = Instant::now();
    let (wins, unfinished) = heuristic_against_random(4, GAMES, 2026);
    let rate = wins as f64 / GAMES as f64;
    let (low, high) = wilson(wins, GAMES);
    println!(
        "heuristic vs 3 random, {GAMES} games: win rate {rate:.3} (95% Wilson CI {low:.3}..{high:.3}), {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(unfinished.is_empty(), "games hit the {TURN_CAP}-turn cap: seeds {unfinished:?}");
    assert!(rate >= 0.60, "win rate {rate:.3} (95% CI {low:.3}..{high:.3}) is below 0.60");
}

#[test]
fn heuristic_bot_beats_random_bots_at_two_and_three_players() {
    for players in [2u8, 3] {
        let games = 150;
        let (wins, unfinished) = heuristic_against_random(players, games, 77);
        let rate = wins as f64 / games as f64;
        let (low, high) = wilson(wins, games);
        println!("{players} players: win rate {rate:.3} (95% CI {low:.3}..{high:.3})");
        assert!(unfinished.is_empty(), "{players} players: unfinished {unfinished:?}");
        assert!(rate > 1.0 / f64::from(players), "{players} players: rate {rate:.3}");
    }
}

#[test]
fn heuristic_bots_alone_always_finish() {
    for i in 0..100u64 {
        let players = 2 + (i % 3) as u8;
        let kinds = [BotKind::Heuristic];
        let record = sim::play_bots_game(random_board(players), 1000 + i, &kinds).unwrap();
        assert!(
            record.finished,
            "game {i} ({players} heuristic bots) hit the turn cap at turn {}",
            record.game.turn_number()
        );
    }
}

#[test]
fn bots_are_deterministic_given_their_seed() {
    let kinds = [BotKind::Heuristic, BotKind::Random, BotKind::Heuristic, BotKind::Random];
    let a = sim::play_bots_game(random_board(4), 5, &kinds).unwrap();
    let b = sim::play_bots_game(random_board(4), 5, &kinds).unwrap();
    assert_eq!(a.events, b.events);
}

#[test]
fn all_random_kinds_replay_play_random_game() {
    let a = sim::play_random_game(random_board(4), 9).unwrap();
    let b = sim::play_bots_game(random_board(4), 9, &[BotKind::Random]).unwrap();
    assert_eq!(a.events, b.events);
}

#[test]
fn a_boxed_bot_from_the_factory_drives_play_game() {
    let mut bots: Vec<Box<dyn Bot + Send>> = (0..3).map(|i| new_bot(BotKind::Heuristic, i)).collect();
    let record = sim::play_game(GameConfig::for_players(3), 3, &mut bots).unwrap();
    assert!(record.finished);
}

/// Rule variants (5-6 players, Jungle, Big River) bring moves and phases the bot does not
/// know; it must still finish every game. Configurations the engine does not accept (yet)
/// are skipped.
#[test]
fn heuristic_bots_finish_games_with_rule_variants() {
    let configs = [
        r#"{"players": 5, "board": "random", "five_six_extension": true}"#,
        r#"{"players": 6, "board": "random", "five_six_extension": true}"#,
        r#"{"players": 4, "board": "random", "jungle": true, "jungle_number": 8}"#,
        r#"{"players": 4, "board": "random", "big_river": true, "river_gold_number": 6}"#,
        r#"{"players": 4, "board": "random", "dev_cards_before_roll": "any", "allow_trade_build_interleaving": false, "robber_may_enter_desert": false}"#,
    ];
    for text in configs {
        let Ok(config) = serde_json::from_str::<GameConfig>(text) else {
            println!("skipped (configuration not supported): {text}");
            continue;
        };
        let mut played = 0;
        for seed in 0..40u64 {
            let kinds = [BotKind::Heuristic, BotKind::Random];
            let Ok(record) = sim::play_bots_game(config.clone(), 300 + seed, &kinds) else {
                break;
            };
            played += 1;
            assert!(record.finished, "{text}, seed {}: hit the turn cap", 300 + seed);
        }
        println!("{played} games finished: {text}");
    }
}
