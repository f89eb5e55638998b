//! Seafarers scenarios as data: the maps of `engine/data/seafarers/scenario-*.json` (converted
//! from JSettlers2; see the shared data README), read once, and the board generator that lays
//! them out (SEA-12 island bonus, SEA-13 fog, SEA-14 victory points).

mod data;
mod generate;
pub mod new_world;
#[cfg(test)]
mod tests;

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

pub(crate) use super::types::Village;
use crate::{
    board::{BoardLayout, EdgeId, HexCoord, Terrain, VertexId},
    config::IslandBonusMode,
    ext::wonders::{MarkedSet, WonderCard},
    protocol::SetupError,
    rng::Rng,
};

/// A Seafarers scenario (RULES.md 8.4; maps from `engine/data/seafarers/scenario-*.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ScenarioId {
    NewShores,
    FourIslands,
    FogIslands,
    ThroughTheDesert,
    /// Wonders of Catan (WON, its own source document): build a wonder in four stages.
    Wonders,
    /// The New World (RULES-SCENARIOS NEW): a board generated from the game's seed.
    NewWorld,
    /// The Forgotten Tribe (RULES-SCENARIOS FTR): ships claim the tribe's gifts.
    ForgottenTribe,
    /// Cloth for Catan (RULES-SCENARIOS CLV): ships reach villages that trade cloth.
    ClothForCatan,
    /// The Pirate Islands (RULES-SCENARIOS PIR): a pirate fleet, warships and fortresses.
    PirateIslands,
}

impl ScenarioId {
    pub const ALL: [ScenarioId; 9] = [
        ScenarioId::NewShores,
        ScenarioId::FourIslands,
        ScenarioId::FogIslands,
        ScenarioId::ThroughTheDesert,
        ScenarioId::Wonders,
        ScenarioId::NewWorld,
        ScenarioId::ForgottenTribe,
        ScenarioId::ClothForCatan,
        ScenarioId::PirateIslands,
    ];

    /// The snake_case name, as in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            ScenarioId::NewShores => "new_shores",
            ScenarioId::FourIslands => "four_islands",
            ScenarioId::FogIslands => "fog_islands",
            ScenarioId::ThroughTheDesert => "through_the_desert",
            ScenarioId::Wonders => "wonders",
            ScenarioId::NewWorld => "new_world",
            ScenarioId::ForgottenTribe => "forgotten_tribe",
            ScenarioId::ClothForCatan => "cloth_for_catan",
            ScenarioId::PirateIslands => "pirate_islands",
        }
    }

    pub const fn title(self) -> &'static str {
        match self {
            ScenarioId::NewShores => "New Shores",
            ScenarioId::FourIslands => "The Four Islands",
            ScenarioId::FogIslands => "The Fog Islands",
            ScenarioId::ThroughTheDesert => "Through the Desert",
            ScenarioId::Wonders => "Wonders of Catan",
            ScenarioId::NewWorld => "The New World",
            ScenarioId::ForgottenTribe => "The Forgotten Tribe",
            ScenarioId::ClothForCatan => "Cloth for Catan",
            ScenarioId::PirateIslands => "The Pirate Islands",
        }
    }

    /// One line on what the scenario is about.
    pub const fn description(self) -> &'static str {
        match self {
            ScenarioId::NewShores => {
                "Settle the main island, then sail to the small islands around it; your first settlement on each of them earns a bonus."
            }
            ScenarioId::FourIslands => {
                "Start on one or two of several islands and sail to the others; your first settlement on each island where you did not start earns a bonus."
            }
            ScenarioId::FogIslands => {
                "Part of the map lies under fog: build or sail into it to turn up land, gold or open sea, and take a card of each land you discover."
            }
            ScenarioId::ThroughTheDesert => {
                "A strip of desert cuts across the main island: cross it to the land beyond, or sail to the small islands, where your first settlement on each earns a bonus."
            }
            ScenarioId::Wonders => {
                "Claim one of five wonders once you meet its condition and build it in four stages: the fourth wins at once, and 10 points win only with more stages than everyone else."
            }
            ScenarioId::NewWorld => {
                "A new map every game, made from its seed: islands apart in the sea. Settle anywhere, then sail: your first settlement on each island where you did not start earns a bonus. 12 points win."
            }
            ScenarioId::PirateIslands => {
                "Settle the main island while a pirate fleet sails around it, then follow your own sea lane to the pirate islands: turn Knights into warships, storm your fortress and win with 10 points once it is yours."
            }
            ScenarioId::ForgottenTribe => {
                "Settle the main island, then sail to the islands of a forgotten tribe, where nobody may settle: the first ship on a gift's edge takes it, a victory point, a development card or a harbour to place at your own coast. 13 points win."
            }
            ScenarioId::ClothForCatan => {
                "Three setup settlements on the two main islands, then ships to the villages of the small islands: a ship route that reaches a village trades its cloth, one at first contact and one whenever its number is rolled; two cloth make a victory point. 14 points win, or the most points when fewer than four villages have cloth left."
            }
        }
    }

    /// The player counts the scenario has a map for and its rules allow, in ascending order.
    pub fn player_counts(self) -> Vec<u8> {
        let mut counts: Vec<u8> = scenario(self)
            .iter()
            .flat_map(|s| &s.variants)
            .flat_map(|v| v.players.iter().copied())
            .filter(|p| self.players_allowed().contains(p))
            .collect();
        counts.sort_unstable();
        counts.dedup();
        counts
    }

    /// The victory points to win with `players` seats, if the scenario has a map for them (SEA-14).
    pub fn vp_target(self, players: u8) -> Option<u8> {
        layout_for(self, players).map(|l| l.vp_target)
    }

    /// The player counts the scenario's rules are written for, whatever maps its file has:
    /// Wonders of Catan is for 3 or 4 players (RULES 8.5).
    pub const fn players_allowed(self) -> std::ops::RangeInclusive<u8> {
        match self {
            ScenarioId::Wonders => 3..=4,
            _ => 2..=6,
        }
    }

    /// Where the scenario stands in [`ScenarioId::ALL`].
    const fn index(self) -> usize {
        match self {
            ScenarioId::NewShores => 0,
            ScenarioId::FourIslands => 1,
            ScenarioId::FogIslands => 2,
            ScenarioId::ThroughTheDesert => 3,
            ScenarioId::Wonders => 4,
            ScenarioId::NewWorld => 5,
            ScenarioId::ForgottenTribe => 6,
            ScenarioId::ClothForCatan => 7,
            ScenarioId::PirateIslands => 8,
        }
    }

    /// What the scenario's rules add to its file: the island bonus where our rules differ
    /// from JSettlers' (WON-4: every settlement on a small island earns 1 point, where
    /// JSettlers gives one point once per player); the robber kept off the tribe's islands
    /// (SCN-4, FTR-6) and their harbours given as gifts (FTR-10).
    const fn by_rule(self) -> data::ByRule {
        match self {
            ScenarioId::Wonders => data::ByRule {
                island_bonus: Some((IslandBonusMode::PerSettlementOnMarkedIslands, 1)),
                robber_excluded_areas: &[],
                harbours_are_gifts: false,
                robber_on_neutral_desert: false,
                pirate_fleet: false,
            },
            ScenarioId::ForgottenTribe => data::ByRule {
                island_bonus: None,
                robber_excluded_areas: &[data::NEUTRAL_AREA],
                harbours_are_gifts: true,
                robber_on_neutral_desert: false,
                pirate_fleet: false,
            },
            // CLV-4, CLV-15: the robber starts on a village desert and never returns there.
            ScenarioId::ClothForCatan => data::ByRule {
                island_bonus: None,
                robber_excluded_areas: &[data::NEUTRAL_AREA],
                harbours_are_gifts: false,
                robber_on_neutral_desert: true,
                pirate_fleet: false,
            },
            // PIR-2, PIR-11, PIR-23: the fleet and the islands' tokens.
            ScenarioId::PirateIslands => data::ByRule {
                island_bonus: None,
                robber_excluded_areas: &[],
                harbours_are_gifts: false,
                robber_on_neutral_desert: false,
                pirate_fleet: true,
            },
            _ => data::ByRule {
                island_bonus: None,
                robber_excluded_areas: &[],
                harbours_are_gifts: false,
                robber_on_neutral_desert: false,
                pirate_fleet: false,
            },
        }
    }

    /// The name of the scenario's data file in `engine/data/seafarers/` (and the shared
    /// data); none for a generated board.
    pub const fn data_file(self) -> Option<&'static str> {
        Some(match self {
            ScenarioId::NewShores => "scenario-new-shores.json",
            ScenarioId::FourIslands => "scenario-four-islands.json",
            ScenarioId::FogIslands => "scenario-fog-islands.json",
            ScenarioId::ThroughTheDesert => "scenario-through-the-desert.json",
            ScenarioId::Wonders => "scenario-wonders.json",
            ScenarioId::ForgottenTribe => "scenario-forgotten-tribe.json",
            // The data's name, after JSettlers' "cloth trade with neutral villages".
            ScenarioId::ClothForCatan => "scenario-cloth-villages.json",
            ScenarioId::PirateIslands => "scenario-pirate-islands.json",
            ScenarioId::NewWorld => return None,
        })
    }

    /// The scenario's data file, compiled in; none for a generated board.
    const fn source(self) -> Option<&'static str> {
        Some(match self {
            ScenarioId::NewShores => {
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/seafarers/scenario-new-shores.json"))
            }
            ScenarioId::FourIslands => {
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/seafarers/scenario-four-islands.json"))
            }
            ScenarioId::FogIslands => {
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/seafarers/scenario-fog-islands.json"))
            }
            ScenarioId::ThroughTheDesert => {
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/seafarers/scenario-through-the-desert.json"))
            }
            ScenarioId::Wonders => {
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/seafarers/scenario-wonders.json"))
            }
            ScenarioId::ForgottenTribe => {
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/seafarers/scenario-forgotten-tribe.json"))
            }
            ScenarioId::ClothForCatan => {
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/seafarers/scenario-cloth-villages.json"))
            }
            ScenarioId::PirateIslands => {
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/seafarers/scenario-pirate-islands.json"))
            }
            ScenarioId::NewWorld => return None,
        })
    }
}

/// Every scenario, its file read and checked once. A file that does not read leaves its
/// scenario without maps (a unit test proves that all of them read).
fn loaded(id: ScenarioId) -> &'static Result<data::Scenario, String> {
    static LOADED: OnceLock<Vec<Result<data::Scenario, String>>> = OnceLock::new();
    let all = LOADED.get_or_init(|| {
        ScenarioId::ALL
            .iter()
            .map(|id| match id.source() {
                Some(source) => data::parse(source, id.by_rule()),
                // No file: the variants' boards are generated per game (NEW-GEN).
                None => Ok(new_world::scenario()),
            })
            .collect()
    });
    &all[id.index()]
}

fn scenario(id: ScenarioId) -> Option<&'static data::Scenario> {
    loaded(id).as_ref().ok()
}

/// The variant whose player list holds `players` (the files' "3" for 2-3 seats, "4" for 4,
/// "6" for 5-6).
fn variant(id: ScenarioId, players: u8) -> Option<&'static data::Variant> {
    if !id.players_allowed().contains(&players) {
        return None;
    }
    scenario(id)?.variants.iter().find(|v| v.players.contains(&players))
}

/// The fixed data of one scenario map (one player count).
#[derive(Debug, Clone)]
pub(crate) struct ScenarioLayout {
    /// The land area of every land or fog position, as the data numbers them.
    pub land_areas: Vec<(HexCoord, u8)>,
    /// The land hexes a setup settlement must touch; `None`: any land.
    pub setup_hexes: Option<Vec<HexCoord>>,
    /// Sea hexes just outside the play area: ships sail there, the pirate never goes.
    pub margin: Vec<HexCoord>,
    /// What the fog hides, face down: terrain (sea included) and number tokens (SEA-13).
    pub fog_terrain: Vec<(Terrain, u32)>,
    pub fog_tokens: Vec<u8>,
    pub vp_target: u8,
    /// The island bonus of the scenario (SEA-12), if any.
    pub island_bonus: Option<(IslandBonusMode, u8)>,
    /// Land areas whose settlements never earn the bonus (per the data).
    pub bonus_excluded_areas: Vec<u8>,
    /// Whether the pirate sails (WON-6: not in Wonders of Catan).
    pub pirate_in_play: bool,
    /// Vertices where no setup settlement may stand (WON-3).
    pub setup_forbidden: Vec<VertexId>,
    /// The scenario's named vertex sets (WON-3, WON-9).
    pub marked_vertices: Vec<(MarkedSet, Vec<VertexId>)>,
    /// The wonder cards on offer (WON-8..10).
    pub wonders: Vec<WonderCard>,
    /// Gift edges and their gifts (The Forgotten Tribe, FTR-7..9), harbour gifts aside.
    pub gift_edges: Vec<(EdgeId, Gift)>,
    /// Harbour edges whose harbour is a gift (FTR-10): the kinds are laid with the board.
    pub gift_harbours: Vec<EdgeId>,
    /// Hexes the robber may not be moved to (SCN-4); it may start there (FTR-6).
    pub robber_excluded: Vec<HexCoord>,
    /// Cloth for Catan's villages, in the file's order (CLV-5); an index into this list
    /// names a village in the state.
    pub villages: Vec<Village>,
    /// The cloth each village starts with, and the general supply (CLV-5, CLV-8).
    pub cloth_per_village: u8,
    pub cloth_supply: u8,
    /// SCN-6: setup rounds; the settlement of the last one yields the starting resources.
    pub setup_rounds: u8,
    /// SCN-8: whether the Longest Trade Route card is in play.
    pub longest_route_card: bool,
    /// The Pirate Islands' fleet and each seat's start (PIR-4..7, PIR-11).
    pub fleet: Option<FleetMap>,
}

/// The Pirate Islands' fixed data (PIR-4..7, PIR-11): the fleet's path, cyclic, starting at
/// entry 0, and one start per seat, entry `i` for seat `i` (SCN-2: every seat is occupied).
#[derive(Debug, Clone)]
pub(crate) struct FleetMap {
    pub path: Vec<HexCoord>,
    pub starts: Vec<PlayerStart>,
}

/// One seat's start on the Pirate Islands (PIR-4..7).
#[derive(Debug, Clone)]
pub(crate) struct PlayerStart {
    pub settlement: VertexId,
    pub ship: EdgeId,
    pub fortress: VertexId,
    pub lone_vertex: VertexId,
    /// The only edges the seat's ships may stand on (PIR-7).
    pub lane: Vec<EdgeId>,
}

/// A gift of the forgotten tribe, claimed by the first ship on its edge (FTR-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Gift {
    /// One victory point, public (FTR-9).
    VictoryPoint,
    /// The top card of the set-aside development cards (FTR-8).
    DevelopmentCard,
    /// The harbour on the edge, to be placed at the claimant's coast (FTR-10).
    Harbour,
}

/// The scenario's map for `players` seats.
pub(crate) fn layout_for(id: ScenarioId, players: u8) -> Option<&'static ScenarioLayout> {
    variant(id, players).map(|v| &v.layout)
}

/// Lays out a board of the scenario for `players` seats from `rng`.
pub(crate) fn generate(
    id: ScenarioId,
    players: u8,
    rng: &mut Rng,
    forbid_adjacent_red_numbers: bool,
    new_world: new_world::NewWorldOptions,
    robber_from_file: bool,
) -> Result<BoardLayout, SetupError> {
    if let Err(e) = loaded(id) {
        return Err(SetupError::InvalidConfig(format!("the {} scenario's data does not read: {e}", id.name())));
    }
    let variant = variant(id, players).ok_or_else(|| {
        SetupError::InvalidConfig(format!("the {} scenario has no map for {players} players", id.name()))
    })?;
    match &variant.board {
        data::BoardSource::Map(map) => generate::lay_out(map, rng, forbid_adjacent_red_numbers, robber_from_file)
            .map_err(|e| {
                SetupError::InvalidConfig(format!("the {} scenario's map for {players} players: {e}", id.name()))
            }),
        data::BoardSource::Generated => new_world::generate_checked(players, rng, new_world),
    }
}
