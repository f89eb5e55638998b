//! Axial hex coordinates and the canonical vertex and edge ids of RULES.md section 2.
//!
//! Ids serialize as the strings clients see: `"0,-1"` for a hex, `"0,-1,N"` for a vertex,
//! `"0,-1,E"` for an edge.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A hex in axial coordinates `(q, r)`, pointy-top, `r` growing downward (B-GEO-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexCoord {
    pub q: i32,
    pub r: i32,
}

/// The two canonical corners a vertex id can name (B-GEO-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Corner {
    N,
    S,
}

/// The three canonical sides an edge id can name (B-GEO-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    NE,
    E,
    SE,
}

/// A vertex (intersection): the N or S corner of exactly one hex (B-GEO-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VertexId {
    pub hex: HexCoord,
    pub corner: Corner,
}

/// An edge (path): the NE, E or SE side of exactly one hex (B-GEO-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EdgeId {
    pub hex: HexCoord,
    pub side: Side,
}

/// The six neighbour directions of B-GEO-2.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

impl HexCoord {
    pub const fn new(q: i32, r: i32) -> Self {
        HexCoord { q, r }
    }

    /// Returns the hex one step away in direction `(dq, dr)`.
    pub const fn offset(self, dq: i32, dr: i32) -> Self {
        HexCoord::new(self.q + dq, self.r + dr)
    }

    /// Returns the six neighbouring hexes (B-GEO-2).
    pub fn neighbours(self) -> [HexCoord; 6] {
        DIRECTIONS.map(|(dq, dr)| self.offset(dq, dr))
    }

    /// Returns the hex distance (B-GEO-2).
    pub fn distance(self, other: HexCoord) -> i32 {
        let dq = self.q - other.q;
        let dr = self.r - other.r;
        (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
    }

    /// Tests if two hexes share a side.
    pub fn is_adjacent(self, other: HexCoord) -> bool {
        self.distance(other) == 1
    }

    /// Returns the six corners in the order N, NE, SE, S, SW, NW (B-GEO-4).
    pub fn corners(self) -> [VertexId; 6] {
        let HexCoord { q, r } = self;
        [
            VertexId::new(q, r, Corner::N),
            VertexId::new(q + 1, r - 1, Corner::S),
            VertexId::new(q, r + 1, Corner::N),
            VertexId::new(q, r, Corner::S),
            VertexId::new(q - 1, r + 1, Corner::N),
            VertexId::new(q, r - 1, Corner::S),
        ]
    }

    /// Returns the six sides in the order NE, E, SE, SW, W, NW, canonicalised (B-GEO-7).
    pub fn sides(self) -> [EdgeId; 6] {
        let HexCoord { q, r } = self;
        [
            EdgeId::new(q, r, Side::NE),
            EdgeId::new(q, r, Side::E),
            EdgeId::new(q, r, Side::SE),
            EdgeId::new(q - 1, r + 1, Side::NE),
            EdgeId::new(q - 1, r, Side::E),
            EdgeId::new(q, r - 1, Side::SE),
        ]
    }
}

impl VertexId {
    pub const fn new(q: i32, r: i32, corner: Corner) -> Self {
        VertexId { hex: HexCoord::new(q, r), corner }
    }

    /// Returns the three hexes touching this vertex (B-GEO-5).
    pub fn hexes(self) -> [HexCoord; 3] {
        let HexCoord { q, r } = self.hex;
        match self.corner {
            Corner::N => [HexCoord::new(q, r), HexCoord::new(q, r - 1), HexCoord::new(q + 1, r - 1)],
            Corner::S => [HexCoord::new(q, r), HexCoord::new(q, r + 1), HexCoord::new(q - 1, r + 1)],
        }
    }

    /// Returns the three vertices one edge away (B-GEO-6).
    pub fn adjacent(self) -> [VertexId; 3] {
        let HexCoord { q, r } = self.hex;
        match self.corner {
            Corner::N => [
                VertexId::new(q + 1, r - 1, Corner::S),
                VertexId::new(q, r - 1, Corner::S),
                VertexId::new(q + 1, r - 2, Corner::S),
            ],
            Corner::S => [
                VertexId::new(q, r + 1, Corner::N),
                VertexId::new(q - 1, r + 1, Corner::N),
                VertexId::new(q - 1, r + 2, Corner::N),
            ],
        }
    }

    /// Returns the three edges incident to this vertex (B-GEO-8).
    pub fn edges(self) -> [EdgeId; 3] {
        let HexCoord { q, r } = self.hex;
        match self.corner {
            Corner::N => [EdgeId::new(q, r, Side::NE), EdgeId::new(q, r - 1, Side::SE), EdgeId::new(q, r - 1, Side::E)],
            Corner::S => {
                [EdgeId::new(q, r, Side::SE), EdgeId::new(q - 1, r + 1, Side::NE), EdgeId::new(q - 1, r + 1, Side::E)]
            }
        }
    }
}

impl EdgeId {
    pub const fn new(q: i32, r: i32, side: Side) -> Self {
        EdgeId { hex: HexCoord::new(q, r), side }
    }

    /// Returns the two endpoint vertices (B-GEO-8).
    pub fn endpoints(self) -> [VertexId; 2] {
        let HexCoord { q, r } = self.hex;
        match self.side {
            Side::NE => [VertexId::new(q, r, Corner::N), VertexId::new(q + 1, r - 1, Corner::S)],
            Side::E => [VertexId::new(q + 1, r - 1, Corner::S), VertexId::new(q, r + 1, Corner::N)],
            Side::SE => [VertexId::new(q, r + 1, Corner::N), VertexId::new(q, r, Corner::S)],
        }
    }

    /// Returns the two hexes on either side (B-GEO-8).
    pub fn hexes(self) -> [HexCoord; 2] {
        let HexCoord { q, r } = self.hex;
        match self.side {
            Side::NE => [HexCoord::new(q, r), HexCoord::new(q + 1, r - 1)],
            Side::E => [HexCoord::new(q, r), HexCoord::new(q + 1, r)],
            Side::SE => [HexCoord::new(q, r), HexCoord::new(q, r + 1)],
        }
    }
}

/// Why a coordinate string could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {kind} id {text:?}: expected {expected}")]
pub struct ParseIdError {
    kind: &'static str,
    text: String,
    expected: &'static str,
}

fn parse_axial(parts: &[&str]) -> Option<HexCoord> {
    match parts {
        [q, r] => Some(HexCoord::new(q.trim().parse().ok()?, r.trim().parse().ok()?)),
        _ => None,
    }
}

impl FromStr for HexCoord {
    type Err = ParseIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split(',').collect();
        parse_axial(&parts).ok_or_else(|| ParseIdError { kind: "hex", text: s.into(), expected: "\"q,r\"" })
    }
}

impl FromStr for VertexId {
    type Err = ParseIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseIdError { kind: "vertex", text: s.into(), expected: "\"q,r,N\" or \"q,r,S\"" };
        let parts: Vec<&str> = s.split(',').collect();
        let (corner, axial) = parts.split_last().ok_or_else(err)?;
        let corner = match corner.trim() {
            "N" => Corner::N,
            "S" => Corner::S,
            _ => return Err(err()),
        };
        let hex = parse_axial(axial).ok_or_else(err)?;
        Ok(VertexId { hex, corner })
    }
}

impl FromStr for EdgeId {
    type Err = ParseIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseIdError { kind: "edge", text: s.into(), expected: "\"q,r,NE\", \"q,r,E\" or \"q,r,SE\"" };
        let parts: Vec<&str> = s.split(',').collect();
        let (side, axial) = parts.split_last().ok_or_else(err)?;
        let side = match side.trim() {
            "NE" => Side::NE,
            "E" => Side::E,
            "SE" => Side::SE,
            _ => return Err(err()),
        };
        let hex = parse_axial(axial).ok_or_else(err)?;
        Ok(EdgeId { hex, side })
    }
}

impl fmt::Display for HexCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.q, self.r)
    }
}

impl fmt::Display for VertexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let corner = match self.corner {
            Corner::N => "N",
            Corner::S => "S",
        };
        write!(f, "{},{corner}", self.hex)
    }
}

impl fmt::Display for EdgeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.side {
            Side::NE => "NE",
            Side::E => "E",
            Side::SE => "SE",
        };
        write!(f, "{},{side}", self.hex)
    }
}

macro_rules! string_serde {
    ($ty:ty, $example:expr, $doc:expr) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }

        #[cfg(feature = "openapi")]
        impl utoipa::PartialSchema for $ty {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .description(Some($doc))
                    .examples([serde_json_example($example)])
                    .into()
            }
        }

        #[cfg(feature = "openapi")]
        impl utoipa::ToSchema for $ty {}
    };
}

#[cfg(feature = "openapi")]
fn serde_json_example(text: &str) -> serde_json::Value {
    serde_json::Value::String(text.to_owned())
}

string_serde!(HexCoord, "0,-1", "A hex in axial coordinates \"q,r\" (pointy-top, r grows downward).");
string_serde!(VertexId, "0,-1,N", "A vertex: the N or S corner of hex (q,r), written \"q,r,N\" or \"q,r,S\".");
string_serde!(
    EdgeId,
    "0,-1,E",
    "An edge: the NE, E or SE side of hex (q,r), written \"q,r,NE\", \"q,r,E\" or \"q,r,SE\"."
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_their_string_form() {
        for text in ["0,-1,N", "-3,2,S"] {
            assert_eq!(text.parse::<VertexId>().unwrap().to_string(), text);
        }
        for text in ["0,-1,NE", "2,0,E", "-1,2,SE"] {
            assert_eq!(text.parse::<EdgeId>().unwrap().to_string(), text);
        }
        assert_eq!("1,-2".parse::<HexCoord>().unwrap(), HexCoord::new(1, -2));
    }

    #[test]
    fn malformed_ids_are_rejected() {
        for text in ["", "0,-1", "0,-1,X", "a,b,N", "0,-1,N,S"] {
            assert!(text.parse::<VertexId>().is_err(), "{text}");
        }
        for text in ["0,-1,W", "0,-1,N", "1,E"] {
            assert!(text.parse::<EdgeId>().is_err(), "{text}");
        }
    }

    #[test]
    fn adjacency_is_consistent_with_shared_edges() {
        // B-GEO-6 / B-GEO-8: two vertices are adjacent iff an edge joins them.
        let v = VertexId::new(0, 0, Corner::N);
        for edge in v.edges() {
            let [a, b] = edge.endpoints();
            let other = if a == v { b } else { a };
            assert!(a == v || b == v);
            assert!(v.adjacent().contains(&other));
        }
    }
}
