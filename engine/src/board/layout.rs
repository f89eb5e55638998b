//! What lies where: terrain, number tokens, harbours and the robber's start (B-GEO-9..14),
//! and the generators for the standard board (beginner and random layouts).

use serde::{Deserialize, Serialize};

use super::coords::{EdgeId, HexCoord, Side};
use crate::{model::Resource, rng::Rng};

/// The kind of a hex (B-CMP-1, B-GEO-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Forest,
    Pasture,
    Fields,
    Hills,
    Mountains,
    Desert,
    /// Jungle (JUN-1): produces discoveries instead of resources.
    Jungle,
    /// Gold (RIV-5, SEA-9): produces resources of the owner's choice.
    Gold,
    Sea,
    /// A face-down hex of an exploration scenario (SEA-13): land or sea, revealed when a
    /// road or ship reaches it.
    Fog,
}

impl Terrain {
    /// Returns what the hex produces (B-CMP-1); `None` for desert and sea.
    pub const fn resource(self) -> Option<Resource> {
        match self {
            Terrain::Forest => Some(Resource::Lumber),
            Terrain::Pasture => Some(Resource::Wool),
            Terrain::Fields => Some(Resource::Grain),
            Terrain::Hills => Some(Resource::Brick),
            Terrain::Mountains => Some(Resource::Ore),
            Terrain::Desert | Terrain::Jungle | Terrain::Gold | Terrain::Sea | Terrain::Fog => None,
        }
    }

    /// Tests if the hex carries a number token: every producing land hex, jungle and gold.
    pub const fn takes_number(self) -> bool {
        self.resource().is_some() || matches!(self, Terrain::Jungle | Terrain::Gold)
    }

    /// Tests if the hex is known land: neither sea nor still under fog.
    pub const fn is_land(self) -> bool {
        !matches!(self, Terrain::Sea | Terrain::Fog)
    }

    pub const fn is_sea(self) -> bool {
        matches!(self, Terrain::Sea)
    }
}

/// A harbour's trade rate (B-GEO-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum HarbourKind {
    /// 3 identical cards for 1 (B-TRD-3).
    Generic3,
    Lumber2,
    Brick2,
    Wool2,
    Grain2,
    Ore2,
}

impl HarbourKind {
    /// Returns the resource a 2:1 harbour takes, `None` for the generic harbour.
    pub const fn special_resource(self) -> Option<Resource> {
        match self {
            HarbourKind::Generic3 => None,
            HarbourKind::Lumber2 => Some(Resource::Lumber),
            HarbourKind::Brick2 => Some(Resource::Brick),
            HarbourKind::Wool2 => Some(Resource::Wool),
            HarbourKind::Grain2 => Some(Resource::Grain),
            HarbourKind::Ore2 => Some(Resource::Ore),
        }
    }

    /// The bit of [`HarbourKind::rate_bits`] that a generic 3:1 harbour sets.
    pub const GENERIC_BIT: u8 = 1 << Resource::ALL.len();

    /// The harbour as one bit: bit `i` for a 2:1 harbour of `Resource::ALL[i]`, else
    /// [`HarbourKind::GENERIC_BIT`].
    pub const fn rate_bits(self) -> u8 {
        match self.special_resource() {
            Some(resource) => 1 << resource as u8,
            None => HarbourKind::GENERIC_BIT,
        }
    }
}

/// One hex of the map with its number token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HexTile {
    pub hex: HexCoord,
    pub terrain: Terrain,
    /// The number token (2-12, never 7); absent on desert and sea.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u8>,
}

/// A harbour on a coast edge; its two endpoints are the harbour vertices (B-GEO-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Harbour {
    pub edge: EdgeId,
    pub kind: HarbourKind,
}

/// A complete board: every hex on the map (land and the sea frame), harbours, robber start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BoardLayout {
    pub hexes: Vec<HexTile>,
    pub harbours: Vec<Harbour>,
    /// Where the robber starts; absent when it starts off the board (RIV-7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robber: Option<HexCoord>,
    /// The river hexes of Big River, top to bottom (RIV-2); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub river_hexes: Vec<HexCoord>,
    /// Where the pirate starts (Seafarers, SEA-7); absent when it starts off the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pirate: Option<HexCoord>,
    /// How a generated board was made (The New World, NEW-8): the same player count, seed,
    /// generator version and options give the same board. Absent on every other board; the
    /// server sets it, so a custom board leaves it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(inline, nullable = false, read_only))]
    pub generator: Option<BoardGenerator>,
    /// Land hexes nobody may settle or build a road on (SCN-3: a scenario's land area 0,
    /// the islands of The Forgotten Tribe); they carry no number token and never produce.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub neutral: Vec<HexCoord>,
}

impl BoardLayout {
    /// A board of `hexes` (land and the sea frame) with its harbours and the robber's start:
    /// no river, no pirate, not generated, no neutral land (each variant sets its own).
    pub fn new(hexes: Vec<HexTile>, harbours: Vec<Harbour>, robber: Option<HexCoord>) -> BoardLayout {
        BoardLayout {
            hexes,
            harbours,
            robber,
            river_hexes: Vec::new(),
            pirate: None,
            generator: None,
            neutral: Vec::new(),
        }
    }
}

/// The generator of a board and the attempts it took (NEW-8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BoardGenerator {
    /// The procedure's version (`nw1`): a change that can change a board for the same seed
    /// bumps it.
    pub version: String,
    /// Attempts made, the successful one included (NEW-GEN-5).
    pub attempts: u32,
}

/// Number token letters A..R in order (B-GEO-12).
pub const TOKEN_SEQUENCE: [u8; 18] = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11];

/// The standard terrain pool (B-CMP-1).
pub const STANDARD_TERRAIN: [(Terrain, usize); 6] = [
    (Terrain::Forest, 4),
    (Terrain::Pasture, 4),
    (Terrain::Fields, 4),
    (Terrain::Hills, 3),
    (Terrain::Mountains, 3),
    (Terrain::Desert, 1),
];

/// The standard harbour pool (B-CMP-4): 4 generic, one 2:1 per resource.
pub const STANDARD_HARBOURS: [HarbourKind; 9] = [
    HarbourKind::Generic3,
    HarbourKind::Generic3,
    HarbourKind::Generic3,
    HarbourKind::Generic3,
    HarbourKind::Lumber2,
    HarbourKind::Brick2,
    HarbourKind::Wool2,
    HarbourKind::Grain2,
    HarbourKind::Ore2,
];

/// The standard harbour edges H1..H9 (B-GEO-10).
pub const STANDARD_HARBOUR_EDGES: [EdgeId; 9] = [
    EdgeId::new(0, -3, Side::SE),
    EdgeId::new(1, -2, Side::NE),
    EdgeId::new(2, -1, Side::NE),
    EdgeId::new(2, 0, Side::E),
    EdgeId::new(1, 1, Side::SE),
    EdgeId::new(-1, 2, Side::SE),
    EdgeId::new(-3, 3, Side::NE),
    EdgeId::new(-3, 1, Side::E),
    EdgeId::new(-2, -1, Side::E),
];

/// Beginner harbour kinds for H1..H9 (B-GEO-10).
const BEGINNER_HARBOURS: [HarbourKind; 9] = [
    HarbourKind::Generic3,
    HarbourKind::Wool2,
    HarbourKind::Generic3,
    HarbourKind::Generic3,
    HarbourKind::Brick2,
    HarbourKind::Lumber2,
    HarbourKind::Generic3,
    HarbourKind::Grain2,
    HarbourKind::Ore2,
];

/// The beginner map (B-GEO-14).
const BEGINNER_LAND: [(i32, i32, Terrain, Option<u8>); 19] = [
    (0, -2, Terrain::Mountains, Some(10)),
    (1, -2, Terrain::Pasture, Some(2)),
    (2, -2, Terrain::Forest, Some(9)),
    (-1, -1, Terrain::Fields, Some(12)),
    (0, -1, Terrain::Hills, Some(6)),
    (1, -1, Terrain::Pasture, Some(4)),
    (2, -1, Terrain::Hills, Some(10)),
    (-2, 0, Terrain::Fields, Some(9)),
    (-1, 0, Terrain::Forest, Some(11)),
    (0, 0, Terrain::Desert, None),
    (1, 0, Terrain::Forest, Some(3)),
    (2, 0, Terrain::Mountains, Some(8)),
    (-2, 1, Terrain::Forest, Some(8)),
    (-1, 1, Terrain::Mountains, Some(3)),
    (0, 1, Terrain::Fields, Some(4)),
    (1, 1, Terrain::Pasture, Some(5)),
    (-2, 2, Terrain::Hills, Some(5)),
    (-1, 2, Terrain::Fields, Some(6)),
    (0, 2, Terrain::Pasture, Some(11)),
];

/// Returns the 19 land positions of the standard board in reading order (B-GEO-9).
pub fn standard_land_positions() -> Vec<HexCoord> {
    positions_within(2)
}

/// Returns the 18 sea-frame positions of the standard board (B-GEO-9).
pub fn standard_sea_frame() -> Vec<HexCoord> {
    let centre = HexCoord::new(0, 0);
    positions_within(3).into_iter().filter(|h| h.distance(centre) == 3).collect()
}

fn positions_within(radius: i32) -> Vec<HexCoord> {
    let mut out = Vec::new();
    for r in -radius..=radius {
        for q in -radius..=radius {
            let hex = HexCoord::new(q, r);
            if hex.distance(HexCoord::new(0, 0)) <= radius {
                out.push(hex);
            }
        }
    }
    out
}

/// Returns the standard board's sea frame as tiles.
pub fn standard_sea_tiles() -> impl Iterator<Item = HexTile> {
    standard_sea_frame().into_iter().map(HexTile::sea)
}

impl HexTile {
    /// A sea hex (no number token).
    pub const fn sea(hex: HexCoord) -> Self {
        HexTile { hex, terrain: Terrain::Sea, number: None }
    }
}

/// Puts harbour kinds on harbour edges, in order.
pub fn harbours_on(edges: &[EdgeId], kinds: impl IntoIterator<Item = HarbourKind>) -> Vec<Harbour> {
    edges.iter().zip(kinds).map(|(&edge, kind)| Harbour { edge, kind }).collect()
}

/// The standard harbour kinds shuffled over H1..H9 (B-GEO-13).
pub fn shuffled_standard_harbours(rng: &mut Rng) -> Vec<Harbour> {
    let mut kinds = STANDARD_HARBOURS;
    rng.shuffle(&mut kinds);
    harbours_on(&STANDARD_HARBOUR_EDGES, kinds)
}

/// Returns the beginner layout (B-GEO-14), robber on the desert in the centre.
pub fn beginner_layout() -> BoardLayout {
    let mut hexes: Vec<HexTile> = BEGINNER_LAND
        .iter()
        .map(|&(q, r, terrain, number)| HexTile { hex: HexCoord::new(q, r), terrain, number })
        .collect();
    hexes.extend(standard_sea_tiles());
    let harbours = harbours_on(&STANDARD_HARBOUR_EDGES, BEGINNER_HARBOURS);
    BoardLayout {
        hexes,
        harbours,
        robber: Some(HexCoord::new(0, 0)),
        river_hexes: Vec::new(),
        pirate: None,
        generator: None,
        neutral: Vec::new(),
    }
}

/// Corner directions for the spiral, counter-clockwise: NW, W, SW, SE, E, NE (B-GEO-12).
const SPIRAL_DIRECTIONS: [(i32, i32); 6] = [(0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1)];

/// Direction of the spiral walk around the rings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpiralSense {
    CounterClockwise,
    Clockwise,
}

/// Returns the 19-hex spiral walk from start corner `start` (0..5), outer ring first, then
/// the inner ring starting at the hex touching the start corner, then the centre (B-GEO-12).
pub fn spiral_walk(start: usize, sense: SpiralSense) -> Vec<HexCoord> {
    let ring = |radius: i32| {
        let (dq, dr) = SPIRAL_DIRECTIONS[start % 6];
        let mut hex = HexCoord::new(dq * radius, dr * radius);
        let mut walk = vec![hex];
        for k in 2..8 {
            let (sq, sr) = SPIRAL_DIRECTIONS[(start + k) % 6];
            for _ in 0..radius {
                hex = hex.offset(sq, sr);
                walk.push(hex);
            }
        }
        walk.pop(); // the last step returns to the start
        if sense == SpiralSense::Clockwise {
            walk[1..].reverse();
        }
        walk
    };
    let mut walk = ring(2);
    walk.extend(ring(1));
    walk.push(HexCoord::new(0, 0));
    walk
}

/// Tests if two hexes carrying 6 or 8 are neighbours (B-GEO-11).
pub fn has_adjacent_red_numbers(hexes: &[HexTile]) -> bool {
    let red: Vec<HexCoord> = hexes.iter().filter(|t| matches!(t.number, Some(6 | 8))).map(|t| t.hex).collect();
    red.iter().enumerate().any(|(i, a)| red[i + 1..].iter().any(|b| a.is_adjacent(*b)))
}

/// How number tokens are laid on a random board (B-GEO-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum NumberPlacement {
    /// Letters A..R along a spiral from a random corner, skipping the desert.
    #[default]
    Spiral,
    /// Tokens shuffled, re-drawn until the red-number rule holds.
    Random,
}

/// Returns a random standard layout (B-GEO-13): terrain and harbour kinds shuffled, numbers
/// per `placement`, robber on the desert.
pub fn random_layout(rng: &mut Rng, placement: NumberPlacement, forbid_adjacent_red: bool) -> BoardLayout {
    let positions = standard_land_positions();
    let mut terrain: Vec<Terrain> = STANDARD_TERRAIN.iter().flat_map(|&(t, n)| std::iter::repeat_n(t, n)).collect();
    rng.shuffle(&mut terrain);
    let mut land: Vec<HexTile> =
        positions.iter().zip(&terrain).map(|(&hex, &terrain)| HexTile { hex, terrain, number: None }).collect();

    match placement {
        NumberPlacement::Spiral => {
            let start = rng.below(6) as usize;
            let sense = if rng.below(2) == 0 { SpiralSense::CounterClockwise } else { SpiralSense::Clockwise };
            lay_tokens_along(&mut land, &spiral_walk(start, sense));
        }
        NumberPlacement::Random => lay_tokens_randomly(&mut land, rng, forbid_adjacent_red),
    }

    let harbours = shuffled_standard_harbours(rng);
    let robber = land.iter().find(|t| t.terrain == Terrain::Desert).map(|t| t.hex);
    land.extend(standard_sea_tiles());
    BoardLayout::new(land, harbours, robber)
}

/// Lays tokens A..R along `walk`, skipping hexes that take no token (B-GEO-12).
pub fn lay_tokens_along(land: &mut [HexTile], walk: &[HexCoord]) {
    let mut tokens = TOKEN_SEQUENCE.iter();
    for hex in walk {
        if let Some(tile) = land.iter_mut().find(|t| t.hex == *hex) {
            if tile.terrain.resource().is_some() {
                tile.number = tokens.next().copied();
            }
        }
    }
}

fn lay_tokens_randomly(land: &mut [HexTile], rng: &mut Rng, forbid_adjacent_red: bool) {
    let mut tokens = TOKEN_SEQUENCE;
    // Bounded: a valid arrangement is found within a few dozen draws in practice; the
    // spiral (always valid) is the fallback so that setup can never loop forever.
    for _ in 0..10_000 {
        rng.shuffle(&mut tokens);
        let mut next = tokens.iter();
        for tile in land.iter_mut() {
            tile.number = if tile.terrain.resource().is_some() { next.next().copied() } else { None };
        }
        if !forbid_adjacent_red || !has_adjacent_red_numbers(land) {
            return;
        }
    }
    lay_tokens_along(land, &spiral_walk(0, SpiralSense::CounterClockwise));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spiral_from_corner_zero_matches_the_rules_example() {
        // B-GEO-12 example for i = 0.
        let expected = [
            (0, -2),
            (-1, -1),
            (-2, 0),
            (-2, 1),
            (-2, 2),
            (-1, 2),
            (0, 2),
            (1, 1),
            (2, 0),
            (2, -1),
            (2, -2),
            (1, -2),
            (0, -1),
            (-1, 0),
            (-1, 1),
            (0, 1),
            (1, 0),
            (1, -1),
            (0, 0),
        ];
        let walk = spiral_walk(0, SpiralSense::CounterClockwise);
        assert_eq!(walk, expected.map(|(q, r)| HexCoord::new(q, r)).to_vec());
    }

    #[test]
    fn clockwise_spiral_from_the_south_west_matches_the_reference_data() {
        // data/board-4.json, "clockwise from the south-west corner" (start index 2).
        let walk = spiral_walk(2, SpiralSense::Clockwise);
        let head: Vec<HexCoord> = [(-2, 2), (-2, 1), (-2, 0), (-1, -1)].map(|(q, r)| HexCoord::new(q, r)).to_vec();
        assert_eq!(walk[..4], head[..]);
        assert_eq!(walk[12], HexCoord::new(-1, 1));
        assert_eq!(walk[13], HexCoord::new(-1, 0));
    }
}
