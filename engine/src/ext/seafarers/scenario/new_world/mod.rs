//! The New World's board (RULES-SCENARIOS.md section 5): generated from the game's seed by
//! NEW-GEN, checked by NEW-LEGAL before a game may start on it.
//!
//! The published scenario lays its tiles at random; a literal shuffle mostly makes one large
//! island (RULES-SCENARIOS 5.1), which removes the islands the scenario is about. So the
//! default (`grown_islands`) grows 3-5 separate islands (4-6 for 5-6 players) and
//! `published_random` keeps the literal shuffle. Every draw comes from the game's RNG in the
//! order the steps name them, so a player count, seed, generator version and options give
//! exactly one board (NEW-8).

mod grow;
mod legal;
#[cfg(test)]
mod tests;

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::{
    board::{BoardLayout, EdgeId, HarbourKind, HexCoord, HexTile, Side, Terrain},
    rng::Rng,
};

pub(crate) use legal::{harbour_sites, harbour_stack};
pub use legal::{illegal_checks, LegalCheck};

/// The generator's version (NEW-8): any change to a step of NEW-GEN that can change a board
/// for the same seed MUST bump it, so that a stored board says which procedure made it.
pub const GENERATOR_VERSION: &str = "nw1";

/// NEW-GEN-5: failed attempts before generation gives up with `board_generation_failed`.
const MAX_ATTEMPTS: u32 = 1000;
/// NEW-GEN-7: token shuffles before an attempt fails.
const TOKEN_SHUFFLES: u32 = 1000;
/// NEW-GEN-8: harbour placements before an attempt fails.
const HARBOUR_PLACEMENTS: u32 = 100;

/// `new_world_layout` (NEW-GEN, NEW-GEN-11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum NewWorldLayout {
    /// Separate islands grown cell by cell (NEW-GEN-3/4); NEW-LEGAL-4 is enforced.
    #[default]
    GrownIslands,
    /// Every tile shuffled over the cells, as the published rules lay them (NEW-GEN-11);
    /// NEW-LEGAL-4 is reported, not enforced.
    PublishedRandom,
}

impl NewWorldLayout {
    pub(crate) fn is_default(&self) -> bool {
        *self == NewWorldLayout::default()
    }
}

/// `new_world_harbours` (NEW-GEN-8, NEW-11): who puts the harbours on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum NewWorldHarbours {
    /// The generator places them (NEW-GEN-8/9).
    #[default]
    Random,
    /// The board starts without harbours; before setup the players draw them from a shuffled
    /// stack in turn and place them (NEW-11, the older edition).
    PlayersPlace,
}

impl NewWorldHarbours {
    pub(crate) fn is_default(&self) -> bool {
        *self == NewWorldHarbours::default()
    }
}

/// The options of the generator (RULES-SCENARIOS 0.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct NewWorldOptions {
    pub layout: NewWorldLayout,
    /// NEW-GEN-7: also no two neighbouring hexes with the same number.
    pub forbid_adjacent_equal_numbers: bool,
    pub harbours: NewWorldHarbours,
}

pub use crate::board::BoardGenerator as Generator;

/// A generated board: the layout every ruleset reads (land, the in-bound sea, the margin as
/// sea, harbours; robber and pirate off the board, NEW-5), each land hex's island (its
/// `land_area`, NEW-GEN-10) and the generator that made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewWorldBoard {
    pub layout: BoardLayout,
    /// The island (1..k) of each land hex, in the order of `layout.hexes`' land hexes.
    pub islands: Vec<(HexCoord, u8)>,
    pub generator: Generator,
}

/// NEW-GEN-5: no legal board in [`MAX_ATTEMPTS`] attempts (`board_generation_failed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerationFailed {
    pub attempts: u32,
}

/// The parameter column of NEW-GEN (RULES-SCENARIOS 5.4) for a player count.
#[derive(Debug, Clone)]
pub(crate) struct Params {
    pub(crate) columns: i32,
    /// Land terrains, listed in the order NEW-GEN-6 shuffles them from.
    pub(crate) terrains: Vec<Terrain>,
    /// Number tokens, ascending (NEW-GEN-7).
    pub(crate) tokens: Vec<u8>,
    pub(crate) islands: (usize, usize),
    pub(crate) island_size: (usize, usize),
    /// Harbour kinds, listed in the order NEW-GEN-9 shuffles them from.
    pub(crate) harbours: Vec<HarbourKind>,
    pub(crate) harbours_per_island: usize,
}

/// NEW-GEN-2: seven rows.
const ROWS: i32 = 7;

impl Params {
    /// The column for `players` (2-4, or 5-6 with the larger board, NEW-1).
    pub(crate) fn for_players(players: u8) -> Params {
        let large = players >= 5;
        let each = |counts: [usize; 5]| -> Vec<Terrain> {
            let order = [Terrain::Forest, Terrain::Pasture, Terrain::Fields, Terrain::Hills, Terrain::Mountains];
            order.iter().zip(counts).flat_map(|(&t, n)| std::iter::repeat_n(t, n)).collect()
        };
        let tokens = |counts: [(u8, usize); 10]| -> Vec<u8> {
            counts.iter().flat_map(|&(number, n)| std::iter::repeat_n(number, n)).collect()
        };
        let harbours = |generic: usize, wool: usize| -> Vec<HarbourKind> {
            let mut kinds = vec![HarbourKind::Generic3; generic];
            kinds.extend([HarbourKind::Lumber2, HarbourKind::Brick2]);
            kinds.extend(std::iter::repeat_n(HarbourKind::Wool2, wool));
            kinds.extend([HarbourKind::Grain2, HarbourKind::Ore2]);
            kinds
        };
        if large {
            Params {
                columns: 8,
                terrains: each([6; 5]),
                tokens: tokens([(2, 2), (3, 3), (4, 4), (5, 3), (6, 3), (8, 3), (9, 3), (10, 4), (11, 3), (12, 2)]),
                islands: (4, 6),
                island_size: (2, 10),
                harbours: harbours(5, 2),
                harbours_per_island: 3,
            }
        } else {
            Params {
                columns: 6,
                terrains: each([5, 5, 5, 4, 4]),
                tokens: tokens([(2, 1), (3, 3), (4, 3), (5, 3), (6, 2), (8, 2), (9, 3), (10, 3), (11, 2), (12, 1)]),
                islands: (3, 5),
                island_size: (2, 9),
                harbours: harbours(4, 1),
                harbours_per_island: 3,
            }
        }
    }

    /// NEW-GEN-2: the cells, in canonical order (by `r`, then `q`).
    pub(crate) fn cells(&self) -> Vec<HexCoord> {
        (0..ROWS).flat_map(|row| (0..self.columns).map(move |c| HexCoord::new(c - row / 2, row))).collect()
    }

    /// NEW-GEN-2: the margin ring, every hex next to a cell that is not one, canonical order.
    pub(crate) fn margin(&self) -> Vec<HexCoord> {
        let cells = self.cells();
        let mut margin: Vec<HexCoord> =
            cells.iter().flat_map(|c| c.neighbours()).filter(|n| !cells.contains(n)).collect();
        sort_canonically(&mut margin);
        margin.dedup();
        margin
    }

    pub(crate) fn sea_cells(&self) -> usize {
        self.cells().len() - self.terrains.len()
    }
}

/// Canonical hex order: by `r`, then `q`.
pub(crate) fn sort_canonically(hexes: &mut [HexCoord]) {
    hexes.sort_by_key(|h| (h.r, h.q));
}

/// Canonical edge order: by the edge id's hex (canonical), then NE, E, SE.
pub(crate) fn edge_key(edge: &EdgeId) -> (i32, i32, u8) {
    let side = match edge.side {
        Side::NE => 0,
        Side::E => 1,
        Side::SE => 2,
    };
    (edge.hex.r, edge.hex.q, side)
}

/// The hexes of a board for one parameter column (NEW-GEN-2), worked out once per board and
/// shared by the generator and the checks.
pub(crate) struct Frame {
    /// The cells, canonical order.
    pub(crate) cells: Vec<HexCoord>,
    /// The margin ring, canonical order.
    pub(crate) margin: Vec<HexCoord>,
    /// Cells and margin together: every hex of the board, the sea side of any coast edge.
    pub(crate) hexes: HashSet<HexCoord>,
}

impl Frame {
    pub(crate) fn of(params: &Params) -> Frame {
        let cells = params.cells();
        let margin = params.margin();
        let hexes = cells.iter().chain(&margin).copied().collect();
        Frame { cells, margin, hexes }
    }
}

/// NEW-GEN-2: the margin ring of the board for `players`, canonical order: sea where ships
/// sail and the pirate never goes (NEW-5).
pub fn margin(players: u8) -> Vec<HexCoord> {
    Params::for_players(players).margin()
}

/// Generates the board of a New World game for `players` from `rng` (the game's RNG).
///
/// # Errors
/// [`GenerationFailed`] after [`MAX_ATTEMPTS`] attempts (none in 1,000 seeds of each player
/// count, see the tests).
pub fn generate(players: u8, rng: &mut Rng, options: NewWorldOptions) -> Result<NewWorldBoard, GenerationFailed> {
    let params = Params::for_players(players);
    generate_in(&params, &Frame::of(&params), rng, options)
}

fn generate_in(
    params: &Params,
    frame: &Frame,
    rng: &mut Rng,
    options: NewWorldOptions,
) -> Result<NewWorldBoard, GenerationFailed> {
    let cells = &frame.cells;
    for attempt in 1..=MAX_ATTEMPTS {
        let land = match options.layout {
            NewWorldLayout::GrownIslands => grow::grow_islands(params, cells, rng),
            NewWorldLayout::PublishedRandom => Some(grow::shuffle_tiles(params, cells, rng)),
        };
        let Some(land) = land else { continue };
        let Some(tiles) = grow::lay_tokens(params, &land, rng, options.forbid_adjacent_equal_numbers) else {
            continue;
        };
        let islands = grow::number_islands(&land);
        let Some(harbours) = grow::place_harbours(params, &frame.hexes, &islands, rng) else { continue };
        let mut hexes = tiles;
        let mut sea: Vec<HexCoord> = cells.iter().copied().filter(|c| !land.iter().any(|(h, _)| h == c)).collect();
        sea.extend(frame.margin.iter().copied());
        hexes.extend(sea.into_iter().map(HexTile::sea));
        let layout = BoardLayout {
            hexes,
            harbours,
            robber: None,
            river_hexes: Vec::new(),
            pirate: None,
            generator: None,
            neutral: vec![],
        };
        return Ok(NewWorldBoard {
            layout,
            islands,
            generator: Generator { version: GENERATOR_VERSION.to_owned(), attempts: attempt },
        });
    }
    Err(GenerationFailed { attempts: MAX_ATTEMPTS })
}

/// Generates the board (NEW-GEN) and checks it (NEW-LEGAL, NEW-10) before a game starts on it.
///
/// # Errors
/// `board_generation_failed` (NEW-GEN-5) or `illegal_board` naming the failed checks.
pub(crate) fn generate_checked(
    players: u8,
    rng: &mut Rng,
    options: NewWorldOptions,
) -> Result<BoardLayout, crate::protocol::SetupError> {
    use crate::protocol::SetupError;
    let params = Params::for_players(players);
    let frame = Frame::of(&params);
    let board = generate_in(&params, &frame, rng, options)
        .map_err(|failed| SetupError::BoardGenerationFailed { attempts: failed.attempts })?;
    let failed = legal::failed_checks(&board.layout, players, &params, &frame, options.layout);
    if !failed.is_empty() {
        return Err(illegal_board(failed));
    }
    let mut layout = board.layout;
    layout.generator = Some(board.generator);
    // NEW-11: the board is made and checked as with random harbours (the same board for the
    // same seed), then the players place the harbours; their kinds are the column's.
    if options.harbours == NewWorldHarbours::PlayersPlace {
        layout.harbours.clear();
    }
    Ok(layout)
}

/// NEW-10: a board that fails a NEW-LEGAL check starts no game.
fn illegal_board(failed: Vec<LegalCheck>) -> crate::protocol::SetupError {
    crate::protocol::SetupError::IllegalBoard { checks: failed.into_iter().map(LegalCheck::id).collect() }
}

/// The New World as a scenario of generated boards, one variant per parameter column
/// (NEW-1: 2-4 players on the smaller board, 5-6 on the larger), with the rules a game reads
/// during play: the margin (never the pirate's, NEW-5), 12 points to win (NEW-2), the island
/// bonus (NEW-3: 2 points for each player's first settlement on each island where it did not
/// start), setup anywhere (NEW-4). Islands are read from the board (connected land), which is
/// how the generator made them.
pub(super) fn scenario() -> super::data::Scenario {
    let variant = |players: Vec<u8>| {
        let layout = super::ScenarioLayout {
            land_areas: Vec::new(),
            setup_hexes: None,
            margin: Params::for_players(players[0]).margin(),
            fog_terrain: Vec::new(),
            fog_tokens: Vec::new(),
            vp_target: 12,
            island_bonus: Some((crate::config::IslandBonusMode::PerPlayerForeignIsland, 2)),
            bonus_excluded_areas: Vec::new(),
            pirate_in_play: true,
            setup_forbidden: Vec::new(),
            marked_vertices: Vec::new(),
            wonders: Vec::new(),
            gift_edges: Vec::new(),
            gift_harbours: Vec::new(),
            fleet: None,
            robber_excluded: Vec::new(),
            villages: Vec::new(),
            cloth_per_village: 0,
            cloth_supply: 0,
            setup_rounds: 2,
            longest_route_card: true,
        };
        super::data::Variant { players, layout, board: super::data::BoardSource::Generated }
    };
    super::data::Scenario { variants: vec![variant(vec![2, 3, 4]), variant(vec![5, 6])] }
}
