//! The steps of NEW-GEN (RULES-SCENARIOS 5.4), each drawing from the game's RNG in the order
//! the specification gives. A step that finds no candidate returns `None`: the attempt
//! fails and generation starts again at NEW-GEN-3 with the RNG where it is (NEW-GEN-5).

use std::collections::{HashMap, HashSet};

use super::{edge_key, Params};
use crate::{
    board::{Harbour, HexCoord, HexTile, Terrain, VertexId},
    rng::Rng,
};

/// `rand(n)` of the specification: a uniform index below `n` (`n > 0`).
fn rand(rng: &mut Rng, n: usize) -> usize {
    rng.below(u32::try_from(n).unwrap_or(u32::MAX)) as usize
}

/// NEW-GEN-3, NEW-GEN-4 and NEW-GEN-6: the land cells, canonical order, with their terrain.
pub(super) fn grow_islands(params: &Params, cells: &[HexCoord], rng: &mut Rng) -> Option<Vec<(HexCoord, Terrain)>> {
    let sizes = island_sizes(params, rng);
    // The island of each land cell so far.
    let mut island_of: HashMap<HexCoord, usize> = HashMap::new();
    for (island, &size) in sizes.iter().enumerate() {
        // A cell is available to this island when it is not land and no neighbour is land of
        // another island: islands stay at least one sea cell apart.
        let available = |c: &HexCoord, island_of: &HashMap<HexCoord, usize>| {
            !island_of.contains_key(c) && c.neighbours().iter().all(|n| island_of.get(n).is_none_or(|&i| i == island))
        };
        let seeds: Vec<HexCoord> = cells.iter().copied().filter(|c| available(c, &island_of)).collect();
        if seeds.is_empty() {
            return None;
        }
        island_of.insert(seeds[rand(rng, seeds.len())], island);
        for _ in 1..size {
            let frontier: Vec<HexCoord> = cells
                .iter()
                .copied()
                .filter(|c| {
                    available(c, &island_of) && c.neighbours().iter().any(|n| island_of.get(n) == Some(&island))
                })
                .collect();
            if frontier.is_empty() {
                return None;
            }
            island_of.insert(frontier[rand(rng, frontier.len())], island);
        }
    }
    let land: Vec<HexCoord> = cells.iter().copied().filter(|c| island_of.contains_key(c)).collect();
    let mut terrains = params.terrains.clone();
    rng.shuffle(&mut terrains);
    Some(land.into_iter().zip(terrains).collect())
}

/// NEW-GEN-3: how many islands and how large, largest first.
pub(super) fn island_sizes(params: &Params, rng: &mut Rng) -> Vec<usize> {
    let (fewest, most) = params.islands;
    let (smallest, largest) = params.island_size;
    let count = fewest + rand(rng, most - fewest + 1);
    let mut sizes = vec![smallest; count];
    for _ in 0..params.terrains.len().saturating_sub(count * smallest) {
        let growing: Vec<usize> = (0..count).filter(|&i| sizes[i] < largest).collect();
        if growing.is_empty() {
            break; // cannot happen with the columns' numbers; NEW-LEGAL-1 would report it
        }
        sizes[growing[rand(rng, growing.len())]] += 1;
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

/// NEW-GEN-11 (`published_random`): every tile, land and sea, shuffled over the cells.
pub(super) fn shuffle_tiles(params: &Params, cells: &[HexCoord], rng: &mut Rng) -> Vec<(HexCoord, Terrain)> {
    let mut tiles = params.terrains.clone();
    tiles.extend(std::iter::repeat_n(Terrain::Sea, params.sea_cells()));
    rng.shuffle(&mut tiles);
    cells.iter().copied().zip(tiles).filter(|(_, t)| *t != Terrain::Sea).collect()
}

/// NEW-GEN-7: the tokens shuffled over the land in canonical order until no 6 or 8 touches
/// another (and, with the option, no number touches its equal).
pub(super) fn lay_tokens(
    params: &Params,
    land: &[(HexCoord, Terrain)],
    rng: &mut Rng,
    forbid_adjacent_equal: bool,
) -> Option<Vec<HexTile>> {
    for _ in 0..super::TOKEN_SHUFFLES {
        let mut tokens = params.tokens.clone();
        rng.shuffle(&mut tokens);
        let tiles: Vec<HexTile> =
            land.iter().zip(&tokens).map(|(&(hex, terrain), &n)| HexTile { hex, terrain, number: Some(n) }).collect();
        if !neighbouring_numbers_clash(&tiles, forbid_adjacent_equal) {
            return Some(tiles);
        }
    }
    None
}

/// B-GEO-11 between any two neighbouring hexes (NEW-LEGAL-3), and equal numbers when asked.
pub(super) fn neighbouring_numbers_clash(tiles: &[HexTile], equal_too: bool) -> bool {
    let numbers: HashMap<HexCoord, u8> = tiles.iter().filter_map(|t| Some((t.hex, t.number?))).collect();
    numbers.iter().any(|(hex, &n)| {
        hex.neighbours().iter().filter_map(|h| numbers.get(h)).any(|&m| {
            let red = |x: u8| x == 6 || x == 8;
            (red(n) && red(m)) || (equal_too && n == m)
        })
    })
}

/// NEW-GEN-10: the islands (connected land) numbered 1..k by the canonical order of each
/// island's first hex; `land` is in canonical order.
pub(super) fn number_islands(land: &[(HexCoord, Terrain)]) -> Vec<(HexCoord, u8)> {
    islands_of(&land.iter().map(|(h, _)| *h).collect::<Vec<_>>())
}

/// Connected components of `land` (canonical order), numbered from 1 in that order.
pub(crate) fn islands_of(land: &[HexCoord]) -> Vec<(HexCoord, u8)> {
    let mut number: HashMap<HexCoord, u8> = HashMap::new();
    let mut next = 0u8;
    for &start in land {
        if number.contains_key(&start) {
            continue;
        }
        next += 1;
        let mut stack = vec![start];
        number.insert(start, next);
        while let Some(hex) = stack.pop() {
            for n in hex.neighbours() {
                if land.contains(&n) && !number.contains_key(&n) {
                    number.insert(n, next);
                    stack.push(n);
                }
            }
        }
    }
    land.iter().map(|h| (*h, number[h])).collect()
}

/// NEW-GEN-8 and NEW-GEN-9: harbour positions on coast edges, none sharing a corner, at most
/// the column's number per island; then their kinds, shuffled, in the order the positions
/// were chosen.
pub(super) fn place_harbours(
    params: &Params,
    board_hexes: &HashSet<HexCoord>,
    islands: &[(HexCoord, u8)],
    rng: &mut Rng,
) -> Option<Vec<Harbour>> {
    let island: HashMap<HexCoord, u8> = islands.iter().copied().collect();
    let candidates = coast_edges(&island, board_hexes);
    'placement: for _ in 0..super::HARBOUR_PLACEMENTS {
        let mut chosen: Vec<(crate::board::EdgeId, u8)> = Vec::new();
        for _ in 0..params.harbours.len() {
            let taken: Vec<VertexId> = chosen.iter().flat_map(|(e, _)| e.endpoints()).collect();
            let open: Vec<&(crate::board::EdgeId, u8)> = candidates
                .iter()
                .filter(|(edge, on)| {
                    !edge.endpoints().iter().any(|v| taken.contains(v))
                        && chosen.iter().filter(|(_, i)| i == on).count() < params.harbours_per_island
                })
                .collect();
            if open.is_empty() {
                continue 'placement;
            }
            chosen.push(*open[rand(rng, open.len())]);
        }
        let mut kinds = params.harbours.clone();
        rng.shuffle(&mut kinds);
        return Some(chosen.into_iter().zip(kinds).map(|((edge, _), kind)| Harbour { edge, kind }).collect());
    }
    None
}

/// The coast edges (one land hex, one sea cell or margin hex), canonical order, each with its
/// land hex's island; `board_hexes` are the cells and the margin (the frame's `hexes`).
pub(crate) fn coast_edges(
    island: &HashMap<HexCoord, u8>,
    board_hexes: &HashSet<HexCoord>,
) -> Vec<(crate::board::EdgeId, u8)> {
    let mut edges: Vec<(crate::board::EdgeId, u8)> = Vec::new();
    for (&hex, &on) in island {
        for edge in hex.sides() {
            let [a, b] = edge.hexes();
            let other = if a == hex { b } else { a };
            // A cell or margin hex that is not land is sea.
            if !island.contains_key(&other) && board_hexes.contains(&other) {
                edges.push((edge, on));
            }
        }
    }
    edges.sort_by_key(|(edge, _)| edge_key(edge));
    edges.dedup_by_key(|(edge, _)| *edge);
    edges
}
