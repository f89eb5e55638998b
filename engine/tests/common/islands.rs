//! Small custom boards for focused tests: a position built with `Setup` needs no full map.

use catan_engine::board::{BoardLayout, HexCoord, HexTile, Terrain};

/// `land` around the centre, then rings of sea out to `radius`.
pub fn island(land: &[(HexCoord, Terrain, Option<u8>)], radius: i32) -> BoardLayout {
    let centre = HexCoord::new(0, 0);
    let mut hexes: Vec<HexTile> = land.iter().map(|&(hex, terrain, number)| HexTile { hex, terrain, number }).collect();
    for q in -radius..=radius {
        for r in -radius..=radius {
            let hex = HexCoord::new(q, r);
            if hex.distance(centre) <= radius && !hexes.iter().any(|t| t.hex == hex) {
                hexes.push(HexTile::sea(hex));
            }
        }
    }
    BoardLayout::new(hexes, vec![], None)
}

/// Seven land hexes: fields 8 in the centre, a ring of forest, hills, pasture, mountains,
/// fields and the desert (where the robber starts), in a 12-hex sea frame; 24 vertices, 30
/// edges.
pub fn seven_hex_island() -> BoardLayout {
    let ring = [
        (Terrain::Forest, Some(6)),
        (Terrain::Hills, Some(5)),
        (Terrain::Pasture, Some(9)),
        (Terrain::Mountains, Some(4)),
        (Terrain::Fields, Some(10)),
        (Terrain::Desert, None),
    ];
    let centre = HexCoord::new(0, 0);
    let mut land = vec![(centre, Terrain::Fields, Some(8))];
    land.extend(centre.neighbours().into_iter().zip(ring).map(|(hex, (terrain, number))| (hex, terrain, number)));
    let mut board = island(&land, 2);
    board.robber = land.iter().find(|(_, terrain, _)| *terrain == Terrain::Desert).map(|(hex, ..)| *hex);
    board
}
