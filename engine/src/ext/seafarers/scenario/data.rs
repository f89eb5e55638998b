//! The scenario files (`engine/data/seafarers/*.json`, described in the shared data README)
//! read into checked Rust values. Serde reads only the fields the engine uses; everything
//! else in the files (JSettlers coordinates, example boards, audits, notes) is ignored.

use serde::Deserialize;

mod file;

use file::ScenarioFile;

use super::{FleetMap, Gift, PlayerStart, ScenarioLayout, Village};
use crate::{
    board::{EdgeId, HarbourKind, HexCoord, Terrain, VertexId},
    config::IslandBonusMode,
    ext::wonders::{MarkedSet, WonderCard, WonderCardFile},
};

/// One scenario file: its variants (one map per player-count range).
#[derive(Debug)]
pub(super) struct Scenario {
    pub variants: Vec<Variant>,
}

/// One map of a scenario, for the player counts in `players`.
#[derive(Debug)]
pub(super) struct Variant {
    pub players: Vec<u8>,
    /// What the rules read during play.
    pub layout: ScenarioLayout,
    /// Where each game's board comes from.
    pub board: BoardSource,
}

/// A variant's board is laid out from its data file's map, or made afresh for every game by
/// a generator (The New World, NEW-GEN), which reads only the game's options.
#[derive(Debug)]
pub(super) enum BoardSource {
    Map(Map),
    Generated,
}

/// How to lay out the board of one variant.
#[derive(Debug)]
pub(super) struct Map {
    pub groups: Vec<Group>,
    /// In-bounds sea hexes (the pirate's domain) and the margin ring outside them.
    pub sea: Vec<HexCoord>,
    pub margin: Vec<HexCoord>,
    pub harbour_edges: Vec<EdgeId>,
    /// The pool to shuffle over `harbour_edges`, or the fixed kind of each edge in order.
    pub harbour_kinds: Vec<HarbourKind>,
    pub shuffle_harbour_kinds: bool,
    pub robber: RobberStart,
    /// The file's own robber start where the rules start the robber elsewhere (CLV-15,
    /// `clv_robber_start = data`).
    pub robber_in_file: RobberStart,
    pub pirate: Option<HexCoord>,
}

/// Land positions filled from one pool.
#[derive(Debug)]
pub(super) struct Group {
    pub name: String,
    pub positions: Vec<HexCoord>,
    /// The land area of each position (parallel to `positions`).
    pub areas: Vec<u8>,
    pub terrain: TerrainFill,
    pub numbers: Numbers,
    /// `constraint_gold_in_area`: a gold hex of the group lies in this land area.
    pub gold_in_area: Option<u8>,
    /// `robber_on_desert`: the robber's desert, when the data says "a desert".
    pub robber_on_desert: bool,
    /// `constraint_no_6_or_8_on`: positions that may not carry a 6 or an 8 (WON-2: the
    /// land next to a desert).
    pub no_red_number_on: Vec<HexCoord>,
    /// `constraint_no_5_6_8_9_on`: positions that may carry none of 5, 6, 8, 9 (FTR-3: the
    /// far coast).
    pub no_high_number_on: Vec<HexCoord>,
    /// Every position lies in land area 0 (SCN-3): nobody settles there, no token lies there.
    pub neutral: bool,
}

/// The land area of neutral land (SCN-3).
pub(crate) const NEUTRAL_AREA: u8 = 0;

#[derive(Debug)]
pub(super) enum TerrainFill {
    /// The pool, shuffled over the positions.
    Shuffled(Vec<Terrain>),
    /// The terrain of each position, in order.
    Fixed(Vec<Terrain>),
    /// Face down (SEA-13): the pool is the hidden stack, drawn when a hex is revealed.
    Fog,
}

#[derive(Debug)]
pub(super) enum Numbers {
    None,
    /// The pool, shuffled over the group's hexes that take a number.
    Shuffled(Vec<u8>),
    /// Tokens in order, to the positions in order, skipping hexes that take no number.
    InOrder(Vec<u8>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RobberStart {
    Hex(HexCoord),
    /// "a desert": a desert of a group marked `robber_on_desert`.
    Desert,
    /// Off the board until the first 7 or Knight.
    OffBoard,
}

/// What a scenario's rules say that its file does not (or says only in prose).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ByRule {
    /// Replaces the file's island bonus where our rules differ from JSettlers'.
    pub island_bonus: Option<(IslandBonusMode, u8)>,
    /// SCN-4: land areas the robber may not be moved to (the files say it in prose only).
    pub robber_excluded_areas: &'static [u8],
    /// FTR-10: the map's harbours are gifts, taken by the first ship on their edge.
    pub harbours_are_gifts: bool,
    /// CLV-15: the robber starts on the first desert of neutral land in reading order.
    pub robber_on_neutral_desert: bool,
    /// PIR-2, PIR-11, PIR-23: a pirate fleet sails the file's path instead of a pirate the
    /// players move, and the neutral pirate islands carry the file's tokens (they produce for
    /// the lone settlements and conquered fortresses; positions past the end of the token
    /// list get none).
    pub pirate_fleet: bool,
}

/// Reads and checks one scenario file, with what the scenario's rules add to it.
pub(super) fn parse(json: &str, by_rule: ByRule) -> Result<Scenario, String> {
    let file: ScenarioFile = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let bonus = match (by_rule.island_bonus, &file.rules.island_bonus) {
        (Some(by_rule), _) => Some(by_rule),
        (None, None) => None,
        (None, Some(bonus)) => {
            let mode =
                IslandBonusMode::deserialize(serde::de::value::StrDeserializer::<serde_json::Error>::new(&bonus.mode))
                    .map_err(|_| format!("rules.island_bonus.mode \"{}\" is not an island bonus mode", bonus.mode))?;
            Some((mode, bonus.vp))
        }
    };
    let variants = file
        .variants
        .into_iter()
        .map(|(key, variant)| variant.check(&file.rules, bonus, by_rule).map_err(|e| format!("variant \"{key}\": {e}")))
        .collect::<Result<_, _>>()?;
    Ok(Scenario { variants })
}

impl Group {
    fn may_hold_a_desert(&self) -> bool {
        match &self.terrain {
            TerrainFill::Shuffled(t) | TerrainFill::Fixed(t) => t.contains(&Terrain::Desert),
            TerrainFill::Fog => false,
        }
    }
}
