//! 9.2 Setup: TC-07 .. TC-11, played through real setup moves.

use catan_engine::{FirstPlayer, GameConfig, Move, Phase, Resources, Seat};

use super::support::*;

/// Plays the whole setup with the first legal placement each time; returns the placing seats.
fn play_setup_with_first_legal_moves(config: GameConfig) -> (Scenario, Vec<Seat>) {
    let mut s = Scenario::with(config);
    let mut order = Vec::new();
    while let Phase::Setup { seat, .. } = s.game.phase().clone() {
        order.push(seat);
        for other in s.game.seats().filter(|&o| o != seat) {
            assert!(s.game.legal_moves(other).is_empty());
        }
        let settle = s.game.legal_moves(seat)[0].clone();
        assert!(matches!(settle, Move::BuildSettlement { .. }));
        s.when(seat, settle);
        let road = s.game.legal_moves(seat)[0].clone();
        assert!(matches!(road, Move::BuildRoad { .. }));
        s.when(seat, road);
    }
    (s, order)
}

/// TC-07 [B-SET-3, B-SET-7]: snake order P0 P1 P2 P3 P3 P2 P1 P0, then P0's first turn; with 3
/// players P0 P1 P2 P2 P1 P0.
#[test]
fn tc_07_setup_follows_the_snake_order() {
    let (s, order) = play_setup_with_first_legal_moves(config(4));
    assert_eq!(order, [0, 1, 2, 3, 3, 2, 1, 0].map(Seat));
    assert_eq!(*s.game.phase(), Phase::PreRoll);
    assert_eq!(s.game.active_seat(), P0);
    assert_eq!(s.game.turn_number(), 1);
    assert_eq!(s.game.legal_moves(P0)[0], Move::RollDice);
    for seat in s.game.seats() {
        let player = s.game.player(seat).unwrap();
        assert_eq!((player.settlements_on_board(), player.roads_on_board()), (2, 2));
    }

    let (s, order) = play_setup_with_first_legal_moves(config(3));
    assert_eq!(order, [0, 1, 2, 2, 1, 0].map(Seat));
    assert_eq!(s.game.active_seat(), P0);
    assert_eq!(*s.game.phase(), Phase::PreRoll);

    // A different first player shifts the snake.
    let (s, order) = play_setup_with_first_legal_moves(GameConfig { first_player: FirstPlayer::Seat(2), ..config(4) });
    assert_eq!(order, [2, 3, 0, 1, 1, 0, 3, 2].map(Seat));
    assert_eq!(s.game.active_seat(), P2);
}

/// Places P1..P3 (round 1) or P3..P1 (round 2) on fixed vertices far from P0's.
fn others_place(s: &mut Scenario, round: usize) {
    let (seats, vertices) = if round == 1 {
        ([P1, P2, P3], ["2,-1,N", "2,0,S", "0,2,N"])
    } else {
        ([P3, P2, P1], ["-2,2,S", "-2,0,N", "-1,1,S"])
    };
    for (seat, vertex) in seats.into_iter().zip(vertices) {
        s.when(seat, Move::BuildSettlement { vertex: v(vertex) });
        let road = s.game.legal_moves(seat)[0].clone();
        s.when(seat, road);
    }
}

/// Real setup: P0 first at `first`, second at `second`; returns the game after P0's second
/// settlement (before its road) and the events of that settlement.
fn setup_p0(first: &str, first_road: &str, second: &str) -> (Scenario, Vec<catan_engine::Event>) {
    let mut s = Scenario::new();
    let events = s.when(P0, Move::BuildSettlement { vertex: v(first) });
    assert!(
        !events.iter().any(|ev| matches!(ev, catan_engine::Event::StartingResourcesReceived { .. })),
        "the first settlement yields nothing"
    );
    s.when(P0, Move::BuildRoad { edge: e(first_road) });
    assert!(s.hand(P0).is_empty());
    others_place(&mut s, 1);
    others_place(&mut s, 2);
    assert_eq!(s.game.active_seat(), P0);
    let events = s.when(P0, Move::BuildSettlement { vertex: v(second) });
    (s, events)
}

/// TC-08 [B-SET-4, B-BLD-4]: after P0 settles (0,-1,N), P1 may not settle the adjacent
/// (0,-2,S) but may settle (0,0,N), two edges away.
#[test]
fn tc_08_setup_settlements_obey_the_distance_rule() {
    let mut s = Scenario::new();
    s.when(P0, Move::BuildSettlement { vertex: v("0,-1,N") });
    s.when(P0, Move::BuildRoad { edge: e("0,-1,NE") });
    assert_eq!(s.game.active_seat(), P1);
    s.rejects(P1, Move::BuildSettlement { vertex: v("0,-2,S") }, "settlement_too_close");
    s.rejects(P1, Move::BuildSettlement { vertex: v("0,-1,N") }, "vertex_occupied");
    // Setup settlements need no road connection (B-SET-4).
    s.when(P1, Move::BuildSettlement { vertex: v("0,0,N") });
    assert_eq!(s.game.building_at(v("0,0,N")).unwrap().seat, P1);
}

/// TC-09 [B-SET-4]: the setup road must touch the settlement just placed; in round 2, not
/// the round-1 one.
#[test]
fn tc_09_setup_road_touches_the_new_settlement() {
    let mut s = Scenario::new();
    s.when(P0, Move::BuildSettlement { vertex: v("0,-1,N") });
    s.rejects(P0, Move::BuildRoad { edge: e("0,-1,E") }, "setup_road_not_at_settlement");
    s.rejects(P0, Move::BuildSettlement { vertex: v("2,-1,N") }, "wrong_phase");
    s.when(P0, Move::BuildRoad { edge: e("0,-1,NE") });
    assert_eq!(s.game.road_at(e("0,-1,NE")), Some(P0));
    others_place(&mut s, 1);
    others_place(&mut s, 2);
    s.when(P0, Move::BuildSettlement { vertex: v("-1,0,S") });
    // (0,-2,SE) touches the round-1 settlement (0,-1,N) only.
    s.rejects(P0, Move::BuildRoad { edge: e("0,-2,SE") }, "setup_road_not_at_settlement");
    for mv in s.game.legal_moves(P0) {
        let Move::BuildRoad { edge } = mv else { panic!("{mv:?} in a road step") };
        assert!(edge.endpoints().contains(&v("-1,0,S")));
    }
    s.when(P0, Move::BuildRoad { edge: e("-1,0,SE") });
    assert_eq!(*s.game.phase(), Phase::PreRoll);
}

/// TC-10 [B-SET-6]: the second settlement at (0,-1,N) yields brick+ore+wool; the first, at
/// (-1,0,S), nothing; the other way round P0 would get 2 lumber + 1 ore.
#[test]
fn tc_10_second_settlement_collects_starting_resources() {
    let (s, events) = setup_p0("-1,0,S", "-1,0,SE", "0,-1,N");
    assert!(events.contains(&catan_engine::Event::StartingResourcesReceived {
        seat: P0,
        resources: Resources::new(0, 1, 1, 0, 1)
    }));
    assert_eq!(s.hand(P0), Resources::new(0, 1, 1, 0, 1));
    assert_eq!(*s.game.bank(), Resources::each(19) - total_hands(&s));
    // Every seat collected for its second settlement only: P3's, on hills 5 by the sea, is
    // the first placement of round 2.
    assert_eq!(s.hand(P3), Resources::new(0, 1, 0, 0, 0));

    let (s, _) = setup_p0("0,-1,N", "0,-1,NE", "-1,0,S");
    assert_eq!(s.hand(P0), Resources::new(2, 0, 0, 0, 1));
}

fn total_hands(s: &Scenario) -> Resources {
    s.game.seats().fold(Resources::ZERO, |acc, seat| acc + s.hand(seat))
}

/// TC-11 [B-SET-6]: a second settlement at (0,0,N), next to the desert, yields brick + wool only.
#[test]
fn tc_11_desert_yields_no_starting_resource() {
    let (s, _) = setup_p0("-1,0,S", "-1,0,SE", "0,0,N");
    assert_eq!(s.hand(P0), Resources::new(0, 1, 1, 0, 0));
}
