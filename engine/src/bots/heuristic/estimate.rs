//! Estimates the other concerns share: pips and production, what a pip of each resource is
//! worth to the bot, what a hand is worth toward its goals.

use crate::{board::Board, Resource, Resources};

use super::{Building, BuildingKind, Ctx};

/// What a pip of each resource is worth before scarcity: lumber, brick, wool, grain, ore.
const BASE_WEIGHT: [f64; 5] = [1.0, 1.0, 0.9, 1.1, 1.1];

/// Ways to roll `n` with two dice, out of 36 (B-GEO-15).
pub(super) fn pips(number: Option<u8>) -> f64 {
    match number {
        Some(n @ 2..=12) if n != 7 => f64::from(6 - (7 - i32::from(n)).abs()),
        _ => 0.0,
    }
}

/// Cards still missing from `hand` to pay `cost`.
pub(super) fn missing(hand: &Resources, cost: &Resources) -> u32 {
    Resource::ALL.iter().map(|&r| cost.get(r).saturating_sub(hand.get(r))).sum()
}

/// Per seat: pips produced per resource by the seat's buildings (cities count twice, the
/// robber is ignored). `buildings` is indexed by vertex.
pub(super) fn production_by_seat(board: &Board, buildings: &[Option<Building>], players: usize) -> Vec<[f64; 5]> {
    let mut production = vec![[0.0; 5]; players];
    for (v, building) in buildings.iter().enumerate() {
        let Some(b) = building else { continue };
        let Some(seat_prod) = production.get_mut(b.seat.index()) else {
            continue;
        };
        let mult = if b.kind == BuildingKind::City { 2.0 } else { 1.0 };
        for h in board.land_hexes_of(v as u16) {
            if let Some(r) = board.terrain[h as usize].resource() {
                seat_prod[r.index()] += mult * pips(board.numbers[h as usize]);
            }
        }
    }
    production
}

/// What a pip of each resource is worth to a seat producing `own`: resources scarce on this
/// board are worth more, and so are the ones the seat lacks.
pub(super) fn resource_weights(board: &Board, own: &[f64; 5]) -> [f64; 5] {
    let mut board_pips = [0.0; 5];
    for (h, terrain) in board.terrain.iter().enumerate() {
        if let Some(r) = terrain.resource() {
            board_pips[r.index()] += pips(board.numbers[h]);
        }
    }
    let mean = board_pips.iter().sum::<f64>() / 5.0;
    let mut weight = [1.0; 5];
    for r in Resource::ALL {
        let scarcity = (mean / board_pips[r.index()].max(1.0)).clamp(0.75, 1.5);
        let lack = if own[r.index()] < 0.5 { 1.25 } else { 1.0 };
        weight[r.index()] = scarcity * lack * BASE_WEIGHT[r.index()];
    }
    weight
}

impl Ctx<'_> {
    pub(super) fn own_production(&self) -> [f64; 5] {
        self.production.get(self.me.index()).copied().unwrap_or([0.0; 5])
    }

    /// Progress of a hand toward the goals, with a little credit for sheer cards.
    pub(super) fn hand_value(&self, hand: &Resources) -> f64 {
        let mut value = 0.0;
        for (rank, goal) in self.goals.iter().enumerate() {
            let covered: u32 = Resource::ALL.iter().map(|&r| hand.get(r).min(goal.cost.get(r))).sum();
            let total = goal.cost.total().max(1);
            let weight = 1.0 / (1.0 + rank as f64);
            value += weight * f64::from(covered) / f64::from(total);
            if covered == total {
                value += weight;
            }
        }
        // Cards above seven are a liability on a 7.
        let size = hand.total();
        value + 0.02 * f64::from(size.min(7)) - 0.05 * f64::from(size.saturating_sub(7))
    }
}
