//! The turn limit (engine decision, `GameConfig::turn_limit`): a game that reaches it ends,
//! won by the seat with the most victory points, so that no game (e.g. of bots) runs forever.

use catan_engine::{Event, GameConfig, Move, Phase, Seat, Setup, VictoryCondition};

use super::support::*;

fn limited(turn_limit: u32) -> GameConfig {
    GameConfig { turn_limit: Some(turn_limit), ..config(4) }
}

/// P0 2 VP, P1 3 VP, P2 3 VP, P3 2 VP; P3's turn `turn`, after the roll.
fn position(turn_limit: u32, turn: u32) -> Setup {
    given_with(limited(turn_limit))
        .settlement(P0, "0,-1,N")
        .settlement(P0, "-1,0,N")
        .city(P1, "1,-1,N")
        .settlement(P1, "1,0,N")
        .city(P2, "0,1,N")
        .settlement(P2, "-2,0,N")
        .settlement(P3, "0,0,N")
        .settlement(P3, "-1,1,N")
        .with_turn(turn, P3)
        .with_dice(2, 3)
        .with_phase(Phase::Main, vec![])
}

fn ended_by_limit(seat: Seat, victory_points: u32) -> Event {
    Event::GameWon { seat, victory_points, victory_point_cards: 0, condition: VictoryCondition::TurnLimit }
}

#[test]
fn a_turn_before_the_limit_ends_as_usual() {
    let mut s = position(8, 7).start();
    let events = s.when(P3, Move::EndTurn);
    assert_eq!(events, [Event::TurnStarted { seat: P0, turn: 8 }]);
    assert_eq!(s.game.winner(), None);
}

/// Given the limit's last turn, when it ends, then the next turn does not begin: the game is
/// won by the most points, P1 and P2 tied at 3 and P1 the sooner to play after P3.
#[test]
fn the_last_turn_ends_the_game_and_a_tie_goes_to_the_seat_that_would_play_soonest() {
    let mut s = position(8, 8).start();
    let events = s.when(P3, Move::EndTurn);
    assert_eq!(events, [ended_by_limit(P1, 3)]);
    assert_eq!(s.game.winner(), Some(P1));
    assert_eq!(*s.game.phase(), Phase::GameOver);
    assert_eq!(s.game.turn_number(), 8);
    s.rejects(P0, Move::RollDice, "game_over");
}

#[test]
fn the_most_points_win_at_the_limit_whoever_played_last() {
    // P3's second city: 4 VP, ahead of everyone.
    let mut s = position(3, 3).city(P3, "1,1,N").start();
    assert_eq!(s.when(P3, Move::EndTurn), [ended_by_limit(P3, 4)]);
    // Hidden VP cards count: P0's two make 4, ahead of P1 and P2.
    let mut s = position(3, 3)
        .card(P0, catan_engine::DevCard::VictoryPoint)
        .card(P0, catan_engine::DevCard::VictoryPoint)
        .start();
    let events = s.when(P3, Move::EndTurn);
    assert_eq!(
        events,
        [Event::GameWon {
            seat: P0,
            victory_points: 4,
            victory_point_cards: 2,
            condition: VictoryCondition::TurnLimit
        }]
    );
}

#[test]
fn a_victory_by_the_rules_at_the_start_of_the_turn_past_the_limit_stands() {
    // P0 holds 10 VP when its turn would start (B-WIN-3): it wins on points, not by the limit.
    let mut s =
        ["2,-1,N", "0,2,N", "-1,2,N", "1,1,N"].iter().fold(position(5, 5), |setup, site| setup.city(P0, site)).start();
    assert!(s.game.victory_points(P0) >= 10, "{}", s.game.victory_points(P0));
    let events = s.when(P3, Move::EndTurn);
    assert!(
        matches!(events.last(), Some(Event::GameWon { seat: P0, condition: VictoryCondition::VictoryPoints, .. })),
        "{events:?}"
    );
}

#[test]
fn turn_limits_outside_1_to_10000_are_refused() {
    for (limit, accepted) in [(0, false), (1, true), (1000, true), (10_000, true), (10_001, false)] {
        let result = limited(limit).validate();
        assert_eq!(result.is_ok(), accepted, "turn_limit {limit}: {result:?}");
        if let Err(error) = result {
            assert_eq!(error.code(), "invalid_config");
            assert!(error.to_string().contains("turn_limit"), "{error}");
        }
    }
}

/// Whatever comes between turns (X56's special building phases) and whatever the variant,
/// a game of bots stops at its limit, and its log replays to the same end.
#[test]
fn self_played_games_of_every_variant_stop_at_their_limit() {
    use catan_engine::{bots::BotKind, sim, Game, ScenarioId};
    let seafarers = |scenario| GameConfig { seafarers: true, scenario: Some(scenario), ..GameConfig::for_players(4) };
    for config in [
        GameConfig::for_players(4),
        GameConfig::for_players(6),
        seafarers(ScenarioId::NewShores),
        seafarers(ScenarioId::Wonders),
    ] {
        let config = GameConfig { turn_limit: Some(12), ..config };
        let record = sim::play_bots_game(config.clone(), 3, &[BotKind::Random]).unwrap();
        let name = config.variant_name();
        assert!(record.finished, "{name}");
        assert_eq!(record.game.turn_number(), 12, "{name}");
        let Some(Event::GameWon { seat, condition, .. }) = record.events.last() else {
            panic!("{name}: the log does not end with game_won")
        };
        assert_eq!(*condition, VictoryCondition::TurnLimit, "{name}");
        let most = record.game.seats().map(|s| record.game.victory_points(s)).max().unwrap();
        assert_eq!(record.game.victory_points(*seat), most, "{name}");
        assert!(Game::replay(config, &record.events).unwrap() == record.game, "{name}: replay differs");
    }
}
