//! Trading: the bot's bank rates, trades with the bank, and answers to domestic offers.

use crate::{
    board::{Board, HarbourKind},
    Cards, Resource, Resources, Seat,
};

use super::{estimate::missing, tier, Building, Ctx, TradeOffer, SHED_ABOVE};

/// The bank rate per resource of `me` through its harbours (B-TRD-2..4), and whether it has
/// a generic 3:1 harbour. `buildings` is indexed by vertex.
pub(super) fn bank_rates(board: &Board, buildings: &[Option<Building>], me: Seat) -> ([u32; 5], bool) {
    let mut rates = [4u32; 5];
    let mut has_generic_harbour = false;
    for (v, building) in buildings.iter().enumerate() {
        if !building.is_some_and(|b| b.seat == me) {
            continue;
        }
        match board.vertex_harbour.get(v).copied().flatten() {
            Some(HarbourKind::Generic3) => {
                has_generic_harbour = true;
                for rate in &mut rates {
                    *rate = (*rate).min(3);
                }
            }
            Some(kind) => {
                if let Some(r) = kind.special_resource() {
                    rates[r.index()] = 2;
                }
            }
            None => {}
        }
    }
    (rates, has_generic_harbour)
}

/// Element-wise maximum of two bundles.
fn max_each(a: &Resources, b: &Resources) -> Resources {
    let mut out = Resources::ZERO;
    for r in Resource::ALL {
        out.set(r, a.get(r).max(b.get(r)));
    }
    out
}

/// The single resource type of a one-type bundle (what a bank trade gives or gets).
fn only_type(bundle: &Resources) -> Option<Resource> {
    let mut types = bundle.types();
    let first = types.next()?;
    types.next().is_none().then_some(first)
}

impl Ctx<'_> {
    /// A bank trade is worth it when it completes (with the trades that follow) the first
    /// goal it can complete, giving only cards that no more wanted goal needs.
    pub(super) fn score_bank_trade(&self, give: &Resources, get: &Resources) -> f64 {
        let (Some(out), Some(into)) = (only_type(give), only_type(get)) else {
            return tier::POINTLESS;
        };
        let bank = self.game.bank();
        let mut reserved = Resources::ZERO;
        for (rank, goal) in self.goals.iter().enumerate() {
            let need = missing(&self.hand, &goal.cost);
            if need == 0 {
                // Affordable already: build it rather than trade.
                return tier::POINTLESS;
            }
            let keep = max_each(&reserved, &goal.cost);
            reserved = keep;
            let mut achievable = 0;
            for r in Resource::ALL {
                let surplus = self.hand.get(r).saturating_sub(keep.get(r));
                achievable += surplus / self.rates[r.index()].max(1);
            }
            let wanted = Resource::ALL
                .iter()
                .filter(|&&r| goal.cost.get(r) > self.hand.get(r))
                .all(|&r| bank.get(r) >= goal.cost.get(r) - self.hand.get(r));
            if achievable < need || !wanted {
                continue;
            }
            let gives_surplus = self.hand.get(out) >= give.get(out) + keep.get(out);
            let gets_needed = goal.cost.get(into) > self.hand.get(into);
            if gives_surplus && gets_needed {
                let surplus = self.hand.get(out).saturating_sub(keep.get(out));
                return tier::TRADE_FOR_BUILD - 10.0 * rank as f64 + 0.1 * f64::from(surplus);
            }
            return tier::POINTLESS;
        }
        // Nothing to complete: shed cards before a 7 can halve the hand, trading the most
        // plentiful card for one a goal lacks.
        if self.hand.total() > SHED_ABOVE {
            let wanted = self.goals.iter().position(|g| g.cost.get(into) > self.hand.get(into));
            let most = Resource::ALL.iter().map(|&r| self.hand.get(r)).max().unwrap_or(0);
            if let Some(rank) = wanted {
                if self.hand.get(out) == most && self.hand.get(out) > reserved.get(out) {
                    return tier::END_TURN + 3.0 - rank as f64 * 0.1;
                }
            }
        }
        tier::POINTLESS
    }

    /// The open offer `offer_id`.
    fn offer(&self, offer_id: u32) -> Option<&TradeOffer> {
        self.game.open_offers().iter().find(|o| o.id == offer_id)
    }

    /// Whether `seat` is within two points of winning, or a stage from finishing its wonder.
    fn near_win(&self, seat: Seat) -> bool {
        self.points.get(seat.index()).copied().unwrap_or(0) + 2 >= self.vp_target || self.near_wonder_win(seat)
    }

    /// Accept an offer made to the bot when it helps and does not feed a player near victory.
    pub(super) fn score_accept(&self, offer_id: u32) -> f64 {
        let Some(offer) = self.offer(offer_id) else {
            return tier::POINTLESS;
        };
        if self.near_win(offer.from) {
            return tier::POINTLESS;
        }
        if offer.names_commodities() {
            // Cities & Knights: commodities count by what the next improvements need.
            return match self.cards_gain(&offer.get_cards(), &offer.give_cards()) {
                Some(gain) if gain > 0.05 && offer.give_cards().total() >= offer.get_cards().total() => {
                    tier::ACCEPT_TRADE + gain
                }
                _ => tier::POINTLESS,
            };
        }
        // The bot receives what the offerer gives and pays what the offerer wants.
        let after = self.hand - offer.get + offer.give;
        let gain = self.hand_value(&after) - self.hand_value(&self.hand);
        if gain > 0.05 && offer.give.total() >= offer.get.total() {
            tier::ACCEPT_TRADE + gain
        } else {
            tier::POINTLESS
        }
    }

    /// Confirm a trade with a seat that accepted the bot's offer, when the hand gains and
    /// that seat is not close to winning.
    pub(super) fn score_confirm(&self, offer_id: u32, with: Seat) -> f64 {
        let Some(offer) = self.offer(offer_id) else {
            return tier::UNKNOWN;
        };
        let gains = if offer.names_commodities() {
            self.cards_gain(&offer.give_cards(), &offer.get_cards()).is_some_and(|gain| gain > 0.0)
        } else {
            let after = self.hand - offer.give + offer.get;
            self.hand_value(&after) > self.hand_value(&self.hand)
        };
        if gains && !self.near_win(with) {
            tier::CONFIRM_TRADE
        } else {
            tier::POINTLESS
        }
    }

    /// What the bot's resources and commodities gain in value when it pays `out` and
    /// receives `into` (Cities & Knights); `None` in other games, which have no commodities.
    fn cards_gain(&self, out: &Cards, into: &Cards) -> Option<f64> {
        let ck = self.ck.as_ref()?;
        let before = self.cards_value(&self.hand, &ck.commodities);
        let resources = self.hand - out.resources + into.resources;
        let commodities = ck.commodities - out.commodities + into.commodities;
        Some(self.cards_value(&resources, &commodities) - before)
    }
}
