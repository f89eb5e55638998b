//! The decisions progress cards ask of seats, all in one phase, `card_decision`: its
//! [`CardDecision`] says what is awaited and from whom. Everything in it is public: a
//! decision never carries a hidden card (those reach their seat in events).

use serde::{Deserialize, Serialize};

use crate::model::{PendingDiscard, Seat};

/// What a `card_decision` phase waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CardDecision {
    /// CK-PC-5: these seats hold more progress cards than the limit and each discards
    /// `count` of them (`discard_progress_card`, one card per move), in any order.
    DiscardProgressCards { pending: Vec<PendingDiscard> },
    // Science cards' decisions (cards/science.rs) go above this line.
    /// Commercial Harbor (CK-PC-7): `seat`, given a resource by `to`, gives `to` one
    /// commodity of its choice (`give_commodity`).
    GiveCommodity { seat: Seat, to: Seat },
    /// Master Merchant (CK-PC-7): `seat`, shown `from`'s hand, takes `count` of its cards
    /// (`take_cards`).
    TakeCards { seat: Seat, from: Seat, count: u32 },
    // Trade cards' decisions (cards/trade.rs) go above this line.
    // Politics cards' decisions (cards/politics.rs) go above this line.
}

impl CardDecision {
    /// The seats the decision waits for, given the active seat.
    pub fn deciders(&self, _active: Seat) -> Vec<Seat> {
        match self {
            CardDecision::DiscardProgressCards { pending } => pending.iter().map(|p| p.seat).collect(),
            // Science cards' deciders go above this line.
            CardDecision::GiveCommodity { seat, .. } | CardDecision::TakeCards { seat, .. } => vec![*seat],
            // Trade cards' deciders go above this line.
            // Politics cards' deciders go above this line.
        }
    }
}
