//! Building positions with [`catan_engine::Setup`]: every position reached in play round-trips
//! (`round_trip`); each validation refuses what it must, naming its rule (`validation`, and
//! `seafarers` for ships, the pirate and Seafarers' memory); and `Setup::position` never panics and accepts only games the rules can play (`mutations`).

#[path = "common/islands.rs"]
mod islands;
#[path = "position/mutations.rs"]
mod mutations;
#[path = "position/round_trip.rs"]
mod round_trip;
#[path = "common/sea.rs"]
mod sea;
#[path = "position/seafarers.rs"]
mod seafarers;
#[path = "position/validation.rs"]
mod validation;

use catan_engine::{EdgeId, HexCoord, VertexId};

/// A vertex, edge or hex from its id (`"0,-1,N"`, `"0,-1,E"`, `"0,-1"`).
fn v(id: &str) -> VertexId {
    id.parse().unwrap()
}
fn e(id: &str) -> EdgeId {
    id.parse().unwrap()
}
fn h(id: &str) -> HexCoord {
    id.parse().unwrap()
}
