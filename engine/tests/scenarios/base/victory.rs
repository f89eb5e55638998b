//! 9.6 Victory: TC-49, TC-50 (TC-36 is in development.rs).

use catan_engine::{Event, Move, Phase, Resources, VictoryCondition};

use super::{
    longest_road::{reaches_v3, ROW0_TOP, ROW2_TOP},
    support::*,
};

/// TC-49 [B-WIN-3]: P0's settlement breaks P2's road, Longest Road passes to P1 (10 VP) during
/// P0's turn; P1 wins only when its own turn starts.
#[test]
fn tc_49_points_gained_on_another_turn_win_at_the_start_of_your_own() {
    let position = ["0,2,N", "2,-2,N", "2,0,S", "-2,0,S"]
        .iter()
        .fold(given(), |setup, site| setup.city(P1, site))
        .settlement(P2, ROW0_TOP[0])
        .roads_along(P2, &ROW0_TOP[..7])
        .with_longest_road(Some(P2))
        .roads_along(P1, &ROW2_TOP[..6]);
    let mut s = reaches_v3(position, P0).give(P0, Resources::new(1, 1, 1, 1, 0)).main_phase(P0).start();
    assert_eq!(s.game.victory_points(P1), 8);
    let events = s.when(P0, Move::BuildSettlement { vertex: v(ROW0_TOP[3]) });
    assert!(events.contains(&Event::LongestRoadChanged { holder: Some(P1), previous: Some(P2), length: 5 }));
    assert!(!events.iter().any(|ev| matches!(ev, Event::GameWon { .. })), "{events:?}");
    assert_eq!(s.game.victory_points(P1), 10);
    assert_eq!(s.game.winner(), None);
    assert_eq!(*s.game.phase(), Phase::Main);
    assert!(s.game.legal_moves(P0).contains(&Move::EndTurn));

    let events = s.when(P0, Move::EndTurn);
    assert_eq!(
        events,
        [
            Event::TurnStarted { seat: P1, turn: 2 },
            Event::GameWon {
                seat: P1,
                victory_points: 10,
                victory_point_cards: 0,
                condition: VictoryCondition::VictoryPoints
            }
        ]
    );
    assert_eq!(s.game.winner(), Some(P1));
    assert_eq!(*s.game.phase(), Phase::GameOver);
    s.rejects(P1, Move::RollDice, "game_over");
}

/// TC-50 [B-WIN-3, B-WIN-4]: a city that brings P0 to 10 VP ends the game at once; nothing more
/// is accepted.
#[test]
fn tc_50_reaching_ten_on_your_turn_ends_the_game() {
    let mut s = ["0,-1,N", "-1,0,S", "2,-1,N"]
        .iter()
        .fold(given(), |setup, site| setup.city(P0, site))
        .settlement(P0, "2,0,S")
        .settlement(P0, "0,2,N")
        .settlement(P0, "-2,0,N")
        .give(P0, Resources::new(1, 1, 0, 2, 3))
        .give(P1, Resources::new(1, 1, 0, 0, 0))
        .main_phase(P0)
        .start();
    assert_eq!(s.game.victory_points(P0), 9);
    let events = s.when(P0, Move::BuildCity { vertex: v("2,0,S") });
    assert_eq!(
        events.last(),
        Some(&Event::GameWon {
            seat: P0,
            victory_points: 10,
            victory_point_cards: 0,
            condition: VictoryCondition::VictoryPoints
        })
    );
    assert_eq!(s.game.winner(), Some(P0));
    assert_eq!(*s.game.phase(), Phase::GameOver);
    s.rejects(P0, Move::EndTurn, "game_over");
    s.rejects(
        P0,
        Move::TradeWithBank { give: Resources::new(0, 0, 0, 0, 0), get: Resources::new(0, 1, 0, 0, 0) },
        "game_over",
    );
    s.rejects(P1, Move::RollDice, "game_over");
    assert!(s.game.legal_moves(P0).is_empty());
    assert!(s.game.legal_moves(P1).is_empty());
    assert!(s.game.waiting_for().is_empty());
}
