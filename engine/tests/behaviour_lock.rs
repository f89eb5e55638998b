//! The behaviour lock (issue 28, part 6): a fixed set of seeded self-played games per ruleset,
//! digested — every event of every log as its wire JSON, the final snapshot and the final view
//! of every seat and of a spectator — and compared with a digest recorded from the engine
//! before its restructuring. A refactoring that changes any decision, any event, the snapshot
//! format or what a view shows changes the digest, and this test names the ruleset.
//!
//! The games mix the random bot with the heuristic bot (which reads views, bank rates and
//! every query of the public API) and vary the rule flags every ruleset shares, as the
//! invariant tests do. `LOCK_PRINT=1 cargo test -p catan-engine --test behaviour_lock -- --nocapture`
//! prints the digests instead of failing, to record them after a deliberate change of
//! behaviour (which then says so in its commit).

use catan_engine::{bots::BotKind, sim, BoardSpec, DevCardsBeforeRoll, FirstPlayer, GameConfig, ScenarioId, Viewer};

/// Games per ruleset (the 600).
const GAMES: u64 = 600;

/// FNV-1a, 64 bits: stable across Rust versions and platforms, unlike `DefaultHasher`.
struct Digest(u64);

impl Digest {
    fn new() -> Self {
        Digest(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A separator, so that two pieces cannot run into each other.
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }

    fn json(&mut self, value: &impl serde::Serialize) {
        self.bytes(serde_json::to_string(value).expect("serializable").as_bytes());
    }
}

/// A stable pseudo-random choice for game `index` and option `name`.
fn pick<T: Clone>(index: u64, name: &str, values: &[T]) -> T {
    let mut d = Digest::new();
    d.bytes(name.as_bytes());
    d.bytes(&index.to_le_bytes());
    values[(d.0 % values.len() as u64) as usize].clone()
}

fn board(index: u64) -> BoardSpec {
    pick(index, "board", &[BoardSpec::Random, BoardSpec::Beginner])
}

/// The rule flags every ruleset shares.
fn vary(mut config: GameConfig, index: u64) -> GameConfig {
    config.robber_may_enter_desert = pick(index, "robber_may_enter_desert", &[true, true, false]);
    config.allow_trade_build_interleaving = pick(index, "allow_trade_build_interleaving", &[true, true, true, false]);
    config.sbp_trade_with_previous_player = pick(index, "sbp_trade_with_previous_player", &[true, false]);
    if pick(index, "dev_cards_before_roll", &[false, true]) {
        config.dev_cards_before_roll = DevCardsBeforeRoll::Any;
    }
    if pick(index, "first_player", &[false, false, false, true]) {
        config.first_player = FirstPlayer::Seat((index % u64::from(config.players)) as u8);
    }
    config
}

fn base(index: u64) -> GameConfig {
    GameConfig { board: board(index), ..GameConfig::for_players(pick(index, "players", &[2, 3, 4, 4])) }
}

fn five_six(index: u64) -> GameConfig {
    GameConfig { board: board(index), ..GameConfig::for_players(pick(index, "players", &[5, 6])) }
}

fn jungle(index: u64) -> GameConfig {
    GameConfig {
        jungle: true,
        jungle_number: Some(pick(index, "jungle_number", &[2, 3, 4, 5, 9, 10, 11, 12])),
        board: board(index),
        ..GameConfig::for_players(pick(index, "players", &[3, 4]))
    }
}

fn big_river(index: u64) -> GameConfig {
    GameConfig {
        big_river: true,
        river_gold_number: Some(pick(index, "river_gold_number", &[3, 4, 5, 9, 10, 11])),
        river_bank_setup_ban: pick(index, "river_bank_setup_ban", &[true, true, false]),
        river_gold_produces: pick(index, "river_gold_produces", &[true, true, true, false]),
        board: BoardSpec::Random,
        ..GameConfig::for_players(pick(index, "players", &[3, 4]))
    }
}

fn seafarers_on(scenario: ScenarioId, index: u64) -> GameConfig {
    let counts = scenario.player_counts();
    let players = counts[(index / 5) as usize % counts.len()];
    GameConfig {
        seafarers: true,
        scenario: Some(scenario),
        forbid_adjacent_red_numbers: pick(index, "forbid_adjacent_red_numbers", &[true, true, false]),
        ..GameConfig::for_players(players)
    }
}

const SEA_SCENARIOS: [ScenarioId; 4] =
    [ScenarioId::NewShores, ScenarioId::FourIslands, ScenarioId::FogIslands, ScenarioId::ThroughTheDesert];

fn seafarers(index: u64) -> GameConfig {
    seafarers_on(SEA_SCENARIOS[(index % 4) as usize], index)
}

fn wonders(index: u64) -> GameConfig {
    seafarers_on(ScenarioId::Wonders, index)
}

fn cities_knights(index: u64) -> GameConfig {
    let ck = |config: GameConfig| GameConfig {
        cities_and_knights: true,
        barbarian_steps: pick(index, "barbarian_steps", &[7, 7, 7, 4, 10]),
        robber_waits_for_first_attack: pick(index, "robber_waits_for_first_attack", &[true, true, false]),
        progress_hand_limit: pick(index, "progress_hand_limit", &[None, None, None, Some(3), Some(5)]),
        progress_overflow_play_option: pick(index, "progress_overflow_play_option", &[true, true, false]),
        ..config
    };
    // One game in five on a Seafarers scenario with a pirate (SEA-15).
    if index % 5 == 4 {
        ck(seafarers(index / 5))
    } else {
        ck(GameConfig { board: board(index), ..GameConfig::for_players(pick(index, "players", &[3, 4, 4, 5, 6])) })
    }
}

/// The digest of `games` games of a ruleset and their move count.
fn digest(name: &str, games: u64, config: fn(u64) -> GameConfig) -> (u64, u64) {
    let mut d = Digest::new();
    let mut moves = 0;
    for index in 0..games {
        let config = vary(config(index), index);
        let seed = 1_000 + index;
        // Every third game seats a heuristic bot in seat 0, every ninth game only heuristics.
        let kinds: Vec<BotKind> = match index % 9 {
            0 => vec![BotKind::Heuristic],
            3 | 6 => {
                let mut kinds = vec![BotKind::Random; usize::from(config.players)];
                kinds[0] = BotKind::Heuristic;
                kinds
            }
            _ => vec![BotKind::Random],
        };
        let record = sim::play_bots_game(config, seed, &kinds).unwrap_or_else(|e| panic!("{name} game {index}: {e}"));
        for event in &record.events {
            d.json(event);
        }
        d.json(&record.game);
        for seat in record.game.seats() {
            d.json(&record.game.view(Viewer::Seat(seat)));
        }
        d.json(&record.game.view(Viewer::Spectator));
        d.bytes(&record.moves.to_le_bytes());
        d.bytes(&[u8::from(record.finished)]);
        moves += record.moves;
    }
    (d.0, moves)
}

fn check(name: &str, config: fn(u64) -> GameConfig, expected: u64) {
    let start = std::time::Instant::now();
    let (got, moves) = digest(name, GAMES, config);
    if std::env::var_os("LOCK_PRINT").is_some() {
        eprintln!("{name}: 0x{got:016x} ({GAMES} games, {moves} moves, {:.1?})", start.elapsed());
        return;
    }
    assert_eq!(got, expected, "{name}: the logs of its {GAMES} seeded games changed (0x{got:016x})");
}

#[test]
fn base_game() {
    check("base", base, 0x13fb_aff6_cec8_b2ef);
}

#[test]
fn five_six_game() {
    check("five_six", five_six, 0x5b0e_a6a1_b80f_1d5c);
}

#[test]
fn jungle_game() {
    check("jungle", jungle, 0xb141_b2ac_dc0c_785d);
}

#[test]
fn big_river_game() {
    check("big_river", big_river, 0xe8e3_c86f_181b_a4fc);
}

#[test]
fn seafarers_game() {
    check("seafarers", seafarers, 0xb56d_4489_aff7_fefb);
}

#[test]
fn wonders_game() {
    check("wonders", wonders, 0x4462_43c9_c63e_7fcc);
}

#[test]
fn cities_knights_game() {
    check("cities_knights", cities_knights, 0x496b_0a76_ef81_0f63);
}
