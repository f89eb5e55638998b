//! Ships (Seafarers): building them along the planned sea routes, moving an idle one to
//! where a route needs it, and a ship as the free piece of a coastal setup settlement.

use std::collections::VecDeque;

use crate::{EdgeId, Resource, VertexId};

use super::{
    roads::{Piece, RouteChange, STEP_COST},
    tier, Ctx,
};

/// Ships the bot looks ahead from a setup ship for a site to reach.
const SETUP_SHIP_DEPTH: u8 = 4;
/// A ship moves only when its new place leads to a target this much better than the old.
const MOVE_MARGIN: f64 = 1.0;

impl Ctx<'_> {
    /// A ship (SEA-1): toward a free site or fog over sea, for Longest Trade Route, free from
    /// Road Building, or to spend cards before a 7.
    pub(super) fn score_ship(&self, edge: EdgeId) -> f64 {
        let Some(e) = self.board.edge(edge) else {
            return tier::UNKNOWN;
        };
        let lead = self.ship_lead.get(e as usize).copied().unwrap_or(f64::NEG_INFINITY);
        // With a site already in reach, a paid ship may not eat the settlement's cards.
        let spare = self.hand.get(Resource::Lumber) >= 2 && self.hand.get(Resource::Wool) >= 2;
        self.score_route_piece(e, Piece::Ship, lead, spare)
    }

    /// Moving a ship (SEA-6): worth it when the ship serves no better route where it is than
    /// the one its new edge starts; never away from a site it makes buildable, nor at the
    /// cost of Longest Trade Route.
    pub(super) fn score_move_ship(&self, from: EdgeId, to: EdgeId) -> f64 {
        let (Some(f), Some(t)) = (self.board.edge(from), self.board.edge(to)) else {
            return tier::UNKNOWN;
        };
        let gain = self.ship_lead.get(t as usize).copied().unwrap_or(f64::NEG_INFINITY);
        if !gain.is_finite() {
            return tier::POINTLESS;
        }
        let mut kept = f64::NEG_INFINITY;
        for x in self.board.edge_vertices[f as usize] {
            let own_building = self.buildings[x as usize].is_some_and(|b| b.seat == self.me);
            if own_building || self.touches_own_ship(x, Some(f)) {
                continue; // the end that holds the route to the bot's network
            }
            if self.settlements_left > 0 && self.is_free_site(x) && !self.touches_own_road(x) {
                return tier::POINTLESS; // the ship is what lets the bot settle there
            }
            kept = kept.max(self.ship_root_best.get(x as usize).copied().unwrap_or(f64::NEG_INFINITY));
        }
        if gain <= kept + MOVE_MARGIN {
            return tier::POINTLESS;
        }
        let change = RouteChange { added: Some((t, Piece::Ship)), removed: Some(f) };
        let mine = self.road_lengths().get(self.me.index()).copied().unwrap_or(0);
        if self.game.longest_road_holder() == Some(self.me) && self.trail_length(self.me, change) < mine {
            return tier::POINTLESS;
        }
        tier::MOVE_SHIP + (gain - kept).clamp(0.0, 30.0)
    }

    /// A setup ship (SEA-5) next to the settlement on `settlement`: the best site (with its
    /// island bonus) or fog a few ships out, comparable with the setup road's score (the best
    /// site two pieces out).
    pub(super) fn score_setup_ship(&self, edge: EdgeId, settlement: VertexId) -> f64 {
        let (Some(e), Some(s)) = (self.board.edge(edge), self.board.vertex(settlement)) else {
            return tier::UNKNOWN;
        };
        let vertex_count = self.board.vertices.len();
        let mut dist = vec![u8::MAX; vertex_count];
        let x = self.board.other_end(e, s);
        dist[s as usize] = 0;
        dist[x as usize] = 1;
        let mut queue = VecDeque::from([x]);
        let mut best = f64::NEG_INFINITY;
        while let Some(u) = queue.pop_front() {
            let d = dist[u as usize];
            let site = self.is_free_site(u);
            // The island bonus counts in play only: add it to the setup's site value.
            let value = self.explore_value(u) + if site { self.site_value(u) + self.bonus_value(u) } else { 0.0 };
            if value > 0.0 {
                best = best.max(value - STEP_COST * f64::from(d.saturating_sub(2)));
            }
            if d >= SETUP_SHIP_DEPTH || self.buildings[u as usize].is_some() {
                continue;
            }
            for next in self.board.edges_of(u) {
                if next == e || !self.board.edge_is_sea[next as usize] || self.edge_taken(next) {
                    continue;
                }
                let y = self.board.other_end(next, u);
                if dist[y as usize] == u8::MAX {
                    dist[y as usize] = d + 1;
                    queue.push_back(y);
                }
            }
        }
        // Ships come after the land: a ship only when the sea offers clearly more.
        if best.is_finite() {
            best - 1.0
        } else {
            tier::POINTLESS
        }
    }
}
