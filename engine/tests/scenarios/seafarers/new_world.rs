//! The New World (RULES-SCENARIOS section 5; TC-130, TC-131) on a board the generator made
//! for seed 7: a game starts on it with robber and pirate off the board, the island bonus pays
//! a player's first settlement on each island where it did not start.

use std::collections::HashMap;

use catan_engine::{
    board::{BoardLayout, HexCoord, Terrain, VertexId},
    cost, new_world, Event, FixedChance, Game, GameConfig, Move, Phase, ScenarioId, Setup, Viewer,
};

use crate::support::*;

fn new_world_config(players: u8) -> GameConfig {
    GameConfig { seafarers: true, scenario: Some(ScenarioId::NewWorld), ..config(players) }
}

/// The fresh 4-player game of seed 7 and its board.
fn fresh() -> (Setup, BoardLayout) {
    let setup = given_with(new_world_config(4));
    let board = setup.board.clone();
    (setup, board)
}

/// NEW-GEN-2: the margin ring around the cells of the 4-player board.
fn is_margin(hex: HexCoord) -> bool {
    new_world::margin(4).contains(&hex)
}

/// Each land hex's island as the game shows it (`board.islands` of the view), numbered from 1
/// by the canonical order (row, then column) of each island's first hex, as the generator
/// numbers them (NEW-GEN-10).
fn islands(game: &Game) -> HashMap<HexCoord, u8> {
    let canonical = |h: &HexCoord| (h.r, h.q);
    let mut islands = game.view(Viewer::Spectator).board.islands;
    for island in &mut islands {
        island.sort_by_key(canonical);
    }
    islands.sort_by_key(|island| canonical(&island[0]));
    (1..).zip(islands).flat_map(|(number, hexes)| hexes.into_iter().map(move |h| (h, number))).collect()
}

/// Corners touching island `number` only (not the sea between two islands' hexes: islands
/// are apart), canonical order.
fn corners_of(island: &HashMap<HexCoord, u8>, number: u8) -> Vec<VertexId> {
    let mut corners: Vec<VertexId> =
        island.iter().filter(|(_, &i)| i == number).flat_map(|(h, _)| h.corners()).collect();
    corners.sort_by_key(|v| (v.hex.r, v.hex.q, v.corner));
    corners.dedup();
    corners
}

/// Two corners of island `number` at least two edges apart (the distance rule).
fn two_sites(island: &HashMap<HexCoord, u8>, number: u8) -> (VertexId, VertexId) {
    let corners = corners_of(island, number);
    let first = corners[0];
    let second = corners
        .iter()
        .copied()
        .find(|v| *v != first && !first.adjacent().contains(v))
        .expect("an island of two hexes has corners apart");
    (first, second)
}

#[test]
fn a_new_world_game_starts_on_a_legal_generated_board_with_robber_and_pirate_off_it() {
    // NEW-5, NEW-8, NEW-10, NEW-2.
    for players in [3, 4, 5, 6] {
        let game = Game::new(new_world_config(players), 7).expect("a New World game");
        let layout = game.board().layout();
        assert_eq!(layout.generator.as_ref().map(|g| g.version.as_str()), Some(new_world::GENERATOR_VERSION));
        let mode = new_world::NewWorldLayout::GrownIslands;
        assert_eq!(new_world::illegal_checks(layout, players, mode), vec![]);
        assert_eq!((game.robber_hex(), game.pirate_hex()), (None, None));
        assert!(layout.hexes.iter().all(|t| !matches!(t.terrain, Terrain::Desert | Terrain::Gold)));
        assert_eq!(ScenarioId::NewWorld.vp_target(players), Some(12));
    }
    // NEW-8: the same seed, the same board.
    let again = |seed| Game::new(new_world_config(4), seed).expect("game").board().layout().clone();
    assert_eq!(again(7), again(7));
    assert_ne!(again(7), again(8));
}

/// TC-131 [NEW-5]: robber and pirate start off the board; the first 7 places the robber on
/// any land hex, or the pirate on any sea hex in bounds, never on the margin.
#[test]
fn tc_131_the_first_seven_places_the_robber_or_the_pirate() {
    let (setup, board) = fresh();
    let (home, _) = two_sites(&islands(&setup.clone().start().game), 1);
    let given = || setup.clone().settlement(P1, &home.to_string()).turn(P0);
    let mut s = given().start();
    assert_eq!((s.game.robber_hex(), s.game.pirate_hex()), (None, None));
    s.when_with(P0, Move::RollDice, FixedChance::dice(3, 4));
    let land = board.hexes.iter().find(|t| t.terrain.is_land()).expect("land").hex;
    let margin = new_world::margin(4)[0];
    let in_bounds_sea =
        board.hexes.iter().find(|t| t.terrain == Terrain::Sea && !is_margin(t.hex)).expect("sea in bounds").hex;
    s.rejects(P0, Move::MovePirate { hex: margin, steal_from: None }, "pirate_not_on_sea");
    let robber = s.game.clone();
    let events = s.when(P0, Move::MovePirate { hex: in_bounds_sea, steal_from: None });
    assert_eq!(events[0], Event::PirateMoved { seat: P0, hex: in_bounds_sea });
    assert_eq!(s.game.pirate_hex(), Some(in_bounds_sea));

    // Or the robber, onto any land hex (no desert here).
    let mut s = Scenario { game: robber };
    let steal_from = s.game.legal_moves(P0).iter().find_map(|mv| match mv {
        Move::MoveRobber { hex, steal_from } if *hex == land => Some(*steal_from),
        _ => None,
    });
    let events = s.when(P0, Move::MoveRobber { hex: land, steal_from: steal_from.expect("the land hex is a target") });
    assert_eq!(events[0], Event::RobberMoved { seat: P0, hex: land });
    assert_eq!(s.game.robber_hex(), Some(land));
}

/// Whether `v` touches island `number` and the sea: where a ship can land.
fn coastal(board: &BoardLayout, island: &HashMap<HexCoord, u8>, number: u8, v: VertexId) -> bool {
    let hexes = v.hexes();
    hexes.iter().any(|h| island.get(h) == Some(&number)) && hexes.iter().any(|h| is_sea(board, *h))
}

fn is_sea(board: &BoardLayout, hex: HexCoord) -> bool {
    board.hexes.iter().any(|t| t.hex == hex && t.terrain == Terrain::Sea)
}

/// The shortest chain of sea edges from `from` to a coastal corner of island `to` that
/// `allowed` accepts: the ships of a route between two islands.
fn sea_route(
    board: &BoardLayout,
    island: &HashMap<HexCoord, u8>,
    from: VertexId,
    to: u8,
    allowed: impl Fn(VertexId) -> bool,
) -> (Vec<catan_engine::board::EdgeId>, VertexId) {
    let on_board = |h: &HexCoord| board.hexes.iter().any(|t| t.hex == *h);
    let mut came_from: HashMap<VertexId, (VertexId, catan_engine::board::EdgeId)> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        if at != from && coastal(board, island, to, at) && allowed(at) {
            let mut edges = Vec::new();
            let mut back = at;
            while back != from {
                let (prev, edge) = came_from[&back];
                edges.push(edge);
                back = prev;
            }
            return (edges, at);
        }
        for edge in at.edges() {
            let [a, b] = edge.hexes();
            if !(on_board(&a) && on_board(&b)) || !(is_sea(board, a) || is_sea(board, b)) {
                continue;
            }
            let [x, y] = edge.endpoints();
            let next = if x == at { y } else { x };
            if next != from && !came_from.contains_key(&next) {
                came_from.insert(next, (at, edge));
                queue.push_back(next);
            }
        }
    }
    panic!("no sea route to island {to}");
}

/// Two land edges from `from` to a corner whose neighbours hold none of `taken`.
fn two_roads(board: &BoardLayout, from: VertexId, taken: &[VertexId]) -> ([catan_engine::board::EdgeId; 2], VertexId) {
    for first in from.edges().into_iter().filter(|e| edge_on_land(board, *e)) {
        let [x, y] = first.endpoints();
        let middle = if x == from { y } else { x };
        for second in middle.edges().into_iter().filter(|e| *e != first && edge_on_land(board, *e)) {
            let [x, y] = second.endpoints();
            let end = if x == middle { y } else { x };
            let apart = taken.iter().all(|t| *t != end && !t.adjacent().contains(&end));
            let buildable = end.hexes().iter().any(|h| board.hexes.iter().any(|t| t.hex == *h && t.terrain.is_land()));
            if apart && buildable {
                return ([first, second], end);
            }
        }
    }
    panic!("no site two roads from {from}");
}

/// TC-130 [NEW-4, NEW-3]: P0's setup settlements on islands 1 and 2; its first settlement on
/// island 3 earns 2 points, its second there none; P1, whose home is island 3, earns nothing
/// there. With `island_bonus_vp` 1, the first earns 1.
#[test]
fn tc_130_the_first_settlement_on_each_foreign_island_earns_the_bonus() {
    for points in [2u32, 1] {
        let config = GameConfig { island_bonus_vp: (points == 1).then_some(1), ..new_world_config(4) };
        let game = Game::new(config, 7).expect("game");
        let setup = Setup::from(&game);
        let board = setup.board.clone();
        let island = islands(&game);
        let corner_on = |number: u8| {
            corners_of(&island, number).into_iter().find(|v| coastal(&board, &island, number, *v)).expect("a coast")
        };
        let (home_a, home_b, p1_home) = (corner_on(1), corner_on(2), corner_on(3));
        let p1_other =
            corners_of(&island, 1).into_iter().rev().find(|v| !home_a.adjacent().contains(v) && *v != home_a);
        let (p1_roads, p1_site) = two_roads(&board, p1_home, &[p1_home, home_a, home_b]);
        // P0's ships from its island-1 settlement to a coast of island 3 clear of P1's sites.
        let (ships, first) = sea_route(&board, &island, home_a, 3, |v| {
            [p1_home, p1_site].iter().all(|t| *t != v && !t.adjacent().contains(&v))
        });
        let (p0_roads, second) = two_roads(&board, first, &[p1_home, p1_site, first]);
        let mut given = setup
            .setup_settlement(P0, &home_a.to_string())
            .setup_settlement(P0, &home_b.to_string())
            .setup_settlement(P1, &p1_home.to_string())
            .setup_settlement(P1, &p1_other.expect("a second corner of island 1").to_string())
            .with_road(p1_roads[0], P1)
            .with_road(p1_roads[1], P1)
            .give(P0, cost::SETTLEMENT + cost::SETTLEMENT + cost::ROAD + cost::ROAD)
            .give(P1, cost::SETTLEMENT);
        for ship in &ships {
            given = given.with_ship(*ship, P0);
        }
        let mut s = given.main_phase(P0).start();
        let earned = s.when(P0, Move::BuildSettlement { vertex: first });
        assert!(earned.contains(&Event::IslandBonusEarned { seat: P0, vertex: first, points }), "{earned:?}");
        s.when(P0, Move::BuildRoad { edge: p0_roads[0] });
        s.when(P0, Move::BuildRoad { edge: p0_roads[1] });
        let none = s.when(P0, Move::BuildSettlement { vertex: second });
        assert!(none.iter().all(|e| !matches!(e, Event::IslandBonusEarned { .. })), "{none:?}");
        s.when(P0, Move::EndTurn);
        s.when_with(P1, Move::RollDice, FixedChance::dice(1, 2));
        let home = s.when(P1, Move::BuildSettlement { vertex: p1_site });
        assert!(home.iter().all(|e| !matches!(e, Event::IslandBonusEarned { .. })), "{home:?}");
        assert!(matches!(s.game.phase(), Phase::Main));
    }
}

/// Whether an edge has land on a side (a road may stand there).
fn edge_on_land(board: &BoardLayout, edge: catan_engine::board::EdgeId) -> bool {
    edge.hexes().iter().any(|h| board.hexes.iter().any(|t| t.hex == *h && t.terrain.is_land()))
}
