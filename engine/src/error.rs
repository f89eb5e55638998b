//! Why a move or a game setup was refused.

use crate::{
    board::{EdgeId, HexCoord, VertexId},
    state::Seat,
};

/// A move breaks a rule. Each variant has a stable snake_case [`code`](RuleError::code)
/// that clients may branch on; the `Display` text is for humans (lowercase, no period).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the game is over")]
    GameOver,
    #[error("seat {0} is not in this game")]
    UnknownSeat(Seat),
    #[error("it is not your turn (seat {active} is to act)")]
    NotYourTurn { active: Seat },
    #[error("this move is not allowed now: {0}")]
    WrongPhase(&'static str),
    #[error("you have nothing to decide now")]
    NothingToDecide,
    #[error("vertex {0} is not on the board")]
    UnknownVertex(VertexId),
    #[error("edge {0} is not on the board")]
    UnknownEdge(EdgeId),
    #[error("hex {0} is not on the board")]
    UnknownHex(HexCoord),
    #[error("vertex {0} is already occupied")]
    VertexOccupied(VertexId),
    #[error("a settlement at {0} would be next to another building")]
    SettlementTooClose(VertexId),
    #[error("a settlement at {0} must touch one of your roads")]
    SettlementNotConnected(VertexId),
    #[error("edge {0} already holds a road")]
    EdgeOccupied(EdgeId),
    #[error("edge {0} is not a land edge")]
    EdgeNotBuildable(EdgeId),
    #[error("a road on {0} must connect to your own road, settlement or city")]
    RoadNotConnected(EdgeId),
    #[error("the setup road must touch the settlement just placed")]
    SetupRoadNotAtSettlement,
    #[error("a city can only replace one of your own settlements")]
    NotYourSettlement(VertexId),
    #[error("you have no {0} left in your supply")]
    NoPiecesLeft(&'static str),
    #[error("you do not have the resources for this")]
    InsufficientResources,
    #[error("the bank does not have the requested cards")]
    BankShortage,
    #[error("you must roll the dice first")]
    MustRollFirst,
    #[error("you have already rolled this turn")]
    AlreadyRolled,
    #[error("you must discard exactly {required} cards")]
    WrongDiscardCount { required: u32 },
    #[error("the robber must move to a different hex")]
    RobberMustMove,
    #[error("the robber can only stand on a land hex")]
    RobberNotOnLand,
    #[error("the robber may not enter the desert in this game")]
    RobberDesertForbidden,
    #[error("seat {0} cannot be robbed here")]
    InvalidVictim(Seat),
    #[error("choose a seat to steal from")]
    VictimRequired,
    #[error("the development deck is empty")]
    DeckEmpty,
    #[error("you have no playable {0} card")]
    NoSuchDevelopmentCard(&'static str),
    #[error("a development card bought this turn cannot be played until your next turn")]
    DevelopmentCardTooNew,
    #[error("you have already played a development card this turn")]
    DevelopmentCardAlreadyPlayed,
    #[error("before rolling you may only play a knight")]
    OnlyKnightBeforeRoll,
    #[error("there is no legal place for a road")]
    NoLegalRoad,
    #[error("year of plenty takes exactly {expected} cards from the bank")]
    WrongYearOfPlentyCount { expected: u32 },
    #[error("the trade must give and receive at least one card")]
    EmptyTradeSide,
    #[error("a trade cannot give and receive the same resource type")]
    SameResourceTrade,
    #[error("the bank trade does not match your rates")]
    InvalidBankRate,
    #[error("trading is over for this turn once you have built or bought")]
    TradingClosed,
    #[error("trades must include the active player")]
    TradePartnerNotAllowed,
    #[error("trade offer {0} does not exist or is no longer open")]
    OfferNotFound(u32),
    #[error("the offer was not made to you")]
    NotAnAddressee,
    #[error("only the seat that made the offer may do this")]
    NotTheOfferer,
    #[error("seat {0} has not accepted this offer")]
    PartnerHasNotAccepted(Seat),
    #[error("settlements may not touch the river during setup")]
    RiverBankSetupBan,
    #[error("choose exactly {required} cards for your gold")]
    WrongGoldCount { required: u32 },
    #[error("discoveries replace one to three of the wool, grain and ore a development card costs")]
    InvalidDiscoveryUse,
    #[error("you do not have {0} discoveries")]
    NotEnoughDiscoveries(u32),
    #[error("you have already given this answer to the offer")]
    AlreadyResponded,
    #[error("you already have {0} open trade offers")]
    TooManyOpenOffers(usize),
}

impl RuleError {
    /// Returns the stable snake_case code of the broken rule.
    pub const fn code(&self) -> &'static str {
        match self {
            RuleError::GameOver => "game_over",
            RuleError::UnknownSeat(_) => "unknown_seat",
            RuleError::NotYourTurn { .. } => "not_your_turn",
            RuleError::WrongPhase(_) => "wrong_phase",
            RuleError::NothingToDecide => "nothing_to_decide",
            RuleError::UnknownVertex(_) => "unknown_vertex",
            RuleError::UnknownEdge(_) => "unknown_edge",
            RuleError::UnknownHex(_) => "unknown_hex",
            RuleError::VertexOccupied(_) => "vertex_occupied",
            RuleError::SettlementTooClose(_) => "settlement_too_close",
            RuleError::SettlementNotConnected(_) => "settlement_not_connected",
            RuleError::EdgeOccupied(_) => "edge_occupied",
            RuleError::EdgeNotBuildable(_) => "edge_not_buildable",
            RuleError::RoadNotConnected(_) => "road_not_connected",
            RuleError::SetupRoadNotAtSettlement => "setup_road_not_at_settlement",
            RuleError::NotYourSettlement(_) => "not_your_settlement",
            RuleError::NoPiecesLeft(_) => "no_pieces_left",
            RuleError::InsufficientResources => "insufficient_resources",
            RuleError::BankShortage => "bank_shortage",
            RuleError::MustRollFirst => "must_roll_first",
            RuleError::AlreadyRolled => "already_rolled",
            RuleError::WrongDiscardCount { .. } => "wrong_discard_count",
            RuleError::RobberMustMove => "robber_must_move",
            RuleError::RobberNotOnLand => "robber_not_on_land",
            RuleError::RobberDesertForbidden => "robber_desert_forbidden",
            RuleError::InvalidVictim(_) => "invalid_victim",
            RuleError::VictimRequired => "victim_required",
            RuleError::DeckEmpty => "deck_empty",
            RuleError::NoSuchDevelopmentCard(_) => "no_such_development_card",
            RuleError::DevelopmentCardTooNew => "development_card_too_new",
            RuleError::DevelopmentCardAlreadyPlayed => "development_card_already_played",
            RuleError::OnlyKnightBeforeRoll => "only_knight_before_roll",
            RuleError::NoLegalRoad => "no_legal_road",
            RuleError::WrongYearOfPlentyCount { .. } => "wrong_year_of_plenty_count",
            RuleError::EmptyTradeSide => "empty_trade_side",
            RuleError::SameResourceTrade => "same_resource_trade",
            RuleError::InvalidBankRate => "invalid_bank_rate",
            RuleError::TradingClosed => "trading_closed",
            RuleError::TradePartnerNotAllowed => "trade_partner_not_allowed",
            RuleError::OfferNotFound(_) => "offer_not_found",
            RuleError::NotAnAddressee => "not_an_addressee",
            RuleError::NotTheOfferer => "not_the_offerer",
            RuleError::PartnerHasNotAccepted(_) => "partner_has_not_accepted",
            RuleError::RiverBankSetupBan => "river_bank_setup_ban",
            RuleError::WrongGoldCount { .. } => "wrong_gold_count",
            RuleError::InvalidDiscoveryUse => "invalid_discovery_use",
            RuleError::NotEnoughDiscoveries(_) => "not_enough_discoveries",
            RuleError::AlreadyResponded => "already_responded",
            RuleError::TooManyOpenOffers(_) => "too_many_open_offers",
        }
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
}

impl SetupError {
    /// Returns the stable snake_case code of the problem.
    pub const fn code(&self) -> &'static str {
        match self {
            SetupError::PlayerCount { .. } => "invalid_player_count",
            SetupError::InvalidBoard(_) => "invalid_board",
            SetupError::InvalidConfig(_) => "invalid_config",
            SetupError::InvalidLog(_) => "invalid_log",
        }
    }
}
