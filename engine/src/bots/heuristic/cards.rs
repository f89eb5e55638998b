//! Playing the progress cards: year of plenty, monopoly, road building. (The knight moves
//! the robber: see `robber`.)

use crate::{Move, Resource, Resources};

use super::{estimate::missing, tier, Ctx};

impl Ctx<'_> {
    /// Whether a progress card the bot could play now would be worth more than a knight.
    pub(super) fn holds_useful_progress_card(&self, moves: &[Move]) -> bool {
        moves.iter().any(|m| match m {
            Move::PlayYearOfPlenty { resources } => self.score_year_of_plenty(resources) > tier::SPARE_CARD,
            Move::PlayMonopoly { resource } => self.score_monopoly(*resource) > tier::SPARE_CARD,
            Move::PlayRoadBuilding => !self.site_now && self.has_route_plan(),
            _ => false,
        })
    }

    /// Year of Plenty: now when the cards complete a goal, else kept.
    pub(super) fn score_year_of_plenty(&self, take: &Resources) -> f64 {
        let after = self.hand + *take;
        for (rank, goal) in self.goals.iter().enumerate() {
            let before = missing(&self.hand, &goal.cost);
            if before > 0 && missing(&after, &goal.cost) == 0 {
                return tier::PLAY_CARD_NOW - 10.0 * rank as f64;
            }
        }
        // Otherwise hold the card, unless it is late and the card would only rot.
        let progress =
            self.goals.first().map_or(0, |g| missing(&self.hand, &g.cost).saturating_sub(missing(&after, &g.cost)));
        tier::END_TURN - 5.0 + f64::from(progress)
    }

    /// Expected cards of `r` held by the others, from their hand sizes and what they produce.
    fn expected_cards(&self, r: Resource) -> f64 {
        self.production
            .iter()
            .zip(&self.hand_sizes)
            .enumerate()
            .filter(|(i, _)| *i != self.me.index())
            .map(|(_, (prod, &cards))| {
                let share = (prod[r.index()] + 0.5) / (prod.iter().sum::<f64>() + 2.5);
                f64::from(cards) * share
            })
            .sum()
    }

    /// Monopoly: now when the others likely hold enough of `r` to be worth it.
    pub(super) fn score_monopoly(&self, r: Resource) -> f64 {
        let expected = self.expected_cards(r);
        let needed = self.goals.first().is_some_and(|g| g.cost.get(r) > self.hand.get(r));
        let use_factor = if needed {
            1.5
        } else if self.rates[r.index()] == 2 {
            1.2
        } else {
            0.6
        };
        let value = expected * use_factor;
        if value >= 3.0 {
            tier::PLAY_CARD_NOW - 60.0 + value
        } else {
            tier::END_TURN - 5.0 + value
        }
    }

    /// Road Building (roads or ships, SEA-11): now when there is a site to reach, else kept
    /// for later.
    pub(super) fn score_road_building(&self) -> f64 {
        if self.roads_left + self.ships_left == 0 {
            tier::POINTLESS
        } else if !self.site_now && self.has_route_plan() {
            tier::PLAY_CARD_NOW - 100.0
        } else {
            tier::SPARE_CARD - 2.0
        }
    }
}
