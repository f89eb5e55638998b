//! The wonder cards as data (WON-8..10): which wonder, the condition to claim it as a list of
//! requirements, and the five cards each of its four stages costs. The cards are read from
//! the scenario file (`wonder_cards`), whose requirement keys are explained in the shared
//! data README.

use serde::Deserialize;

use crate::model::Resources;

pub use super::types::{MarkedSet, Requirement, WonderId, WONDER_STAGES};

/// Cards one stage costs (WON-10).
const CARDS_PER_STAGE: u32 = 5;

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
