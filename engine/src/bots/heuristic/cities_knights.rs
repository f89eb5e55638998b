//! Cities & Knights: commodities and city improvements, knights against the barbarians,
//! city walls, commodity trades and the decisions an attack or a roll asks for.

use crate::{
    board::Terrain,
    ext::cities_knights::Track,
    model::{Cards, Commodities, Commodity},
    Resource, Resources, VertexId,
};

use super::{estimate::pips, tier, BuildingKind, Ctx};

/// A basic knight, its promotion: 1 wool + 1 ore (CK-KNT-1/3).
const KNIGHT: Resources = Resources::new(0, 0, 1, 0, 1);
/// A city wall: 2 brick (CK-WALL-1).
const WALL: Resources = Resources::new(0, 2, 0, 0, 0);
/// The barbarians are this many steps from Catan or closer: the bot readies its defence.
pub(super) const NEAR: u8 = 4;

/// What the bot knows of Cities & Knights at one decision.
pub(super) struct CkFacts {
    pub(super) commodities: Commodities,
    pub(super) levels: [u8; 3],
    /// Steps the ship still has to sail before it attacks.
    pub(super) steps_left: u8,
    /// The bot's active and total knight strength.
    active: u32,
    total: u32,
    /// The bot's cities the barbarians may pillage: those without a metropolis (CK-MET-5).
    own_cities: u32,
    pub(super) walls: u32,
    /// The strength the bot aims for: just above the strongest opponent's, at least one.
    target: u32,
}

/// The commodity a city on `terrain` takes (CK-PROD-2).
pub(super) fn commodity_of(terrain: Terrain) -> Option<Commodity> {
    match terrain {
        Terrain::Forest => Some(Commodity::Paper),
        Terrain::Pasture => Some(Commodity::Cloth),
        Terrain::Mountains => Some(Commodity::Coin),
        _ => None,
    }
}

/// The track built with `commodity`.
pub(super) fn track_of(commodity: Commodity) -> Track {
    match commodity {
        Commodity::Cloth => Track::Trade,
        Commodity::Coin => Track::Politics,
        Commodity::Paper => Track::Science,
    }
}

impl Ctx<'_> {
    /// Reads the C&K facts (only in a C&K game, after setup).
    pub(super) fn read_cities_knights(&mut self) {
        let game = self.game;
        if !game.config().cities_and_knights {
            return;
        }
        let me = self.me;
        let commodities = game.player(me).map(|p| *p.commodities()).unwrap_or_default();
        let levels = [
            game.improvement_level(me, Track::Trade),
            game.improvement_level(me, Track::Politics),
            game.improvement_level(me, Track::Science),
        ];
        let steps = game.config().barbarian_steps;
        let steps_left = steps.saturating_sub(game.barbarian_position());
        let mut cities = vec![0u32; self.players];
        for b in self.buildings.iter().flatten() {
            if b.kind == BuildingKind::City {
                if let Some(c) = cities.get_mut(b.seat.index()) {
                    *c += 1;
                }
            }
        }
        // CK-MET-5: cities with a metropolis are never pillaged; the others are at stake.
        let mut exposed = cities.clone();
        for m in game.metropolises() {
            if let Some(c) = exposed.get_mut(m.seat.index()) {
                *c = c.saturating_sub(1);
            }
        }
        let mut active_by = vec![0u32; self.players];
        let mut total = 0;
        for k in game.knights() {
            if k.active {
                if let Some(a) = active_by.get_mut(k.seat.index()) {
                    *a += u32::from(k.rank);
                }
            }
            if k.seat == me {
                total += u32::from(k.rank);
            }
        }
        let others = (0..self.players).filter(|&s| s != me.index());
        let others_max = others.clone().map(|s| active_by[s]).max().unwrap_or(0);
        let others_active: u32 = others.clone().map(|s| active_by[s]).sum();
        let weakest_other = others.filter(|&s| exposed[s] > 0).map(|s| active_by[s]).min();
        let own_cities = exposed.get(me.index()).copied().unwrap_or(0);
        // Safe from pillage: stronger than another seat with a city, or the defence wins
        // (active knights at least the cities on the board, CK-BAR-3/4).
        let win_need = cities.iter().sum::<u32>().saturating_sub(others_active);
        let safety = weakest_other.map_or(win_need, |w| (w + 1).min(win_need));
        // The Defender point: the defence wins and the bot is the strongest alone.
        let defender = win_need.max(others_max + 1);
        let target = if defender <= safety + 2 { defender } else { safety }.max(u32::from(own_cities > 0));
        self.ck = Some(CkFacts {
            commodities,
            levels,
            steps_left,
            active: active_by.get(me.index()).copied().unwrap_or(0),
            total,
            own_cities,
            walls: game.city_walls(me),
            target,
        });
    }

    /// What a city on `v` adds in commodities (C&K), in pips weighted like resources.
    pub(super) fn commodity_value(&self, v: u16) -> f64 {
        if self.ck.is_none() && !(self.setup.is_some() && self.game.config().cities_and_knights) {
            return 0.0;
        }
        self.board
            .land_hexes_of(v)
            .filter(|&h| Some(h) != self.robber)
            .filter(|&h| commodity_of(self.board.terrain[h as usize]).is_some())
            .map(|h| 0.8 * pips(self.board.numbers[h as usize]))
            .sum()
    }

    /// The value of a barbarian defence: a knight's strength is wanted when the bot's is
    /// below its target (more so as the ship nears, and when the bot has cities to lose).
    pub(super) fn defence_need(&self, ck: &CkFacts, strength: u32) -> bool {
        strength < ck.target && (ck.own_cities > 0 || ck.steps_left <= NEAR)
    }

    /// Recruiting (or promoting) a knight.
    pub(super) fn score_knight_strength(&self, promote: bool) -> f64 {
        let Some(ck) = &self.ck else { return tier::UNKNOWN };
        if !self.defence_need(ck, ck.total) {
            // With no city or settlement left to save for, strength is the way to points
            // (the Defender of Catan, CK-BAR-6).
            return if self.no_piece_goal() { tier::END_TURN + 2.0 } else { tier::POINTLESS };
        }
        // Do not spend ore a city needs unless the attack is close.
        let hurts_city = self.hand.get(Resource::Ore) < 3 + KNIGHT.get(Resource::Ore) && self.city_goal_first();
        let base = if ck.steps_left <= NEAR {
            tier::CITY - 50.0
        } else if hurts_city {
            tier::END_TURN + 2.0
        } else {
            tier::ROAD_TO_SITE - 20.0
        };
        base - if promote { 5.0 } else { 0.0 }
    }

    /// Activating a knight: when the attack is near and the defence short.
    pub(super) fn score_activate(&self) -> f64 {
        let Some(ck) = &self.ck else { return tier::UNKNOWN };
        if self.defence_need(ck, ck.active) && (ck.steps_left <= NEAR + 1 || self.hand.get(Resource::Grain) >= 3) {
            tier::CITY - 40.0
        } else if ck.active < ck.total && (self.no_piece_goal() || self.hand.get(Resource::Grain) >= 2) {
            tier::END_TURN + 1.0
        } else {
            tier::POINTLESS
        }
    }

    /// Whether the bot saves for neither a city nor a settlement (none left to build).
    fn no_piece_goal(&self) -> bool {
        !self.goals.iter().any(|g| g.cost == super::cost::CITY || g.cost == super::cost::SETTLEMENT)
    }

    /// Whether the bot's first goal is a city.
    fn city_goal_first(&self) -> bool {
        self.goals.first().is_some_and(|g| g.cost == super::cost::CITY)
    }

    /// A city improvement: cheap points of progress for commodities that buy nothing else.
    /// One that brings a metropolis (`city`, CK-MET-1/3) is worth a city: 2 points, on the
    /// city the bot would least like to lose, since the barbarians never take it (CK-MET-5).
    pub(super) fn score_improvement(&self, track: Track, city: Option<VertexId>) -> f64 {
        let Some(ck) = &self.ck else { return tier::UNKNOWN };
        if let Some(vertex) = city {
            return tier::CITY + 20.0 - 0.01 * self.score_city_to_lose(vertex);
        }
        let level = ck.levels[track as usize];
        // Level 3 gives the track's ability; the trade track makes commodities trade 2:1.
        let bonus = match (track, level + 1) {
            (Track::Trade, 3) => 30.0,
            (Track::Science, 3) => 20.0,
            (Track::Politics, 3) => 10.0,
            _ => 0.0,
        };
        tier::SETTLEMENT - 20.0 + bonus - 5.0 * f64::from(level)
    }

    /// A city wall: when the hand tends to overflow the limit and brick is spare.
    pub(super) fn score_wall(&self, vertex: VertexId) -> f64 {
        let Some(ck) = &self.ck else { return tier::UNKNOWN };
        let limit = 7 + 2 * ck.walls;
        let cards = self.hand.total() + ck.commodities.total();
        let needs_brick = self.goals.first().is_some_and(|g| g.cost.get(Resource::Brick) > 0)
            && self.hand.get(Resource::Brick) < 2 + WALL.get(Resource::Brick);
        let production = self.board.vertex(vertex).map_or(0.0, |v| 0.01 * self.commodity_value(v));
        if cards > limit && !needs_brick {
            tier::ROAD_TO_SITE - 30.0 + production
        } else if cards + 2 > limit && !needs_brick && self.hand.get(Resource::Brick) >= 4 {
            tier::END_TURN + 1.0 + production
        } else {
            tier::POINTLESS
        }
    }

    /// The commodity the bot saves for next: the one whose track's next level is nearest.
    pub(super) fn commodity_wanted(&self, ck: &CkFacts, c: Commodity) -> u32 {
        let level = ck.levels[track_of(c) as usize];
        if level >= 5 {
            0
        } else {
            u32::from(level) + 1
        }
    }

    /// What a hand of resources and commodities is worth: the goals, plus the commodities
    /// the next improvements need.
    pub(super) fn cards_value(&self, resources: &Resources, commodities: &Commodities) -> f64 {
        let mut value = self.hand_value(resources);
        if let Some(ck) = &self.ck {
            for c in Commodity::ALL {
                let want = self.commodity_wanted(ck, c);
                let have = commodities.get(c);
                value += 0.6 * f64::from(have.min(want)) / f64::from(want.max(1)) + 0.01 * f64::from(have);
            }
            // Knights' cards when the defence is short.
            if self.defence_need(ck, ck.total) {
                value += 0.1 * f64::from(resources.get(Resource::Wool).min(1) + resources.get(Resource::Ore).min(1));
            }
            // Cards over the limit are a liability on a 7.
            let limit = 7 + 2 * ck.walls;
            let size = resources.total() + commodities.total();
            value -= 0.05 * f64::from(size.saturating_sub(limit));
        }
        value
    }

    /// Discarding on a 7: keep the cards worth most.
    pub(super) fn score_discard_cards(&self, cards: &Cards) -> f64 {
        let Some(ck) = &self.ck else { return tier::UNKNOWN };
        let resources = self.hand - cards.resources;
        let commodities = ck.commodities - cards.commodities;
        self.cards_value(&resources, &commodities)
    }

    /// A bank trade naming commodities: when it completes a goal or an improvement from
    /// cards no nearer goal needs.
    pub(super) fn score_card_trade(&self, give: &Cards, get: &Cards) -> f64 {
        let Some(ck) = &self.ck else { return tier::UNKNOWN };
        if give.resources.total() > 0 && give.commodities.is_empty() && get.commodities.is_empty() {
            // A plain resource trade: as the base game judges it.
            return self.score_bank_trade(&give.resources, &get.resources);
        }
        // Giving commodities: only those no improvement soon needs.
        for c in Commodity::ALL {
            let given = give.commodities.get(c);
            if given == 0 {
                continue;
            }
            let keep = self.commodity_wanted(ck, c);
            let have = ck.commodities.get(c);
            if have < keep + given && have < keep.max(given) * 2 {
                return tier::POINTLESS;
            }
        }
        if !give.resources.is_empty() {
            return tier::POINTLESS;
        }
        // Getting resources that complete a goal.
        let after = self.hand + get.resources;
        for (rank, goal) in self.goals.iter().enumerate() {
            let before = super::estimate::missing(&self.hand, &goal.cost);
            let then = super::estimate::missing(&after, &goal.cost);
            if before > 0 && then < before {
                return tier::TRADE_FOR_BUILD - 10.0 * rank as f64 - f64::from(then);
            }
        }
        let cards = self.hand.total() + ck.commodities.total();
        if cards > 7 + 2 * ck.walls {
            return tier::END_TURN + 2.0;
        }
        tier::POINTLESS
    }

    /// The city the barbarians take: the one that produces least.
    pub(super) fn score_city_to_lose(&self, vertex: VertexId) -> f64 {
        let Some(v) = self.board.vertex(vertex) else { return tier::UNKNOWN };
        let production: f64 = self
            .board
            .land_hexes_of(v)
            .filter_map(|h| {
                let r = self.board.terrain[h as usize].resource()?;
                Some(pips(self.board.numbers[h as usize]) * self.weight[r.index()])
            })
            .sum();
        let wall = if self.game.has_wall(vertex) { 2.0 } else { 0.0 };
        100.0 - production - self.commodity_value(v) - wall
    }

    /// The deck a Defender draws from: science (its Printer scores), then politics
    /// (its Constitution), then trade.
    pub(super) fn score_progress_deck(&self, track: Track) -> f64 {
        match track {
            Track::Science => 3.0,
            Track::Politics => 2.0,
            Track::Trade => 1.0,
        }
    }
}
