//! 9.1 Components and geometry: TC-01 .. TC-06.

use std::collections::HashSet;

use catan_engine::{
    board::{
        layout::{
            beginner_layout, has_adjacent_red_numbers, lay_tokens_along, spiral_walk, standard_land_positions,
            SpiralSense, TOKEN_SEQUENCE,
        },
        Board, HexTile, Terrain, NONE,
    },
    BoardSpec, DevCards, Game, GameConfig, Resources,
};

use super::support::*;

const TOKENS: [u8; 18] = [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12];

fn sorted_tokens(board: &Board) -> Vec<u8> {
    let mut tokens: Vec<u8> = board.numbers.iter().flatten().copied().collect();
    tokens.sort_unstable();
    tokens
}

/// TC-01 [B-CMP-3, B-CMP-5, B-CMP-6]: a new game has a full bank, the standard development
/// deck and the standard token multiset.
#[test]
fn tc_01_new_game_has_full_bank_deck_and_tokens() {
    for players in [3, 4] {
        for board in [BoardSpec::Beginner, BoardSpec::Random] {
            let game = Game::new(GameConfig { board: board.clone(), ..config(players) }, 11).unwrap();
            assert_eq!(*game.bank(), Resources::each(19));
            assert_eq!(game.bank().total(), 95);
            let deck = game.development_deck();
            assert_eq!(*deck, DevCards::new(14, 2, 2, 2, 5));
            assert_eq!(deck.total(), 25);
            assert_eq!(sorted_tokens(game.board()), TOKENS);
            for seat in game.seats() {
                assert!(game.player(seat).unwrap().resources().is_empty());
            }
        }
    }
}

/// TC-02 [B-GEO-9]: the standard board has 54 vertices and 72 edges, every vertex touches land
/// and every land hex has 6 distinct vertices.
#[test]
fn tc_02_standard_board_has_54_vertices_and_72_edges() {
    for spec in [BoardSpec::Beginner, BoardSpec::Random] {
        let game = Game::new(GameConfig { board: spec, ..config(4) }, 3).unwrap();
        let board = game.board();
        assert_eq!(board.hexes.len(), 37);
        assert_eq!(board.land_hex_count(), 19);
        assert_eq!(board.vertices.len(), 54);
        assert_eq!(board.edges.len(), 72);
        for (i, vertex) in board.vertices.iter().enumerate() {
            assert!(board.land_hexes_of(i as u16).count() >= 1, "{vertex} touches no land");
        }
        assert!(board.edge_is_land.iter().all(|&land| land));
        for (i, hex) in board.hexes.iter().enumerate() {
            if !board.is_land_hex(i as u8) {
                continue;
            }
            let corners: HashSet<u16> = board.hex_vertices[i].iter().copied().collect();
            assert_eq!(corners.len(), 6, "land hex {hex}");
            assert!(!corners.contains(&NONE), "land hex {hex} lacks a corner");
        }
    }
}

/// TC-03 [B-GEO-4, B-GEO-5, B-GEO-6]: corners of (0,-1), hexes and neighbours of (0,0,N), and
/// symmetric adjacency over all 54 vertices.
#[test]
fn tc_03_vertex_corners_hexes_and_adjacency() {
    let corners = h("0,-1").corners();
    assert_eq!(corners, ["0,-1,N", "1,-2,S", "0,0,N", "0,-1,S", "-1,0,N", "0,-2,S"].map(v));
    let vertex = v("0,0,N");
    let hexes: HashSet<_> = vertex.hexes().into_iter().collect();
    assert_eq!(hexes, ["0,0", "0,-1", "1,-1"].map(h).into_iter().collect());
    let adjacent: HashSet<_> = vertex.adjacent().into_iter().collect();
    assert_eq!(adjacent, ["1,-1,S", "0,-1,S", "1,-2,S"].map(v).into_iter().collect());

    let game = Scenario::new().game;
    let board = game.board();
    for (i, vertex) in board.vertices.iter().enumerate() {
        let on_board: Vec<u16> = board.neighbours_of(i as u16).collect();
        assert!((2..=3).contains(&on_board.len()), "{vertex}");
        for n in on_board {
            let back: Vec<u16> = board.neighbours_of(n).collect();
            assert!(
                back.contains(&(i as u16)),
                "adjacency {vertex} -> {} is not symmetric",
                board.vertices[n as usize]
            );
        }
        for other in vertex.adjacent() {
            assert!(other.adjacent().contains(vertex), "B-GEO-6 {vertex} / {other}");
        }
    }
}

/// TC-04 [B-GEO-8, B-GEO-7]: edge (0,-1,E) endpoints and hexes; the W side of (1,-1) is (0,-1,E).
#[test]
fn tc_04_edge_endpoints_and_canonical_sides() {
    let edge = e("0,-1,E");
    assert_eq!(edge.endpoints(), [v("1,-2,S"), v("0,0,N")]);
    assert_eq!(edge.hexes(), [h("0,-1"), h("1,-1")]);
    // sides() lists NE, E, SE, SW, W, NW canonicalised.
    let sides = h("1,-1").sides();
    assert_eq!(sides[4], edge);
    assert_eq!(sides, ["1,-1,NE", "1,-1,E", "1,-1,SE", "0,0,NE", "0,-1,E", "1,-2,SE"].map(e));
    assert_eq!(edge.to_string(), "0,-1,E");
    let game = Scenario::new().game;
    let board = game.board();
    let i = board.edge(edge).unwrap();
    let ends: HashSet<_> = board.edge_vertices[i as usize].iter().map(|&x| board.vertices[x as usize]).collect();
    assert_eq!(ends, [v("1,-2,S"), v("0,0,N")].into_iter().collect());
}

/// TC-05 [B-GEO-12, B-GEO-11]: 6 start corners x 2 senses x 19 desert positions: the spiral
/// lays the standard multiset and never puts two red numbers side by side.
#[test]
fn tc_05_spiral_placement_never_puts_reds_together() {
    let positions = standard_land_positions();
    assert_eq!(positions.len(), 19);
    let mut cases = 0;
    for start in 0..6 {
        for sense in [SpiralSense::CounterClockwise, SpiralSense::Clockwise] {
            let walk = spiral_walk(start, sense);
            let visited: HashSet<_> = walk.iter().copied().collect();
            assert_eq!(walk.len(), 19);
            assert_eq!(visited, positions.iter().copied().collect(), "walk {start} {sense:?}");
            for desert in &positions {
                let mut land: Vec<HexTile> = positions
                    .iter()
                    .map(|&hex| HexTile {
                        hex,
                        terrain: if hex == *desert { Terrain::Desert } else { Terrain::Fields },
                        number: None,
                    })
                    .collect();
                lay_tokens_along(&mut land, &walk);
                let mut tokens: Vec<u8> = land.iter().filter_map(|t| t.number).collect();
                tokens.sort_unstable();
                assert_eq!(tokens, TOKENS, "start {start} {sense:?} desert {desert}");
                assert!(land.iter().find(|t| t.hex == *desert).unwrap().number.is_none());
                assert!(
                    !has_adjacent_red_numbers(&land),
                    "start {start} {sense:?} desert {desert}: red numbers adjacent"
                );
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 228);
    // The detector itself must fire on adjacent reds, or the loop above proves nothing.
    let mut bad = beginner_layout();
    assert!(!has_adjacent_red_numbers(&bad.hexes));
    for tile in &mut bad.hexes {
        if tile.hex == h("1,-1") {
            tile.number = Some(8);
        }
    }
    assert!(has_adjacent_red_numbers(&bad.hexes));
    assert_eq!(TOKEN_SEQUENCE.len(), 18);
}

/// TC-06 [B-GEO-14, B-GEO-11]: the beginner board has the robber on the desert and no adjacent
/// reds; a custom map with 6 on (0,-1) and 8 on (1,-1) is refused unless the flag is off.
#[test]
fn tc_06_beginner_layout_and_custom_red_neighbours() {
    let game = Scenario::new().game;
    assert_eq!(game.robber_hex(), Some(h("0,0")));
    let board = game.board();
    let red: HashSet<_> =
        board.hexes.iter().zip(&board.numbers).filter(|(_, n)| matches!(n, Some(6 | 8))).map(|(hex, _)| *hex).collect();
    assert_eq!(red, ["0,-1", "-1,2", "2,0", "-2,1"].map(h).into_iter().collect());
    for a in &red {
        for b in &red {
            assert!(a == b || !a.is_adjacent(*b), "{a} and {b} are adjacent reds");
        }
    }

    // Swap the 4 on (1,-1) with the 8 on (2,0): same multiset, 6 next to 8.
    let mut layout = beginner_layout();
    for tile in &mut layout.hexes {
        if tile.hex == h("1,-1") {
            tile.number = Some(8);
        } else if tile.hex == h("2,0") {
            tile.number = Some(4);
        }
    }
    let custom = GameConfig { board: BoardSpec::Custom(layout.clone()), ..config(4) };
    let err = Game::new(custom.clone(), 1).expect_err("adjacent reds must be refused");
    assert_eq!(err.code(), "invalid_board");
    let allowed =
        Game::new(GameConfig { forbid_adjacent_red_numbers: false, ..custom }, 1).expect("accepted with the flag off");
    assert_eq!(allowed.board().layout(), &layout);
    // The unmodified beginner layout is accepted as a custom board.
    Game::new(GameConfig { board: BoardSpec::Custom(beginner_layout()), ..config(4) }, 1)
        .expect("beginner layout as custom");
}
