//! The game state: seats, hands, pieces on the board, the turn and its phase.
//!
//! Fields are crate-private so that a `Game` only ever changes through `apply`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{
    board::{Board, VertexId},
    config::GameConfig,
    resources::Resources,
};

/// A seat at the table, 0..N-1 in clockwise order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The five kinds of development card (B-CMP-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum DevCard {
    Knight,
    RoadBuilding,
    YearOfPlenty,
    Monopoly,
    VictoryPoint,
}

impl DevCard {
    pub const ALL: [DevCard; 5] =
        [DevCard::Knight, DevCard::RoadBuilding, DevCard::YearOfPlenty, DevCard::Monopoly, DevCard::VictoryPoint];

    pub const fn name(self) -> &'static str {
        match self {
            DevCard::Knight => "knight",
            DevCard::RoadBuilding => "road_building",
            DevCard::YearOfPlenty => "year_of_plenty",
            DevCard::Monopoly => "monopoly",
            DevCard::VictoryPoint => "victory_point",
        }
    }
}

/// A count of development cards per kind: a hand, or the deck's remaining composition.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct DevCards {
    pub knight: u32,
    pub road_building: u32,
    pub year_of_plenty: u32,
    pub monopoly: u32,
    pub victory_point: u32,
}

impl DevCards {
    /// The standard deck (B-CMP-6): 14 knights, 2 of each progress card, 5 VP cards.
    pub const STANDARD_DECK: DevCards =
        DevCards { knight: 14, road_building: 2, year_of_plenty: 2, monopoly: 2, victory_point: 5 };

    pub fn get(&self, card: DevCard) -> u32 {
        match card {
            DevCard::Knight => self.knight,
            DevCard::RoadBuilding => self.road_building,
            DevCard::YearOfPlenty => self.year_of_plenty,
            DevCard::Monopoly => self.monopoly,
            DevCard::VictoryPoint => self.victory_point,
        }
    }

    pub fn get_mut(&mut self, card: DevCard) -> &mut u32 {
        match card {
            DevCard::Knight => &mut self.knight,
            DevCard::RoadBuilding => &mut self.road_building,
            DevCard::YearOfPlenty => &mut self.year_of_plenty,
            DevCard::Monopoly => &mut self.monopoly,
            DevCard::VictoryPoint => &mut self.victory_point,
        }
    }

    pub fn total(&self) -> u32 {
        DevCard::ALL.iter().map(|c| self.get(*c)).sum()
    }

    /// Returns the `index`-th card with cards laid out by kind in [`DevCard::ALL`] order.
    pub fn nth_card(&self, mut index: u32) -> Option<DevCard> {
        for card in DevCard::ALL {
            if index < self.get(card) {
                return Some(card);
            }
            index -= self.get(card);
        }
        None
    }

    pub fn add(&mut self, other: &DevCards) {
        for card in DevCard::ALL {
            *self.get_mut(card) += other.get(card);
        }
    }
}

/// Piece supply per player (B-CMP-7).
pub const ROADS_PER_PLAYER: u8 = 15;
pub const SETTLEMENTS_PER_PLAYER: u8 = 5;
pub const CITIES_PER_PLAYER: u8 = 4;

/// Everything one seat owns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    pub(crate) resources: Resources,
    /// Development cards held since before this turn (playable).
    pub(crate) dev_cards: DevCards,
    /// Development cards bought this turn (not yet playable, B-DEV-3).
    pub(crate) new_dev_cards: DevCards,
    pub(crate) knights_played: u32,
    /// Jungle discoveries (JUN-4): counters, not resources.
    #[serde(default)]
    pub(crate) discoveries: u32,
    pub(crate) roads_left: u8,
    pub(crate) settlements_left: u8,
    pub(crate) cities_left: u8,
}

impl PlayerState {
    pub(crate) fn new() -> Self {
        PlayerState {
            resources: Resources::ZERO,
            dev_cards: DevCards::default(),
            new_dev_cards: DevCards::default(),
            knights_played: 0,
            discoveries: 0,
            roads_left: ROADS_PER_PLAYER,
            settlements_left: SETTLEMENTS_PER_PLAYER,
            cities_left: CITIES_PER_PLAYER,
        }
    }

    pub fn resources(&self) -> &Resources {
        &self.resources
    }

    pub fn dev_card_count(&self) -> u32 {
        self.dev_cards.total() + self.new_dev_cards.total()
    }

    pub fn discoveries(&self) -> u32 {
        self.discoveries
    }

    pub fn knights_played_count(&self) -> u32 {
        self.knights_played
    }

    pub fn victory_point_cards(&self) -> u32 {
        self.dev_cards.victory_point + self.new_dev_cards.victory_point
    }

    pub fn settlements_on_board(&self) -> u32 {
        u32::from(SETTLEMENTS_PER_PLAYER - self.settlements_left)
    }

    pub fn cities_on_board(&self) -> u32 {
        u32::from(CITIES_PER_PLAYER - self.cities_left)
    }

    pub fn roads_on_board(&self) -> u32 {
        u32::from(ROADS_PER_PLAYER - self.roads_left)
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

/// The step within one setup placement (B-SET-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum SetupStep {
    PlaceSettlement,
    /// The road must touch the settlement just placed.
    PlaceRoad {
        settlement: VertexId,
    },
}

/// A seat that must discard on a 7, and how many cards (B-ROB-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingDiscard {
    pub seat: Seat,
    pub count: u32,
}

/// A seat that must choose resources for gold production, and how many (RIV-5, SEA-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingGold {
    pub seat: Seat,
    pub count: u32,
}

/// Where play resumes once the free roads of Road Building are placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ResumePhase {
    PreRoll,
    Main,
}

/// The phase of the turn (RULES.md 4.1). Serialized with a `name` tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Phase {
    /// Initial placement, `placement` counting 0..2N along the snake (B-SET-3).
    Setup { seat: Seat, placement: u8, step: SetupStep },
    /// Before the roll: roll, or play a Knight (B-TURN-2).
    PreRoll,
    /// A 7 was rolled; these seats still owe a discard (B-ROB-1).
    Discard { pending: Vec<PendingDiscard> },
    /// The active player must move the robber (B-ROB-2).
    MoveRobber,
    /// Trade, build, buy, play, end the turn (B-TURN-5).
    Main,
    /// Placing the free roads of a Road Building card (B-DEV-5).
    RoadBuilding { roads_left: u8, resume: ResumePhase },
    /// Gold was rolled: these seats still choose their cards; production is paid once all
    /// have chosen (RIV-5, SEA-9).
    GoldChoice { roll: u8, pending: Vec<PendingGold>, chosen: Vec<crate::events::SeatResources> },
    /// A special building phase for `seat` after the active player's turn (X56-8).
    SpecialBuilding { seat: Seat },
    /// The game has ended (B-WIN-4).
    GameOver,
}

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

/// The turn in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Turn {
    /// 0 during setup; 1 for the first normal turn.
    pub number: u32,
    pub active: Seat,
    pub rolled: bool,
    pub last_roll: Option<(u8, u8)>,
    pub dev_card_played: bool,
    /// Whether the active player has built or bought this turn (for B-TURN-6's flag).
    pub built_or_bought: bool,
}

/// A game in progress: always a legal position, changed only by `apply`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Game {
    pub(crate) config: GameConfig,
    pub(crate) board: Board,
    pub(crate) seed: u64,
    /// Events applied so far; keys the chance stream of the next move.
    pub(crate) events_applied: u64,
    pub(crate) first_seat: Seat,
    pub(crate) players: Vec<PlayerState>,
    pub(crate) bank: Resources,
    pub(crate) deck: DevCards,
    /// The robber's hex index; `None` while it waits off the board (RIV-7).
    pub(crate) robber: Option<u8>,
    pub(crate) buildings: Vec<Option<Building>>,
    pub(crate) roads: Vec<Option<Seat>>,
    pub(crate) phase: Phase,
    pub(crate) turn: Turn,
    pub(crate) longest_road: Option<Seat>,
    pub(crate) largest_army: Option<Seat>,
    pub(crate) offers: Vec<TradeOffer>,
    pub(crate) next_offer_id: u32,
    pub(crate) winner: Option<Seat>,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.layout() == other.layout()
    }
}
