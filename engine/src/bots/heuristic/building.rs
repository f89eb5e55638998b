//! What the bot saves for (its goals), cities, and buying development cards.

use crate::{board::Terrain, Resource, Resources, VertexId};

use super::{
    cost,
    estimate::{missing, pips},
    roads::Piece,
    tier, BuildingKind, Ctx,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GoalKind {
    Settlement,
    City,
    Road,
    Ship,
    DevCard,
    WonderStage,
}

/// Something the bot saves for, in priority order.
#[derive(Debug, Clone, Copy)]
pub(super) struct Goal {
    kind: GoalKind,
    pub(super) cost: Resources,
}

impl Ctx<'_> {
    /// What to save for, most wanted first.
    pub(super) fn plan_goals(&mut self) {
        let mut goals = Vec::new();
        let own_settlements =
            self.buildings.iter().flatten().filter(|b| b.seat == self.me && b.kind == BuildingKind::Settlement).count();
        if self.site_now {
            goals.push(Goal { kind: GoalKind::Settlement, cost: cost::SETTLEMENT });
        }
        if self.cities_left > 0 && own_settlements > 0 {
            goals.push(Goal { kind: GoalKind::City, cost: cost::CITY });
        }
        // Of settlement and city, save first for the one closer to hand; the city when a
        // free wonder needs cities.
        if goals.len() == 2 && (self.eta(&goals[1].cost) < self.eta(&goals[0].cost) || self.wonder_wants_cities()) {
            goals.swap(0, 1);
        }
        // A wonder stage before everything else (WON-10, WON-11).
        if let Some(cost) = self.stage_goal_cost() {
            goals.insert(0, Goal { kind: GoalKind::WonderStage, cost });
        }
        // Save for the piece that starts the better route; roads first on a tie.
        if !self.site_now && self.has_route_plan() {
            let by_ship = self.ships_left > 0 && self.best_lead(Piece::Ship) > self.best_lead(Piece::Road);
            goals.push(if by_ship {
                Goal { kind: GoalKind::Ship, cost: cost::SHIP }
            } else {
                Goal { kind: GoalKind::Road, cost: cost::ROAD }
            });
        }
        if self.game.cards_for_sale() > 0 {
            goals.push(Goal { kind: GoalKind::DevCard, cost: cost::DEVELOPMENT_CARD });
        }
        self.goals = goals;
    }

    /// Rough turns until the bot holds `cost`: the slowest missing resource at its own
    /// production rate (a card a turn at worst, through trades).
    fn eta(&self, cost: &Resources) -> f64 {
        let own = self.own_production();
        Resource::ALL
            .iter()
            .map(|&r| {
                let short = cost.get(r).saturating_sub(self.hand.get(r));
                let per_turn = (own[r.index()] / 36.0 * self.players as f64).max(0.25);
                f64::from(short) / per_turn
            })
            .sum()
    }

    /// A city: its tier, ordered by the production it doubles.
    pub(super) fn score_city(&self, vertex: VertexId) -> f64 {
        tier::CITY
            + self
                .board
                .vertex(vertex)
                .map_or(0.0, |v| self.settlement_production(v) + self.wonder_city_bonus(v) + self.commodity_value(v))
    }

    /// The production of the bot's settlement on `v` (what a city there doubles).
    fn settlement_production(&self, v: u16) -> f64 {
        self.board
            .land_hexes_of(v)
            .filter(|&h| Some(h) != self.robber)
            .filter_map(|h| {
                let weight = match self.board.terrain[h as usize] {
                    Terrain::Gold => self.gold_weight(),
                    terrain => self.weight[terrain.resource()?.index()],
                };
                Some(pips(self.board.numbers[h as usize]) * weight)
            })
            .sum()
    }

    /// Buying a development card for `price` (less with Jungle discoveries).
    pub(super) fn score_buy_card(&self, price: &Resources) -> f64 {
        let after = self.hand - *price;
        let hurts = self.goals.iter().any(|g| {
            matches!(g.kind, GoalKind::City | GoalKind::Settlement | GoalKind::WonderStage)
                && missing(&after, &g.cost) > missing(&self.hand, &g.cost)
        });
        // Cards are points, knights and progress: worth buying whenever affordable, though
        // after the builds (and trades for builds) that the cards would delay.
        if hurts {
            tier::DEV_CARD - 300.0
        } else {
            tier::DEV_CARD
        }
    }
}
