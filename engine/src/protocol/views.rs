//! The wire types of what one viewer may see of a game (`Game::view` builds them in
//! `view.rs`); the variants' parts are named here, taken from their `types.rs`.

use serde::{Deserialize, Serialize};

use crate::{
    board::{BoardGenerator, EdgeId, HarbourKind, HexCoord, HexTile, VertexId},
    ext::{
        cities_knights::types::CitiesKnightsView,
        seafarers::{scenario::Gift, types::PirateIslandsView},
        wonders::types::{MarkedSet, WonderView},
    },
    model::{BuildingKind, Commodities, DevCards, Phase, Resources, Seat, TradeOffer},
};

/// A harbour with its two harbour vertices.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HarbourView {
    pub edge: EdgeId,
    pub kind: HarbourKind,
    pub vertices: [VertexId; 2],
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BuildingView {
    pub vertex: VertexId,
    pub seat: Seat,
    pub kind: BuildingKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoadView {
    pub edge: EdgeId,
    pub seat: Seat,
}

/// A ship on an edge (Seafarers, SEA-1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ShipView {
    pub edge: EdgeId,
    pub seat: Seat,
}

/// The board as a client draws it (RULES.md section 2 coordinates). With Seafarers, the
/// hexes include the sea of the play area and fog (`terrain: "fog"`, no number) where the
/// map is still face down (SEA-13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BoardView {
    pub hexes: Vec<HexTile>,
    pub harbours: Vec<HarbourView>,
    /// Absent while the robber waits off the board (Big River, RIV-7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robber: Option<HexCoord>,
    pub buildings: Vec<BuildingView>,
    pub roads: Vec<RoadView>,
    /// Ships (Seafarers); absent in other games.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ships: Vec<ShipView>,
    /// The pirate's sea hex (Seafarers, SEA-7); absent while it is off the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pirate: Option<HexCoord>,
    /// The islands: connected groups of known land hexes (Seafarers, SEA-12); absent in
    /// other games.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub islands: Vec<Vec<HexCoord>>,
    /// The map's marked vertices (Wonders of Catan): no setup settlement stands on them
    /// (WON-3), and some wonders need a settlement on one (WON-9); absent in other games.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marked_vertices: Vec<MarkedVerticesView>,
    /// How a generated board was made (The New World, NEW-8); absent on every other board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<BoardGenerator>,
    /// Land hexes nobody may settle or build a road on, which never produce (SCN-3: the
    /// islands of The Forgotten Tribe); absent on other boards.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub neutral: Vec<HexCoord>,
    /// Hexes the robber may not be moved to (SCN-4); absent where it may go to any land.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub robber_excluded: Vec<HexCoord>,
    /// The map's land areas (SCN-3, SCN-4): each area number with its land hexes, area 0
    /// being neutral, ascending; what `robber_excluded_land_areas` and the island bonus of
    /// `islands: scenario_land_areas` name. Absent on maps without areas (every map but a
    /// Seafarers scenario's fixed one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub land_areas: Vec<LandAreaView>,
}

/// One land area of a scenario map (SCN-3): its number and its land hexes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LandAreaView {
    pub area: u8,
    pub hexes: Vec<HexCoord>,
}

/// Cloth for Catan's villages and cloth, all public (CLV-5..14).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClothView {
    /// Every village, in the scenario's order.
    pub villages: Vec<VillageView>,
    /// The cloth left in the general supply (CLV-8).
    pub general_supply: u8,
    /// The cloth each seat holds, by seat; two make a victory point (CLV-9).
    pub cloth: Vec<u8>,
}

/// A village (CLV-5): its number, its cloth left and the seats connected to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VillageView {
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "-1,0,N"))]
    pub vertex: VertexId,
    pub number: u8,
    pub cloth: u8,
    /// The seats whose ships reach it, in the order they connected (CLV-6, CLV-8).
    pub connected: Vec<Seat>,
}

/// The Forgotten Tribe's gifts (FTR-7..12): all public but the cards set aside.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TribeView {
    /// The gifts still on their edges; a harbour gift says its kind.
    pub gifts: Vec<GiftView>,
    /// The gifts claimed so far, in order, and who claimed each.
    pub claimed: Vec<ClaimedGiftView>,
    /// Gift harbours taken and not yet placed, oldest first (FTR-12).
    pub pending_harbours: Vec<PendingHarbourView>,
    /// Development cards still set aside as gifts (FTR-8); which ones nobody knows.
    pub development_cards_set_aside: u32,
}

/// An unclaimed gift of the tribe (FTR-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GiftView {
    pub edge: EdgeId,
    pub gift: Gift,
    /// The harbour's kind, for a harbour gift.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<HarbourKind>,
}

/// A gift and its claimant (FTR-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClaimedGiftView {
    pub edge: EdgeId,
    pub gift: Gift,
    pub seat: Seat,
}

/// A gift harbour its claimant holds until a spot opens (FTR-10, FTR-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingHarbourView {
    pub seat: Seat,
    pub kind: HarbourKind,
}

/// One named set of marked vertices (WON-3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MarkedVerticesView {
    pub set: MarkedSet,
    pub vertices: Vec<VertexId>,
}

/// Pieces a seat still has in its supply (B-CMP-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PiecesLeft {
    pub roads: u8,
    pub settlements: u8,
    pub cities: u8,
    /// Ships (Seafarers); absent in other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ships: Option<u8>,
}

/// One seat as others see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerView {
    pub seat: Seat,
    /// Points everyone can see: buildings, Longest Road, Largest Army (no hidden VP cards,
    /// until game over).
    pub victory_points: u32,
    pub resource_count: u32,
    pub development_card_count: u32,
    pub knights_played: u32,
    /// Jungle discoveries held (JUN-4): public counters.
    pub discoveries: u32,
    pub road_length: u32,
    pub has_longest_road: bool,
    pub has_largest_army: bool,
    pub pieces_left: PiecesLeft,
    /// Present when the game is over: the full hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Resources>,
    /// Present when the game is over: all development cards kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub development_cards: Option<DevCards>,
    /// Commodity cards held (Cities & Knights, CK-CMP-1): a count like `resource_count`;
    /// absent in other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commodity_count: Option<u32>,
    /// Present when a Cities & Knights game is over: the commodities kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commodities: Option<Commodities>,
}

/// The viewer's own hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HandView {
    pub resources: Resources,
    /// Development cards that may be played (bought before this turn).
    pub development_cards: DevCards,
    /// Development cards bought this turn (playable from the next turn, B-DEV-3).
    pub new_development_cards: DevCards,
    /// Total victory points including hidden VP cards.
    pub victory_points: u32,
    /// Bank rate per resource given the harbours held (4, 3 or 2).
    pub bank_rates: Resources,
    /// Whether the seat may make a new trade offer now.
    pub may_offer_trade: bool,
    /// Commodity cards held (Cities & Knights); absent in other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commodities: Option<Commodities>,
}

/// The turn in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TurnView {
    /// 0 during setup.
    pub number: u32,
    /// Whose turn it is (during setup: who is placing).
    pub active_seat: Seat,
    pub phase: Phase,
    /// The phases `phase` interrupted, in the order they resume once it is done (e.g. a
    /// discard, then moving the robber, then the main phase).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<Phase>,
    pub rolled: bool,
    /// The last roll this turn as (red, white).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<[u8; 2]>,
    pub development_card_played: bool,
    /// Whether the active player has moved a ship this turn (Seafarers, SEA-6).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ship_moved: bool,
    /// Seats that must make a move before play goes on (the active seat, or discarders).
    pub waiting_for: Vec<Seat>,
}

/// A game as one viewer may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameView {
    pub players: Vec<PlayerView>,
    /// The viewer's seat, if seated.
    pub you: Option<Seat>,
    /// The viewer's hand; absent for spectators.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<HandView>,
    pub bank: Resources,
    /// The commodity cards in the bank (Cities & Knights); absent in other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commodity_bank: Option<Commodities>,
    pub development_cards_left: u32,
    pub board: BoardView,
    pub turn: TurnView,
    pub trade_offers: Vec<TradeOffer>,
    pub longest_road: Option<Seat>,
    pub largest_army: Option<Seat>,
    pub vp_target: u8,
    /// The barbarians, improvements, knights, walls and progress cards (Cities & Knights);
    /// absent in other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cities_and_knights: Option<CitiesKnightsView>,
    /// The wonders, their owners and stages (Wonders of Catan, WON-8..11); absent in other
    /// games.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wonders: Vec<WonderView>,
    /// The tribe's gifts (The Forgotten Tribe, FTR-7..12); absent in other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forgotten_tribe: Option<TribeView>,
    /// Cloth for Catan: the villages, their cloth and connections, the general supply and
    /// each seat's cloth (CLV-5..14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cloth_for_catan: Option<ClothView>,
    /// The fleet, the lanes, the lone vertices, the fortresses and the warships (The Pirate
    /// Islands, section 4.4); absent in other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pirate_islands: Option<PirateIslandsView>,
    pub winner: Option<Seat>,
    /// The game's seed, published once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}
