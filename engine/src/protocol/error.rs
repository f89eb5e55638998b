//! Why a move or a game setup was refused.

use super::tagged_enum;
use crate::{
    board::{EdgeId, HexCoord, VertexId},
    ext::{
        cities_knights::types::{ProgressCard, Track},
        seafarers::types::StealKind,
        wonders::types::WonderId,
    },
    model::Seat,
};

tagged_enum! {
/// A move breaks a rule. Each variant has a stable snake_case [`code`](RuleError::code)
/// that clients may branch on; the `Display` text is for humans (lowercase, no period).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError => fn code {
    #[error("the game is over")]
    GameOver = "game_over",
    #[error("seat {0} is not in this game")]
    UnknownSeat = "unknown_seat"(Seat),
    #[error("it is not your turn (seat {active} is to act)")]
    NotYourTurn = "not_your_turn" { active: Seat },
    #[error("this move is not allowed now: {0}")]
    WrongPhase = "wrong_phase"(&'static str),
    #[error("you have nothing to decide now")]
    NothingToDecide = "nothing_to_decide",
    #[error("vertex {0} is not on the board")]
    UnknownVertex = "unknown_vertex"(VertexId),
    #[error("edge {0} is not on the board")]
    UnknownEdge = "unknown_edge"(EdgeId),
    #[error("hex {0} is not on the board")]
    UnknownHex = "unknown_hex"(HexCoord),
    #[error("vertex {0} is already occupied")]
    VertexOccupied = "vertex_occupied"(VertexId),
    #[error("a settlement at {0} would be next to another building")]
    SettlementTooClose = "settlement_too_close"(VertexId),
    #[error("a settlement at {0} must touch one of your roads")]
    SettlementNotConnected = "settlement_not_connected"(VertexId),
    #[error("edge {0} already holds a road")]
    EdgeOccupied = "edge_occupied"(EdgeId),
    #[error("edge {0} is not a land edge")]
    EdgeNotBuildable = "edge_not_buildable"(EdgeId),
    #[error("a road on {0} must connect to your own road, settlement or city")]
    RoadNotConnected = "road_not_connected"(EdgeId),
    #[error("the setup road must touch the settlement just placed")]
    SetupRoadNotAtSettlement = "setup_road_not_at_settlement",
    #[error("a city can only replace one of your own settlements")]
    NotYourSettlement = "not_your_settlement"(VertexId),
    #[error("you have no {0} left in your supply")]
    NoPiecesLeft = "no_pieces_left"(&'static str),
    #[error("you do not have the resources for this")]
    InsufficientResources = "insufficient_resources",
    #[error("the bank does not have the requested cards")]
    BankShortage = "bank_shortage",
    #[error("you must roll the dice first")]
    MustRollFirst = "must_roll_first",
    #[error("you have already rolled this turn")]
    AlreadyRolled = "already_rolled",
    #[error("you must discard exactly {required} cards")]
    WrongDiscardCount = "wrong_discard_count" { required: u32 },
    #[error("the robber must move to a different hex")]
    RobberMustMove = "robber_must_move",
    #[error("the robber can only stand on a land hex")]
    RobberNotOnLand = "robber_not_on_land",
    #[error("the robber may not enter the desert in this game")]
    RobberDesertForbidden = "robber_desert_forbidden",
    #[error("the robber may not be moved onto this island in this scenario (SCN-4)")]
    RobberHexExcluded = "robber_hex_excluded",
    #[error("seat {0} cannot be robbed here")]
    InvalidVictim = "invalid_victim"(Seat),
    #[error("choose a seat to steal from")]
    VictimRequired = "victim_required",
    #[error("the development deck is empty")]
    DeckEmpty = "deck_empty",
    #[error("you have no playable {0} card")]
    NoSuchDevelopmentCard = "no_such_development_card"(&'static str),
    #[error("a development card bought this turn cannot be played until your next turn")]
    DevelopmentCardTooNew = "development_card_too_new",
    #[error("you have already played a development card this turn")]
    DevelopmentCardAlreadyPlayed = "development_card_already_played",
    #[error("before rolling you may only play a knight")]
    OnlyKnightBeforeRoll = "only_knight_before_roll",
    #[error("there is no legal place for a road")]
    NoLegalRoad = "no_legal_road",
    #[error("year of plenty takes exactly {expected} cards from the bank")]
    WrongYearOfPlentyCount = "wrong_year_of_plenty_count" { expected: u32 },
    #[error("the trade must give and receive at least one card")]
    EmptyTradeSide = "empty_trade_side",
    #[error("a trade cannot give and receive the same resource type")]
    SameResourceTrade = "same_resource_trade",
    #[error("the bank trade does not match your rates")]
    InvalidBankRate = "invalid_bank_rate",
    #[error("trading is over for this turn once you have built or bought")]
    TradingClosed = "trading_closed",
    #[error("trades must include the active player")]
    TradePartnerNotAllowed = "trade_partner_not_allowed",
    #[error("trade offer {0} does not exist or is no longer open")]
    OfferNotFound = "offer_not_found"(u32),
    #[error("the offer was not made to you")]
    NotAnAddressee = "not_an_addressee",
    #[error("only the seat that made the offer may do this")]
    NotTheOfferer = "not_the_offerer",
    #[error("seat {0} has not accepted this offer")]
    PartnerHasNotAccepted = "partner_has_not_accepted"(Seat),
    #[error("settlements may not touch the river during setup")]
    RiverBankSetupBan = "river_bank_setup_ban",
    #[error("choose exactly {required} cards for your gold")]
    WrongGoldCount = "wrong_gold_count" { required: u32 },
    #[error("discoveries replace one to three of the wool, grain and ore a development card costs")]
    InvalidDiscoveryUse = "invalid_discovery_use",
    #[error("you do not have {0} discoveries")]
    NotEnoughDiscoveries = "not_enough_discoveries"(u32),
    #[error("you have already given this answer to the offer")]
    AlreadyResponded = "already_responded",
    #[error("you already have {0} open trade offers")]
    TooManyOpenOffers = "too_many_open_offers"(usize),
    #[error("vertex {0} does not touch land")]
    VertexNotBuildable = "vertex_not_buildable"(VertexId),
    #[error("edge {0} does not touch the sea")]
    EdgeNotNavigable = "edge_not_navigable"(EdgeId),
    #[error("a ship on {0} must connect to your own ship, settlement or city (roads and ships meet only at your buildings)")]
    ShipNotConnected = "ship_not_connected"(EdgeId),
    #[error("edge {0} lies next to the pirate")]
    PirateBlocksEdge = "pirate_blocks_edge"(EdgeId),
    #[error("you have no ship on {0}")]
    NotYourShip = "not_your_ship"(EdgeId),
    #[error("the ship on {0} is not at an open end of a shipping route (SEA-6), or alone joins one of your knights to your routes (SEA-15)")]
    ShipNotAtOpenEnd = "ship_not_at_open_end"(EdgeId),
    #[error("a ship built this turn cannot be moved this turn")]
    ShipBuiltThisTurn = "ship_built_this_turn",
    #[error("you have already moved a ship this turn")]
    ShipAlreadyMoved = "ship_already_moved",
    #[error("a ship must move to a different edge")]
    ShipMustMove = "ship_must_move",
    #[error("a harbour on {0} must lie on a coast edge, touch no other harbour and leave its island at most the most harbours (NEW-LEGAL-5)")]
    HarbourSiteNotAllowed = "harbour_site_not_allowed"(EdgeId),
    #[error("the pirate can only sail on a sea hex of the board")]
    PirateNotOnSea = "pirate_not_on_sea",
    #[error("the pirate must move to a different hex")]
    PirateMustMove = "pirate_must_move",
    #[error("setup settlements may not stand here in this scenario")]
    SetupSiteForbidden = "setup_site_forbidden",
    #[error("only a player connected to a village may move the pirate: move the robber (CLV-11)")]
    PirateNeedsVillage = "pirate_needs_village",
    #[error("the pirate's victim holds no {0}: choose the other kind (CLV-12)")]
    NothingOfThatKind = "nothing_of_that_kind"(StealKind),
    #[error("you hold no gift harbour to place (FTR-10)")]
    NoGiftHarbour = "no_gift_harbour",
    #[error("{0} is not a coast edge at your own settlement or city with no harbour at either end (FTR-11)")]
    HarbourSpotIllegal = "harbour_spot_illegal"(EdgeId),
    #[error("the setup ship must touch the settlement just placed and the sea")]
    SetupShipNotAtSettlement = "setup_ship_not_at_settlement",
    #[error("{0} is not on your ship lane (PIR-7)")]
    NotOnShipLane = "not_on_ship_lane"(EdgeId),
    #[error("a ship on {0} would give your route a branch: at most two of your ships meet at a point (PIR-8)")]
    ShipRouteBranches = "ship_route_branches"(EdgeId),
    #[error("you have no ship that is not a warship yet (PIR-15)")]
    NoShipForWarship = "no_ship_for_warship",
    #[error("{0} is not one of your ships that could become a warship (PIR-15)")]
    NotAWarshipCandidate = "not_a_warship_candidate"(EdgeId),
    #[error("you need a ship beside your unconquered fortress to attack it (PIR-18)")]
    NoShipAtFortress = "no_ship_at_fortress",
    #[error("you have already attacked your fortress this turn (PIR-18)")]
    FortressAlreadyAttacked = "fortress_already_attacked",
    #[error("{unmet} (WON-9)")]
    WonderConditionUnmet = "wonder_condition_unmet" { wonder: WonderId, unmet: String },
    #[error("seat {owner} has already claimed the {wonder} (WON-8)")]
    WonderTaken = "wonder_taken" { wonder: WonderId, owner: Seat },
    #[error("you have already claimed the {0}: one wonder per player (WON-8)")]
    WonderAlreadyOwned = "wonder_already_owned"(WonderId),
    #[error("claim a wonder before building its stages (WON-10)")]
    NoWonder = "no_wonder",
    #[error("your last ship is kept to claim a wonder (WON-8)")]
    ShipKeptForWonder = "ship_kept_for_wonder",
    #[error("all stages of the {0} are built")]
    WonderComplete = "wonder_complete"(WonderId),
    #[error("the {0} is not on offer in this game")]
    UnknownWonder = "unknown_wonder"(WonderId),
    #[error("{0} is not part of this game's rules")]
    NotInThisGame = "not_in_this_game"(&'static str),
    #[error("this move names a commodity; with resources alone, use `{0}`")]
    NoCommodityNamed = "no_commodity_named"(&'static str),
    #[error("city improvements need a city of yours on the board (CK-IMP-3)")]
    CityRequired = "city_required",
    #[error("the {0:?} track is complete (CK-IMP-1)")]
    TrackComplete = "track_complete"(Track),
    #[error("a knight on {0} must stand at the end of one of your roads (CK-KNT-2)")]
    KnightNotConnected = "knight_not_connected"(VertexId),
    #[error("you have no knight on {0}")]
    NotYourKnight = "not_your_knight"(VertexId),
    #[error("you have no city on {0}")]
    NotYourCity = "not_your_city"(VertexId),
    #[error("a mighty knight cannot be promoted (CK-KNT-3)")]
    KnightAtTopRank = "knight_at_top_rank",
    #[error("this knight was already promoted this turn (CK-KNT-3)")]
    KnightAlreadyPromoted = "knight_already_promoted",
    #[error("a mighty knight needs politics level 3 (CK-KNT-3)")]
    PoliticsLevelRequired = "politics_level_required",
    #[error("this knight is already active (CK-KNT-4)")]
    KnightAlreadyActive = "knight_already_active",
    #[error("only an active knight that was not activated this turn may act (CK-KNT-5)")]
    KnightCannotAct = "knight_cannot_act",
    #[error("the knight cannot reach {0} along your roads and ships (CK-KNT-6, SEA-15)")]
    KnightUnreachable = "knight_unreachable"(VertexId),
    #[error("the knight on {0} does not stand on a corner of the hex of the robber (or of the pirate it chases) (CK-KNT-8, SEA-15)")]
    KnightNotAtRobber = "knight_not_at_robber"(VertexId),
    #[error("no opponent's knight stands on {0} (CK-KNT-7)")]
    NoKnightToDisplace = "no_knight_to_displace"(VertexId),
    #[error("only a knight of strictly lower rank can be displaced, not the one on {0} (CK-KNT-7)")]
    KnightNotWeaker = "knight_not_weaker"(VertexId),
    #[error("the robber waits for the first barbarian attack (CK-BAR-10)")]
    RobberWaits = "robber_waits",
    #[error("levels 4 and 5 need a city of yours without a metropolis (CK-IMP-4, CK-MET-2)")]
    CityWithoutMetropolisRequired = "city_without_metropolis_required",
    #[error("this level brings the metropolis: name the city without a metropolis that takes it (CK-MET-1)")]
    MetropolisCityRequired = "metropolis_city_required",
    #[error("the city on {0} already carries a metropolis (CK-MET-2)")]
    CityHasMetropolis = "city_has_metropolis"(VertexId),
    #[error("this level brings no metropolis: name no city (CK-MET-3/4)")]
    NoMetropolisToPlace = "no_metropolis_to_place",
    #[error("the city on {0} is a metropolis: the barbarians cannot pillage it (CK-MET-5)")]
    MetropolisNotPillaged = "metropolis_not_pillaged"(VertexId),
    #[error("you hold no {0:?} progress card")]
    ProgressCardNotHeld = "progress_card_not_held"(ProgressCard),
    #[error("not now: {0}")]
    ProgressCardTiming = "progress_card_timing"(&'static str),
    #[error("{0}: another adds nothing (CK-PC-7)")]
    ProgressCardInForce = "progress_card_in_force"(&'static str),
    #[error("you hold more than {limit} progress cards: play or discard first (CK-PC-4/5)")]
    ProgressHandOverLimit = "progress_hand_over_limit" { limit: u32 },
    #[error("the {0:?} is a victory point card: it is never discarded or played (CK-EVT-3)")]
    VictoryPointCardKept = "victory_point_card_kept"(ProgressCard),
    /// Alchemist (CK-PC-7): each number die the card sets shows 1 to 6.
    #[error("a die shows 1 to 6, not {0}")]
    DieOutOfRange = "die_out_of_range"(u8),
    /// Inventor (CK-PC-7): two different hexes are named.
    #[error("the inventor swaps the tokens of two different hexes, not of {0} with itself")]
    SameHexTwice = "same_hex_twice"(HexCoord),
    /// Inventor (CK-PC-7): the hex has no number token, or its token is a 2, 12, 6 or 8.
    #[error("the number token of {0} cannot be swapped: only tokens other than 2, 12, 6 and 8")]
    NumberNotSwappable = "number_not_swappable"(HexCoord),
    /// Irrigation, Mining (CK-PC-7): no settlement or city of yours touches a hex of the
    /// card's terrain, so it would give nothing.
    #[error("none of your settlements or cities touches a {0} hex")]
    NoHexToHarvest = "no_hex_to_harvest"(&'static str),
    /// Smith (CK-PC-7): one or two knights are named.
    #[error("the smith promotes one or two of your knights, not {0}")]
    WrongKnightCount = "wrong_knight_count"(usize),
    // Science cards' errors go above this line.
    #[error("the merchant stands on a hex producing a resource, not on {0} (CK-MER-1)")]
    MerchantHexNotProducing = "merchant_hex_not_producing"(HexCoord),
    #[error("the merchant goes on a hex touching one of your settlements or cities, not on {0} (CK-MER-1)")]
    MerchantHexNotYours = "merchant_hex_not_yours"(HexCoord),
    #[error("seat {0} does not have more victory points than you (CK-PC-7 Master Merchant)")]
    TargetNotAhead = "target_not_ahead"(Seat),
    #[error("play a Commercial Harbor this turn first (CK-PC-7)")]
    CommercialHarborNotPlayed = "commercial_harbor_not_played",
    #[error("you already offered seat {0} an exchange this turn (CK-PC-7 Commercial Harbor)")]
    AlreadyExchangedWith = "already_exchanged_with"(Seat),
    #[error("take exactly {required} cards")]
    WrongTakeCount = "wrong_take_count" { required: u32 },
    #[error("seat {0} does not hold these cards")]
    CardsNotInHand = "cards_not_in_hand"(Seat),
    // Trade cards' errors go above this line.
    #[error("seat {0} is not an opponent of yours (CK-PC-7)")]
    NotAnOpponent = "not_an_opponent"(Seat),
    #[error("seat {0} has no knight on the board (CK-PC-7 Deserter)")]
    TargetHasNoKnight = "target_has_no_knight"(Seat),
    #[error("no road stands on {0} (CK-PC-7 Diplomat)")]
    NoRoadOnEdge = "no_road_on_edge"(EdgeId),
    #[error("the road on {0} is not open: both its ends touch another piece of its owner (CK-PC-7 Diplomat)")]
    RoadNotOpen = "road_not_open"(EdgeId),
    #[error("only your own road may be put elsewhere, not the one on {0} (CK-PC-7 Diplomat)")]
    RoadNotYours = "road_not_yours"(EdgeId),
    #[error("the road removed from {0} must go elsewhere (CK-PC-7 Diplomat)")]
    RoadNotMoved = "road_not_moved"(EdgeId),
    #[error("the knight on {0} does not stand at the end of one of your roads (CK-PC-7 Intrigue)")]
    KnightNotAtYourRoad = "knight_not_at_your_road"(VertexId),
    #[error("give exactly {required} cards (CK-PC-7 Wedding)")]
    WrongGiftCount = "wrong_gift_count" { required: u32 },
    // Politics cards' errors go above this line.
}
}

/// A game cannot be set up from this configuration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{players} players is not possible here: {allowed}")]
    PlayerCount { players: u8, allowed: &'static str },
    #[error("invalid board: {0}")]
    InvalidBoard(String),
    #[error("invalid configuration: {0}")]
    InvalidConfig(String),
    #[error("the event log does not start a game: {0}")]
    InvalidLog(String),
    /// NEW-10: a New World board that breaks the legality checks, by rule id.
    #[error("the board breaks {}", checks.join(", "))]
    IllegalBoard { checks: Vec<&'static str> },
    /// NEW-GEN-5: no legal New World board in the generator's attempts.
    #[error("no legal board in {attempts} attempts")]
    BoardGenerationFailed { attempts: u32 },
}

impl SetupError {
    /// Every code [`SetupError::code`] returns.
    pub const CODES: &'static [&'static str] = &[
        "invalid_player_count",
        "invalid_board",
        "invalid_config",
        "invalid_log",
        "illegal_board",
        "board_generation_failed",
    ];

    /// Returns the stable snake_case code of the problem.
    pub const fn code(&self) -> &'static str {
        match self {
            SetupError::PlayerCount { .. } => "invalid_player_count",
            SetupError::InvalidBoard(_) => "invalid_board",
            SetupError::InvalidConfig(_) => "invalid_config",
            SetupError::InvalidLog(_) => "invalid_log",
            SetupError::IllegalBoard { .. } => "illegal_board",
            SetupError::BoardGenerationFailed { .. } => "board_generation_failed",
        }
    }
}
