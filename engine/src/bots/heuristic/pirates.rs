//! The Pirate Islands (PIR): ships along the own lane to the own fortress, every Knight a
//! warship at once, an attack once the warships make it likely to win, and the 7's steal
//! from the leader.

use std::collections::VecDeque;

use crate::{EdgeId, PirateIslandsSeatView, Seat};

use super::{tier, Ctx};

/// Warships that make an attack worth its risk: the defence die beats fewer one time in
/// three at most (PIR-18).
const ATTACK_WARSHIPS: usize = 4;

impl Ctx<'_> {
    /// The bot's own part of The Pirate Islands (`None` in other games).
    fn my_pirate_seat(&self) -> Option<PirateIslandsSeatView> {
        let view = self.pirate_islands.get_or_init(|| self.game.pirate_islands()).as_ref()?;
        view.seats.iter().find(|s| s.seat == self.me).cloned()
    }

    /// A ship on the lane (PIR-7), `None` outside The Pirate Islands: while the fortress
    /// stands unreached, only a ship that comes closer to it than every ship so far (so the
    /// route never branches or turns back, PIR-8); beside the fortress, one more ship only to
    /// make a warship of (PIR-15); after the conquest, as anywhere.
    pub(super) fn score_lane_ship(&self, edge: EdgeId) -> Option<f64> {
        self.lane_progress(edge, None, tier::ROAD_TO_SITE + 40.0, tier::DEV_CARD + 10.0)
    }

    /// Moving a ship on The Pirate Islands (`None` elsewhere, or after the conquest): only a
    /// ship off the route to where the route comes closer to the fortress.
    pub(super) fn score_lane_move(&self, from: EdgeId, to: EdgeId) -> Option<f64> {
        let f = self.board.edge(from)?;
        self.lane_progress(to, Some(f), tier::MOVE_SHIP + 40.0, tier::POINTLESS)
    }

    /// What a ship put on `edge` (moved from `from`) does for the route to the fortress:
    /// `toward` less two per step left when it comes closer than every ship so far (`from`
    /// left out), `beside` when a ship already stands beside the fortress and none is left
    /// to make a warship of.
    fn lane_progress(&self, edge: EdgeId, from: Option<u16>, toward: f64, beside: f64) -> Option<f64> {
        let mine = self.my_pirate_seat()?;
        let fortress = self.board.vertex(mine.fortress)?;
        if mine.fortress_strength == 0 {
            return None;
        }
        let own_ship = |e: u16| Some(e) != from && self.ships.get(e as usize).copied().flatten() == Some(self.me);
        if self.board.edges_of(fortress).any(own_ship) {
            let plain = self.ships.iter().filter(|s| **s == Some(self.me)).count() > mine.warships.len();
            return Some(if plain || from.is_some() { tier::POINTLESS } else { beside });
        }
        // Lane steps from the fortress to each vertex.
        let lane: Vec<u16> = mine.lane.iter().filter_map(|&e| self.board.edge(e)).collect();
        let mut dist = vec![u32::MAX; self.board.vertices.len()];
        dist[fortress as usize] = 0;
        let mut queue = VecDeque::from([fortress]);
        while let Some(x) = queue.pop_front() {
            for &e in lane.iter().filter(|&&e| self.board.edge_vertices[e as usize].contains(&x)) {
                let y = self.board.other_end(e, x);
                if dist[y as usize] == u32::MAX {
                    dist[y as usize] = dist[x as usize] + 1;
                    queue.push_back(y);
                }
            }
        }
        let closest = |e: u16| self.board.edge_vertices[e as usize].iter().map(|&x| dist[x as usize]).min();
        let on_lane = lane.iter().filter(|&&e| self.ships.get(e as usize).copied().flatten() == Some(self.me));
        let reached = on_lane.filter_map(|&e| closest(e)).min().unwrap_or(u32::MAX);
        let steps = closest(self.board.edge(edge)?).unwrap_or(u32::MAX);
        Some(if steps < reached { toward - 2.0 * f64::from(steps) } else { tier::POINTLESS })
    }

    /// PIR-18: attack with enough warships, or with any once the deck holds no more Knights
    /// to wait for. The attack ends the turn: after everything else.
    pub(super) fn score_attack(&self) -> f64 {
        let Some(mine) = self.my_pirate_seat() else { return tier::POINTLESS };
        let warships = mine.warships.len();
        if warships >= ATTACK_WARSHIPS || (warships >= 1 && self.game.cards_for_sale() == 0) {
            tier::END_TURN + 2.0
        } else {
            tier::POINTLESS
        }
    }

    /// PIR-10: steal from the leader; from nobody only when nobody holds a card.
    pub(super) fn score_steal_any(&self, steal_from: Option<Seat>) -> f64 {
        match steal_from {
            None => 0.0,
            Some(victim) => 1.0 + f64::from(self.points.get(victim.index()).copied().unwrap_or(0)),
        }
    }
}
