//! Plays bot games and prints one JSON line of statistics.
//!
//! `cargo run --release -p catan-engine --example simulate -- --games N --players P --seed S
//! [--bots heuristic,random,random,random] [--variant seafarers] [--scenario new_shores]`
//!
//! `--bots` names one bot kind per seat (a single kind fills every seat; default: all
//! random). `--variant` switches variants on as `POST /games` does (names joined with `+`;
//! 5 or 6 players add the 5-6 extension); `--scenario` picks a Seafarers scenario (and
//! switches Seafarers on). The line reports `wins_by_seat`, `wins_by_condition` (how the
//! games were won, read from `game_won`: `victory_points`, `wonder_completed`, `villages_exhausted`,
//! `victory_points_and_wonder_lead`) and, when the kinds differ, `wins_by_kind` and
//! `wins_by_kind_and_condition`.
//!
//! `--uniform` plays every seat with a bot that picks each legal move with the same chance
//! (the random bot weighs them toward scoring moves): the way the fastcatan driver of
//! `../shared/bench` plays, for a comparison like for like. Its games are longer.
//!
//! `--per-ruleset` plays `--games` random games of the base game, of Seafarers (New Shores)
//! and of Cities & Knights instead, and prints one line each: games/s, moves/s, and the cost
//! of a move relative to the base game's (wall-clock time; for figures side by side use
//! `scripts/bench-rulesets.sh`, which alternates runs and counts CPU time).

use std::time::Instant;

use catan_engine::{
    bots::{Bot, BotKind},
    rng::Rng,
    sim, Event, Game, GameConfig, Move, ScenarioId, Seat, VictoryCondition,
};

/// Picks every legal move with the same chance (`--uniform`).
struct UniformBot(Rng);

impl Bot for UniformBot {
    fn choose(&mut self, _: &Game, _: Seat, moves: &[Move]) -> usize {
        self.0.below(u32::try_from(moves.len()).unwrap_or(u32::MAX).max(1)) as usize
    }
}

/// Every victory condition, in the order the report lists them.
const CONDITIONS: [VictoryCondition; 5] = [
    VictoryCondition::VictoryPoints,
    VictoryCondition::WonderCompleted,
    VictoryCondition::VictoryPointsAndWonderLead,
    VictoryCondition::TurnLimit,
    VictoryCondition::VillagesExhausted,
];

/// The snake_case name of `condition`, as `game_won` serializes it.
fn condition_name(condition: VictoryCondition) -> String {
    serde_json::to_value(condition).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// `{"victory_points":n,...}` for counts indexed as [`CONDITIONS`].
fn condition_counts(counts: &[u64; CONDITIONS.len()]) -> String {
    let entries: Vec<String> =
        CONDITIONS.iter().zip(counts).map(|(c, n)| format!("\"{}\":{n}", condition_name(*c))).collect();
    format!("{{{}}}", entries.join(","))
}

fn usage(problem: &str) -> ! {
    eprintln!(
        "usage: simulate [--games N] [--players P] [--seed S] [--bots KIND,KIND,...] \
         [--variant NAME+NAME] [--scenario ID] [--uniform] (kinds: random, heuristic): {problem}"
    );
    std::process::exit(2);
}

fn parse_kinds(value: &str) -> Option<Vec<BotKind>> {
    value.split(',').map(|name| name.parse().ok()).collect::<Option<Vec<BotKind>>>().filter(|kinds| !kinds.is_empty())
}

/// `--per-ruleset`: games/s and moves/s of random games in each ruleset, and the cost of a
/// move relative to the base game's.
fn per_ruleset(games: u64, players: u8, seed: u64) {
    let base = GameConfig { board: catan_engine::BoardSpec::Random, ..GameConfig::for_players(players) };
    let rulesets = [
        base.clone(),
        GameConfig { seafarers: true, scenario: Some(ScenarioId::NewShores), ..base.clone() },
        GameConfig { cities_and_knights: true, ..base },
    ];
    let mut base_move_secs = None;
    for config in rulesets {
        let started = Instant::now();
        let mut moves = 0u64;
        let mut driver = sim::SelfPlay::unlogged();
        for i in 0..games {
            match driver.play_bots(config.clone(), seed.wrapping_add(i), &[sim::BotKind::Random]) {
                Ok(record) => moves += record.moves,
                Err(error) => usage(&error.to_string()),
            }
        }
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let move_secs = secs / moves.max(1) as f64;
        let relative = move_secs / *base_move_secs.get_or_insert(move_secs);
        println!(
            "{{\"variant\":\"{}\",\"games\":{games},\"games_per_sec\":{:.1},\"moves_per_sec\":{:.0},\"move_cost_vs_base\":{relative:.2}}}",
            config.variant_name(),
            games as f64 / secs,
            moves as f64 / secs
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "--per-ruleset") {
        let value = |flag: &str| {
            let args: Vec<String> = std::env::args().collect();
            args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)?.parse::<u64>().ok())
        };
        let players = value("--players").map_or(4, |p| p as u8);
        per_ruleset(value("--games").unwrap_or(200), players, value("--seed").unwrap_or(1));
        return;
    }
    let mut games = 1000u64;
    let mut players = 4u8;
    let mut seed = 1u64;
    let mut kinds = vec![BotKind::Random];
    let mut variant = String::from("base");
    let mut scenario: Option<ScenarioId> = None;
    let mut uniform = false;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--uniform" {
            uniform = true;
            continue;
        }
        let value = args.next().unwrap_or_default();
        let parsed = match flag.as_str() {
            "--games" => value.parse().map(|v| games = v).is_ok(),
            "--players" => value.parse().map(|v| players = v).is_ok(),
            "--seed" => value.parse().map(|v| seed = v).is_ok(),
            "--bots" => parse_kinds(&value).map(|v| kinds = v).is_some(),
            "--variant" => {
                variant.clone_from(&value);
                true
            }
            "--scenario" => {
                serde_json::from_value(serde_json::Value::String(value.clone())).map(|v| scenario = Some(v)).is_ok()
            }
            _ => false,
        };
        if !parsed {
            usage(&format!("bad argument {flag} {value}"));
        }
    }
    if kinds.len() == 1 {
        kinds = vec![kinds[0]; usize::from(players)];
    }
    if kinds.len() != usize::from(players) {
        usage(&format!("--bots names {} kinds for {players} players", kinds.len()));
    }
    let mut config = GameConfig { board: catan_engine::BoardSpec::Random, ..GameConfig::for_players(players) };
    if let Err(error) = config.enable_variants(&variant) {
        usage(&error.to_string());
    }
    if scenario.is_some() || config.seafarers {
        config.seafarers = true;
        config.scenario = Some(scenario.unwrap_or(ScenarioId::NewShores));
    }
    let variant_name = config.variant_name();
    let scenario_name = config.scenario.map_or(String::new(), |s| format!(",\"scenario\":\"{}\"", s.name()));
    let started = Instant::now();
    let (mut finished, mut moves, mut turns) = (0u64, 0u64, 0u64);
    // Every game's turn count, for the percentiles that justify a turn limit.
    let mut turn_counts: Vec<u32> = Vec::with_capacity(games as usize);
    let mut wins_by_seat = vec![0u64; usize::from(players)];
    // Per seat: wins by each condition, indexed as `CONDITIONS`.
    let mut conditions_by_seat = vec![[0u64; CONDITIONS.len()]; usize::from(players)];
    // One driver for the run, its buffers reused from game to game; it keeps no log, as only
    // the outcome (from the last move's `game_won`) is reported.
    let mut driver = sim::SelfPlay::unlogged();
    for i in 0..games {
        let game_seed = seed.wrapping_add(i);
        let played = if uniform {
            let mut bots: Vec<UniformBot> =
                (0..players).map(|seat| UniformBot(Rng::new(sim::bot_seed(game_seed, seat)))).collect();
            driver.play(config.clone(), game_seed, &mut bots)
        } else {
            driver.play_bots(config.clone(), game_seed, &kinds)
        };
        let record = match played {
            Ok(record) => record,
            Err(error) => {
                eprintln!("cannot set up the game: {error}");
                std::process::exit(2);
            }
        };
        finished += u64::from(record.finished);
        moves += record.moves;
        turns += u64::from(record.game.turn_number());
        turn_counts.push(record.game.turn_number());
        if let Some(winner) = record.game.winner() {
            if let Some(wins) = wins_by_seat.get_mut(winner.index()) {
                *wins += 1;
            }
        }
        let won = record.events.iter().rev().find_map(|e| match e {
            Event::GameWon { seat, condition, .. } => Some((*seat, *condition)),
            _ => None,
        });
        if let Some((seat, condition)) = won {
            let index = CONDITIONS.iter().position(|c| *c == condition).unwrap_or(0);
            if let Some(counts) = conditions_by_seat.get_mut(seat.index()) {
                counts[index] += 1;
            }
        }
    }
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let n = games.max(1) as f64;
    turn_counts.sort_unstable();
    let percentile = |p: f64| {
        let rank = ((p * turn_counts.len() as f64).ceil() as usize).clamp(1, turn_counts.len().max(1));
        turn_counts.get(rank - 1).copied().unwrap_or(0)
    };
    let (turns_p99, turns_max) = (percentile(0.99), turn_counts.last().copied().unwrap_or(0));

    let bots = if uniform {
        vec!["\"uniform\""; kinds.len()].join(",")
    } else {
        kinds.iter().map(|k| format!("\"{k}\"")).collect::<Vec<_>>().join(",")
    };
    let by_seat = wins_by_seat.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    let mut by_kind = String::new();
    if kinds.iter().any(|k| *k != kinds[0]) {
        let mut seen: Vec<BotKind> = Vec::new();
        for kind in &kinds {
            if !seen.contains(kind) {
                seen.push(*kind);
            }
        }
        let entries: Vec<String> = seen
            .iter()
            .map(|kind| {
                let wins: u64 = kinds.iter().zip(&wins_by_seat).filter(|(k, _)| *k == kind).map(|(_, w)| w).sum();
                format!("\"{kind}\":{wins}")
            })
            .collect();
        let by_condition: Vec<String> = seen
            .iter()
            .map(|kind| {
                let mut counts = [0u64; CONDITIONS.len()];
                for (_, seat) in kinds.iter().zip(&conditions_by_seat).filter(|(k, _)| *k == kind) {
                    for (total, n) in counts.iter_mut().zip(seat) {
                        *total += n;
                    }
                }
                format!("\"{kind}\":{}", condition_counts(&counts))
            })
            .collect();
        by_kind = format!(
            ",\"wins_by_kind\":{{{}}},\"wins_by_kind_and_condition\":{{{}}}",
            entries.join(","),
            by_condition.join(",")
        );
    }
    let mut all_conditions = [0u64; CONDITIONS.len()];
    for seat in &conditions_by_seat {
        for (total, n) in all_conditions.iter_mut().zip(seat) {
            *total += n;
        }
    }
    let by_condition = condition_counts(&all_conditions);
    println!(
        "{{\"games\":{games},\"players\":{players},\"variant\":\"{variant_name}\"{scenario_name},\"seed\":{seed},\"bots\":[{bots}],\"finished\":{finished},\
         \"moves_mean\":{:.1},\"turns_mean\":{:.1},\"turns_p99\":{turns_p99},\"turns_max\":{turns_max},\"seconds\":{secs:.3},\"games_per_sec\":{:.1},\
         \"moves_per_sec\":{:.0},\"wins_by_seat\":[{by_seat}],\"wins_by_condition\":{by_condition}{by_kind}}}",
        moves as f64 / n,
        turns as f64 / n,
        games as f64 / secs,
        moves as f64 / secs
    );
}
