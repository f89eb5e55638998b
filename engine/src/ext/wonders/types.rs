//! The wire types of Wonders of Catan, which `protocol/` names: the wonders, their marked
//! vertex sets and conditions, and what everyone sees of them. This file imports nothing
//! from the rest of the extension, so the dependency runs one way.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::Seat;

/// Stages of every wonder (WON-10): the last one wins the game (WON-11).
pub const WONDER_STAGES: u8 = 4;

/// A wonder of Wonders of Catan. `colossus` is the card RULES WON-9 names (JSettlers calls
/// it "Monument"; that name is accepted too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum WonderId {
    Theater,
    GreatBridge,
    #[serde(alias = "monument")]
    Colossus,
    GreatWall,
    Cathedral,
}

impl WonderId {
    pub const fn title(self) -> &'static str {
        match self {
            WonderId::Theater => "Theater",
            WonderId::GreatBridge => "Great Bridge",
            WonderId::Colossus => "Colossus",
            WonderId::GreatWall => "Great Wall",
            WonderId::Cathedral => "Cathedral",
        }
    }

    /// The wonder a card of the data file names.
    pub(crate) fn from_data_name(name: &str) -> Option<WonderId> {
        Some(match name {
            "Theater" => WonderId::Theater,
            "Great Bridge" => WonderId::GreatBridge,
            "Monument" | "Colossus" => WonderId::Colossus,
            "Great Wall" => WonderId::GreatWall,
            "Cathedral" => WonderId::Cathedral,
            _ => return None,
        })
    }
}

impl fmt::Display for WonderId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// A named set of vertices on the Wonders map (WON-3): no setup settlement stands on any of
/// them, and two of them are wonder conditions (WON-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MarkedSet {
    /// The wasteland next to the deserts (the data's `N1`; the Great Wall's condition).
    Wasteland,
    /// The strait (`N2`; the Great Bridge's condition).
    Strait,
    /// The vertices beside the strait (`N3`): only a setup ban.
    BesideStrait,
}

impl MarkedSet {
    /// The set the data file names `N1`, `N2` or `N3`.
    pub(crate) fn from_data_name(name: &str) -> Option<MarkedSet> {
        Some(match name {
            "N1" => MarkedSet::Wasteland,
            "N2" => MarkedSet::Strait,
            "N3" => MarkedSet::BesideStrait,
            _ => return None,
        })
    }

    const fn describe(self) -> &'static str {
        match self {
            MarkedSet::Wasteland => "the wasteland next to the deserts",
            MarkedSet::Strait => "the strait",
            MarkedSet::BesideStrait => "beside the strait",
        }
    }
}

/// One part of a wonder's condition (WON-9); all parts must hold when the wonder is claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Requirement {
    /// At least `count` cities on the board.
    CitiesAtLeast { count: u8 },
    /// A city on a harbour vertex (any harbour).
    CityOnHarbour,
    /// A settlement (not a city) on a vertex of `set`.
    SettlementOn { set: MarkedSet },
    /// A continuous route of at least `length` roads and ships, branches not counted (SEA-10).
    RouteLengthAtLeast { length: u8 },
    /// At least `points` victory points everyone can see (hidden VP cards do not count, so a
    /// claim never reveals one).
    VictoryPointsAtLeast { points: u8 },
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Requirement::CitiesAtLeast { count } => write!(f, "at least {count} cities"),
            Requirement::CityOnHarbour => f.write_str("a city on a harbour"),
            Requirement::SettlementOn { set } => write!(f, "a settlement on {}", set.describe()),
            Requirement::RouteLengthAtLeast { length } => {
                write!(f, "a continuous route of at least {length} roads and ships")
            }
            Requirement::VictoryPointsAtLeast { points } => write!(f, "at least {points} victory points"),
        }
    }
}

/// One wonder as everyone sees it: its condition, the cost of a stage, who claimed it and
/// how far it is built.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WonderView {
    pub wonder: WonderId,
    pub name: String,
    /// All of these must hold when the wonder is claimed (WON-8/9).
    pub requirements: Vec<Requirement>,
    /// The five cards each stage costs (WON-10).
    pub stage_cost: crate::model::Resources,
    /// Stages to build; the last one wins the game (WON-11).
    pub stages: u8,
    /// The seat that claimed it; `null` while it is free (like `longest_road` and `winner`).
    #[serde(default)]
    pub owner: Option<Seat>,
    pub stages_built: u8,
}
