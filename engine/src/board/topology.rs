//! The part of a board that depends only on which hexes are on the map: its vertices and
//! edges, their indices and adjacency. Every game of a map shares one [`Topology`], built once
//! per process and kept in a small cache, so that setting up a game (a random base board is
//! another layout of the same 37 hexes) or revealing a fog hex does not rebuild it.

use std::sync::{Arc, Mutex};

use super::{EdgeId, HexCoord, VertexId, NONE, NO_HEX};
use crate::protocol::SetupError;

/// Largest |q| or |r| a board may use.
pub const MAX_COORD: i32 = 64;

/// How many maps the cache remembers: the built-in boards and a few custom ones.
const CACHED_MAPS: usize = 16;

/// Every map whose topology was built, most recently used last.
static CACHE: Mutex<Vec<Arc<Topology>>> = Mutex::new(Vec::new());

/// The vertices and edges of a map and how they touch, in dense indices.
#[derive(Debug)]
pub struct Topology {
    /// The map's hexes, in the layout's order (a hex's index is its place here).
    pub hexes: Vec<HexCoord>,
    pub(super) hex_index: DenseMap<HexCoord, u8>,
    pub vertices: Vec<VertexId>,
    pub(super) vertex_index: DenseMap<VertexId, u16>,
    pub vertex_neighbours: Vec<[u16; 3]>,
    pub vertex_edges: Vec<[u16; 3]>,
    pub edges: Vec<EdgeId>,
    pub(super) edge_index: DenseMap<EdgeId, u16>,
    pub edge_vertices: Vec<[u16; 2]>,
    /// The two hexes each edge divides (`NO_HEX` for one off the map): the pirate's sides.
    pub edge_hexes: Vec<[u8; 2]>,
    /// The vertices around each hex (NONE for corners off the map).
    pub hex_vertices: Vec<[u16; 6]>,
    /// The hexes each vertex touches (`NO_HEX` for one off the map): `hex_vertices` turned
    /// around, so that a walk over the buildings finds the hexes they stand on.
    pub vertex_hexes: Vec<[u8; 3]>,
    /// The edges around each hex (NONE for sides off the map).
    pub hex_edges: Vec<[u16; 6]>,
}

impl Topology {
    /// The topology of the map made of `hexes` (in this order), from the cache when it was
    /// built before.
    ///
    /// # Errors
    /// [`SetupError`] when the map has too many hexes, one too far out, or one twice.
    pub fn of(hexes: Vec<HexCoord>) -> Result<Arc<Topology>, SetupError> {
        let mut cache = CACHE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(i) = cache.iter().position(|t| t.hexes == hexes) {
            let topology = cache.remove(i);
            cache.push(Arc::clone(&topology));
            return Ok(topology);
        }
        drop(cache);
        let topology = Arc::new(Topology::build(hexes)?);
        let mut cache = CACHE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if cache.len() >= CACHED_MAPS {
            cache.remove(0);
        }
        cache.push(Arc::clone(&topology));
        Ok(topology)
    }

    fn build(hexes: Vec<HexCoord>) -> Result<Topology, SetupError> {
        // Bounds keep a hostile custom board from making the dense lookup grid huge.
        if hexes.len() >= NO_HEX as usize {
            return Err(SetupError::InvalidBoard(format!("at most {} hexes, not {}", NO_HEX - 1, hexes.len())));
        }
        if let Some(far) = hexes.iter().find(|h| h.q.abs() > MAX_COORD || h.r.abs() > MAX_COORD) {
            return Err(SetupError::InvalidBoard(format!("hex {far} is too far out (|q|, |r| <= {MAX_COORD})")));
        }
        let grid = CoordGrid::covering(hexes.iter().copied());
        let mut hex_index = DenseMap::new(grid.clone());
        for (i, hex) in hexes.iter().enumerate() {
            if hex_index.insert(*hex, i as u8).is_some() {
                return Err(SetupError::InvalidBoard(format!("hex {hex} is listed twice")));
            }
        }
        let is_on_map = |h: &HexCoord| hex_index.contains_key(h);

        // B-GEO-9: a vertex exists iff all three hexes are on the map. What lies under fog
        // never changes which vertices exist.
        let mut vertices: Vec<VertexId> =
            hexes.iter().flat_map(|h| h.corners()).filter(|v| v.hexes().iter().all(is_on_map)).collect();
        vertices.sort_by_key(|v| (v.hex.r, v.hex.q, v.corner));
        vertices.dedup();
        let vertex_index =
            DenseMap::from_entries(grid.clone(), vertices.iter().enumerate().map(|(i, v)| (*v, i as u16)));

        // An edge exists iff both endpoints exist.
        let mut edges: Vec<EdgeId> = hexes
            .iter()
            .flat_map(|h| h.sides())
            .filter(|e| e.endpoints().iter().all(|v| vertex_index.contains_key(v)))
            .collect();
        edges.sort_by_key(|e| (e.hex.r, e.hex.q, e.side));
        edges.dedup();
        let edge_index = DenseMap::from_entries(grid, edges.iter().enumerate().map(|(i, e)| (*e, i as u16)));

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
        let edge_hexes =
            edges.iter().map(|e| e.hexes().map(|h| hex_index.get(&h).copied().unwrap_or(NO_HEX))).collect();
        let hex_vertices =
            hexes.iter().map(|h| h.corners().map(|v| vertex_index.get(&v).copied().unwrap_or(NONE))).collect();
        let vertex_hexes =
            vertices.iter().map(|v| v.hexes().map(|h| hex_index.get(&h).copied().unwrap_or(NO_HEX))).collect();
        let hex_edges = hexes.iter().map(|h| h.sides().map(|e| edge_index.get(&e).copied().unwrap_or(NONE))).collect();
        Ok(Topology {
            hexes,
            hex_index,
            vertices,
            vertex_index,
            vertex_neighbours,
            vertex_edges,
            edges,
            edge_index,
            edge_vertices,
            edge_hexes,
            hex_vertices,
            vertex_hexes,
            hex_edges,
        })
    }
}

/// A dense rectangle of axial cells covering the map, so id lookups are array reads.
#[derive(Debug, Clone)]
pub(super) struct CoordGrid {
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
pub(super) trait GridKey: Copy {
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
pub(super) struct DenseMap<K, V> {
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

    pub(super) fn get(&self, key: &K) -> Option<&V> {
        self.values.get(self.slot(key)?)?.as_ref()
    }

    pub(super) fn contains_key(&self, key: &K) -> bool {
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
