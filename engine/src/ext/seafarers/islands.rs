//! Islands and the island bonus (SEA-12). An island is a connected group of land hexes,
//! computed from the board as it is now (fog turned up may join or found islands); the
//! scenario's own land areas are the other reading, chosen by `islands`.

use super::Seafarers;
use crate::{
    board::{Board, HexCoord, VertexId},
    config::{IslandBonusMode, IslandDefinition},
    game::Game,
    model::Seat,
    protocol::Event,
};

/// Marks a hex that belongs to no island (sea, fog).
const NO_ISLAND: u16 = u16::MAX;

/// Most hexes a board has (hex indices are `u8`, `NO_HEX` aside).
const MAX_HEXES: usize = 255;

/// Numbers the connected groups of land hexes: one id per hex index, `NO_ISLAND` for sea
/// and fog; ids count from 0 in board order. On the stack (a board has fewer than 255
/// hexes), as it is worked out for every settlement built.
pub(crate) fn connected_land(board: &Board) -> ConnectedLand {
    let count = board.hexes.len().min(MAX_HEXES);
    let mut island = [NO_ISLAND; MAX_HEXES];
    // Each hex is pushed once, when it gets its id.
    let mut stack = [0usize; MAX_HEXES];
    let mut next = 0;
    for start in 0..count {
        if island[start] != NO_ISLAND || !board.is_land_hex(start as u8) {
            continue;
        }
        island[start] = next;
        stack[0] = start;
        let mut depth = 1;
        while depth > 0 {
            depth -= 1;
            let h = stack[depth];
            for n in board.hexes[h].neighbours() {
                if let Some(n) = board.hex(n).map(usize::from).filter(|&n| n < count) {
                    if island[n] == NO_ISLAND && board.is_land_hex(n as u8) {
                        island[n] = next;
                        stack[depth] = n;
                        depth += 1;
                    }
                }
            }
        }
        next += 1;
    }
    ConnectedLand { island, count }
}

/// The island id of each hex index (see [`connected_land`]).
pub(crate) struct ConnectedLand {
    island: [u16; MAX_HEXES],
    count: usize,
}

impl std::ops::Deref for ConnectedLand {
    type Target = [u16];

    fn deref(&self) -> &[u16] {
        &self.island[..self.count]
    }
}

/// The islands as hex lists, in board order (for views).
pub(crate) fn island_hexes(board: &Board) -> Vec<Vec<HexCoord>> {
    let ids = connected_land(board);
    let count = ids.iter().filter(|&&i| i != NO_ISLAND).max().map_or(0, |&m| m as usize + 1);
    let mut islands = vec![Vec::new(); count];
    for (h, &id) in ids.iter().enumerate() {
        if id != NO_ISLAND {
            islands[id as usize].push(board.hexes[h]);
        }
    }
    islands
}

impl Seafarers {
    /// The island a vertex lies on, per the game's definition; `None` off land. Under the
    /// scenario's land areas, a vertex between areas belongs to the lowest-numbered one.
    fn island_of(&self, board: &Board, connected: &[u16], vertex: VertexId) -> Option<u16> {
        let v = board.vertex(vertex)?;
        // A generated map (The New World) records no land areas: its areas are its islands,
        // numbered as connected land (NEW-GEN-10), so both readings agree.
        let areas = self.layout().map(|l| &l.land_areas[..]).filter(|areas| !areas.is_empty());
        match (self.islands, areas) {
            (IslandDefinition::ConnectedLand, _) | (IslandDefinition::ScenarioLandAreas, None) => {
                board.land_hexes_of(v).map(|h| connected[h as usize]).min()
            }
            (IslandDefinition::ScenarioLandAreas, Some(areas)) => board
                .land_hexes_of(v)
                .filter_map(|h| {
                    areas.iter().find(|(hex, _)| *hex == board.hexes[h as usize]).map(|(_, a)| u16::from(*a))
                })
                .min(),
        }
    }

    /// SEA-12: appends `island_bonus_earned` for a settlement (outside setup) that earns it.
    pub(super) fn award_island_bonus(&self, game: &Game, mode: IslandBonusMode, points: u32, events: &mut Vec<Event>) {
        let state = &game.ext.seafarers;
        if matches!(game.phase(), crate::model::Phase::Setup { .. }) {
            return;
        }
        let is_built = |e: &Event| matches!(e, Event::SettlementBuilt { .. });
        if !events.iter().any(is_built) {
            return;
        }
        let board = game.board();
        let connected = connected_land(board);
        let on = |vertex: VertexId| self.island_of(board, &connected, vertex);
        // By index over the move's own events, the bonuses pushed after them aside: a list of
        // the settlements built would be allocated for every settlement.
        for i in 0..events.len() {
            let Event::SettlementBuilt { seat, vertex, .. } = events[i] else { continue };
            let Some(island) = on(vertex) else { continue };
            let excluded = self.islands == IslandDefinition::ScenarioLandAreas
                && self.layout().is_some_and(|l| l.bonus_excluded_areas.iter().any(|&a| u16::from(a) == island));
            if excluded {
                continue;
            }
            let settled_by_setup = |who: Option<Seat>| {
                state.setup_sites.iter().any(|(s, v)| who.is_none_or(|w| w == *s) && on(*v) == Some(island))
            };
            let earns = match mode {
                IslandBonusMode::PerPlayerForeignIsland => {
                    !settled_by_setup(Some(seat))
                        && !state.bonuses.iter().any(|(s, v, _)| *s == seat && on(*v) == Some(island))
                }
                IslandBonusMode::FirstOnIsland => (0..board.vertices.len() as u16).all(|v| {
                    board.vertices[v as usize] == vertex
                        || game.building_index(v).is_none()
                        || on(board.vertices[v as usize]) != Some(island)
                }),
                IslandBonusMode::PerSettlementOnMarkedIslands => !settled_by_setup(None),
            };
            if earns {
                events.push(Event::IslandBonusEarned { seat, vertex, points });
            }
        }
    }
}

impl Game {
    /// The islands of the board as it is now: connected land hexes (SEA-12).
    pub fn islands(&self) -> Vec<Vec<HexCoord>> {
        island_hexes(&self.board)
    }
}

/// SCN-3: the map's land areas, ascending, each with its hexes in the map's order.
pub(super) fn land_area_views(
    land_areas: &[(crate::board::HexCoord, u8)],
) -> Vec<crate::protocol::views::LandAreaView> {
    let mut areas: Vec<u8> = land_areas.iter().map(|&(_, a)| a).collect();
    areas.sort_unstable();
    areas.dedup();
    areas
        .into_iter()
        .map(|area| crate::protocol::views::LandAreaView {
            area,
            hexes: land_areas.iter().filter(|&&(_, a)| a == area).map(|&(hex, _)| hex).collect(),
        })
        .collect()
}
