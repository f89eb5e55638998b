//! NEW-LEGAL (RULES-SCENARIOS 5.5): what makes a New World board legal, checked on every
//! generated or injected board before a game starts on it (NEW-10).

use std::collections::{HashMap, HashSet};

use super::{grow, sort_canonically, Frame, NewWorldLayout, Params};
use crate::board::{BoardLayout, EdgeId, HarbourKind, HexCoord, HexTile, Terrain, VertexId};

/// One check of NEW-LEGAL, named by its rule id in `illegal_board` errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LegalCheck {
    /// Cells and the terrain, token and harbour-kind multisets are the column's.
    Components,
    /// One token on every land hex, none on sea.
    Tokens,
    /// No two neighbouring hexes both carry a 6 or an 8.
    RedNumbers,
    /// (grown islands) The island count and sizes are within the column's limits.
    Islands,
    /// Harbours on coast edges, no two sharing a corner, at most the maximum per island.
    Harbours,
    /// Room for everyone's setup settlements.
    SetupCapacity,
    /// Every island touches the in-bound sea.
    SeaAccess,
}

impl LegalCheck {
    /// The rule id, as `illegal_board` reports it.
    pub const fn id(self) -> &'static str {
        match self {
            LegalCheck::Components => "NEW-LEGAL-1",
            LegalCheck::Tokens => "NEW-LEGAL-2",
            LegalCheck::RedNumbers => "NEW-LEGAL-3",
            LegalCheck::Islands => "NEW-LEGAL-4",
            LegalCheck::Harbours => "NEW-LEGAL-5",
            LegalCheck::SetupCapacity => "NEW-LEGAL-6",
            LegalCheck::SeaAccess => "NEW-LEGAL-7",
        }
    }
}

/// The checks `layout` fails for `players` (none: the board is legal). NEW-LEGAL-4 counts
/// only for grown islands (NEW-GEN-11).
pub fn illegal_checks(layout: &BoardLayout, players: u8, mode: NewWorldLayout) -> Vec<LegalCheck> {
    let params = Params::for_players(players);
    failed_checks(layout, players, &params, &Frame::of(&params), mode)
}

/// [`illegal_checks`] with the column and its frame already worked out (the generator has them).
pub(super) fn failed_checks(
    layout: &BoardLayout,
    players: u8,
    params: &Params,
    frame: &Frame,
    mode: NewWorldLayout,
) -> Vec<LegalCheck> {
    let cells = &frame.cells;
    let land: Vec<&HexTile> = layout.hexes.iter().filter(|t| t.terrain.is_land()).collect();
    let mut land_hexes: Vec<HexCoord> = land.iter().map(|t| t.hex).collect();
    sort_canonically(&mut land_hexes);
    let islands = grow::islands_of(&land_hexes);
    let island_of: HashMap<HexCoord, u8> = islands.iter().copied().collect();
    let island_count = islands.iter().map(|(_, i)| *i).max().unwrap_or(0);

    let mut failed = Vec::new();
    if !components_match(layout, params, cells, &frame.margin) {
        failed.push(LegalCheck::Components);
    }
    let tokens_right = layout.hexes.iter().all(|t| t.terrain.is_land() == t.number.is_some());
    if !tokens_right {
        failed.push(LegalCheck::Tokens);
    }
    if grow::neighbouring_numbers_clash(&layout.hexes, false) {
        failed.push(LegalCheck::RedNumbers);
    }
    if mode == NewWorldLayout::GrownIslands {
        let (fewest, most) = params.islands;
        let (smallest, largest) = params.island_size;
        let sizes_fit = (1..=island_count).all(|i| {
            let size = islands.iter().filter(|(_, on)| *on == i).count();
            (smallest..=largest).contains(&size)
        });
        if !(fewest..=most).contains(&usize::from(island_count)) || !sizes_fit {
            failed.push(LegalCheck::Islands);
        }
    }
    if !harbours_fit(layout, params, &frame.hexes, &island_of) {
        failed.push(LegalCheck::Harbours);
    }
    if setup_capacity(&land_hexes) < 2 * usize::from(players) + 2 {
        failed.push(LegalCheck::SetupCapacity);
    }
    let sea_cells: Vec<HexCoord> = cells.iter().copied().filter(|c| !island_of.contains_key(c)).collect();
    let every_island_at_sea = (1..=island_count).all(|i| {
        islands.iter().filter(|(_, on)| *on == i).any(|(hex, _)| hex.neighbours().iter().any(|n| sea_cells.contains(n)))
    });
    if !every_island_at_sea {
        failed.push(LegalCheck::SeaAccess);
    }
    failed
}

/// NEW-LEGAL-1: the hexes are the cells and the margin (the margin all sea), and the land,
/// tokens and harbour kinds are the column's multisets.
fn components_match(layout: &BoardLayout, params: &Params, cells: &[HexCoord], margin: &[HexCoord]) -> bool {
    let mut hexes: Vec<HexCoord> = layout.hexes.iter().map(|t| t.hex).collect();
    sort_canonically(&mut hexes);
    let mut expected: Vec<HexCoord> = cells.iter().chain(margin).copied().collect();
    sort_canonically(&mut expected);
    let margin_is_sea = layout.hexes.iter().filter(|t| margin.contains(&t.hex)).all(|t| t.terrain == Terrain::Sea);
    let only_land_or_sea =
        layout.hexes.iter().all(|t| t.terrain == Terrain::Sea || params.terrains.contains(&t.terrain));
    let sorted = |mut items: Vec<u8>| {
        items.sort_unstable();
        items
    };
    let terrains = sorted(layout.hexes.iter().filter(|t| t.terrain.is_land()).map(|t| t.terrain as u8).collect());
    let tokens = sorted(layout.hexes.iter().filter_map(|t| t.number).collect());
    let kinds = sorted(layout.harbours.iter().map(|h| h.kind as u8).collect());
    hexes == expected
        && margin_is_sea
        && only_land_or_sea
        && terrains == sorted(params.terrains.iter().map(|&t| t as u8).collect())
        && tokens == params.tokens
        && kinds == sorted(params.harbours.iter().map(|&k| k as u8).collect())
}

/// NEW-LEGAL-5.
fn harbours_fit(
    layout: &BoardLayout,
    params: &Params,
    board_hexes: &HashSet<HexCoord>,
    island_of: &HashMap<HexCoord, u8>,
) -> bool {
    let coast = grow::coast_edges(island_of, board_hexes);
    let mut per_island: HashMap<u8, usize> = HashMap::new();
    let mut corners: Vec<VertexId> = Vec::new();
    for harbour in &layout.harbours {
        let Some(&(_, island)) = coast.iter().find(|(edge, _)| *edge == harbour.edge) else {
            return false;
        };
        let ends = harbour.edge.endpoints();
        if ends.iter().any(|v| corners.contains(v)) {
            return false;
        }
        corners.extend(ends);
        *per_island.entry(island).or_default() += 1;
    }
    per_island.values().all(|&n| n <= params.harbours_per_island)
}

/// NEW-LEGAL-6: the buildable corners (touching land) in canonical order (by hex, then N
/// before S), each kept when no kept one is next to it.
fn setup_capacity(land: &[HexCoord]) -> usize {
    let mut corners: Vec<VertexId> = land.iter().flat_map(|h| h.corners()).collect();
    corners.sort_by_key(|v| (v.hex.r, v.hex.q, v.corner));
    corners.dedup();
    let mut kept: Vec<VertexId> = Vec::new();
    for v in corners {
        if !v.adjacent().iter().any(|n| kept.contains(n)) {
            kept.push(v);
        }
    }
    kept.len()
}

/// NEW-LEGAL-5 for one more harbour (NEW-11): the coast edges, canonical order, where a
/// harbour may go beside `layout`'s harbours: sharing no corner with one, on an island that
/// has fewer than the column's most.
pub(crate) fn harbour_sites(layout: &BoardLayout, players: u8) -> Vec<EdgeId> {
    let params = Params::for_players(players);
    let frame = Frame::of(&params);
    let mut land: Vec<HexCoord> = layout.hexes.iter().filter(|t| t.terrain.is_land()).map(|t| t.hex).collect();
    sort_canonically(&mut land);
    let island_of: HashMap<HexCoord, u8> = grow::islands_of(&land).into_iter().collect();
    let coast = grow::coast_edges(&island_of, &frame.hexes);
    let taken: Vec<VertexId> = layout.harbours.iter().flat_map(|h| h.edge.endpoints()).collect();
    let mut per_island: HashMap<u8, usize> = HashMap::new();
    for harbour in &layout.harbours {
        if let Some(&(_, island)) = coast.iter().find(|(edge, _)| *edge == harbour.edge) {
            *per_island.entry(island).or_default() += 1;
        }
    }
    coast
        .into_iter()
        .filter(|(edge, island)| {
            !edge.endpoints().iter().any(|v| taken.contains(v))
                && per_island.get(island).copied().unwrap_or(0) < params.harbours_per_island
        })
        .map(|(edge, _)| edge)
        .collect()
}

/// NEW-11: the harbours still face down, with how many of each, in the order NEW-GEN-9
/// lists the kinds: the column's kinds less those on the board and the one `drawn`.
pub(crate) fn harbour_stack(layout: &BoardLayout, players: u8, drawn: Option<HarbourKind>) -> Vec<(HarbourKind, u32)> {
    let mut stack: Vec<(HarbourKind, u32)> = Vec::new();
    for kind in Params::for_players(players).harbours {
        match stack.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => stack.push((kind, 1)),
        }
    }
    for kind in layout.harbours.iter().map(|h| h.kind).chain(drawn) {
        if let Some((_, n)) = stack.iter_mut().find(|(k, n)| *k == kind && *n > 0) {
            *n -= 1;
        }
    }
    stack.retain(|(_, n)| *n > 0);
    stack
}
