//! Trade routes: the longest trail of a seat's roads (B-LR-1/2) and, with Seafarers, of its
//! roads and ships (SEA-10), for the base game's Longest Road and every ruleset that changes
//! what a route may hold or cross.

use std::sync::atomic::{AtomicU32, Ordering};

use super::trails::RoadNetwork;
// Re-exported for the awards and the listings, which name them here.
pub(crate) use super::trails::{Overlay, MAX_NETWORK_EDGES};
use crate::{
    game::Game,
    model::{Seat, MAX_SEATS},
    protocol::Event,
};

/// A free piece of Road Building placed by the move being decided (not yet applied).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FreePiece {
    None,
    Road(u16),
    Ship(u16),
}

/// Returns the length of `seat`'s longest trail (B-LR-1), not passing through opponent
/// buildings (B-LR-2), with the pieces of `overlay` in place. Ships count like roads, but a
/// trail turns from a road to a ship or back only at the seat's own building (SEA-10).
///
/// A seat's length on the board as it stands is measured once and kept in the game's
/// [`RouteCache`] until an event changes that seat's routes.
pub(crate) fn road_length(game: &Game, seat: Seat, overlay: Overlay) -> u32 {
    if overlay.touches(game, seat) {
        return RoadNetwork::of(game, seat, overlay).longest_trail();
    }
    if let Some(length) = game.routes.get(seat) {
        return length;
    }
    let length = RoadNetwork::of(game, seat, Overlay::default()).longest_trail();
    game.routes.set(seat, length);
    length
}

/// `seat`'s length on the board as it stands when it was measured already (kept in the
/// game's [`RouteCache`]), without measuring it.
pub(crate) fn kept_length(game: &Game, seat: Seat) -> Option<u32> {
    game.routes.get(seat)
}

/// Each seat's longest trail on the board as it stands, once measured (0 for not measured,
/// else the length plus one). Not part of the state: never serialized, equal to any other,
/// and emptied by [`RouteCache::forget_after`] for every event that may change a route.
/// Atomics, so that a game shared between threads stays `Sync`; the values are plain
/// numbers, so relaxed ordering suffices.
#[derive(Debug, Default)]
pub(crate) struct RouteCache([AtomicU32; MAX_SEATS]);

impl RouteCache {
    fn get(&self, seat: Seat) -> Option<u32> {
        let slot = self.0.get(seat.index())?.load(Ordering::Relaxed);
        slot.checked_sub(1)
    }

    fn set(&self, seat: Seat, length: u32) {
        if let Some(slot) = self.0.get(seat.index()) {
            slot.store(length.saturating_add(1), Ordering::Relaxed);
        }
    }

    fn forget(&self, seat: Seat) {
        if let Some(slot) = self.0.get(seat.index()) {
            slot.store(0, Ordering::Relaxed);
        }
    }

    /// Forgets every length (after a position is placed piece by piece).
    pub(crate) fn forget_all(&self) {
        for slot in &self.0 {
            slot.store(0, Ordering::Relaxed);
        }
    }

    /// Forgets the lengths `event` may change: a road or ship changes only its owner's
    /// trails; the events listed and those that leave every piece in place never change a
    /// route; any other (a settlement that may break trails, knights that block them, an
    /// extension's event) forgets them all.
    pub(crate) fn forget_after(&self, event: &Event) {
        match event {
            Event::RoadBuilt { seat, .. } | Event::ShipBuilt { seat, .. } | Event::ShipMoved { seat, .. } => {
                self.forget(*seat)
            }
            // Points and cards, not pieces: a city replaces its owner's settlement.
            Event::DevelopmentCardBought { .. }
            | Event::LongestRoadChanged { .. }
            | Event::LargestArmyChanged { .. }
            | Event::CityBuilt { .. } => {}
            _ if event.leaves_pieces_and_points() => {}
            _ => self.forget_all(),
        }
    }
}

impl Clone for RouteCache {
    fn clone(&self) -> Self {
        let copy = RouteCache::default();
        for (to, from) in copy.0.iter().zip(&self.0) {
            to.store(from.load(Ordering::Relaxed), Ordering::Relaxed);
        }
        copy
    }
}

impl PartialEq for RouteCache {
    /// What was measured is a function of the state, which is compared on its own.
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::{config::GameConfig, sim};

    /// The plain definition of B-LR-1/2 and SEA-10: try every own road or ship as the first
    /// edge, both ways; a trail passes no opponent's building and turns between a road and a
    /// ship only at the seat's own building.
    fn brute_force_length(game: &Game, seat: Seat) -> u32 {
        fn walk(game: &Game, seat: Seat, at: u16, came_by_ship: Option<bool>, used: &mut Vec<u16>) -> u32 {
            let own_building = game.buildings[at as usize].is_some_and(|b| b.seat == seat);
            let mut best = 0;
            for e in game.board.edges_of(at) {
                let is_ship = match (game.road_index(e), game.ship_index(e)) {
                    (Some(owner), _) if owner == seat => false,
                    (_, Some(owner)) if owner == seat => true,
                    _ => continue,
                };
                if used.contains(&e) || came_by_ship.is_some_and(|was| was != is_ship && !own_building) {
                    continue;
                }
                let next = game.board.other_end(e, at);
                let blocked = game.buildings[next as usize].is_some_and(|b| b.seat != seat)
                    || game.knight_owner(next).is_some_and(|k| k != seat);
                used.push(e);
                let rest = if blocked { 0 } else { walk(game, seat, next, Some(is_ship), used) };
                used.pop();
                best = best.max(1 + rest);
            }
            best
        }
        let mut best = 0;
        for v in 0..game.board.vertices.len() as u16 {
            best = best.max(walk(game, seat, v, None, &mut Vec::new()));
        }
        best
    }

    /// Checks the trail search against the definition over `games` random games of `config`,
    /// every 25 events (also for the variants' routes), and after every event that the
    /// lengths kept in the game's [`RouteCache`] are those measured afresh and the pieces kept
    /// as bit sets those on the board.
    pub(crate) fn agrees_over_random_games(config: &GameConfig, games: u64) {
        for seed in 0..games {
            let record = sim::play_random_game(config.clone(), seed).unwrap();
            let mut game = Game::replay(config.clone(), &record.events[..1]).unwrap();
            for (i, event) in record.events[1..].iter().enumerate() {
                game.apply(event);
                for seat in game.seats() {
                    // The pieces the game keeps, brought up to date by the event, are those on
                    // the board.
                    assert_eq!(
                        game.pieces_of(seat),
                        game.scan_pieces(seat),
                        "kept pieces: seed {seed}, event {i} ({event:?})"
                    );
                    let fresh = RoadNetwork::of(&game, seat, Overlay::default()).longest_trail();
                    assert_eq!(game.road_length(seat), fresh, "kept length: seed {seed}, event {i} ({event:?})");
                }
                if i.is_multiple_of(25) {
                    for seat in game.seats() {
                        assert_eq!(
                            road_length(&game, seat, Overlay::default()),
                            brute_force_length(&game, seat),
                            "seed {seed}, event {i}, seat {seat}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_pruned_trail_search_agrees_with_the_definition() {
        // B-LR-1/2 on the road networks of 60 random games, every 25 events.
        let config = GameConfig { board: crate::config::BoardSpec::Random, ..GameConfig::for_players(4) };
        agrees_over_random_games(&config, 60);
        // CK-KNT-9: knights break roads as buildings do, and move, leave and return.
        let cities_knights = GameConfig { cities_and_knights: true, ..config };
        agrees_over_random_games(&cities_knights, 15);
    }
}
