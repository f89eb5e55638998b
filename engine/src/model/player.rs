use serde::{Deserialize, Serialize};

use super::{Commodities, DevCards, Resources, Seat};

/// A count of each kind of piece a seat places (B-CMP-7): a supply, or what is left of it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Pieces {
    pub roads: u8,
    pub settlements: u8,
    pub cities: u8,
    /// Ships (Seafarers, SEA-1); none in other games.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ships: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Everything one seat owns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    pub(crate) resources: Resources,
    /// Development cards held since before this turn (playable).
    pub(crate) dev_cards: DevCards,
    /// Development cards bought this turn (not yet playable, B-DEV-3).
    pub(crate) new_dev_cards: DevCards,
    pub(crate) knights_played: u32,
    /// The pieces this seat started with, and those still in its supply.
    pub(crate) supply: Pieces,
    pub(crate) pieces_left: Pieces,
    /// Commodity cards in the hand (Cities & Knights, CK-CMP-1).
    #[serde(default, skip_serializing_if = "Commodities::is_empty")]
    pub(crate) commodities: Commodities,
}

impl PlayerState {
    pub(crate) fn new(supply: Pieces) -> Self {
        PlayerState {
            resources: Resources::ZERO,
            dev_cards: DevCards::default(),
            new_dev_cards: DevCards::default(),
            knights_played: 0,
            supply,
            pieces_left: supply,
            commodities: Commodities::NONE,
        }
    }

    pub fn resources(&self) -> &Resources {
        &self.resources
    }

    /// Commodity cards held (Cities & Knights; none in other games).
    pub fn commodities(&self) -> &Commodities {
        &self.commodities
    }

    /// Resource and commodity cards held: the hand a 7 counts (B-ROB-1, CK-7-1).
    pub fn hand_size(&self) -> u32 {
        self.resources.total().saturating_add(self.commodities.total())
    }

    /// Development cards that may be played this turn.
    pub fn playable_dev_cards(&self) -> &DevCards {
        &self.dev_cards
    }

    /// Development cards bought this turn (playable from the next, B-DEV-3).
    pub fn new_dev_cards(&self) -> &DevCards {
        &self.new_dev_cards
    }

    pub fn dev_card_count(&self) -> u32 {
        self.dev_cards.total() + self.new_dev_cards.total()
    }

    pub fn knights_played_count(&self) -> u32 {
        self.knights_played
    }

    pub fn victory_point_cards(&self) -> u32 {
        let kind = super::DevCard::VictoryPoint;
        self.dev_cards.get(kind) + self.new_dev_cards.get(kind)
    }

    pub fn pieces_left(&self) -> Pieces {
        self.pieces_left
    }

    pub fn settlements_on_board(&self) -> u32 {
        u32::from(self.supply.settlements.saturating_sub(self.pieces_left.settlements))
    }

    pub fn cities_on_board(&self) -> u32 {
        u32::from(self.supply.cities.saturating_sub(self.pieces_left.cities))
    }

    pub fn roads_on_board(&self) -> u32 {
        u32::from(self.supply.roads.saturating_sub(self.pieces_left.roads))
    }

    pub fn ships_on_board(&self) -> u32 {
        u32::from(self.supply.ships.saturating_sub(self.pieces_left.ships))
    }
}

/// A settlement or a city.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum BuildingKind {
    Settlement,
    City,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Building {
    pub seat: Seat,
    pub kind: BuildingKind,
}
