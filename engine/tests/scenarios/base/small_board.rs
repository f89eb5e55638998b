//! Focused scenarios on small custom boards: a position built with `Setup` needs no full map
//! (the component counts of B-CMP-1..4 govern laying out a whole board, not a position).

use catan_engine::{
    board::{HexCoord, Terrain},
    events::SeatResources,
    DevCard, Event, FixedChance, Move, Resource, Resources, Setup,
};

use super::{islands, support::*};

/// The 7-hex island of `common/islands.rs`, with the robber on its desert.
fn seven_hex_island() -> Setup {
    Setup::new(config(4), islands::seven_hex_island())
}

/// One forest hex in a ring of sea: 6 vertices, 6 edges.
fn one_hex_island() -> Setup {
    Setup::new(config(4), islands::island(&[(HexCoord::new(0, 0), Terrain::Forest, Some(6))], 1))
}

/// [B-PROD-1, B-PROD-2] on a 7-hex island: an 8 pays the settlement and the city on the
/// centre's corners 1 and 2 grain; with the robber on the centre it pays nothing.
#[test]
fn a_roll_pays_the_corners_of_its_hex_on_a_small_island() {
    let position = || seven_hex_island().settlement(P0, "0,0,N").city(P1, "0,0,S").turn(P2);
    let mut s = position().start();
    assert_eq!(s.game.board().vertices.len(), 24);
    assert_eq!(s.game.board().edges.len(), 30);
    let events = s.when_with(P2, Move::RollDice, FixedChance::dice(5, 3));
    assert!(events.contains(&Event::ResourcesProduced {
        roll: 8,
        gains: vec![
            SeatResources { seat: P0, resources: Resources::of(Resource::Grain, 1) },
            SeatResources { seat: P1, resources: Resources::of(Resource::Grain, 2) },
        ]
        .into(),
        shortages: vec![].into(),
        discoveries: vec![].into(),
    }));
    assert_eq!(s.game.bank().get(Resource::Grain), 19 - 3);

    let mut s = position().robber("0,0").start();
    s.when_with(P2, Move::RollDice, FixedChance::dice(5, 3));
    assert_eq!((s.hand(P0), s.hand(P1)), (Resources::ZERO, Resources::ZERO));
}

/// [B-DEV-5] on a one-hex island: with all six edges taken, Road Building cannot be played
/// and no road can be built, whatever the hand.
#[test]
fn road_building_needs_a_free_edge_on_a_one_hex_island() {
    // The hex's corners N, NE, SE, S, SW, NW, and its sides joining each to the next.
    let sides = HexCoord::new(0, 0).sides();
    let mut setup = one_hex_island().settlement(P0, "0,0,N").settlement(P1, "0,0,S");
    for (side, seat) in sides.into_iter().zip([P0, P0, P1, P1, P1, P0]) {
        setup = setup.with_road(side, seat);
    }
    let s = setup.card(P0, DevCard::RoadBuilding).give(P0, Resources::new(1, 1, 0, 0, 0)).main_phase(P0).start();
    assert_eq!(s.road_length(P0), 3);
    s.rejects(P0, Move::PlayRoadBuilding, "no_legal_road");
    assert!(!s.game.legal_moves(P0).iter().any(|mv| matches!(mv, Move::BuildRoad { .. })));

    // With one side free (P0's road NW-N not built) the card is playable and places one road.
    let mut setup = one_hex_island().settlement(P0, "0,0,N").settlement(P1, "0,0,S");
    for (side, seat) in sides.into_iter().zip([P0, P0, P1, P1, P1]) {
        setup = setup.with_road(side, seat);
    }
    let mut s = setup.card(P0, DevCard::RoadBuilding).main_phase(P0).start();
    s.when(P0, Move::PlayRoadBuilding);
    let events = s.when(P0, Move::BuildRoad { edge: sides[5] });
    assert!(events.contains(&Event::RoadBuilt { seat: P0, edge: sides[5], cost: Resources::ZERO }));
    assert_eq!(*s.game.phase(), catan_engine::Phase::Main, "no free edge is left for the second road");
}
