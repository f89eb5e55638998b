use serde::{Deserialize, Serialize};

use super::{Cards, Commodities, Counts, Resources, Seat};

/// A domestic trade offer while it is open (B-TRD-5..8). In Cities & Knights an offer may
/// also name commodities (CK-TRD-1); the commodity fields are omitted when empty.
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
    /// Commodities the offerer gives besides `give` (Cities & Knights, CK-TRD-1).
    #[serde(default, skip_serializing_if = "Counts::is_empty")]
    pub give_commodities: Commodities,
    /// Commodities the offerer wants besides `get` (Cities & Knights, CK-TRD-1).
    #[serde(default, skip_serializing_if = "Counts::is_empty")]
    pub get_commodities: Commodities,
    /// The offer this one answers, if it is a counter-offer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter_to: Option<u32>,
    pub accepted_by: Vec<Seat>,
    pub declined_by: Vec<Seat>,
}

impl TradeOffer {
    /// Every card the offerer gives: resources and commodities.
    pub fn give_cards(&self) -> Cards {
        Cards::new(self.give, self.give_commodities)
    }

    /// Every card the offerer wants in return.
    pub fn get_cards(&self) -> Cards {
        Cards::new(self.get, self.get_commodities)
    }

    /// Tests if the offer names commodities on either side.
    pub fn names_commodities(&self) -> bool {
        !self.give_commodities.is_empty() || !self.get_commodities.is_empty()
    }
}
