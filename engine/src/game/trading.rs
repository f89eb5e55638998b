//! The terms of trade every ruleset's trade rules ask: who may trade now, a seat's maritime
//! rates (harbours, and what an extension adds as if by a harbour) and how many offers a
//! seat may keep open.

use crate::{
    board::HarbourKind,
    game::Game,
    model::{Resource, Resources, Seat},
    protocol::RuleError,
};

/// Most open offers one seat may have at once; keeps the offer list (and every view) small.
pub const MAX_OPEN_OFFERS_PER_SEAT: usize = 8;

/// Who may trade now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TradeWindow {
    /// Every seat with the active player (the main phase, B-TRD-5).
    Open,
    /// Only these two seats, with each other (e.g. X56-8).
    Between(Seat, Seat),
    /// Nobody, for this reason.
    Closed(RuleError),
}

impl TradeWindow {
    /// The one seat `seat` may trade with, when the window is between two seats.
    pub(crate) fn partner_of(&self, seat: Seat) -> Option<Seat> {
        match *self {
            TradeWindow::Between(a, b) if seat == a => Some(b),
            TradeWindow::Between(a, b) if seat == b => Some(a),
            _ => None,
        }
    }
}

/// The maritime rates a seat is entitled to (B-TRD-2..4, B-GEO-10): 4 for 1 always; 3 for 1
/// with a generic harbour; 2 for 1 in the resource of a special harbour. A harbour allows a
/// better rate, it never forbids a worse one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MaritimeRates {
    generic: bool,
    /// Resources whose 2:1 harbour the seat holds (1 each).
    special: Resources,
}

impl MaritimeRates {
    pub(crate) fn of(game: &Game, seat: Seat) -> Self {
        let bits_at = &game.board.vertex_harbour_bits;
        // A seat's few buildings, when kept, are fewer to look at than the board's harbours
        // (this runs for every listing of a hand that can trade).
        let held = match game.buildings_of(seat) {
            Some(buildings) => buildings.iter().fold(0, |held, v| held | bits_at[v as usize]),
            None => game
                .board
                .harbour_vertices
                .iter()
                .filter(|&&v| game.buildings[v as usize].is_some_and(|b| b.seat == seat))
                .fold(0, |held, &v| held | bits_at[v as usize]),
        };
        let mut rates = MaritimeRates { generic: held & HarbourKind::GENERIC_BIT != 0, special: Resources::ZERO };
        for (i, resource) in Resource::ALL.into_iter().enumerate() {
            rates.special.set(resource, u32::from(held >> i) & 1);
        }
        // Resources at 2:1 as if by a harbour, by a variant's rules (CK-MER-2).
        for extension in &game.rules().extensions {
            extension.two_for_one(game, seat, &mut rates.special);
        }
        rates
    }

    /// Whether the seat holds a generic 3:1 harbour (B-TRD-3).
    pub(crate) fn generic(&self) -> bool {
        self.generic
    }

    /// The rates for `resource`, best first.
    pub(crate) fn entitled(&self, resource: Resource) -> impl Iterator<Item = u32> {
        let special = self.special.get(resource) > 0;
        [(special, 2), (self.generic, 3), (true, 4)].into_iter().filter_map(|(held, rate)| held.then_some(rate))
    }

    /// The best rate for `resource`.
    pub(crate) fn best(&self, resource: Resource) -> u32 {
        self.entitled(resource).next().unwrap_or(4)
    }

    /// How many single trades `given` cards of `resource` can make, each at an entitled
    /// rate: the counts lie in an interval (the rates 2-4 combine to every sum between the
    /// smallest and the largest, except that 2 and 4 alone make only even sums).
    pub(crate) fn trade_counts(&self, resource: Resource, given: u32) -> Option<(u32, u32)> {
        if given == 0 {
            return Some((0, 0));
        }
        let smallest = self.best(resource);
        let only_even = smallest == 2 && !self.generic;
        if only_even && given % 2 == 1 {
            return None;
        }
        let (fewest, most) = (given.div_ceil(4), given / smallest);
        (fewest <= most).then_some((fewest, most))
    }
}

/// Returns `seat`'s best bank rate for each resource: 4, 3 or 2 (B-TRD-2..4).
pub(crate) fn bank_rates(game: &Game, seat: Seat) -> Resources {
    let rates = MaritimeRates::of(game, seat);
    let mut best = Resources::ZERO;
    for resource in Resource::ALL {
        best.set(resource, rates.best(resource));
    }
    best
}
