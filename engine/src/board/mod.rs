//! The board: coordinates, layouts, and the indexed topology the rules run on.
//!
//! Rules work on dense indices (`u16` per vertex/edge, `u8` per hex) so that move generation
//! is array walks; ids (`VertexId`, `EdgeId`, `HexCoord`) appear only at the API boundary.

pub mod coords;
pub mod layout;
mod topology;

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use coords::{Corner, EdgeId, HexCoord, Side, VertexId};
pub use layout::{BoardGenerator, BoardLayout, Harbour, HarbourKind, HexTile, NumberPlacement, Terrain};
pub use topology::Topology;

use crate::protocol::SetupError;

/// Marks an unused slot in the fixed-size neighbour arrays.
pub const NONE: u16 = u16::MAX;

/// A validated board: its layout, the map's shared [`Topology`] (reached through `Deref`:
/// `board.vertex_neighbours`) and what the layout's terrain and numbers derive from it.
/// Serializes as its [`BoardLayout`].
#[derive(Debug, Clone)]
pub struct Board {
    layout: BoardLayout,
    topology: Arc<Topology>,
    pub terrain: Vec<Terrain>,
    pub numbers: Vec<Option<u8>>,
    /// Land hexes touching each vertex (only land matters for production).
    pub vertex_land_hexes: Vec<[u8; 3]>,
    /// Whether a building may stand on each vertex: it touches land (B-GEO-9).
    pub vertex_is_buildable: Vec<bool>,
    pub vertex_harbour: Vec<Option<HarbourKind>>,
    /// Each vertex's harbour as bits ([`HarbourKind::rate_bits`]), so that a seat's rates
    /// are its buildings' bits or'd together, without a branch per harbour kind.
    pub vertex_harbour_bits: Vec<u8>,
    /// Whether each vertex touches a gold hex (RIV-6).
    pub vertex_on_gold: Vec<bool>,
    /// Whether each vertex touches a river hex (RIV-4).
    pub vertex_on_river: Vec<bool>,
    /// The vertices that carry a harbour.
    pub harbour_vertices: Vec<u16>,
    /// Whether a road may stand on the edge (touches land, B-GEO-9).
    pub edge_is_land: Vec<bool>,
    /// Whether a ship may stand on the edge (touches sea, B-GEO-9, SEA-2).
    pub edge_is_sea: Vec<bool>,
    /// Hexes carrying each number token, indexed by the number.
    pub hexes_by_number: [Vec<u8>; 13],
}

impl std::ops::Deref for Board {
    type Target = Topology;
    fn deref(&self) -> &Topology {
        &self.topology
    }
}

/// Marks a missing hex in the per-edge hex pairs.
pub const NO_HEX: u8 = u8::MAX;

impl Board {
    /// Builds the board of a layout, rejecting a layout that is not a playable map.
    ///
    /// # Errors
    /// [`SetupError`] when a land hex lacks a neighbour on the map, a number token is not
    /// 2..12 (or sits on desert/sea), a harbour is not on a coast edge, or the robber is not on
    /// land.
    pub fn new(layout: BoardLayout) -> Result<Board, SetupError> {
        let hexes: Vec<HexCoord> = layout.hexes.iter().map(|t| t.hex).collect();
        let topology = Topology::of(hexes)?;
        let hex_index = &topology.hex_index;
        for &hex in &layout.neutral {
            if !hex_index.get(&hex).is_some_and(|&i| layout.hexes[i as usize].terrain.is_land()) {
                return Err(SetupError::InvalidBoard(format!(
                    "neutral hex {hex} is not a land hex of the board (SCN-3)"
                )));
            }
        }
        for tile in &layout.hexes {
            match (tile.terrain.takes_number(), tile.number) {
                (true, Some(n)) if (2..=12).contains(&n) && n != 7 => {}
                // SCN-3: neutral land carries no token and never produces.
                (true, None) if layout.neutral.contains(&tile.hex) => {}
                (true, _) => {
                    return Err(SetupError::InvalidBoard(format!(
                        "producing hex {} needs a number token 2-12 other than 7",
                        tile.hex
                    )))
                }
                (false, Some(_)) => {
                    return Err(SetupError::InvalidBoard(format!("hex {} takes no number token", tile.hex)))
                }
                (false, None) => {}
            }
            let may_be_land = tile.terrain != Terrain::Sea;
            if may_be_land && tile.hex.neighbours().iter().any(|n| !hex_index.contains_key(n)) {
                return Err(SetupError::InvalidBoard(format!(
                    "land hex {} must be surrounded by hexes on the map (list the sea frame)",
                    tile.hex
                )));
            }
        }

        let is_land_terrain =
            |h: &HexCoord| hex_index.get(h).is_some_and(|&i| layout.hexes[i as usize].terrain.is_land());
        // SCN-3: neutral land counts as land for nothing a player builds or produces from
        // (a harbour may lie at its coast: the tribe's gifts, FTR-10).
        let is_land = |h: &HexCoord| is_land_terrain(h) && !layout.neutral.contains(h);
        let is_sea = |h: &HexCoord| hex_index.get(h).is_some_and(|&i| layout.hexes[i as usize].terrain.is_sea());
        let vertices = &topology.vertices;

        // What each hex is, by its index: the tables below read the hexes around every vertex
        // and edge by index (the topology's), not by coordinate (a lookup each).
        let by_index = |is: &dyn Fn(&HexTile) -> bool| layout.hexes.iter().map(is).collect::<Vec<bool>>();
        let land = by_index(&|t| t.terrain.is_land() && !layout.neutral.contains(&t.hex));
        let sea = by_index(&|t| t.terrain.is_sea());
        let gold = by_index(&|t| t.terrain == Terrain::Gold);
        let river = by_index(&|t| layout.river_hexes.contains(&t.hex));
        // `NO_HEX` (a hex off the map) is past every board's last index.
        let any = |flags: &[bool], hexes: &[u8]| hexes.iter().any(|&h| flags.get(h as usize).copied().unwrap_or(false));

        let vertex_land_hexes = topology
            .vertex_hexes
            .iter()
            .map(|around| {
                let mut out = [NO_HEX; 3];
                for (slot, &h) in around.iter().filter(|&&h| land.get(h as usize).copied().unwrap_or(false)).enumerate()
                {
                    out[slot] = h;
                }
                out
            })
            .collect();
        let edge_is_land = topology.edge_hexes.iter().map(|around| any(&land, around)).collect();
        let edge_is_sea = topology.edge_hexes.iter().map(|around| any(&sea, around)).collect();
        let vertex_is_buildable = topology.vertex_hexes.iter().map(|around| any(&land, around)).collect();

        let mut vertex_harbour = vec![None; vertices.len()];
        for (i, harbour) in layout.harbours.iter().enumerate() {
            let [a, b] = harbour.edge.hexes();
            if !((is_land_terrain(&a) && is_sea(&b)) || (is_sea(&a) && is_land_terrain(&b))) {
                return Err(SetupError::InvalidBoard(format!(
                    "harbour {} must lie on a coast edge between sea and land",
                    harbour.edge
                )));
            }
            for v in harbour.edge.endpoints() {
                let Some(&vi) = topology.vertex_index.get(&v) else {
                    return Err(SetupError::InvalidBoard(format!("harbour {} is off the board", harbour.edge)));
                };
                if vertex_harbour[vi as usize].is_some() {
                    return Err(SetupError::InvalidBoard(format!(
                        "harbour {} touches another harbour (B-GEO-10)",
                        layout.harbours[i].edge
                    )));
                }
                vertex_harbour[vi as usize] = Some(harbour.kind);
            }
        }

        if let Some(robber) = layout.robber.filter(|h| !is_land_terrain(h)) {
            return Err(SetupError::InvalidBoard(format!("the robber must start on a land hex, not {robber}")));
        }
        if let Some(pirate) = layout.pirate.filter(|h| !is_sea(h)) {
            return Err(SetupError::InvalidBoard(format!("the pirate must start on a sea hex, not {pirate}")));
        }
        for river in &layout.river_hexes {
            if !is_land(river) {
                return Err(SetupError::InvalidBoard(format!("river hex {river} must be a land hex on the map")));
            }
        }

        let mut hexes_by_number: [Vec<u8>; 13] = Default::default();
        for (i, tile) in layout.hexes.iter().enumerate() {
            if let Some(n) = tile.number {
                hexes_by_number[n as usize].push(i as u8);
            }
        }

        let vertex_on_river = topology.vertex_hexes.iter().map(|around| any(&river, around)).collect();
        let vertex_on_gold = topology.vertex_hexes.iter().map(|around| any(&gold, around)).collect();
        let harbour_vertices = (0..vertices.len() as u16).filter(|&v| vertex_harbour[v as usize].is_some()).collect();

        let vertex_harbour_bits = vertex_harbour.iter().map(|h| h.map_or(0, HarbourKind::rate_bits)).collect();
        Ok(Board {
            harbour_vertices,
            vertex_harbour_bits,
            vertex_on_river,
            vertex_on_gold,
            terrain: layout.hexes.iter().map(|t| t.terrain).collect(),
            numbers: layout.hexes.iter().map(|t| t.number).collect(),
            vertex_land_hexes,
            vertex_is_buildable,
            vertex_harbour,
            edge_is_land,
            edge_is_sea,
            hexes_by_number,
            topology,
            layout,
        })
    }

    pub fn layout(&self) -> &BoardLayout {
        &self.layout
    }

    /// The board with its harbour on `edge` taken away (FTR-10); `None` when there is none.
    pub fn without_harbour(&self, edge: EdgeId) -> Option<Board> {
        let mut layout = self.layout.clone();
        let at = layout.harbours.iter().position(|h| h.edge == edge)?;
        layout.harbours.remove(at);
        Board::new(layout).ok()
    }

    /// The board with one more harbour (NEW-11, FTR-10); `None` where it does not fit
    /// (B-GEO-10).
    pub fn with_harbour(&self, harbour: Harbour) -> Option<Board> {
        let mut layout = self.layout.clone();
        layout.harbours.push(harbour);
        Board::new(layout).ok()
    }

    /// The board with fog hex `h` turned face up (SEA-13): the same vertices and edges, with
    /// what the revealed terrain changes. `None` when `h` is not a fog hex or the tile does
    /// not fit (a log `decide` wrote always fits).
    pub fn revealed(&self, h: u8, terrain: Terrain, number: Option<u8>) -> Option<Board> {
        let tile = self.layout.hexes.get(h as usize)?;
        if tile.terrain != Terrain::Fog || terrain == Terrain::Fog {
            return None;
        }
        let mut layout = self.layout.clone();
        layout.hexes[h as usize] = HexTile { hex: tile.hex, terrain, number };
        Board::new(layout).ok()
    }

    /// Swaps the number tokens of hexes `a` and `b` (the Inventor, CK-PC-7): the layout, the
    /// numbers by hex and the hexes by number all follow.
    pub fn swap_numbers(&mut self, a: u8, b: u8) {
        let (ai, bi) = (a as usize, b as usize);
        if ai >= self.numbers.len() || bi >= self.numbers.len() || a == b {
            return;
        }
        self.numbers.swap(ai, bi);
        let (na, nb) = (self.layout.hexes[ai].number, self.layout.hexes[bi].number);
        self.layout.hexes[ai].number = nb;
        self.layout.hexes[bi].number = na;
        for list in &mut self.hexes_by_number {
            for h in list.iter_mut() {
                if *h == a {
                    *h = b;
                } else if *h == b {
                    *h = a;
                }
            }
            list.sort_unstable();
        }
    }

    /// Tests if hex `h` is still face down.
    pub fn is_fog_hex(&self, h: u8) -> bool {
        self.terrain.get(h as usize) == Some(&Terrain::Fog)
    }

    pub fn is_sea_hex(&self, h: u8) -> bool {
        self.terrain.get(h as usize).is_some_and(|t| t.is_sea())
    }

    pub fn hex(&self, hex: HexCoord) -> Option<u8> {
        self.hex_index.get(&hex).copied()
    }

    pub fn vertex(&self, vertex: VertexId) -> Option<u16> {
        self.vertex_index.get(&vertex).copied()
    }

    pub fn edge(&self, edge: EdgeId) -> Option<u16> {
        self.edge_index.get(&edge).copied()
    }

    /// Returns the land hexes touching vertex `v`.
    pub fn land_hexes_of(&self, v: u16) -> impl Iterator<Item = u8> + '_ {
        self.vertex_land_hexes[v as usize].iter().copied().filter(|&h| h != NO_HEX)
    }

    pub fn neighbours_of(&self, v: u16) -> impl Iterator<Item = u16> + '_ {
        self.vertex_neighbours[v as usize].iter().copied().filter(|&n| n != NONE)
    }

    pub fn edges_of(&self, v: u16) -> impl Iterator<Item = u16> + '_ {
        self.vertex_edges[v as usize].iter().copied().filter(|&e| e != NONE)
    }

    /// Returns the vertex at the other end of edge `e` from `v`.
    pub fn other_end(&self, e: u16, v: u16) -> u16 {
        let [a, b] = self.edge_vertices[e as usize];
        if a == v {
            b
        } else {
            a
        }
    }

    pub fn is_land_hex(&self, h: u8) -> bool {
        self.terrain[h as usize].is_land()
    }

    pub fn land_hex_count(&self) -> usize {
        self.terrain.iter().filter(|t| t.is_land()).count()
    }
}

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.layout.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Board::new(BoardLayout::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn far_flung_or_oversized_custom_boards_are_refused() {
        let mut layout = layout::beginner_layout();
        layout.hexes.push(HexTile { hex: HexCoord::new(i32::MAX, i32::MIN), terrain: Terrain::Sea, number: None });
        assert!(matches!(Board::new(layout), Err(SetupError::InvalidBoard(_))));
        let many =
            (0..300).map(|i| HexTile { hex: HexCoord::new(i % 20, i / 20), terrain: Terrain::Sea, number: None });
        let layout = BoardLayout::new(many.collect(), vec![], None);
        assert!(matches!(Board::new(layout), Err(SetupError::InvalidBoard(_))));
    }
}
