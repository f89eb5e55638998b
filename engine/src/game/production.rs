//! What one roll yields before the bank-shortage rule: the tally every ruleset's hexes add to
//! (the base game's terrain, Cities & Knights' commodities, the jungle's discoveries).

use crate::model::{BuildingKind, Resources};

/// One roll's tally fits on the stack: one entry per seat.
pub(crate) use crate::model::MAX_SEATS;

/// What one roll yields, per seat index, before the bank-shortage rule: resource cards, and
/// the counters extensions produce (jungle discoveries).
#[derive(Debug, Clone)]
pub(crate) struct Production {
    pub resources: [Resources; MAX_SEATS],
    pub discoveries: [u32; MAX_SEATS],
}

/// Cards a building takes from a producing hex (B-PROD-1).
pub(crate) fn building_yield(kind: BuildingKind) -> u32 {
    match kind {
        BuildingKind::Settlement => 1,
        BuildingKind::City => 2,
    }
}
