//! Invariants over thousands of random self-played games, one test per ruleset (cargo runs
//! them in parallel): the base game with 2, 3 and 4 players, the 5-6 player extension with
//! 5 and 6, Jungle and Big River, on random and beginner boards, each varying the rule flags.
//! Every move of every game is checked (see `checks`): listed moves are accepted, and in a
//! sample `decide` accepts exactly the listed moves; rejected moves change nothing; cards
//! are conserved; piece limits, the distance rule and victory points hold; views and
//! redaction hide what they must; the log replays to the live state; the serde snapshot
//! round-trips; and every game ends with a winner within the turn cap.
//!
//! A new ruleset (a Seafarers scenario, Cities & Knights) is one more `#[test]` that calls
//! `play_ruleset` with its name, its number of games and a config generator.

mod checks;

use catan_engine::{
    board::{EdgeId, HexCoord},
    BoardSpec, FirstPlayer, Game, GameConfig, Move, Phase, Seat,
};
use checks::{any_board, one_in, pick, play_ruleset};

/// The base game for `players` seats (5 or 6 with the extension), on either board.
fn base_rules(players: u8) -> impl Fn(u64) -> GameConfig {
    move |index| GameConfig { board: any_board(index), ..GameConfig::for_players(players) }
}

/// JUN: the desert is a jungle, with each of its possible numbers.
fn jungle_rules(index: u64) -> GameConfig {
    GameConfig {
        jungle: true,
        jungle_number: Some(pick(index, "jungle_number", &[2, 3, 4, 5, 9, 10, 11, 12])),
        board: any_board(index),
        ..GameConfig::for_players(pick(index, "players", &[3, 4]))
    }
}

/// RIV: the river with each gold number, the setup ban and gold production on and off. Big
/// River needs a random (or custom) board.
fn big_river_rules(index: u64) -> GameConfig {
    GameConfig {
        big_river: true,
        river_gold_number: Some(pick(index, "river_gold_number", &[3, 4, 5, 9, 10, 11])),
        river_bank_setup_ban: !one_in(index, "river_bank_setup_ban", 3),
        river_gold_produces: !one_in(index, "river_gold_produces", 5),
        board: BoardSpec::Random,
        ..GameConfig::for_players(pick(index, "players", &[3, 4]))
    }
}

#[test]
fn base_two_players() {
    play_ruleset("base_two_players", 263, base_rules(2));
}

#[test]
fn base_three_players() {
    play_ruleset("base_three_players", 263, base_rules(3));
}

#[test]
fn base_four_players() {
    play_ruleset("base_four_players", 526, base_rules(4));
}

#[test]
fn five_six_five_players() {
    play_ruleset("five_six_five_players", 263, base_rules(5));
}

#[test]
fn five_six_six_players() {
    play_ruleset("five_six_six_players", 263, base_rules(6));
}

#[test]
fn jungle() {
    play_ruleset("jungle", 263, jungle_rules);
}

#[test]
fn big_river() {
    play_ruleset("big_river", 263, big_river_rules);
}

#[test]
fn rejected_moves_name_their_rule() {
    let mut game =
        Game::new(GameConfig { first_player: FirstPlayer::Seat(0), ..GameConfig::for_players(3) }, 3).unwrap();
    let before = game.clone();
    let error = game.decide(Seat(1), &Move::BuildSettlement { vertex: "0,0,N".parse().unwrap() }, &mut game.chance());
    assert_eq!(error.unwrap_err().code(), "not_your_turn");
    let error = game.decide(
        Seat(0),
        &Move::BuildRoad { edge: EdgeId::new(0, 0, catan_engine::board::Side::E) },
        &mut game.chance(),
    );
    assert_eq!(error.unwrap_err().code(), "wrong_phase");
    let error =
        game.decide(Seat(0), &Move::MoveRobber { hex: HexCoord::new(0, 0), steal_from: None }, &mut game.chance());
    assert_eq!(error.unwrap_err().code(), "wrong_phase");
    assert_eq!(before, game);
    // Playing the first placement still works after the rejections.
    let mv = game.legal_moves(Seat(0))[0].clone();
    for event in game.decide(Seat(0), &mv, &mut game.chance()).unwrap() {
        game.apply(&event);
    }
    assert!(matches!(game.phase(), Phase::Setup { .. }));
}
