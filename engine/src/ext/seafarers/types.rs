//! Seafarers' wire types that the protocol names (moves, rule errors, views): Cloth for
//! Catan's steal choice and villages, The Pirate Islands' battles and view. They import only
//! `model/` and `board/`, so the protocol's dependency on them runs one way.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{
    board::{EdgeId, HexCoord, VertexId},
    model::Seat,
};

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

/// One seat's fortress (PIR-4); conquered at strength 0 (PIR-19).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Fortress {
    pub seat: Seat,
    pub vertex: VertexId,
    pub strength: u8,
}

/// What The Pirate Islands keep beyond the pieces on the board (PIR), in the game's state and
/// in a position (`SeafarersSetup::pirate_islands`); empty (and not serialized) in every
/// other game.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct PirateIslandsState {
    /// The fleet's place on its path (PIR-11).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fleet_index: u8,
    /// Every fortress is conquered and the fleet has left (PIR-21).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fleet_defeated: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fortresses: Vec<Fortress>,
    /// Every ship in the order it was placed (a moved ship keeps its place): the oldest
    /// ship becomes the next warship (PIR-15).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ships: Vec<(Seat, EdgeId)>,
    /// The ships that are warships, wherever they sailed since (PIR-9).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warships: Vec<EdgeId>,
    /// The active seat attacked its fortress this turn (PIR-18).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fortress_attacked: bool,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl PirateIslandsState {
    /// Tests if nothing is kept (any game but The Pirate Islands).
    pub fn is_unused(&self) -> bool {
        *self == PirateIslandsState::default()
    }
}

/// How a battle went for the seat that fought it (PIR-14, PIR-18), comparing its warships
/// with the other side's strength: more warships win, as many tie, fewer lose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum BattleOutcome {
    Won,
    Tie,
    Lost,
}

impl BattleOutcome {
    /// The outcome for a side with `warships` against `strength`.
    pub fn of(warships: u32, strength: u32) -> BattleOutcome {
        match warships.cmp(&strength) {
            std::cmp::Ordering::Greater => BattleOutcome::Won,
            std::cmp::Ordering::Equal => BattleOutcome::Tie,
            std::cmp::Ordering::Less => BattleOutcome::Lost,
        }
    }
}

/// The Pirate Islands as every viewer sees it (PIR, section 4.4): all public.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PirateIslandsView {
    /// The fleet's path (PIR-11), cyclic.
    pub fleet_path: Vec<HexCoord>,
    /// Where on the path the fleet stands, and its hex; `None` once defeated (PIR-21).
    pub fleet_index: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fleet_hex: Option<HexCoord>,
    pub fleet_defeated: bool,
    /// One entry per seat, in seat order.
    pub seats: Vec<PirateIslandsSeatView>,
}

/// One seat's part of [`PirateIslandsView`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PirateIslandsSeatView {
    pub seat: Seat,
    /// The only edges the seat's ships may stand on (PIR-7).
    pub lane: Vec<EdgeId>,
    /// Where the seat alone may settle on the pirate islands (PIR-6).
    pub lone_vertex: VertexId,
    pub fortress: VertexId,
    /// 0 once conquered (PIR-19).
    pub fortress_strength: u8,
    /// The seat's warships (PIR-15), oldest first.
    pub warships: Vec<EdgeId>,
}
