//! Seafarers scenarios as data (placeholder until the data files land; see the helper task).

use serde::{Deserialize, Serialize};

use crate::{
    board::{BoardLayout, HexCoord, Terrain},
    config::IslandBonusMode,
    protocol::SetupError,
    rng::Rng,
};

/// A Seafarers scenario (RULES.md 8.4; maps from `data/scenario-*.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ScenarioId {
    NewShores,
    FourIslands,
    FogIslands,
    ThroughTheDesert,
}

impl ScenarioId {
    pub const ALL: [ScenarioId; 4] =
        [ScenarioId::NewShores, ScenarioId::FourIslands, ScenarioId::FogIslands, ScenarioId::ThroughTheDesert];

    /// The snake_case name, as in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            ScenarioId::NewShores => "new_shores",
            ScenarioId::FourIslands => "four_islands",
            ScenarioId::FogIslands => "fog_islands",
            ScenarioId::ThroughTheDesert => "through_the_desert",
        }
    }

    pub const fn title(self) -> &'static str {
        match self {
            ScenarioId::NewShores => "New Shores",
            ScenarioId::FourIslands => "The Four Islands",
            ScenarioId::FogIslands => "The Fog Islands",
            ScenarioId::ThroughTheDesert => "Through the Desert",
        }
    }

    pub const fn description(self) -> &'static str {
        ""
    }

    /// The player counts the scenario has a map for.
    pub fn player_counts(self) -> Vec<u8> {
        Vec::new()
    }

    /// The victory points to win with `players` seats, if the scenario has a map for them.
    pub fn vp_target(self, _players: u8) -> Option<u8> {
        None
    }
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
}

/// The scenario's map for `players` seats.
pub(crate) fn layout_for(_id: ScenarioId, _players: u8) -> Option<&'static ScenarioLayout> {
    None
}

/// Lays out a board of the scenario for `players` seats from `rng`.
pub(crate) fn generate(
    id: ScenarioId,
    players: u8,
    _rng: &mut Rng,
    _forbid_adjacent_red_numbers: bool,
) -> Result<BoardLayout, SetupError> {
    Err(SetupError::InvalidConfig(format!("scenario {} has no map for {players} players yet", id.name())))
}
