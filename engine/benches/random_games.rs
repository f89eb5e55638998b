//! Criterion benchmarks of the engine: complete random 4-player games (the headline figure:
//! games per second on one core) and move generation on mid-game states.

use std::hint::black_box;

use catan_engine::{sim, BoardSpec, Game, GameConfig, Seat};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn config() -> GameConfig {
    GameConfig { board: BoardSpec::Random, ..GameConfig::for_players(4) }
}

fn full_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_games");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function("four_players", |b| {
        b.iter(|| {
            seed += 1;
            let record = sim::play_random_game(config(), seed).expect("valid config");
            black_box(record.moves)
        })
    });
    group.finish();
}

/// States taken every 40 moves from a few games: a spread of setup, early and late turns.
fn mid_game_states() -> Vec<(Game, Seat)> {
    let mut states = Vec::new();
    for seed in 1..=4 {
        let record = sim::play_random_game(config(), seed).expect("valid config");
        let mut game = Game::replay(config(), &record.events[..1]).expect("replayable");
        for (i, event) in record.events[1..].iter().enumerate() {
            game.apply(event);
            if i.is_multiple_of(40) && !game.is_over() {
                let seat = game.waiting_for()[0];
                states.push((game.clone(), seat));
            }
        }
    }
    states
}

fn legal_moves(c: &mut Criterion) {
    let states = mid_game_states();
    let mut group = c.benchmark_group("legal_moves");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("mid_game_states", |b| {
        b.iter(|| states.iter().map(|(game, seat)| game.legal_moves(*seat).len()).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, full_games, legal_moves);
criterion_main!(benches);
