//! Every position reached in play is a valid [`Setup`]: over self-played games of every
//! ruleset, `Setup::from(&game).position()` rebuilds the game exactly, so the validation
//! refuses nothing that play can reach.

use std::collections::BTreeSet;

use catan_engine::{
    sim::{self, Bot, RandomBot},
    BoardSpec, DevCardsBeforeRoll, Game, GameConfig, Phase, ScenarioId, Setup, Viewer,
};

/// Every ruleset, with the flags that shape phases (progress cards before the roll, trading
/// after building) on in some games.
pub(crate) fn configs() -> Vec<GameConfig> {
    let mut configs = Vec::new();
    for players in [2, 3, 4, 5, 6] {
        configs.push(GameConfig { board: BoardSpec::Random, ..GameConfig::for_players(players) });
        configs.push(GameConfig {
            dev_cards_before_roll: DevCardsBeforeRoll::Any,
            allow_trade_build_interleaving: false,
            sbp_trade_with_previous_player: false,
            ..GameConfig::for_players(players)
        });
    }
    configs.push(GameConfig { jungle: true, jungle_number: Some(5), ..GameConfig::for_players(4) });
    configs.push(GameConfig {
        jungle: true,
        jungle_number: Some(9),
        dev_cards_before_roll: DevCardsBeforeRoll::Any,
        board: BoardSpec::Random,
        ..GameConfig::for_players(3)
    });
    // Seafarers: ships, the pirate, gold, fog and island bonuses on each scenario's map.
    for scenario in ScenarioId::ALL {
        configs.push(GameConfig { seafarers: true, scenario: Some(scenario), ..GameConfig::for_players(4) });
    }
    configs.push(GameConfig {
        seafarers: true,
        scenario: Some(ScenarioId::FogIslands),
        dev_cards_before_roll: DevCardsBeforeRoll::Any,
        ..GameConfig::for_players(3)
    });
    for gold_produces in [true, false] {
        configs.push(GameConfig {
            big_river: true,
            river_gold_number: Some(4),
            river_gold_produces: gold_produces,
            board: BoardSpec::Random,
            ..GameConfig::for_players(4)
        });
    }
    configs
}

fn check_round_trip(game: &Game) {
    let setup = Setup::from(game);
    let rebuilt = match setup.clone().position() {
        Ok(rebuilt) => rebuilt,
        Err(error) => panic!("a position reached in play is refused: {} ({error}) in {:?}", error.code(), game.phase()),
    };
    assert_eq!(Setup::from(&rebuilt), setup);
    assert_eq!(&rebuilt, game);
    assert_eq!(rebuilt.view(Viewer::Spectator), game.view(Viewer::Spectator));
    for seat in game.waiting_for() {
        assert_eq!(rebuilt.legal_moves(seat), game.legal_moves(seat));
    }
}

/// Plays `config` with random bots and checks the position after every move (not between
/// the events of one move: those are no positions).
fn play_and_check(config: GameConfig, seed: u64, phases: &mut BTreeSet<&'static str>) -> u32 {
    let mut game = Game::new(config, seed).expect("game");
    let mut bot = RandomBot::new(seed);
    let (mut moves, mut checked) = (0u32, 1);
    check_round_trip(&game);
    while !game.is_over() && game.turn_number() < 400 {
        let seat = game.waiting_for()[0];
        let legal = game.legal_moves(seat);
        let mv = &legal[bot.choose(&game, seat, &legal)];
        for event in game.decide(seat, mv, &mut game.chance()).expect("a listed move") {
            game.apply(&event);
        }
        if moves % 3 == 0 || !matches!(game.phase(), Phase::Main | Phase::PreRoll) {
            check_round_trip(&game);
            phases.insert(game.phase().name());
            checked += 1;
        }
        moves += 1;
    }
    check_round_trip(&game);
    phases.insert(game.phase().name());
    checked + 1
}

#[test]
fn every_position_reached_in_play_round_trips_through_a_setup() {
    let mut checked = 0u32;
    let mut phases = BTreeSet::new();
    for (c, config) in configs().into_iter().enumerate() {
        for seed in 0..6u64 {
            checked += play_and_check(config.clone(), seed * 131 + c as u64, &mut phases);
        }
    }
    // The sample meets every phase of the rulesets above.
    for phase in [
        "setup",
        "pre_roll",
        "discard",
        "move_robber",
        "main",
        "road_building",
        "gold_choice",
        "special_building",
        "game_over",
    ] {
        assert!(phases.contains(phase), "no position in phase {phase}: {phases:?}");
    }
    assert!(checked > 20_000, "{checked} positions");
}

#[test]
fn a_setup_round_trips_through_json() {
    let config = GameConfig { jungle: true, jungle_number: Some(5), ..GameConfig::for_players(4) };
    let record = sim::play_random_game(config, 3).expect("game");
    let setup = Setup::from(&record.game);
    let text = serde_json::to_string(&setup).unwrap();
    let parsed: Setup = serde_json::from_str(&text).unwrap();
    assert_eq!(parsed, setup);
    assert_eq!(parsed.position().unwrap().view(Viewer::Spectator), record.game.view(Viewer::Spectator));
}
