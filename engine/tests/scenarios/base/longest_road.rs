//! 9.6 Longest Road: TC-41 .. TC-48. Paths are walks of adjacent vertices.

use catan_engine::{BuildingKind, Event, Move, Resources, Seat, Setup};

use super::support::*;

const ROAD: Resources = Resources::new(1, 1, 0, 0, 0);
const SETTLEMENT: Resources = Resources::new(1, 1, 1, 1, 0);

/// Along the top of row 0, west to east: v0 .. v10.
pub const ROW0_TOP: [&str; 11] =
    ["-2,-1,S", "-2,0,N", "-1,-1,S", "-1,0,N", "0,-1,S", "0,0,N", "1,-1,S", "1,0,N", "2,-1,S", "2,0,N", "3,-1,S"];
/// Along the top of row 2 (6 edges).
pub const ROW2_TOP: [&str; 7] = ["-2,1,S", "-2,2,N", "-1,1,S", "-1,2,N", "0,1,S", "0,2,N", "1,1,S"];
/// Along the bottom of row 2, on the coast (6 edges).
pub const ROW2_BOTTOM: [&str; 7] = ["-3,3,N", "-2,2,S", "-2,3,N", "-1,2,S", "-1,3,N", "0,2,S", "0,3,N"];

fn changes(events: &[Event]) -> Vec<&Event> {
    events.iter().filter(|ev| matches!(ev, Event::LongestRoadChanged { .. })).collect()
}

/// `seat`'s settlement at (0,-1,N) and its road to v3 = (-1,0,N), the middle of v0..v6.
pub fn reaches_v3(setup: Setup, seat: Seat) -> Setup {
    setup.settlement(seat, "0,-1,N").roads_along(seat, &["0,-1,N", "0,-2,S", "-1,0,N"])
}

/// P2's settlement at (-1,0,S) and its road to v2 = (-1,-1,S).
fn p2_reaches_v2(setup: Setup) -> Setup {
    setup.settlement(P2, "-1,0,S").roads_along(P2, &["-1,0,S", "-2,1,N", "-1,-1,S"])
}

/// TC-41 [B-LR-3]: 4 roads are not enough; the 5th takes Longest Road.
#[test]
fn tc_41_five_roads_take_longest_road() {
    let mut s = given()
        .settlement(P0, ROW0_TOP[0])
        .roads_along(P0, &ROW0_TOP[..4])
        .give(P0, ROAD + ROAD)
        .main_phase(P0)
        .start();
    let edges = path(&ROW0_TOP);
    let events = s.when(P0, Move::BuildRoad { edge: edges[3] });
    assert!(changes(&events).is_empty(), "{events:?}");
    assert_eq!(s.road_length(P0), 4);
    assert_eq!(s.game.longest_road_holder(), None);
    let events = s.when(P0, Move::BuildRoad { edge: edges[4] });
    assert_eq!(changes(&events), [&Event::LongestRoadChanged { holder: Some(P0), previous: None, length: 5 }]);
    assert_eq!(s.game.longest_road_holder(), Some(P0));
    assert_eq!(s.game.victory_points(P0), 3);
}

/// TC-42 [B-LR-4]: P1 matching P0's 5 does not take the card; 6 does. (P1's 4 roads start
/// from its settlement on their west end: every road connects, B-BLD-3.)
#[test]
fn tc_42_a_tie_does_not_take_longest_road() {
    let mut s = given()
        .settlement(P0, ROW0_TOP[0])
        .roads_along(P0, &ROW0_TOP[..6])
        .with_longest_road(Some(P0))
        .settlement(P1, ROW2_TOP[0])
        .roads_along(P1, &ROW2_TOP[..5])
        .give(P1, ROAD + ROAD)
        .main_phase(P1)
        .start();
    let edges = path(&ROW2_TOP);
    let events = s.when(P1, Move::BuildRoad { edge: edges[4] });
    assert!(changes(&events).is_empty());
    assert_eq!(s.road_length(P1), 5);
    assert_eq!(s.game.longest_road_holder(), Some(P0));
    let events = s.when(P1, Move::BuildRoad { edge: edges[5] });
    assert_eq!(changes(&events), [&Event::LongestRoadChanged { holder: Some(P1), previous: Some(P0), length: 6 }]);
    assert_eq!((s.game.victory_points(P0), s.game.victory_points(P1)), (1, 3));
}

/// TC-43 [B-LR-1]: a Y of 3 + 2 + 2 roads has length 5, not 7; a ring of 6 plus a spur has 7.
#[test]
fn tc_43_branches_do_not_add_up_but_loops_count() {
    // Trunk into hub (0,0,N), then two branches of 2.
    let trunk = ["-1,-1,S", "-1,0,N", "0,-1,S", "0,0,N"];
    let branch_a = ["0,0,N", "1,-1,S", "1,0,N"];
    let branch_b = ["0,0,N", "1,-2,S", "1,-1,N"];
    let mut s = given()
        .settlement(P0, trunk[0])
        .roads_along(P0, &trunk)
        .roads_along(P0, &branch_a)
        .roads_along(P0, &branch_b[..2])
        .give(P0, ROAD)
        .main_phase(P0)
        .start();
    // The trunk and the first branch already make 5, so P0 holds the card (B-LR-3).
    assert_eq!(s.game.longest_road_holder(), Some(P0));
    let events = s.when(P0, Move::BuildRoad { edge: path(&branch_b[1..])[0] });
    assert_eq!(s.game.player(P0).unwrap().roads_on_board(), 7);
    assert_eq!(s.road_length(P0), 5);
    assert!(changes(&events).is_empty(), "the second branch adds nothing: {events:?}");

    // Six roads around hills (0,-1) and a spur from its N corner: the ring of 6 already holds
    // the card (play never leaves the only road of 5 or more without it, B-LR-3), and the spur
    // makes a trail of 7 (P1's road of 7 elsewhere would only tie it).
    let ring = ["0,-1,N", "1,-2,S", "0,0,N", "0,-1,S", "-1,0,N", "0,-2,S", "0,-1,N"];
    let mut s = given().settlement(P0, "0,-1,N").roads_along(P0, &ring).give(P0, ROAD).main_phase(P0).start();
    assert_eq!(s.road_length(P0), 6);
    assert_eq!(s.game.longest_road_holder(), Some(P0));
    let events = s.when(P0, Move::BuildRoad { edge: e("0,-2,E") });
    assert_eq!(s.road_length(P0), 7);
    assert!(changes(&events).is_empty(), "the holder keeps the card: {events:?}");
}

/// TC-44 [B-LR-2, B-LR-5]: P2's settlement on v3 splits P0's 5-road path 3 + 2; the card is
/// set aside.
#[test]
fn tc_44_broken_holder_below_five_sets_the_card_aside() {
    let p0_holds = given().settlement(P0, ROW0_TOP[0]).roads_along(P0, &ROW0_TOP[..6]).with_longest_road(Some(P0));
    let mut s = reaches_v3(p0_holds, P2).give(P2, SETTLEMENT).main_phase(P2).start();
    assert_eq!(s.game.victory_points(P0), 3);
    let events = s.when(P2, Move::BuildSettlement { vertex: v(ROW0_TOP[3]) });
    assert_eq!(changes(&events), [&Event::LongestRoadChanged { holder: None, previous: Some(P0), length: 3 }]);
    assert_eq!(s.road_length(P0), 3);
    assert_eq!(s.game.longest_road_holder(), None);
    assert_eq!(s.game.victory_points(P0), 1);
}

/// TC-45 [B-LR-2]: a 6-road path broken on v3 counts 3; broken on v2 counts 4. (The path
/// starts at P0's settlement on v0, which does not break it.)
#[test]
fn tc_45_opponent_settlement_splits_a_path() {
    let base = || given().settlement(P0, ROW0_TOP[0]).roads_along(P0, &ROW0_TOP[..7]);
    assert_eq!(base().start().road_length(P0), 6);
    assert_eq!(base().settlement(P1, ROW0_TOP[3]).start().road_length(P0), 3);
    assert_eq!(base().settlement(P1, ROW0_TOP[2]).start().road_length(P0), 4);
    // An own building does not break the path; an opponent's at the end does not shorten it.
    assert_eq!(base().settlement(P0, ROW0_TOP[3]).start().road_length(P0), 6);
    assert_eq!(base().settlement(P1, ROW0_TOP[6]).start().road_length(P0), 6);
}

/// TC-46 [B-LR-5]: P0 (6) broken to 3; P1 with 5 is the sole longest and takes the card.
#[test]
fn tc_46_sole_longest_takes_the_card_from_a_broken_holder() {
    let position = given()
        .settlement(P0, ROW0_TOP[0])
        .roads_along(P0, &ROW0_TOP[..7])
        .with_longest_road(Some(P0))
        .settlement(P1, "0,2,N")
        .roads_along(P1, &ROW2_TOP[..6]);
    let mut s = reaches_v3(position, P2).give(P2, SETTLEMENT).main_phase(P2).start();
    assert_eq!(s.road_length(P1), 5);
    let events = s.when(P2, Move::BuildSettlement { vertex: v(ROW0_TOP[3]) });
    assert_eq!(changes(&events), [&Event::LongestRoadChanged { holder: Some(P1), previous: Some(P0), length: 5 }]);
    assert_eq!(s.road_length(P0), 3);
    assert_eq!((s.game.victory_points(P0), s.game.victory_points(P1)), (1, 3));
}

/// TC-47 [B-LR-5]: P0 (6) broken to 4 while P1 and P3 tie at 5: set aside; P3 reaching 6 takes it.
#[test]
fn tc_47_tied_challengers_leave_the_card_aside_until_one_leads() {
    let position = given()
        .settlement(P0, ROW0_TOP[0])
        .roads_along(P0, &ROW0_TOP[..7])
        .with_longest_road(Some(P0))
        .settlement(P1, "0,2,N")
        .settlement(P3, ROW2_BOTTOM[0])
        .roads_along(P1, &ROW2_TOP[..6])
        .roads_along(P3, &ROW2_BOTTOM[..6]);
    let mut s = p2_reaches_v2(position).give(P2, SETTLEMENT).give(P3, ROAD).main_phase(P2).start();
    assert_eq!((s.road_length(P1), s.road_length(P3)), (5, 5));
    let events = s.when(P2, Move::BuildSettlement { vertex: v(ROW0_TOP[2]) });
    assert_eq!(changes(&events), [&Event::LongestRoadChanged { holder: None, previous: Some(P0), length: 5 }]);
    assert_eq!(s.road_length(P0), 4);
    assert_eq!(s.game.longest_road_holder(), None);

    let mut s = s.then_given().main_phase(P3).start();
    let events = s.when(P3, Move::BuildRoad { edge: path(&ROW2_BOTTOM[5..])[0] });
    assert_eq!(changes(&events), [&Event::LongestRoadChanged { holder: Some(P3), previous: None, length: 6 }]);
    assert_eq!(s.game.longest_road_holder(), Some(P3));
}

/// TC-48 [B-LR-5]: P0 (7) broken to 5 ties P1's 5: P0 keeps the card.
#[test]
fn tc_48_broken_holder_tied_at_the_maximum_keeps_the_card() {
    let position = given()
        .settlement(P0, ROW0_TOP[0])
        .roads_along(P0, &ROW0_TOP[..8])
        .with_longest_road(Some(P0))
        .settlement(P1, "0,2,N")
        .roads_along(P1, &ROW2_TOP[..6]);
    let mut s = p2_reaches_v2(position).give(P2, SETTLEMENT).main_phase(P2).start();
    let events = s.when(P2, Move::BuildSettlement { vertex: v(ROW0_TOP[2]) });
    assert!(changes(&events).is_empty(), "{events:?}");
    assert_eq!((s.road_length(P0), s.road_length(P1)), (5, 5));
    assert_eq!(s.game.longest_road_holder(), Some(P0));
}

/// Longest trail by exhaustive search (B-LR-1): from every vertex, every trail of own edges
/// that never passes through a blocked vertex (B-LR-2; it may end there).
fn exhaustive_length(board: &catan_engine::board::Board, own: &[u16], blocked: &[bool]) -> u32 {
    fn walk(board: &catan_engine::board::Board, own: &[u16], blocked: &[bool], at: u16, used: &mut Vec<u16>) -> u32 {
        let mut best = 0;
        for e in board.edges_of(at) {
            if !own.contains(&e) || used.contains(&e) {
                continue;
            }
            used.push(e);
            let next = board.other_end(e, at);
            let rest = if blocked[next as usize] { 0 } else { walk(board, own, blocked, next, used) };
            used.pop();
            best = best.max(1 + rest);
        }
        best
    }
    (0..board.vertices.len() as u16).map(|v| walk(board, own, blocked, v, &mut Vec::new())).max().unwrap_or(0)
}

/// TC-43 [B-LR-1, B-LR-2], generalised: on random networks of up to 15 roads with random
/// opponent settlements, the engine's road length equals an exhaustive trail search.
#[test]
fn tc_43_road_length_matches_exhaustive_search_on_random_networks() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) % n as u64) as usize
    };
    let probe = Scenario::new();
    let board = probe.game.board().clone();
    let mut lengths_seen = std::collections::HashSet::new();
    for _ in 0..1500 {
        let roads = 1 + next(15);
        let mut own: Vec<u16> = Vec::new();
        let mut touched: Vec<u16> = vec![next(board.vertices.len()) as u16];
        while own.len() < roads {
            let at = touched[next(touched.len())];
            let options: Vec<u16> = board.edges_of(at).filter(|e| !own.contains(e)).collect();
            if options.is_empty() {
                continue;
            }
            let e = options[next(options.len())];
            own.push(e);
            touched.push(board.other_end(e, at));
        }
        // P0's settlement where the network starts (own buildings never block), then a few
        // more buildings on the network, keeping the distance rule (B-BLD-4).
        let mut setup = own.iter().fold(given(), |setup, &e| setup.with_road(board.edges[e as usize], P0));
        let mut blocked = vec![false; board.vertices.len()];
        let mut occupied = vec![false; board.vertices.len()];
        occupied[touched[0] as usize] = true;
        setup = setup.with_building(board.vertices[touched[0] as usize], P0, BuildingKind::Settlement);
        for _ in 0..next(4) {
            let vertex = touched[next(touched.len())];
            if occupied[vertex as usize] || board.neighbours_of(vertex).any(|n| occupied[n as usize]) {
                continue;
            }
            // Mostly opponents' buildings (they block), sometimes P0's own (they do not).
            let seat = if next(3) == 0 { P0 } else { P1 };
            blocked[vertex as usize] = seat != P0;
            occupied[vertex as usize] = true;
            setup = setup.with_building(board.vertices[vertex as usize], seat, BuildingKind::Settlement);
        }
        let s = setup.start();
        let expected = exhaustive_length(&board, &own, &blocked);
        lengths_seen.insert(expected);
        assert_eq!(
            s.road_length(P0),
            expected,
            "roads {:?}, opponent buildings {:?}",
            own.iter().map(|&e| board.edges[e as usize].to_string()).collect::<Vec<_>>(),
            (0..board.vertices.len())
                .filter(|&v| blocked[v])
                .map(|v| board.vertices[v].to_string())
                .collect::<Vec<_>>()
        );
    }
    // The sample covers short and long networks alike.
    assert!((1..=12).all(|n| lengths_seen.contains(&n)), "{lengths_seen:?}");
}
