use serde::{Deserialize, Serialize};

use super::{Resources, Seat};

/// A domestic trade offer while it is open (B-TRD-5..8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TradeOffer {
    pub id: u32,
    pub from: Seat,
    /// The seats the offer is made to.
    pub to: Vec<Seat>,
    /// What the offerer gives.
    pub give: Resources,
    /// What the offerer wants in return.
    pub get: Resources,
    /// The offer this one answers, if it is a counter-offer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter_to: Option<u32>,
    pub accepted_by: Vec<Seat>,
    pub declined_by: Vec<Seat>,
}
