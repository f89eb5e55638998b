//! Settlement sites: what a site is worth, the setup placements, settlements during play.

use crate::{
    board::{EdgeId, HarbourKind, Terrain},
    IslandBonusMode, Move, Phase, Resource, VertexId,
};

use super::{context::NO_ISLAND, estimate::pips, tier, Ctx, SetupStep};

/// What a victory point of island bonus adds to a site's value (SEA-12): a site earning two
/// is worth three settlements elsewhere.
const BONUS_PER_POINT: f64 = 5.0;

impl Ctx<'_> {
    /// A vertex where anyone may settle: on land (B-GEO-9), empty, with empty neighbours
    /// (B-BLD-4).
    pub(super) fn is_free_site(&self, v: u16) -> bool {
        self.board.vertex_is_buildable.get(v as usize).copied().unwrap_or(false)
            && self.buildings.get(v as usize).is_some_and(Option::is_none)
            && self.board.neighbours_of(v).all(|n| self.buildings.get(n as usize).is_some_and(Option::is_none))
    }

    /// What a settlement on `v` would be worth to the bot: weighted expected production,
    /// new resource types, harbour, and in play the island bonus it earns.
    pub(super) fn site_value(&self, v: u16) -> f64 {
        let own = self.own_production();
        let mut value = 0.0;
        let mut site_prod = [0.0; 5];
        for h in self.board.land_hexes_of(v) {
            let p = pips(self.board.numbers[h as usize]);
            let mut hex_value = match self.board.terrain[h as usize].resource() {
                Some(r) => {
                    site_prod[r.index()] += p;
                    p * self.weight[r.index()]
                }
                // Gold (SEA-9, RIV-5): a card of choice, worth the most wanted resource.
                None if self.board.terrain[h as usize] == Terrain::Gold => p * self.gold_weight(),
                None => continue,
            };
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
        if self.setup.is_none() {
            value += self.bonus_value(v) + self.wonder_site_bonus(v);
        }
        value
    }

    /// Where to put the harbour drawn (NEW-11), before anyone has settled: beside the land
    /// that rolls most often, counting for a 2:1 harbour only the hexes of its resource. The
    /// bot cannot tell yet where it will settle, so the best land is its best guess.
    pub(super) fn score_harbour_site(&self, edge: EdgeId) -> f64 {
        let Phase::PlaceHarbour { kind, .. } = *self.game.phase() else { return tier::UNKNOWN };
        let [a, b] = edge.endpoints();
        let mut value = 0.0;
        for v in [a, b].into_iter().filter_map(|id| self.board.vertex(id)) {
            for h in self.board.land_hexes_of(v) {
                let produces = self.board.terrain[h as usize].resource();
                if kind.special_resource().is_none_or(|r| produces == Some(r)) {
                    value += pips(self.board.numbers[h as usize]);
                }
            }
        }
        value
    }

    /// What a pip of gold is worth: a card of the bot's choice.
    pub(super) fn gold_weight(&self) -> f64 {
        self.weight.iter().copied().fold(0.0, f64::max)
    }

    /// The island bonus (SEA-12) a settlement on `v` would earn, as site value.
    pub(super) fn bonus_value(&self, v: u16) -> f64 {
        BONUS_PER_POINT * f64::from(self.bonus_points(v))
    }

    /// The island bonus points a settlement on `v` would earn (SEA-12): on an island where
    /// the bot has no building yet (where nobody has, when only the first settler earns it).
    pub(super) fn bonus_points(&self, v: u16) -> u32 {
        let Some((mode, points)) = self.island_bonus else { return 0 };
        let island = self.vertex_island.get(v as usize).copied().unwrap_or(NO_ISLAND);
        let taken = match mode {
            IslandBonusMode::FirstOnIsland => &self.island_settled,
            _ => &self.island_mine,
        };
        if island == NO_ISLAND || taken.get(island as usize).copied().unwrap_or(true) {
            return 0;
        }
        points
    }

    /// The setup placements (B-SET-4): the best site, then a road toward the next one.
    pub(super) fn score_setup(&self, mv: &Move, step: SetupStep) -> f64 {
        match (mv, step) {
            (Move::BuildSettlement { vertex }, _) => {
                self.board.vertex(*vertex).map_or(tier::UNKNOWN, |v| self.site_value(v))
            }
            // Cities & Knights (CK-SET-1): the second round places a city, which also takes
            // commodities.
            (Move::BuildCity { vertex }, _) => {
                self.board.vertex(*vertex).map_or(tier::UNKNOWN, |v| self.site_value(v) + self.commodity_value(v))
            }
            // The Pirate Islands: the lane's ships are for the way to the fortress (see
            // `pirates`), not the setup's piece.
            (Move::BuildShip { .. }, SetupStep::PlaceRoad { .. }) if self.game.pirate_islands().is_some() => {
                tier::POINTLESS
            }
            (Move::BuildShip { edge }, SetupStep::PlaceRoad { settlement }) => self.score_setup_ship(*edge, settlement),
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
