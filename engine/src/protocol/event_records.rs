//! The small records that events carry (a seat with its cards, a count, a starting roll), how
//! a game was won, and who looks at the game (what [`super::Event::redacted_for`] hides).

use serde::{Deserialize, Serialize};

use crate::model::{Commodities, Resources, Seat};

/// Cards that changed hands for one seat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeatResources {
    pub seat: Seat,
    pub resources: Resources,
}

/// A count for one seat (jungle discoveries).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeatCount {
    pub seat: Seat,
    pub count: u32,
}

/// A first-player roll (B-SET-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StartingRoll {
    pub seat: Seat,
    pub total: u8,
}

/// How a game was won.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum VictoryCondition {
    /// The victory point target on one's own turn (B-WIN-3).
    #[default]
    VictoryPoints,
    /// The fourth stage of one's wonder (WON-11 a).
    WonderCompleted,
    /// The victory point target with strictly more wonder stages than every other player
    /// (WON-11 b).
    VictoryPointsAndWonderLead,
    /// The game's turn limit was reached (`GameConfig::turn_limit`, engine decision): the
    /// seat with the most victory points wins; on a tie, the tied seat that would have played
    /// soonest (the one that played the fewest turns).
    TurnLimit,
    /// Fewer villages than `clv_end_villages_min` have cloth left (Cloth for Catan, CLV-14 b):
    /// the seat with the most victory points wins; on a tie the one with the most cloth, then
    /// the active seat, then the first tied seat clockwise from it.
    VillagesExhausted,
}

/// Who looks at the game: a seated player, or a spectator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

/// Commodity cards that changed hands for one seat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeatCommodities {
    pub seat: Seat,
    pub commodities: Commodities,
}
