//! Wonders of Catan (WON-8..11): claiming the wonder whose stages the bot can pay soonest,
//! building its stages, and, while it has none, steering its building toward a condition.
//!
//! Stages are the scenario's currency: the fourth wins outright, and the points win only
//! with strictly more stages than everyone else. So once the bot owns a wonder, a stage
//! comes before every other build, and nothing else (city, settlement, road, ship,
//! development card) may spend a card the next stage still needs, unless the bot leads in
//! stages and is within two points of the target, when points finish the game sooner.
//! Before it owns one, the free wonders' conditions bend its choices: cities before
//! settlements for the Theater and the Cathedral, a settlement on the strait or the
//! wasteland for the Great Bridge and the Great Wall (roads and ships head there), a city on
//! a harbour for the Colossus. It claims as soon as it may, choosing among the claimable
//! wonders the one whose stage cost its production pays soonest.

use crate::{cost, Move, Phase, Requirement, Resource, Resources, Seat, WonderId, WONDER_STAGES};

use super::{estimate::missing, tier, BuildingKind, Ctx};

/// Site value a settlement earns on a vertex that meets a free wonder's condition (a strait
/// or wasteland vertex): as much as a fine site, since it opens the scenario's goal.
const CONDITION_SITE: f64 = 12.0;
/// Site value of a harbour vertex while the Colossus (a city on a harbour) is free.
const HARBOUR_SITE: f64 = 2.0;
/// What a city on a harbour adds among cities while the Colossus is free.
const CONDITION_CITY: f64 = 30.0;

/// What the bot knows of the wonders, read once per decision.
pub(super) struct WonderFacts {
    /// The bot's own wonder: its stages built and the cost of a stage.
    own: Option<(u8, Resources)>,
    /// Per seat: stages built.
    stages: Vec<u8>,
    /// The wonders nobody has claimed, with their condition and stage cost; empty once the
    /// bot has its own (a seat claims one only).
    free: Vec<(WonderId, Vec<Requirement>, Resources)>,
    /// Per vertex: what a settlement there adds toward a free wonder's condition.
    site_bonus: Vec<f64>,
    /// Per vertex: what a city there adds toward a free wonder's condition.
    city_bonus: Vec<f64>,
}

impl WonderFacts {
    /// Whether a free wonder's condition has a part for which `pred` holds.
    fn wants(&self, pred: impl Fn(&Requirement) -> bool) -> bool {
        self.free.iter().any(|(_, reqs, _)| reqs.iter().any(&pred))
    }

    fn stages_of(&self, seat: Seat) -> u8 {
        self.stages.get(seat.index()).copied().unwrap_or(0)
    }
}

impl Ctx<'_> {
    /// Reads the wonders (Wonders of Catan only): who owns which, the stages, and where the
    /// free ones' conditions could be met.
    pub(super) fn read_wonders(&mut self) {
        let views = self.game.wonders();
        if views.is_empty() {
            return;
        }
        let vertex_count = self.board.vertices.len();
        let mut facts = WonderFacts {
            own: None,
            stages: vec![0; self.players],
            free: Vec::new(),
            site_bonus: vec![0.0; vertex_count],
            city_bonus: vec![0.0; vertex_count],
        };
        for view in views {
            match view.owner {
                Some(seat) => {
                    if let Some(s) = facts.stages.get_mut(seat.index()) {
                        *s = view.stages_built;
                    }
                    if seat == self.me {
                        facts.own = Some((view.stages_built, view.stage_cost));
                    }
                }
                None => facts.free.push((view.wonder, view.requirements, view.stage_cost)),
            }
        }
        if facts.own.is_some() {
            facts.free.clear();
        } else if self.ships_left > 0 {
            self.steer(&mut facts);
            // The last ship waits in supply for the claim (`wonder_ship_reserved`).
            if self.game.config().wonder_ship_reserved {
                self.ships_left -= 1;
            }
        }
        self.wonders = Some(facts);
    }

    /// Where the free wonders' conditions could be met: a settlement on the marked vertices
    /// their cards name (WON-9), a city (and the settlement before it) on a harbour.
    fn steer(&self, facts: &mut WonderFacts) {
        for (set, vertices) in self.game.marked_vertices() {
            if !facts.wants(|r| *r == Requirement::SettlementOn { set }) {
                continue;
            }
            for id in vertices {
                if let Some(v) = self.board.vertex(id) {
                    facts.site_bonus[v as usize] = CONDITION_SITE;
                }
            }
        }
        if facts.wants(|r| *r == Requirement::CityOnHarbour) && !self.has_city_on_harbour() {
            for (v, harbour) in self.board.vertex_harbour.iter().enumerate() {
                if harbour.is_some() {
                    facts.site_bonus[v] = facts.site_bonus[v].max(HARBOUR_SITE);
                    facts.city_bonus[v] = CONDITION_CITY;
                }
            }
        }
    }

    fn has_city_on_harbour(&self) -> bool {
        self.buildings.iter().zip(&self.board.vertex_harbour).any(|(building, harbour)| {
            harbour.is_some() && building.is_some_and(|b| b.seat == self.me && b.kind == BuildingKind::City)
        })
    }

    /// Whether a free wonder needs cities the bot lacks (the Theater's two, the Cathedral's
    /// one, the Colossus' on a harbour): then it saves for a city before a settlement.
    pub(super) fn wonder_wants_cities(&self) -> bool {
        let Some(facts) = &self.wonders else { return false };
        let cities =
            self.buildings.iter().flatten().filter(|b| b.seat == self.me && b.kind == BuildingKind::City).count();
        facts.wants(|r| match *r {
            Requirement::CitiesAtLeast { count } => cities < usize::from(count),
            Requirement::CityOnHarbour => true,
            _ => false,
        })
    }

    /// The site value a settlement on `v` adds toward a free wonder's condition.
    pub(super) fn wonder_site_bonus(&self, v: u16) -> f64 {
        self.wonders.as_ref().and_then(|f| f.site_bonus.get(v as usize).copied()).unwrap_or(0.0)
    }

    /// What a city on `v` adds toward a free wonder's condition.
    pub(super) fn wonder_city_bonus(&self, v: u16) -> f64 {
        self.wonders.as_ref().and_then(|f| f.city_bonus.get(v as usize).copied()).unwrap_or(0.0)
    }

    /// The cost of the bot's next stage, while it owns an unfinished wonder.
    pub(super) fn stage_goal_cost(&self) -> Option<Resources> {
        let (stages, cost) = self.wonders.as_ref()?.own?;
        (stages < WONDER_STAGES).then_some(cost)
    }

    /// Rough turns the bot needs to gather `cost`: per resource, its own production plus bank
    /// trades of the resources the cost does not use.
    fn turns_to_gather(&self, cost: &Resources) -> f64 {
        let own = self.own_production();
        let per_turn = |r: Resource| own[r.index()] / 36.0 * self.players as f64;
        let traded: f64 = Resource::ALL
            .iter()
            .filter(|&&r| cost.get(r) == 0)
            .map(|&r| per_turn(r) / f64::from(self.rates[r.index()].max(1)))
            .sum();
        Resource::ALL
            .iter()
            .filter(|&&r| cost.get(r) > 0)
            .map(|&r| f64::from(cost.get(r)) / (per_turn(r) + traded).max(0.05))
            .sum()
    }

    /// Claiming a wonder (WON-8): free but for a ship, so at once; of the wonders the bot may
    /// claim, the one whose stages it pays soonest.
    pub(super) fn score_claim(&self, wonder: WonderId) -> f64 {
        let Some(facts) = &self.wonders else { return tier::UNKNOWN };
        match facts.free.iter().find(|(id, _, _)| *id == wonder) {
            Some((_, _, cost)) => tier::CLAIM_WONDER - self.turns_to_gather(cost).min(100.0),
            None => tier::UNKNOWN,
        }
    }

    /// A stage of the bot's wonder (WON-10): a winning one above all (the fourth, or the
    /// stage lead at the points target, WON-11), else before every other build.
    pub(super) fn score_stage(&self) -> f64 {
        let Some((facts, (stages, _))) = self.wonders.as_ref().and_then(|f| Some((f, f.own?))) else {
            return tier::UNKNOWN;
        };
        let after = stages + 1;
        let lead = self.game.seats().filter(|&s| s != self.me).all(|s| facts.stages_of(s) < after);
        if after >= WONDER_STAGES || (lead && self.own_points() >= self.vp_target) {
            return tier::CLAIM_WONDER + 100.0;
        }
        tier::WONDER_STAGE
    }

    fn own_points(&self) -> u32 {
        self.points.get(self.me.index()).copied().unwrap_or(0)
    }

    /// Whether `mv` would spend a card the bot's next stage still needs. Not when the bot
    /// leads in stages and is two points from the target: then points may end the game first.
    pub(super) fn delays_stage(&self, mv: &Move) -> bool {
        let Some(stage) = self.stage_goal_cost() else { return false };
        let free_piece = matches!(self.game.phase(), Phase::RoadBuilding { .. });
        let price = match mv {
            Move::BuildCity { .. } => cost::CITY,
            Move::BuildSettlement { .. } => cost::SETTLEMENT,
            Move::BuildRoad { .. } if !free_piece => cost::ROAD,
            Move::BuildShip { .. } if !free_piece => cost::SHIP,
            Move::BuyDevelopmentCard => cost::DEVELOPMENT_CARD,
            _ => return false,
        };
        missing(&(self.hand - price), &stage) > missing(&self.hand, &stage) && !self.racing_on_points()
    }

    /// The bot leads in stages and is within two points of the target (WON-11 b).
    fn racing_on_points(&self) -> bool {
        let Some(facts) = &self.wonders else { return false };
        let own = facts.stages_of(self.me);
        let lead = self.game.seats().filter(|&s| s != self.me).all(|s| facts.stages_of(s) < own);
        lead && self.own_points() + 2 >= self.vp_target
    }

    /// Whether `seat` is a stage from finishing its wonder (WON-11 a).
    pub(super) fn near_wonder_win(&self, seat: Seat) -> bool {
        self.wonders.as_ref().is_some_and(|f| f.stages_of(seat) + 1 >= WONDER_STAGES)
    }

    /// Stages `seat` has built (0 outside Wonders of Catan).
    pub(super) fn stages_of(&self, seat: Seat) -> u8 {
        self.wonders.as_ref().map_or(0, |f| f.stages_of(seat))
    }
}
