//! The wire types of Cities & Knights that the shared model and `protocol/` name, importing
//! nothing from the rest of the extension, so the dependency runs one way.
//!
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
    /// CK-PC-7 Deserter: `seat` removes one of its knights (`remove_knight`) for `by`.
    RemoveKnight { seat: Seat, by: Seat },
    /// CK-PC-7 Deserter: `seat` may place its knight of `rank` for free, `active` or not as
    /// the deserted one was (`place_deserter_knight`, or decline).
    PlaceDeserterKnight { seat: Seat, rank: u8, active: bool },
    /// CK-PC-7 Spy: `seat` has seen `target`'s progress cards and takes one that is not a VP
    /// card (`take_progress_card`); only `seat` sees them in its view meanwhile.
    TakeProgressCard { seat: Seat, target: Seat },
    /// CK-PC-7 Wedding: the seats in `pending`, with more points than `to`, each give it two
    /// resource or commodity cards of their choice (`give_cards`), in any order.
    GiveCards { to: Seat, pending: Vec<Seat> },
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
            CardDecision::RemoveKnight { seat, .. }
            | CardDecision::PlaceDeserterKnight { seat, .. }
            | CardDecision::TakeProgressCard { seat, .. } => vec![*seat],
            CardDecision::GiveCards { pending, .. } => pending.clone(),
            // Politics cards' deciders go above this line.
        }
    }
}
