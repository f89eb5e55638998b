//! Where things are on the picture: pixel positions of hexes, vertices and edges for the
//! pointy-top axial coordinates of RULES.md section 2 (`r` grows downward).

use catan_engine::{board::Corner, EdgeId, HexCoord, VertexId};

/// A hex's circumradius (centre to corner) in SVG user units.
pub const SIZE: f64 = 40.0;

const SQRT3: f64 = 1.732_050_807_568_877_2;

/// A point on the picture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    /// The point `t` of the way from `self` to `other`.
    pub fn toward(self, other: Point, t: f64) -> Point {
        Point { x: self.x + (other.x - self.x) * t, y: self.y + (other.y - self.y) * t }
    }

    pub fn distance(self, other: Point) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }
}

/// The centre of a hex.
pub fn centre(hex: HexCoord) -> Point {
    let (q, r) = (f64::from(hex.q), f64::from(hex.r));
    Point { x: SIZE * SQRT3 * (q + r / 2.0), y: SIZE * 1.5 * r }
}

/// The six corners of a hex in the order of `HexCoord::corners`: N, NE, SE, S, SW, NW.
pub fn corners(hex: HexCoord) -> [Point; 6] {
    let c = centre(hex);
    [-90.0_f64, -30.0, 30.0, 90.0, 150.0, 210.0].map(|degrees| {
        let (sin, cos) = degrees.to_radians().sin_cos();
        Point { x: c.x + SIZE * cos, y: c.y + SIZE * sin }
    })
}

/// A vertex: the N or S corner of its hex.
pub fn vertex(v: VertexId) -> Point {
    let c = centre(v.hex);
    match v.corner {
        Corner::N => Point { x: c.x, y: c.y - SIZE },
        Corner::S => Point { x: c.x, y: c.y + SIZE },
    }
}

/// An edge's two ends.
pub fn edge_ends(e: EdgeId) -> [Point; 2] {
    e.endpoints().map(vertex)
}

/// An edge's middle.
pub fn edge_middle(e: EdgeId) -> Point {
    let [a, b] = edge_ends(e);
    a.toward(b, 0.5)
}

/// An edge's direction in degrees (for pieces drawn along it).
pub fn edge_angle(e: EdgeId) -> f64 {
    let [a, b] = edge_ends(e);
    (b.y - a.y).atan2(b.x - a.x).to_degrees()
}

/// The smallest box around some hexes: `(min_x, min_y, max_x, max_y)`.
pub fn bounds(hexes: impl IntoIterator<Item = HexCoord>) -> Option<(f64, f64, f64, f64)> {
    hexes.into_iter().flat_map(corners).fold(None, |acc, p| {
        Some(match acc {
            None => (p.x, p.y, p.x, p.y),
            Some((x0, y0, x1, y1)) => (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y)),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Point, b: Point) -> bool {
        a.distance(b) < 1e-9
    }

    #[test]
    fn the_vertex_ids_of_a_hex_are_its_drawn_corners() {
        for hex in [HexCoord::new(0, 0), HexCoord::new(2, -1), HexCoord::new(-3, 2)] {
            for (id, drawn) in hex.corners().into_iter().zip(corners(hex)) {
                assert!(close(vertex(id), drawn), "{id} of {hex}");
            }
        }
    }

    #[test]
    fn every_edge_is_one_side_long_and_joins_its_hexes_corners() {
        let hex = HexCoord::new(1, -2);
        for side in hex.sides() {
            let [a, b] = edge_ends(side);
            assert!((a.distance(b) - SIZE).abs() < 1e-9, "{side}");
            for h in side.hexes() {
                assert!(corners(h).iter().any(|c| close(*c, a)) && corners(h).iter().any(|c| close(*c, b)));
            }
        }
    }

    #[test]
    fn neighbours_are_one_hex_width_apart() {
        let origin = HexCoord::new(0, 0);
        for n in origin.neighbours() {
            assert!((centre(origin).distance(centre(n)) - SIZE * SQRT3).abs() < 1e-9);
        }
    }
}
