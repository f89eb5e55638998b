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
    // NEW-LEGAL over 1,000 generated boards for each player count (NEW-GEN-5: none needs
    // the 1,000 attempts); each one also builds as a board every ruleset can read.
    for players in 2..=6 {
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

#[test]
fn new_gen_1_the_player_count_picks_the_column_and_the_flags_are_inputs() {
    // NEW-GEN-1: 2-4 players play the 7 x 6 column, 5-6 the 7 x 8 one; within a column the
    // seed alone makes the board, and each flag is an input too.
    for seed in 0..20 {
        assert_eq!(grown(2, seed), grown(4, seed), "seed {seed}");
        assert_eq!(grown(3, seed), grown(4, seed), "seed {seed}");
        assert_eq!(grown(5, seed), grown(6, seed), "seed {seed}");
    }
    for (players, cells) in [(2, 42), (4, 42), (5, 56), (6, 56)] {
        let params = Params::for_players(players);
        assert_eq!(params.cells().len(), cells);
        let board = grown(players, 1);
        assert_eq!(board.layout.hexes.len(), cells + params.margin().len());
    }
    let with = |options: NewWorldOptions| (0..20).map(|seed| generated(4, seed, options)).collect::<Vec<_>>();
    let plain = with(NewWorldOptions::default());
    let shuffled = with(NewWorldOptions { layout: NewWorldLayout::PublishedRandom, ..NewWorldOptions::default() });
    let unequal = with(NewWorldOptions { forbid_adjacent_equal_numbers: true, ..NewWorldOptions::default() });
    assert!(plain.iter().zip(&shuffled).all(|(a, b)| a.layout != b.layout), "the layout flag");
    assert!(plain.iter().zip(&unequal).any(|(a, b)| a.layout != b.layout), "the numbers flag");
}

#[test]
fn new_gen_4_islands_grow_to_their_sizes_one_sea_cell_apart() {
    // NEW-GEN-3 draws the sizes, largest first; NEW-GEN-4 grows each island cell by cell from
    // a free cell, never next to another island's land: so the connected land is exactly the
    // drawn islands, each of its size.
    for players in [4, 6] {
        let params = Params::for_players(players);
        let cells = params.cells();
        let mut grown_attempts = 0;
        for seed in 0..2000 {
            if grown_attempts == 100 {
                break;
            }
            let mut rng = Rng::new(seed);
            let sizes = grow::island_sizes(&params, &mut rng.clone());
            assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "largest first: {sizes:?}");
            let Some(land) = grow::grow_islands(&params, &cells, &mut rng) else { continue };
            grown_attempts += 1;
            let hexes: Vec<HexCoord> = land.iter().map(|(h, _)| *h).collect();
            assert!(hexes.iter().all(|h| cells.contains(h)), "land only on cells");
            let islands = grow::islands_of(&hexes);
            let mut component_sizes: Vec<usize> = (1..=sizes.len() as u8 + 1)
                .map(|i| islands.iter().filter(|(_, on)| *on == i).count())
                .filter(|&n| n > 0)
                .collect();
            component_sizes.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(component_sizes, sizes, "seed {seed}: every island apart from the others, whole");
        }
        assert_eq!(grown_attempts, 100, "a first attempt grows in one seed of a few (NEW-GEN-5)");
    }
}

#[test]
fn new_gen_6_every_terrain_of_the_column_shuffled_over_the_land() {
    // NEW-GEN-6: the terrain multiset, exactly, on the land cells in canonical order; shuffled,
    // so the first land hex takes every terrain over the seeds.
    for players in [4, 6] {
        let params = Params::for_players(players);
        let mut expected: Vec<u8> = params.terrains.iter().map(|&t| t as u8).collect();
        expected.sort_unstable();
        let mut first_terrains: Vec<Terrain> = Vec::new();
        for seed in 0..200 {
            let board = grown(players, seed);
            let land: Vec<&HexTile> = board.layout.hexes.iter().filter(|t| t.terrain.is_land()).collect();
            assert!(land.windows(2).all(|w| (w[0].hex.r, w[0].hex.q) < (w[1].hex.r, w[1].hex.q)), "canonical order");
            let mut terrains: Vec<u8> = land.iter().map(|t| t.terrain as u8).collect();
            terrains.sort_unstable();
            assert_eq!(terrains, expected, "seed {seed}");
            if !first_terrains.contains(&land[0].terrain) {
                first_terrains.push(land[0].terrain);
            }
        }
        assert_eq!(first_terrains.len(), 5, "{first_terrains:?}");
    }
}

#[test]
fn new_gen_8_9_harbours_on_the_coast_apart_with_the_columns_kinds_shuffled() {
    // NEW-GEN-8: every harbour on a coast edge (land and sea or margin), no two sharing a
    // corner, at most three per island. NEW-GEN-9: the column's kinds, shuffled over them.
    for players in [4, 6] {
        let params = Params::for_players(players);
        let frame = Frame::of(&params);
        let mut kinds_expected: Vec<u8> = params.harbours.iter().map(|&k| k as u8).collect();
        kinds_expected.sort_unstable();
        let (mut first_kinds, mut first_edges) = (Vec::new(), Vec::new());
        for seed in 0..200 {
            let board = grown(players, seed);
            let island: HashMap<HexCoord, u8> = board.islands.iter().copied().collect();
            let coast = grow::coast_edges(&island, &frame.hexes);
            let mut corners: Vec<VertexId> = Vec::new();
            let mut per_island: HashMap<u8, usize> = HashMap::new();
            for harbour in &board.layout.harbours {
                let (_, on) = coast.iter().find(|(e, _)| *e == harbour.edge).expect("a coast edge");
                assert!(harbour.edge.endpoints().iter().all(|v| !corners.contains(v)), "seed {seed}: apart");
                corners.extend(harbour.edge.endpoints());
                *per_island.entry(*on).or_default() += 1;
            }
            assert!(per_island.values().all(|&n| n <= params.harbours_per_island), "seed {seed}: {per_island:?}");
            let mut kinds: Vec<u8> = board.layout.harbours.iter().map(|h| h.kind as u8).collect();
            kinds.sort_unstable();
            assert_eq!(kinds, kinds_expected, "seed {seed}");
            let first = board.layout.harbours[0];
            if !first_kinds.contains(&first.kind) {
                first_kinds.push(first.kind);
            }
            if !first_edges.contains(&first.edge) {
                first_edges.push(first.edge);
            }
        }
        assert_eq!(first_kinds.len(), 6, "every kind comes first for some seed: {first_kinds:?}");
        assert!(first_edges.len() > 20, "positions are drawn: {}", first_edges.len());
    }
}

#[test]
fn new_legal_6_a_board_without_room_for_everyones_setup_is_illegal() {
    // NEW-LEGAL-6: two land hexes leave fewer than 2 x 4 + 2 settlement sites apart; the
    // generated boards have room (TC-126 runs every check over 1,000 of them).
    let mut layout = grown(4, 9).layout;
    assert!(!illegal(&layout, 4, NewWorldLayout::GrownIslands).contains(&"NEW-LEGAL-6"));
    let mut kept = 0;
    for tile in &mut layout.hexes {
        if tile.terrain.is_land() {
            kept += 1;
            if kept > 2 {
                *tile = HexTile::sea(tile.hex);
            }
        }
    }
    assert!(illegal(&layout, 4, NewWorldLayout::GrownIslands).contains(&"NEW-LEGAL-6"));
}

#[test]
fn new_legal_7_an_island_that_touches_only_the_margin_is_illegal() {
    // NEW-LEGAL-7: every cell land makes one island whose only sea is the margin.
    let params = Params::for_players(4);
    let mut layout = one_island();
    assert!(!illegal(&layout, 4, NewWorldLayout::PublishedRandom).contains(&"NEW-LEGAL-7"));
    let cells = params.cells();
    for tile in &mut layout.hexes {
        if cells.contains(&tile.hex) && !tile.terrain.is_land() {
            *tile = HexTile { hex: tile.hex, terrain: Terrain::Forest, number: Some(5) };
        }
    }
    let checks = illegal(&layout, 4, NewWorldLayout::PublishedRandom);
    assert!(checks.contains(&"NEW-LEGAL-7"), "{checks:?}");
}

#[test]
fn new_9_the_generated_board_is_a_fixed_map_for_the_rest_of_the_engine() {
    // NEW-9: the generator writes the layout every fixed map is read into: it survives its
    // stored form unchanged, builds as a board, keeps the margin as sea, lists its islands as
    // land areas 1..k over every land hex, and has robber and pirate off the board. An
    // injected board in the same form goes through the same checks (NEW-LEGAL, TC-127..129).
    for players in [4, 6] {
        let board = grown(players, 13);
        let stored = serde_json::to_string(&board.layout).expect("serializable");
        let read: BoardLayout = serde_json::from_str(&stored).expect("the stored form reads back");
        assert_eq!(read, board.layout);
        Board::new(read).expect("a board the engine builds");
        let margin = Params::for_players(players).margin();
        assert!(board.layout.hexes.iter().filter(|t| margin.contains(&t.hex)).all(|t| t.terrain == Terrain::Sea));
        let land: Vec<HexCoord> = board.layout.hexes.iter().filter(|t| t.terrain.is_land()).map(|t| t.hex).collect();
        assert_eq!(board.islands.iter().map(|(h, _)| *h).collect::<Vec<_>>(), land);
        let count = board.islands.iter().map(|(_, i)| *i).max().unwrap_or(0);
        assert!((1..=count).all(|i| board.islands.iter().any(|(_, on)| *on == i)));
        assert_eq!((board.layout.robber, board.layout.pirate), (None, None));
        assert_eq!(illegal(&board.layout, players, NewWorldLayout::GrownIslands), Vec::<&str>::new());
    }
}
