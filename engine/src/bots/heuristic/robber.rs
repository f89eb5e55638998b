//! The robber: where to put it and whom to rob (a 7 or a knight), when to play a knight, and
//! what to discard on a 7.

use crate::{Bandit, HexCoord, Move, Phase, Resource, Resources, Seat};

use super::{estimate::pips, tier, BuildingKind, Ctx};

impl Ctx<'_> {
    /// Value of putting the robber on `hex` and stealing from `victim`.
    pub(super) fn robber_score(&self, hex: HexCoord, victim: Option<Seat>) -> f64 {
        let Some(h) = self.board.hex(hex) else {
            return 0.0;
        };
        let p = pips(self.board.numbers.get(h as usize).copied().flatten());
        let mut score = 0.0;
        for &v in self.board.hex_vertices.get(h as usize).into_iter().flatten() {
            let Some(Some(b)) = self.buildings.get(v as usize) else {
                continue;
            };
            let mult = if b.kind == BuildingKind::City { 2.0 } else { 1.0 };
            if b.seat == self.me {
                // Never on the bot's own hex while another will do.
                score -= 100.0 + 3.0 * p * mult;
            } else {
                score += p * mult * self.threat(b.seat);
            }
        }
        score + self.theft_value(victim)
    }

    /// What stealing a card from `victim` is worth.
    pub(super) fn theft_value(&self, victim: Option<Seat>) -> f64 {
        let Some(victim) = victim else { return 0.0 };
        let cards = self.hand_sizes.get(victim.index()).copied().unwrap_or(0);
        1.0 + 0.5 * self.threat(victim) + 0.2 * f64::from(cards.min(10))
    }

    /// Value of putting the pirate on sea hex `hex` and stealing from `victim` (SEA-7/8). The
    /// pirate blocks no production, only ships on its sides: it robs as the robber does,
    /// holds up the opponents' ships there (the leader's most) and should not sit on the
    /// bot's own routes. It wins over the robber when the robber has no good target.
    pub(super) fn pirate_score(&self, hex: HexCoord, victim: Option<Seat>) -> f64 {
        let Some(h) = self.board.hex(hex) else {
            return 0.0;
        };
        let mut score = 0.0;
        for side in self.board.hexes[h as usize].sides() {
            let Some(e) = self.board.edge(side) else { continue };
            match self.ships.get(e as usize).copied().flatten() {
                Some(owner) if owner == self.me => score -= 2.0,
                Some(owner) => score += 0.5 * self.threat(owner),
                None if self.ship_lead.get(e as usize).is_some_and(|l| l.is_finite()) => score -= 1.0,
                None => {}
            }
        }
        score + self.theft_value(victim)
    }

    /// A knight: before the roll or now when it is urgent, else kept (unless nothing better
    /// is held); among knights, the best robber placement.
    pub(super) fn score_knight(&self, hex: HexCoord, steal_from: Option<Seat>, bandit: Bandit, moves: &[Move]) -> f64 {
        let in_pre_roll = matches!(self.game.phase(), Phase::PreRoll);
        let placement = match bandit {
            Bandit::Robber => self.robber_score(hex, steal_from),
            Bandit::Pirate => self.pirate_score(hex, steal_from),
        } / 100.0;
        if self.knight_is_urgent() {
            if in_pre_roll {
                tier::ROLL + 100.0 + placement
            } else {
                tier::PLAY_CARD_NOW - 50.0 + placement
            }
        } else if in_pre_roll || self.holds_useful_progress_card(moves) {
            tier::POINTLESS + placement
        } else {
            tier::SPARE_CARD + placement
        }
    }

    /// A knight now frees the bot's production, or wins or defends Largest Army.
    fn knight_is_urgent(&self) -> bool {
        if self.blocked_pips() >= 2.0 {
            return true;
        }
        let mine = self.knights.get(self.me.index()).copied().unwrap_or(0);
        let holder = self.game.largest_army_holder();
        let best_other =
            self.knights.iter().enumerate().filter(|(i, _)| *i != self.me.index()).map(|(_, k)| *k).max().unwrap_or(0);
        if holder == Some(self.me) {
            best_other + 1 >= mine
        } else {
            let holder_knights = holder.and_then(|s| self.knights.get(s.index()).copied()).unwrap_or(2);
            mine + 1 > holder_knights
        }
    }

    /// Pips of the bot's own production that the robber blocks now.
    fn blocked_pips(&self) -> f64 {
        let Some(h) = self.robber else { return 0.0 };
        let p = pips(self.board.numbers.get(h as usize).copied().flatten());
        self.board
            .hex_vertices
            .get(h as usize)
            .into_iter()
            .flatten()
            .filter_map(|&v| self.buildings.get(v as usize).copied().flatten())
            .filter(|b| b.seat == self.me)
            .map(|b| if b.kind == BuildingKind::City { 2.0 * p } else { p })
            .sum()
    }

    /// How much an opponent should be held back: more for more points, most for the leader
    /// and for anyone close to winning.
    pub(super) fn threat(&self, seat: Seat) -> f64 {
        if seat == self.me {
            return 0.0;
        }
        let points = self.points.get(seat.index()).copied().unwrap_or(0);
        let best_other =
            self.points.iter().enumerate().filter(|(i, _)| *i != self.me.index()).map(|(_, p)| *p).max().unwrap_or(0);
        let mut threat = 1.0 + f64::from(points) / 2.0;
        if points == best_other {
            threat += 1.5;
        }
        if points + 2 >= self.vp_target {
            threat += 4.0;
        }
        // Wonders of Catan: stages win the game (WON-11).
        threat += 1.5 * f64::from(self.stages_of(seat));
        if self.near_wonder_win(seat) {
            threat += 4.0;
        }
        threat
    }

    /// A discard on a 7: the one that loses the least of what the bot wants to keep.
    pub(super) fn score_discard(&self, discard: &Resources) -> f64 {
        let mut lost = 0.0;
        for r in Resource::ALL {
            let held = self.hand.get(r);
            let gone = discard.get(r).min(held);
            for k in (held - gone + 1)..=held {
                lost += self.keep_value(r, k);
            }
        }
        -lost
    }

    /// How much the bot wants to keep the `k`-th card (1-based) of resource `r`.
    fn keep_value(&self, r: Resource, k: u32) -> f64 {
        let first = self.goals.first().map_or(0, |g| g.cost.get(r));
        let other = self.goals.iter().skip(1).map(|g| g.cost.get(r)).max().unwrap_or(0);
        let base = if k <= first {
            10.0
        } else if k <= other {
            5.0
        } else if k <= self.rates[r.index()] && self.rates[r.index()] == 2 {
            2.0
        } else {
            1.0
        };
        // Cards the bot rarely produces are harder to replace.
        let own = self.own_production()[r.index()];
        base + if own < 0.5 { 0.5 } else { 0.0 } - 0.01 * f64::from(k)
    }
}
