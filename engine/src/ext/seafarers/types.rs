//! Seafarers' wire types that the protocol names (moves, rule errors, views); they depend on
//! nothing of the extension, so the protocol's dependency on them runs one way.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::VertexId;

/// What the pirate's mover takes from a victim holding both (Cloth for Catan, CLV-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum StealKind {
    /// One cloth.
    Cloth,
    /// One resource card, drawn at random (B-ROB-3).
    Resource,
}

impl fmt::Display for StealKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StealKind::Cloth => "cloth",
            StealKind::Resource => "resource",
        })
    }
}

/// A village of Cloth for Catan: a vertex with a number, trading cloth with the players
/// whose ships reach it (CLV-5). It belongs to nobody and is no building.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Village {
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "-1,0,N"))]
    pub vertex: VertexId,
    /// The roll that gives its connected players cloth (2-12, never 7).
    pub number: u8,
}
