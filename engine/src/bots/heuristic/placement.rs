//! Settlement sites: what a site is worth, the setup placements, settlements during play.

use crate::{board::HarbourKind, Move, Resource, VertexId};

use super::{estimate::pips, tier, Ctx, SetupStep};

impl Ctx<'_> {
    /// A vertex where anyone may settle: empty, with empty neighbours (B-BLD-4).
    pub(super) fn is_free_site(&self, v: u16) -> bool {
        self.buildings.get(v as usize).is_some_and(Option::is_none)
            && self.board.neighbours_of(v).all(|n| self.buildings.get(n as usize).is_some_and(Option::is_none))
    }

    /// What a settlement on `v` would be worth to the bot: weighted expected production,
    /// new resource types, harbour.
    pub(super) fn site_value(&self, v: u16) -> f64 {
        let own = self.own_production();
        let mut value = 0.0;
        let mut site_prod = [0.0; 5];
        for h in self.board.land_hexes_of(v) {
            let Some(r) = self.board.terrain[h as usize].resource() else {
                continue;
            };
            let p = pips(self.board.numbers[h as usize]);
            site_prod[r.index()] += p;
            let mut hex_value = p * self.weight[r.index()];
            if Some(h) == self.robber {
                hex_value *= 0.6;
            }
            value += hex_value;
        }
        let new_types = Resource::ALL.iter().filter(|r| site_prod[r.index()] > 0.0 && own[r.index()] < 0.5).count();
        value += 2.0 * new_types as f64;
        match self.board.vertex_harbour.get(v as usize).copied().flatten() {
            Some(HarbourKind::Generic3) if !self.has_generic_harbour => value += 1.5,
            Some(HarbourKind::Generic3) => {}
            Some(kind) => {
                if let Some(r) = kind.special_resource() {
                    let supply = own[r.index()] + site_prod[r.index()];
                    value += if supply >= 5.0 { 3.0 } else { 0.3 * supply };
                }
            }
            None => {}
        }
        value
    }

    /// The setup placements (B-SET-4): the best site, then a road toward the next one.
    pub(super) fn score_setup(&self, mv: &Move, step: SetupStep) -> f64 {
        match (mv, step) {
            (Move::BuildSettlement { vertex }, _) => {
                self.board.vertex(*vertex).map_or(tier::UNKNOWN, |v| self.site_value(v))
            }
            (Move::BuildRoad { edge }, SetupStep::PlaceRoad { settlement }) => {
                let (Some(e), Some(s)) = (self.board.edge(*edge), self.board.vertex(settlement)) else {
                    return tier::UNKNOWN;
                };
                // Point the road at the best free site two steps out.
                let x = self.board.other_end(e, s);
                self.board
                    .neighbours_of(x)
                    .filter(|&w| w != s && self.is_free_site(w))
                    .map(|w| self.site_value(w))
                    .fold(0.0, f64::max)
                    + 0.1 * self.board.neighbours_of(x).count() as f64
            }
            _ => tier::UNKNOWN,
        }
    }

    /// A settlement during play: its tier, ordered by the site's value.
    pub(super) fn score_settlement(&self, vertex: VertexId) -> f64 {
        tier::SETTLEMENT + self.board.vertex(vertex).map_or(0.0, |v| self.site_value(v))
    }
}
