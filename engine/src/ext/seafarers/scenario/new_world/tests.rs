//! The New World's generator and its legality checks (RULES-SCENARIOS 5.4, 5.5; TC-125..129).

use std::collections::HashMap;

use super::*;
use crate::board::{Board, Harbour, VertexId};

fn generated(players: u8, seed: u64, options: NewWorldOptions) -> NewWorldBoard {
    generate(players, &mut Rng::new(seed), options).expect("a board")
}

fn grown(players: u8, seed: u64) -> NewWorldBoard {
    generated(players, seed, NewWorldOptions::default())
}

fn illegal(board: &BoardLayout, players: u8, mode: NewWorldLayout) -> Vec<&'static str> {
    illegal_checks(board, players, mode).into_iter().map(LegalCheck::id).collect()
}

#[test]
fn tc_125_the_same_seed_gives_the_same_board_and_another_seed_another() {
    // NEW-8: byte-identical, attempts included.
    for players in [3, 4, 5, 6] {
        let json = |seed| serde_json::to_string(&grown(players, seed)).expect("serializable");
        assert_eq!(json(7), json(7));
        let boards: Vec<String> = (0..20).map(json).collect();
        assert!(boards.iter().any(|b| *b != boards[0]), "20 seeds, one board");
    }
    let board = grown(4, 1);
    assert_eq!(board.generator.version, GENERATOR_VERSION);
    assert!(board.generator.attempts >= 1);
}

#[test]
fn tc_126_a_thousand_seeds_per_column_give_legal_boards() {
    // NEW-LEGAL over 1,000 generated boards for 4 and for 6 players (NEW-GEN-5: none needs
    // the 1,000 attempts); each one also builds as a board every ruleset can read.
    for players in [4, 6] {
        let mut most_attempts = 0;
        for seed in 0..1000 {
            let board = grown(players, seed);
            assert_eq!(
                illegal(&board.layout, players, NewWorldLayout::GrownIslands),
                Vec::<&str>::new(),
                "seed {seed}"
            );
            most_attempts = most_attempts.max(board.generator.attempts);
            if seed % 100 == 0 {
                Board::new(board.layout.clone()).expect("a board the engine builds");
            }
        }
        assert!(most_attempts < 1000);
    }
}

#[test]
fn the_columns_hold_the_published_components() {
    // RULES-SCENARIOS 5.1/5.4: 23 land and 19 sea for 2-4 players, 30 and 26 for 5-6.
    for (players, land, sea, harbours) in [(4, 23, 19, 9), (6, 30, 26, 11)] {
        let board = grown(players, 3);
        let land_tiles = board.layout.hexes.iter().filter(|t| t.terrain.is_land()).count();
        let cells = Params::for_players(players).cells();
        let sea_cells =
            board.layout.hexes.iter().filter(|t| cells.contains(&t.hex) && t.terrain == Terrain::Sea).count();
        assert_eq!((land_tiles, sea_cells, board.layout.harbours.len()), (land, sea, harbours));
        // NEW-6: no desert, no gold; NEW-5: robber and pirate off the board.
        assert!(board.layout.hexes.iter().all(|t| !matches!(t.terrain, Terrain::Desert | Terrain::Gold)));
        assert_eq!((board.layout.robber, board.layout.pirate), (None, None));
        // NEW-GEN-10: islands numbered from 1 by their first hex in canonical order.
        assert_eq!(board.islands.first().map(|(_, i)| *i), Some(1));
        assert_eq!(board.islands.len(), land);
    }
}

#[test]
fn the_published_shuffle_keeps_every_component_and_reports_islands_only() {
    // NEW-GEN-11: NEW-LEGAL-4 is not enforced, every other check holds.
    let options = NewWorldOptions { layout: NewWorldLayout::PublishedRandom, ..NewWorldOptions::default() };
    for seed in 0..50 {
        let board = generated(4, seed, options);
        assert_eq!(illegal(&board.layout, 4, NewWorldLayout::PublishedRandom), Vec::<&str>::new(), "seed {seed}");
    }
}

#[test]
fn equal_neighbours_can_be_forbidden() {
    // NEW-GEN-7's option: no two neighbouring hexes with the same number.
    let options = NewWorldOptions { forbid_adjacent_equal_numbers: true, ..NewWorldOptions::default() };
    for seed in 0..50 {
        let board = generated(4, seed, options);
        assert!(!grow::neighbouring_numbers_clash(&board.layout.hexes, true), "seed {seed}");
    }
}

/// Swaps the numbers of two land hexes of `layout`.
fn swap_numbers(layout: &mut BoardLayout, a: usize, b: usize) {
    let (na, nb) = (layout.hexes[a].number, layout.hexes[b].number);
    layout.hexes[a].number = nb;
    layout.hexes[b].number = na;
}

#[test]
fn tc_127_a_six_beside_an_eight_is_an_illegal_board() {
    let mut layout = grown(4, 11).layout;
    // Put the board's 8s beside a 6: find a land hex next to a 6 and give it an 8.
    let six = layout.hexes.iter().position(|t| t.number == Some(6)).expect("a 6");
    let beside = layout
        .hexes
        .iter()
        .position(|t| t.terrain.is_land() && t.hex.is_adjacent(layout.hexes[six].hex))
        .expect("a land neighbour (islands are at least 2 hexes)");
    let eight = layout.hexes.iter().position(|t| t.number == Some(8)).expect("an 8");
    swap_numbers(&mut layout, beside, eight);
    assert!(illegal(&layout, 4, NewWorldLayout::GrownIslands).contains(&"NEW-LEGAL-3"));
}

/// A 4-player board whose land is the first 23 cells in canonical order: rows 0-2 and five
/// cells of row 3, one island.
fn one_island() -> BoardLayout {
    let params = Params::for_players(4);
    let cells = params.cells();
    let mut layout = grown(4, 5).layout;
    let land: Vec<HexTile> = layout.hexes.iter().filter(|t| t.terrain.is_land()).copied().collect();
    let mut hexes: Vec<HexTile> = cells
        .iter()
        .enumerate()
        .map(|(i, &hex)| match land.get(i) {
            Some(tile) => HexTile { hex, ..*tile },
            None => HexTile::sea(hex),
        })
        .collect();
    // Numbers: ones that never put two reds side by side on these rows.
    let mut numbers = params.tokens.clone();
    numbers.retain(|n| *n != 6 && *n != 8);
    let reds = [6, 6, 8, 8];
    let red_slots = [0, 2, 4, 12];
    let mut plain = numbers.into_iter();
    for (i, tile) in hexes.iter_mut().take(23).enumerate() {
        tile.number = match red_slots.iter().position(|&s| s == i) {
            Some(r) => Some(reds[r]),
            None => plain.next(),
        };
    }
    hexes.extend(params.margin().into_iter().map(HexTile::sea));
    layout.hexes = hexes;
    layout.harbours.clear();
    layout
}

#[test]
fn tc_128_one_island_is_illegal_when_grown_and_legal_when_shuffled() {
    let mut layout = one_island();
    // Three harbours on its coast, apart: NEW-LEGAL-1 fails (nine are needed), but not -5.
    let params = Params::for_players(4);
    let island: HashMap<HexCoord, u8> =
        layout.hexes.iter().filter(|t| t.terrain.is_land()).map(|t| (t.hex, 1)).collect();
    let coast = grow::coast_edges(&island, &Frame::of(&params).hexes);
    let mut corners: Vec<VertexId> = Vec::new();
    for (edge, _) in coast {
        if layout.harbours.len() == 3 {
            break;
        }
        if edge.endpoints().iter().all(|v| !corners.contains(v)) {
            corners.extend(edge.endpoints());
            layout.harbours.push(Harbour { edge, kind: params.harbours[layout.harbours.len()] });
        }
    }
    let grown_checks = illegal(&layout, 4, NewWorldLayout::GrownIslands);
    assert!(grown_checks.contains(&"NEW-LEGAL-4"), "{grown_checks:?}");
    let shuffled_checks = illegal(&layout, 4, NewWorldLayout::PublishedRandom);
    assert!(!shuffled_checks.contains(&"NEW-LEGAL-4"), "{shuffled_checks:?}");
    assert!(!shuffled_checks.contains(&"NEW-LEGAL-3"), "{shuffled_checks:?}");
    assert!(!shuffled_checks.contains(&"NEW-LEGAL-5"), "{shuffled_checks:?}");
}

#[test]
fn tc_129_harbours_sharing_a_corner_or_crowding_an_island_are_illegal() {
    let board = grown(4, 21);
    let params = Params::for_players(4);
    let island: HashMap<HexCoord, u8> = board.islands.iter().copied().collect();
    let coast = grow::coast_edges(&island, &Frame::of(&params).hexes);

    // Two harbours sharing a corner: move one next to another.
    let mut layout = board.layout.clone();
    let first = layout.harbours[0].edge;
    let touching = coast
        .iter()
        .map(|(e, _)| *e)
        .find(|e| *e != first && e.endpoints().iter().any(|v| first.endpoints().contains(v)))
        .expect("a coast edge beside the first harbour");
    layout.harbours[1].edge = touching;
    assert!(illegal(&layout, 4, NewWorldLayout::GrownIslands).contains(&"NEW-LEGAL-5"));

    // Four harbours on one island.
    let mut layout = board.layout.clone();
    // Islands are numbered by position, not size (NEW-GEN-10): find the largest.
    let size = |i: u8| board.islands.iter().filter(|(_, n)| *n == i).count();
    let biggest = (1..=5).max_by_key(|&i| size(i)).expect("islands");
    let mut corners: Vec<VertexId> = Vec::new();
    let mut on_biggest: Vec<EdgeId> = Vec::new();
    for (edge, _) in coast.iter().filter(|(_, i)| *i == biggest) {
        if on_biggest.len() < 4 && edge.endpoints().iter().all(|v| !corners.contains(v)) {
            corners.extend(edge.endpoints());
            on_biggest.push(*edge);
        }
    }
    assert_eq!(on_biggest.len(), 4, "the largest island has room for four harbours apart");
    layout.harbours.truncate(4);
    for (harbour, edge) in layout.harbours.iter_mut().zip(on_biggest) {
        harbour.edge = edge;
    }
    let checks = illegal(&layout, 4, NewWorldLayout::GrownIslands);
    assert!(checks.contains(&"NEW-LEGAL-5"), "{checks:?}");

    // A harbour between two land hexes, off the coast.
    let mut layout = board.layout.clone();
    let inland = board
        .islands
        .iter()
        .flat_map(|(hex, _)| hex.sides())
        .find(|edge| edge.hexes().iter().all(|h| island.contains_key(h)))
        .expect("islands have at least two hexes");
    layout.harbours[0].edge = inland;
    assert!(illegal(&layout, 4, NewWorldLayout::GrownIslands).contains(&"NEW-LEGAL-5"));
}

#[test]
fn tokens_on_sea_or_missing_on_land_are_illegal() {
    // NEW-LEGAL-2.
    let mut layout = grown(4, 2).layout;
    let land = layout.hexes.iter().position(|t| t.terrain.is_land()).expect("land");
    layout.hexes[land].number = None;
    assert!(illegal(&layout, 4, NewWorldLayout::GrownIslands).contains(&"NEW-LEGAL-2"));
}

#[test]
fn a_board_of_the_wrong_column_is_illegal() {
    // NEW-LEGAL-1: a 4-player board offered for 6 players.
    let layout = grown(4, 2).layout;
    assert!(illegal(&layout, 6, NewWorldLayout::GrownIslands).contains(&"NEW-LEGAL-1"));
}
