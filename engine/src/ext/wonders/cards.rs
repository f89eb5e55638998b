//! The wonder cards as data (WON-8..10): which wonder, the condition to claim it as a list of
//! requirements, and the five cards each of its four stages costs. The cards are read from
//! the scenario file (`wonder_cards`), whose requirement keys are explained in the shared
//! data README.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::Resources;

/// Stages of every wonder (WON-10): the last one wins the game (WON-11).
pub const WONDER_STAGES: u8 = 4;

/// Cards one stage costs (WON-10).
const CARDS_PER_STAGE: u32 = 5;

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
    fn from_data_name(name: &str) -> Option<WonderId> {
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

/// One wonder card: its condition and the cost of each of its four stages (WON-9, WON-10).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WonderCard {
    pub id: WonderId,
    pub requirements: Vec<Requirement>,
    pub stage_cost: Resources,
}

/// A card as the scenario file writes it.
#[derive(Deserialize)]
pub(crate) struct WonderCardFile {
    name: String,
    requirement_all_of: Vec<RequirementFile>,
    stages: u8,
    cost_per_stage: Resources,
}

/// One entry of `requirement_all_of`: keys that hold together.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RequirementFile {
    cities_at_least: Option<u8>,
    #[serde(default)]
    one_city_on_harbour_vertex: bool,
    settlements_at_least: Option<u8>,
    one_settlement_on_marked_set: Option<String>,
    route_length_at_least: Option<u8>,
    victory_points_at_least: Option<u8>,
}

impl WonderCardFile {
    /// Checks the card; `has_set` tells which marked vertex sets the map has.
    pub(crate) fn check(self, has_set: impl Fn(MarkedSet) -> bool) -> Result<WonderCard, String> {
        let id = WonderId::from_data_name(&self.name)
            .ok_or_else(|| format!("wonder card \"{}\" is not a wonder the rules know", self.name))?;
        let err = |message: String| format!("wonder card \"{}\": {message}", self.name);
        if self.stages != WONDER_STAGES {
            return Err(err(format!("{} stages, not {WONDER_STAGES}", self.stages)));
        }
        if self.cost_per_stage.total() != CARDS_PER_STAGE {
            return Err(err(format!("a stage costs {} cards, not {CARDS_PER_STAGE}", self.cost_per_stage.total())));
        }
        let mut requirements = Vec::new();
        for part in self.requirement_all_of {
            // A city on a harbour is itself one city; a settlement on a set is one settlement.
            match (part.cities_at_least, part.one_city_on_harbour_vertex) {
                (Some(count), true) if count > 1 => {
                    requirements.push(Requirement::CitiesAtLeast { count });
                    requirements.push(Requirement::CityOnHarbour);
                }
                (_, true) => requirements.push(Requirement::CityOnHarbour),
                (Some(count), false) => requirements.push(Requirement::CitiesAtLeast { count }),
                (None, false) => {}
            }
            match (part.settlements_at_least, part.one_settlement_on_marked_set) {
                (Some(count), Some(name)) if count <= 1 => {
                    let set = MarkedSet::from_data_name(&name)
                        .filter(|&s| has_set(s))
                        .ok_or_else(|| err(format!("marked vertex set \"{name}\" is not on the map")))?;
                    requirements.push(Requirement::SettlementOn { set });
                }
                (None, None) => {}
                _ => return Err(err("settlement requirements other than one on a marked set".into())),
            }
            if let Some(length) = part.route_length_at_least {
                requirements.push(Requirement::RouteLengthAtLeast { length });
            }
            if let Some(points) = part.victory_points_at_least {
                requirements.push(Requirement::VictoryPointsAtLeast { points });
            }
        }
        if requirements.is_empty() {
            return Err(err("no condition".into()));
        }
        Ok(WonderCard { id, requirements, stage_cost: self.cost_per_stage })
    }
}
