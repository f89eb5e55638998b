//! Small sea boards for Seafarers tests: two 3-hex islands with a channel of open sea between
//! them, and a home island facing fog. Each lies in a sea of radius 4 around (0,0), so every
//! land or fog hex has its neighbours on the map (B-GEO-9).
//!
//! ```text
//!  island A (west)                 island B (east)
//!  (-2,0) forest 6                 (2,-1) fields 4    (3,-1) gold 8
//!  (-1,0) hills 9                  (2,0) mountains 10
//!  (-2,1) pasture 5
//! ```
//!
//! The channel: from A's east coast vertex (0,-1,S) three sea–sea edges reach B's west coast
//! vertex (1,0,N): (0,-1,SE), (0,0,NE), (1,-1,SE).

#![allow(dead_code)]

use catan_engine::board::{BoardLayout, HexCoord, HexTile, Terrain};

/// Island A: forest 6, hills 9, pasture 5; its inland vertex is (-2,1,N).
pub const ISLAND_A: [(i32, i32, Terrain, u8); 3] =
    [(-2, 0, Terrain::Forest, 6), (-1, 0, Terrain::Hills, 9), (-2, 1, Terrain::Pasture, 5)];

/// Island B: fields 4, mountains 10, gold 8; its inland vertex is (2,0,N).
pub const ISLAND_B: [(i32, i32, Terrain, u8); 3] =
    [(2, -1, Terrain::Fields, 4), (2, 0, Terrain::Mountains, 10), (3, -1, Terrain::Gold, 8)];

const RADIUS: i32 = 4;

/// `tiles` in a sea of radius 4 around (0,0); no harbours, the robber and the pirate off the
/// board.
pub fn sea_board(tiles: Vec<HexTile>) -> BoardLayout {
    let centre = HexCoord::new(0, 0);
    let mut hexes = tiles;
    for q in -RADIUS..=RADIUS {
        for r in -RADIUS..=RADIUS {
            let hex = HexCoord::new(q, r);
            if hex.distance(centre) <= RADIUS && !hexes.iter().any(|t| t.hex == hex) {
                hexes.push(HexTile::sea(hex));
            }
        }
    }
    BoardLayout::new(hexes, vec![], None)
}

fn tiles(island: &[(i32, i32, Terrain, u8)]) -> impl Iterator<Item = HexTile> + '_ {
    island.iter().map(|&(q, r, terrain, number)| HexTile { hex: HexCoord::new(q, r), terrain, number: Some(number) })
}

/// Islands A and B with the channel between them.
pub fn two_islands() -> BoardLayout {
    sea_board(tiles(&ISLAND_A).chain(tiles(&ISLAND_B)).collect())
}

/// Island A, with face-down fog on `fog` (SEA-13); the rest is sea.
pub fn island_and_fog(fog: &[HexCoord]) -> BoardLayout {
    let fog = fog.iter().map(|&hex| HexTile { hex, terrain: Terrain::Fog, number: None });
    sea_board(tiles(&ISLAND_A).chain(fog).collect())
}
