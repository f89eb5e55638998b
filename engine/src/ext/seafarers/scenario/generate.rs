//! The board generator of a scenario map: each group's pools shuffled over its positions
//! until the constraints hold (bounded), harbour kinds over the harbour edges, the robber and
//! the pirate where the data puts them.

use super::data::{Group, Map, Numbers, RobberStart, TerrainFill};
use crate::{
    board::{layout::has_adjacent_red_numbers, BoardLayout, Harbour, HexTile, Terrain},
    rng::Rng,
};

/// Draws of the whole map, of one group's terrain, and of its numbers for one terrain. The
/// hardest group of the four files (Fog Islands for 5-6, its northern island: six 6/8 among
/// 23 tokens) needs about 60 number draws on average; the bounds only keep a broken data
/// file from looping forever.
const MAP_DRAWS: usize = 100;
const TERRAIN_DRAWS: usize = 1000;
const NUMBER_DRAWS: usize = 1000;

/// Lays out one board of `map`; the same `rng` state always gives the same board.
/// `robber_from_file`: the robber starts where the file says, not where the rules put it
/// (CLV-15 `clv_robber_start = data`).
pub(super) fn lay_out(
    map: &Map,
    rng: &mut Rng,
    forbid_adjacent_red: bool,
    robber_from_file: bool,
) -> Result<BoardLayout, String> {
    let land = lay_land(map, rng, forbid_adjacent_red)?;
    let robber = robber_start(map, if robber_from_file { map.robber_in_file } else { map.robber }, &land)?;

    let mut kinds = map.harbour_kinds.clone();
    if map.shuffle_harbour_kinds {
        rng.shuffle(&mut kinds);
    }
    let harbours = map.harbour_edges.iter().zip(kinds).map(|(&edge, kind)| Harbour { edge, kind }).collect();

    let neutral = map.groups.iter().filter(|g| g.neutral).flat_map(|g| g.positions.iter().copied()).collect();
    let mut hexes = land;
    hexes.extend(map.sea.iter().chain(&map.margin).map(|&hex| HexTile::sea(hex)));
    Ok(BoardLayout { hexes, harbours, robber, river_hexes: Vec::new(), pirate: map.pirate, generator: None, neutral })
}

/// Every group in turn; B-GEO-11 also between groups (the groups of these maps are islands
/// apart, so this check only guards against a future map where they touch).
fn lay_land(map: &Map, rng: &mut Rng, forbid_adjacent_red: bool) -> Result<Vec<HexTile>, String> {
    for _ in 0..MAP_DRAWS {
        let mut land = Vec::new();
        for group in &map.groups {
            land.extend(lay_group(group, rng, forbid_adjacent_red)?);
        }
        if !forbid_adjacent_red || !has_adjacent_red_numbers(&land) {
            return Ok(land);
        }
    }
    Err(format!("no layout without neighbouring 6 and 8 (B-GEO-11) in {MAP_DRAWS} draws"))
}

fn lay_group(group: &Group, rng: &mut Rng, forbid_adjacent_red: bool) -> Result<Vec<HexTile>, String> {
    for _ in 0..TERRAIN_DRAWS {
        let terrain = match &group.terrain {
            // SEA-13: face down; the hidden stack is drawn when a hex is revealed.
            TerrainFill::Fog => {
                return Ok(group
                    .positions
                    .iter()
                    .map(|&hex| HexTile { hex, terrain: Terrain::Fog, number: None })
                    .collect())
            }
            TerrainFill::Fixed(terrain) => terrain.clone(),
            TerrainFill::Shuffled(pool) => {
                let mut terrain = pool.clone();
                rng.shuffle(&mut terrain);
                terrain
            }
        };
        if let Some(area) = group.gold_in_area {
            let gold_there = terrain.iter().zip(&group.areas).any(|(&t, &a)| t == Terrain::Gold && a == area);
            if !gold_there {
                continue;
            }
        }
        let tiles: Vec<HexTile> =
            group.positions.iter().zip(terrain).map(|(&hex, terrain)| HexTile { hex, terrain, number: None }).collect();
        if let Some(tiles) = lay_numbers(group, tiles, rng, forbid_adjacent_red) {
            return Ok(tiles);
        }
    }
    Err(format!("group \"{}\": no layout meets the constraints in {TERRAIN_DRAWS} draws", group.name))
}

/// Lays the group's tokens on `tiles`; `None` when no draw meets the constraints for this
/// terrain (the caller draws the terrain again).
fn lay_numbers(
    group: &Group,
    mut tiles: Vec<HexTile>,
    rng: &mut Rng,
    forbid_adjacent_red: bool,
) -> Option<Vec<HexTile>> {
    let fits = |tiles: &[HexTile]| !forbid_adjacent_red || !has_adjacent_red_numbers(tiles);
    match &group.numbers {
        Numbers::None => Some(tiles),
        Numbers::InOrder(tokens) => {
            give_in_order(&mut tiles, tokens);
            (!number_where_forbidden(group, &tiles) && fits(&tiles)).then_some(tiles)
        }
        Numbers::Shuffled(pool) => {
            let mut tokens = pool.clone();
            for _ in 0..NUMBER_DRAWS {
                rng.shuffle(&mut tokens);
                give_in_order(&mut tiles, &tokens);
                // Gold on a 6 or 8 would be too rich: kept off in shuffled groups, as JSettlers does.
                let red_gold = tiles.iter().any(|t| t.terrain == Terrain::Gold && matches!(t.number, Some(6 | 8)));
                if !red_gold && !number_where_forbidden(group, &tiles) && fits(&tiles) {
                    return Some(tiles);
                }
            }
            None
        }
    }
}

/// Tests if a number lies where the data forbids it: a 6 or an 8 next to a desert (WON-2),
/// a 5, 6, 8 or 9 on the far coast (FTR-3).
fn number_where_forbidden(group: &Group, tiles: &[HexTile]) -> bool {
    tiles.iter().any(|t| match t.number {
        Some(6 | 8) => group.no_red_number_on.contains(&t.hex) || group.no_high_number_on.contains(&t.hex),
        Some(5 | 9) => group.no_high_number_on.contains(&t.hex),
        _ => false,
    })
}

/// Gives `tokens` to the tiles in order, skipping those that take no number (desert, sea).
fn give_in_order(tiles: &mut [HexTile], tokens: &[u8]) {
    let mut next = tokens.iter().copied();
    for tile in tiles.iter_mut() {
        tile.number = if tile.terrain.takes_number() { next.next() } else { None };
    }
}

/// The robber's start hex (`None`: off the board). For "a desert" it takes the last desert,
/// in position order, of a group marked `robber_on_desert` (else of the whole map): JSettlers
/// starts its robber on the last desert it lays. Both maps that say "a desert" (New Shores
/// for 4, Fog Islands for 5-6) have a single desert, so no choice is left to chance.
fn robber_start(map: &Map, start: RobberStart, land: &[HexTile]) -> Result<Option<crate::board::HexCoord>, String> {
    match start {
        RobberStart::Hex(hex) => Ok(Some(hex)),
        RobberStart::OffBoard => Ok(None),
        RobberStart::Desert => {
            let marked = |hex| map.groups.iter().any(|g| g.robber_on_desert && g.positions.contains(&hex));
            let mut deserts = land.iter().rev().filter(|t| t.terrain == Terrain::Desert);
            let last = deserts.clone().find(|t| marked(t.hex)).or_else(|| deserts.next());
            last.map(|t| Some(t.hex)).ok_or_else(|| "robber_start is \"a desert\" but the board has none".into())
        }
    }
}
