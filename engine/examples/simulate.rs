//! Plays random-bot games and prints one JSON line of statistics.
//!
//! `cargo run --release -p catan-engine --example simulate -- --games N --players P --seed S`

use std::time::Instant;

use catan_engine::{sim, GameConfig};

fn main() {
    let mut games = 1000u64;
    let mut players = 4u8;
    let mut seed = 1u64;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_default();
        let parsed = match flag.as_str() {
            "--games" => value.parse().map(|v| games = v).is_ok(),
            "--players" => value.parse().map(|v| players = v).is_ok(),
            "--seed" => value.parse().map(|v| seed = v).is_ok(),
            _ => false,
        };
        if !parsed {
            eprintln!("usage: simulate [--games N] [--players 2-4] [--seed S] (bad argument {flag} {value})");
            std::process::exit(2);
        }
    }
    let config = GameConfig {
        board: catan_engine::BoardSpec::Random,
        ..GameConfig::for_players(players)
    };
    let started = Instant::now();
    let (mut finished, mut moves, mut turns) = (0u64, 0u64, 0u64);
    for i in 0..games {
        let record = match sim::play_random_game(config.clone(), seed.wrapping_add(i)) {
            Ok(record) => record,
            Err(error) => {
                eprintln!("cannot set up the game: {error}");
                std::process::exit(2);
            }
        };
        finished += u64::from(record.finished);
        moves += record.moves;
        turns += u64::from(record.game.turn_number());
    }
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let n = games.max(1) as f64;
    println!(
        "{{\"games\":{games},\"players\":{players},\"seed\":{seed},\"finished\":{finished},\"moves_mean\":{:.1},\
         \"turns_mean\":{:.1},\"seconds\":{secs:.3},\"games_per_sec\":{:.1},\"moves_per_sec\":{:.0}}}",
        moves as f64 / n,
        turns as f64 / n,
        games as f64 / secs,
        moves as f64 / secs
    );
}
