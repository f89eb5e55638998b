//! 9.4 Building: TC-23 .. TC-27.

use catan_engine::{Event, Move, Resource, Resources, Viewer};

use super::support::*;

const ROAD: Resources = Resources::new(1, 1, 0, 0, 0);
const SETTLEMENT: Resources = Resources::new(1, 1, 1, 1, 0);
const CITY: Resources = Resources::new(0, 0, 0, 2, 3);

/// TC-23 [B-BLD-1, B-BLD-3]: a road next to P0's own road costs 1 lumber + 1 brick; a road
/// touching none of P0's pieces is refused.
#[test]
fn tc_23_road_costs_lumber_and_brick_and_must_connect() {
    let mut s = given().settlement(P0, "0,-1,N").road(P0, "0,-1,NE").give(P0, ROAD).main_phase(P0).start();
    s.rejects(P0, Move::BuildRoad { edge: e("1,1,E") }, "road_not_connected");
    s.rejects(P0, Move::BuildRoad { edge: e("0,-1,NE") }, "edge_occupied");
    let events = s.when(P0, Move::BuildRoad { edge: e("0,-1,E") });
    assert_eq!(events, [Event::RoadBuilt { seat: P0, edge: e("0,-1,E"), cost: ROAD }]);
    assert_eq!(s.game.road_at(e("0,-1,E")), Some(P0));
    assert!(s.hand(P0).is_empty());
    assert_eq!(*s.game.bank(), Resources::each(19));
    s.rejects(P0, Move::BuildRoad { edge: e("0,0,NE") }, "insufficient_resources");
}

/// TC-24 [B-BLD-3, B-LR-2]: P0's road ends where P1 has a settlement; P0 cannot continue
/// through that vertex.
#[test]
fn tc_24_opponent_settlement_cuts_road_building() {
    let base = || given().settlement(P0, "0,-1,N").roads_along(P0, &["0,-1,N", "1,-2,S", "0,0,N"]).give(P0, ROAD);
    let s = base().settlement(P1, "0,0,N").main_phase(P0).start();
    s.rejects(P0, Move::BuildRoad { edge: e("0,0,NE") }, "road_not_connected");
    s.rejects(P0, Move::BuildRoad { edge: e("0,-1,SE") }, "road_not_connected");
    // Without P1's settlement, the same roads are fine.
    let mut s = base().main_phase(P0).start();
    s.when(P0, Move::BuildRoad { edge: e("0,0,NE") });
}

/// TC-25 [B-BLD-4, B-BLD-5]: settlements keep their distance and need an own road.
#[test]
fn tc_25_settlement_needs_distance_and_a_road() {
    let mut s = given()
        .settlement(P0, "0,-1,N")
        .settlement(P1, "1,0,N")
        .roads_along(P0, &["0,-1,N", "1,-2,S", "0,0,N", "1,-1,S"])
        .give(P0, SETTLEMENT)
        .main_phase(P0)
        .start();
    // (1,-2,S) is next to P0's own settlement, (1,-1,S) next to P1's, both on P0's road.
    s.rejects(P0, Move::BuildSettlement { vertex: v("1,-2,S") }, "settlement_too_close");
    s.rejects(P0, Move::BuildSettlement { vertex: v("1,-1,S") }, "settlement_too_close");
    s.rejects(P0, Move::BuildSettlement { vertex: v("0,1,S") }, "settlement_not_connected");
    s.rejects(P0, Move::BuildSettlement { vertex: v("1,0,N") }, "vertex_occupied");
    let events = s.when(P0, Move::BuildSettlement { vertex: v("0,0,N") });
    assert_eq!(events, [Event::SettlementBuilt { seat: P0, vertex: v("0,0,N"), cost: SETTLEMENT }]);
    assert!(s.hand(P0).is_empty());
    assert_eq!(s.game.victory_points(P0), 2);
}

/// TC-26 [B-BLD-6, B-BLD-2]: no city without a city piece; a city returns its settlement piece,
/// which can be built again.
#[test]
fn tc_26_city_needs_a_piece_and_returns_a_settlement() {
    let sites = ["0,-1,N", "-1,0,S", "2,-1,N", "2,0,S", "0,2,N"];
    let s = sites[..4]
        .iter()
        .fold(given(), |setup, site| setup.city(P0, site))
        .settlement(P0, sites[4])
        .give(P0, CITY)
        .main_phase(P0)
        .start();
    assert_eq!(s.game.player(P0).unwrap().cities_on_board(), 4);
    s.rejects(P0, Move::BuildCity { vertex: v(sites[4]) }, "no_pieces_left");

    let mut s = sites
        .iter()
        .fold(given(), |setup, site| setup.settlement(P0, site))
        .roads_along(P0, &["0,-1,N", "1,-2,S", "0,0,N"])
        .give(P0, CITY + SETTLEMENT)
        .main_phase(P0)
        .start();
    let pieces = |s: &Scenario| s.game.view(Viewer::Spectator).players[0].pieces_left;
    assert_eq!(pieces(&s).settlements, 0);
    s.rejects(P0, Move::BuildSettlement { vertex: v("0,0,N") }, "no_pieces_left");
    s.rejects(P0, Move::BuildCity { vertex: v("1,0,N") }, "not_your_settlement");
    // Nor an opponent's settlement.
    let opponent = s.then_given().settlement(P1, "1,0,N").start();
    opponent.rejects(P0, Move::BuildCity { vertex: v("1,0,N") }, "not_your_settlement");
    let events = s.when(P0, Move::BuildCity { vertex: v("0,-1,N") });
    assert_eq!(events, [Event::CityBuilt { seat: P0, vertex: v("0,-1,N"), cost: CITY }]);
    assert_eq!((pieces(&s).settlements, pieces(&s).cities), (1, 3));
    assert_eq!(s.hand(P0), SETTLEMENT);
    assert_eq!(s.game.victory_points(P0), 6);
    s.when(P0, Move::BuildSettlement { vertex: v("0,0,N") });
    assert_eq!(pieces(&s).settlements, 0);
    assert_eq!(s.game.victory_points(P0), 7);
}

/// TC-27 [B-BLD-2]: with all 15 roads on the board, a 16th is refused despite the resources.
#[test]
fn tc_27_no_road_beyond_fifteen() {
    let mut s = given().settlement(P0, "0,0,N").give(P0, Resources::new(16, 16, 0, 0, 0)).main_phase(P0).start();
    for _ in 0..15 {
        let mv =
            s.game.legal_moves(P0).into_iter().find(|mv| matches!(mv, Move::BuildRoad { .. })).expect("a legal road");
        s.when(P0, mv);
    }
    assert_eq!(s.game.player(P0).unwrap().roads_on_board(), 15);
    assert_eq!(s.hand(P0), ROAD);
    assert!(!s.game.legal_moves(P0).iter().any(|mv| matches!(mv, Move::BuildRoad { .. })));
    // A free edge at P0's settlement would otherwise be legal.
    let free = v("0,0,N").edges().into_iter().chain(s.game.board().edges.iter().copied()).find(|edge| {
        s.game.road_at(*edge).is_none() && s.game.board().edge(*edge).is_some() && {
            let ends = edge.endpoints();
            ends.iter().any(|end| end.edges().iter().any(|other| s.game.road_at(*other) == Some(P0)))
        }
    });
    let edge = free.expect("an edge next to P0's network");
    s.rejects(P0, Move::BuildRoad { edge }, "no_pieces_left");
    assert_eq!(s.game.bank().get(Resource::Lumber), 19 - 1);
}
