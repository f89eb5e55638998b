//! Heap allocations per move in self-play (issue 28, part 5): after a warm-up that grows the
//! reused buffers, 100 random 4-player games, counting what listing the legal moves,
//! choosing, deciding into a reused event buffer and applying allocate. Setting a game up
//! allocates (its board, hands and pieces, and the room its lists need for a whole game), so
//! each game starts outside the counted region.
//!
//! No ruleset allocates anything of its own per move: events, phases and the lists inside
//! them (a roll's gains and shortages, the seats that must discard or choose gold, the phases
//! a 7 interrupts, a monopoly's takings, a Smith's knights, the seats a progress card waits
//! for) are inline, a list of phases too deep for its inline room takes a buffer an earlier
//! one left, the victory check builds the state a move leads to in a copy it reuses, and the
//! random bot weighs moves into a list it never grows. What is left, a handful of
//! allocations in 100,000 moves, is a reused buffer (the listing, the victory check's copy)
//! growing past its largest size yet. Every ruleset is held to that (`--nocapture` prints
//! the counts).
//!
//! A counting global allocator applies to a whole test binary, so this one has its own.

use std::alloc::System;

use catan_engine::{
    bots::{Bot, RandomBot},
    sim, BoardSpec, Event, Game, GameConfig, Move, ScenarioId,
};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Games played before counting, so that the reused buffers have grown to their size.
const WARM_UP_GAMES: u64 = 20;
const COUNTED_GAMES: u64 = 100;

/// The buffers one self-play driver reuses across moves and games.
#[derive(Default)]
struct Buffers {
    legal: Vec<Move>,
    events: Vec<Event>,
}

/// Plays one random game of `config`, returning its moves and the heap allocations (and
/// reallocations) made by its moves.
fn play(config: &GameConfig, seed: u64, buffers: &mut Buffers) -> (u64, u64) {
    let mut game = Game::new(config.clone(), seed).expect("a valid configuration");
    let mut bots: Vec<RandomBot> = (0..config.players).map(|i| RandomBot::new(sim::bot_seed(seed, i))).collect();
    let (mut moves, mut allocations) = (0, 0);
    while !game.is_over() && game.turn_number() <= sim::TURN_CAP {
        let region = Region::new(ALLOCATOR);
        let Some(seat) = game.next_to_act() else { break };
        game.legal_moves_into(seat, &mut buffers.legal);
        let choice = bots[seat.index()].choose(&game, seat, &buffers.legal).min(buffers.legal.len() - 1);
        let mut chance = game.chance();
        game.decide_into(seat, &buffers.legal[choice], &mut chance, &mut buffers.events).expect("a legal move");
        for event in &buffers.events {
            game.apply(event);
        }
        let change = region.change();
        allocations += (change.allocations + change.reallocations) as u64;
        moves += 1;
    }
    (moves, allocations)
}

/// Allocations per move over the counted games of `config`, after the warm-up.
fn allocations_per_move(config: &GameConfig) -> f64 {
    let mut buffers = Buffers::default();
    for seed in 0..WARM_UP_GAMES {
        play(config, seed, &mut buffers);
    }
    let (mut moves, mut allocations) = (0, 0);
    for seed in WARM_UP_GAMES..WARM_UP_GAMES + COUNTED_GAMES {
        let (m, a) = play(config, seed, &mut buffers);
        moves += m;
        allocations += a;
    }
    let per_move = allocations as f64 / moves as f64;
    println!("{}: {allocations} allocations in {moves} moves ({per_move:.5} per move)", config.variant_name());
    per_move
}

fn random_board(players: u8) -> GameConfig {
    GameConfig { board: BoardSpec::Random, ..GameConfig::for_players(players) }
}

/// At most one allocation in 10,000 moves: the rare growth of a reused buffer (3 in 72,799
/// base moves, 4 in 100,462 New Shores moves and 3 in 106,270 Cities & Knights moves when
/// this was written; 0.44 per move in the base game before a roll's gains were inline, 0.0099
/// in Seafarers before its gold choices and lists were, 0.024 in Cities & Knights before its
/// progress cards' lists were). A regression that allocates per move again (an event list, a
/// tally, a list inside an event, a listing's scratch, a copy of the game) goes far above it.
const ALLOCATIONS_PER_MOVE: f64 = 0.0001;

/// One test for every ruleset: the counter is global, so tests running at once on other
/// threads would count each other's allocations.
#[test]
fn self_play_allocates_nothing_per_move() {
    let base = allocations_per_move(&random_board(4));
    let seafarers =
        allocations_per_move(&GameConfig { seafarers: true, scenario: Some(ScenarioId::NewShores), ..random_board(4) });
    let cities_knights = allocations_per_move(&GameConfig { cities_and_knights: true, ..random_board(4) });
    assert!(base <= ALLOCATIONS_PER_MOVE, "the base game: {base:.5} allocations per move");
    assert!(seafarers <= ALLOCATIONS_PER_MOVE, "Seafarers: {seafarers:.5} allocations per move");
    assert!(cities_knights <= ALLOCATIONS_PER_MOVE, "Cities & Knights: {cities_knights:.5} allocations per move");
}
