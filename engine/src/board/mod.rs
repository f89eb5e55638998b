//! The board: coordinates, layouts, and the indexed topology the rules run on.
//!
//! Rules work on dense indices (`u16` per vertex/edge, `u8` per hex) so that move generation
//! is array walks; ids (`VertexId`, `EdgeId`, `HexCoord`) appear only at the API boundary.

pub mod coords;
pub mod layout;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use coords::{Corner, EdgeId, HexCoord, Side, VertexId};
pub use layout::{BoardLayout, Harbour, HarbourKind, HexTile, NumberPlacement, Terrain};

use crate::protocol::SetupError;

/// Marks an unused slot in the fixed-size neighbour arrays.
pub const NONE: u16 = u16::MAX;

/// A validated board with its derived topology. Serializes as its [`BoardLayout`].
#[derive(Debug, Clone)]
pub struct Board {
    layout: BoardLayout,
    pub hexes: Vec<HexCoord>,
    pub terrain: Vec<Terrain>,
    pub numbers: Vec<Option<u8>>,
    hex_index: DenseMap<HexCoord, u8>,
    pub vertices: Vec<VertexId>,
    vertex_index: DenseMap<VertexId, u16>,
    /// Land hexes touching each vertex (only land matters for production).
    pub vertex_land_hexes: Vec<[u8; 3]>,
    /// Whether a building may stand on each vertex: it touches land (B-GEO-9).
    pub vertex_is_buildable: Vec<bool>,
    pub vertex_neighbours: Vec<[u16; 3]>,
    pub vertex_edges: Vec<[u16; 3]>,
    pub vertex_harbour: Vec<Option<HarbourKind>>,
    /// Whether each vertex touches a gold hex (RIV-6).
    pub vertex_on_gold: Vec<bool>,
    /// Whether each vertex touches a river hex (RIV-4).
    pub vertex_on_river: Vec<bool>,
    /// The vertices that carry a harbour.
    pub harbour_vertices: Vec<u16>,
    pub edges: Vec<EdgeId>,
    edge_index: DenseMap<EdgeId, u16>,
    pub edge_vertices: Vec<[u16; 2]>,
    /// Whether a road may stand on the edge (touches land, B-GEO-9).
    pub edge_is_land: Vec<bool>,
    /// Whether a ship may stand on the edge (touches sea, B-GEO-9, SEA-2).
    pub edge_is_sea: Vec<bool>,
    /// The two hexes each edge divides (`NO_HEX` for one off the map): the pirate's sides.
    pub edge_hexes: Vec<[u8; 2]>,
    /// The vertices around each hex (NONE for corners off the map).
    pub hex_vertices: Vec<[u16; 6]>,
    /// The edges around each hex (NONE for sides off the map).
    pub hex_edges: Vec<[u16; 6]>,
    /// Hexes carrying each number token, indexed by the number.
    pub hexes_by_number: [Vec<u8>; 13],
}

/// Marks a missing hex in the per-edge hex pairs.
pub const NO_HEX: u8 = u8::MAX;
/// Largest |q| or |r| a board may use.
const MAX_COORD: i32 = 64;

impl Board {
    /// Builds the topology of a layout, rejecting a layout that is not a playable map.
    ///
    /// # Errors
    /// [`SetupError`] when a land hex lacks a neighbour on the map, a number token is not
    /// 2..12 (or sits on desert/sea), a harbour is not on a coast edge, or the robber is not on
    /// land.
    pub fn new(layout: BoardLayout) -> Result<Board, SetupError> {
        // Bounds keep a hostile custom board from making the dense lookup grid huge.
        if layout.hexes.len() >= NO_HEX as usize {
            return Err(SetupError::InvalidBoard(format!("at most {} hexes, not {}", NO_HEX - 1, layout.hexes.len())));
        }
        if let Some(far) = layout.hexes.iter().find(|t| t.hex.q.abs() > MAX_COORD || t.hex.r.abs() > MAX_COORD) {
            return Err(SetupError::InvalidBoard(format!("hex {} is too far out (|q|, |r| <= {MAX_COORD})", far.hex)));
        }
        let grid = CoordGrid::covering(layout.hexes.iter().map(|t| t.hex));
        let mut hex_index = DenseMap::new(grid.clone());
        for (i, tile) in layout.hexes.iter().enumerate() {
            if hex_index.insert(tile.hex, i as u8).is_some() {
                return Err(SetupError::InvalidBoard(format!("hex {} is listed twice", tile.hex)));
            }
        }
        for tile in &layout.hexes {
            match (tile.terrain.takes_number(), tile.number) {
                (true, Some(n)) if (2..=12).contains(&n) && n != 7 => {}
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

        let is_on_map = |h: &HexCoord| hex_index.contains_key(h);
        let is_land = |h: &HexCoord| hex_index.get(h).is_some_and(|&i| layout.hexes[i as usize].terrain.is_land());
        let is_sea = |h: &HexCoord| hex_index.get(h).is_some_and(|&i| layout.hexes[i as usize].terrain.is_sea());

        // B-GEO-9: a vertex exists iff all three hexes are on the map (buildable iff it
        // touches land). What lies under fog never changes which vertices exist.
        let mut vertices: Vec<VertexId> =
            layout.hexes.iter().flat_map(|t| t.hex.corners()).filter(|v| v.hexes().iter().all(is_on_map)).collect();
        vertices.sort_by_key(|v| (v.hex.r, v.hex.q, v.corner));
        vertices.dedup();
        let vertex_index =
            DenseMap::from_entries(grid.clone(), vertices.iter().enumerate().map(|(i, v)| (*v, i as u16)));

        // An edge exists iff both endpoints exist; roads need a land side.
        let mut edges: Vec<EdgeId> = layout
            .hexes
            .iter()
            .flat_map(|t| t.hex.sides())
            .filter(|e| e.endpoints().iter().all(|v| vertex_index.contains_key(v)))
            .collect();
        edges.sort_by_key(|e| (e.hex.r, e.hex.q, e.side));
        edges.dedup();
        let edge_index = DenseMap::from_entries(grid, edges.iter().enumerate().map(|(i, e)| (*e, i as u16)));

        let vertex_land_hexes = vertices
            .iter()
            .map(|v| {
                let mut out = [NO_HEX; 3];
                for (slot, h) in v.hexes().iter().filter(|h| is_land(h)).enumerate() {
                    out[slot] = hex_index[*h];
                }
                out
            })
            .collect();
        let vertex_neighbours = vertices
            .iter()
            .map(|v| {
                let mut out = [NONE; 3];
                for (slot, n) in v.adjacent().iter().filter_map(|n| vertex_index.get(n)).enumerate() {
                    out[slot] = *n;
                }
                out
            })
            .collect();
        let vertex_edges = vertices
            .iter()
            .map(|v| {
                let mut out = [NONE; 3];
                for (slot, e) in v.edges().iter().filter_map(|e| edge_index.get(e)).enumerate() {
                    out[slot] = *e;
                }
                out
            })
            .collect();
        let edge_vertices = edges.iter().map(|e| e.endpoints().map(|v| vertex_index[v])).collect();
        let edge_is_land = edges.iter().map(|e| e.hexes().iter().any(is_land)).collect();
        let edge_is_sea = edges.iter().map(|e| e.hexes().iter().any(is_sea)).collect();
        let edge_hexes =
            edges.iter().map(|e| e.hexes().map(|h| hex_index.get(&h).copied().unwrap_or(NO_HEX))).collect();
        let vertex_is_buildable = vertices.iter().map(|v| v.hexes().iter().any(is_land)).collect();

        let mut vertex_harbour = vec![None; vertices.len()];
        for (i, harbour) in layout.harbours.iter().enumerate() {
            let [a, b] = harbour.edge.hexes();
            if !((is_land(&a) && is_sea(&b)) || (is_sea(&a) && is_land(&b))) {
                return Err(SetupError::InvalidBoard(format!(
                    "harbour {} must lie on a coast edge between sea and land",
                    harbour.edge
                )));
            }
            for v in harbour.edge.endpoints() {
                let Some(&vi) = vertex_index.get(&v) else {
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

        if let Some(robber) = layout.robber.filter(|h| !is_land(h)) {
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

        let hexes: Vec<HexCoord> = layout.hexes.iter().map(|t| t.hex).collect();
        let hex_vertices =
            hexes.iter().map(|h| h.corners().map(|v| vertex_index.get(&v).copied().unwrap_or(NONE))).collect();
        let hex_edges = hexes.iter().map(|h| h.sides().map(|e| edge_index.get(&e).copied().unwrap_or(NONE))).collect();
        let mut hexes_by_number: [Vec<u8>; 13] = Default::default();
        for (i, tile) in layout.hexes.iter().enumerate() {
            if let Some(n) = tile.number {
                hexes_by_number[n as usize].push(i as u8);
            }
        }

        let vertex_on_river =
            vertices.iter().map(|v| v.hexes().iter().any(|h| layout.river_hexes.contains(h))).collect();
        let vertex_on_gold = vertices
            .iter()
            .map(|v| {
                v.hexes()
                    .iter()
                    .any(|h| hex_index.get(h).is_some_and(|&i| layout.hexes[i as usize].terrain == Terrain::Gold))
            })
            .collect();
        let harbour_vertices = (0..vertices.len() as u16).filter(|&v| vertex_harbour[v as usize].is_some()).collect();

        Ok(Board {
            harbour_vertices,
            vertex_on_river,
            vertex_on_gold,
            terrain: layout.hexes.iter().map(|t| t.terrain).collect(),
            numbers: layout.hexes.iter().map(|t| t.number).collect(),
            hexes,
            hex_index,
            vertices,
            vertex_index,
            vertex_land_hexes,
            vertex_is_buildable,
            vertex_neighbours,
            vertex_edges,
            vertex_harbour,
            edges,
            edge_index,
            edge_vertices,
            edge_is_land,
            edge_is_sea,
            edge_hexes,
            hex_vertices,
            hex_edges,
            hexes_by_number,
            layout,
        })
    }

    pub fn layout(&self) -> &BoardLayout {
        &self.layout
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

/// A dense rectangle of axial cells covering the map, so id lookups are array reads.
#[derive(Debug, Clone)]
struct CoordGrid {
    q_min: i32,
    r_min: i32,
    width: usize,
    height: usize,
}

impl CoordGrid {
    fn covering(hexes: impl Iterator<Item = HexCoord> + Clone) -> Self {
        let q_min = hexes.clone().map(|h| h.q).min().unwrap_or(0);
        let q_max = hexes.clone().map(|h| h.q).max().unwrap_or(0);
        let r_min = hexes.clone().map(|h| h.r).min().unwrap_or(0);
        let r_max = hexes.map(|h| h.r).max().unwrap_or(0);
        CoordGrid { q_min, r_min, width: (q_max - q_min + 1) as usize, height: (r_max - r_min + 1) as usize }
    }

    fn cells(&self) -> usize {
        self.width * self.height
    }

    fn cell(&self, hex: HexCoord) -> Option<usize> {
        let q = usize::try_from(hex.q.checked_sub(self.q_min)?).ok()?;
        let r = usize::try_from(hex.r.checked_sub(self.r_min)?).ok()?;
        (q < self.width && r < self.height).then_some(r * self.width + q)
    }
}

/// Ids that live in a [`CoordGrid`] cell: a hex, or one of a cell's 2 vertices or 3 edges.
trait GridKey: Copy {
    const PER_CELL: usize;
    fn hex(self) -> HexCoord;
    fn offset(self) -> usize;
}

impl GridKey for HexCoord {
    const PER_CELL: usize = 1;
    fn hex(self) -> HexCoord {
        self
    }
    fn offset(self) -> usize {
        0
    }
}

impl GridKey for VertexId {
    const PER_CELL: usize = 2;
    fn hex(self) -> HexCoord {
        self.hex
    }
    fn offset(self) -> usize {
        self.corner as usize
    }
}

impl GridKey for EdgeId {
    const PER_CELL: usize = 3;
    fn hex(self) -> HexCoord {
        self.hex
    }
    fn offset(self) -> usize {
        self.side as usize
    }
}

/// A map from board ids to values stored densely over the grid: lookups are array reads.
#[derive(Debug, Clone)]
struct DenseMap<K, V> {
    grid: CoordGrid,
    values: Vec<Option<V>>,
    _key: std::marker::PhantomData<K>,
}

impl<K: GridKey, V: Copy> DenseMap<K, V> {
    fn new(grid: CoordGrid) -> Self {
        let values = vec![None; grid.cells() * K::PER_CELL];
        DenseMap { grid, values, _key: std::marker::PhantomData }
    }

    fn from_entries(grid: CoordGrid, entries: impl Iterator<Item = (K, V)>) -> Self {
        let mut map = DenseMap::new(grid);
        for (key, value) in entries {
            map.insert(key, value);
        }
        map
    }

    fn slot(&self, key: &K) -> Option<usize> {
        Some(self.grid.cell(key.hex())? * K::PER_CELL + key.offset())
    }

    fn get(&self, key: &K) -> Option<&V> {
        self.values.get(self.slot(key)?)?.as_ref()
    }

    fn contains_key(&self, key: &K) -> bool {
        self.get(key).is_some()
    }

    /// Inserts a value; returns the previous one. Keys off the grid are ignored (the grid
    /// covers every hex of the map, and so every vertex and edge that can exist).
    fn insert(&mut self, key: K, value: V) -> Option<V> {
        let slot = self.slot(&key)?;
        self.values[slot].replace(value)
    }
}

impl<K: GridKey, V: Copy> std::ops::Index<K> for DenseMap<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        self.get(&key).expect("id on the board")
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
        let layout =
            BoardLayout { hexes: many.collect(), harbours: vec![], robber: None, river_hexes: vec![], pirate: None };
        assert!(matches!(Board::new(layout), Err(SetupError::InvalidBoard(_))));
    }
}
