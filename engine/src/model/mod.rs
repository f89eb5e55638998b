//! The game's generic state: seats and what they hold, the phase of the turn with the
//! decisions it waits for, and open trade offers. Rules live in `base/` and `ext/`; these
//! types only hold data.

pub mod cards;
mod in_place;
mod index_set;
mod inline_list;
mod kind_set;
mod per_seat;
mod phase;
mod phases;
mod player;
mod seat;
mod trade;

pub use cards::{cost, CardKind, Cards, Commodities, Commodity, Counts, DevCard, DevCards, Resource, Resources};
pub(crate) use in_place::PushInPlace;
pub(crate) use index_set::{indices_where, IndexSet};
pub use inline_list::InlineList;
pub use kind_set::KindSet;
pub use per_seat::{PerSeat, MAX_SEATS};
pub(crate) use phase::Turn;
pub use phase::{GoldSource, PendingDiscard, PendingGold, Phase, SetupStep};
pub use phases::Phases;
pub use player::{Building, BuildingKind, Pieces, PlayerState};
pub use seat::Seat;
pub use trade::TradeOffer;
