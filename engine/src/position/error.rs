//! Why a [`Setup`](super::Setup) is not a position.

use crate::{
    board::{EdgeId, HexCoord, VertexId},
    model::{DevCard, Resource, Seat},
    protocol::SetupError,
};

/// A position that cannot be built. Each variant has a stable snake_case
/// [`code`](PositionError::code); the `Display` text is for humans and names the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The configuration or the board is refused as [`Game::new`](crate::Game::new) would
    /// refuse it; the code is the [`SetupError`]'s (`invalid_config`, `invalid_board`,
    /// `invalid_player_count`).
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("seat {0} is not in this game")]
    UnknownSeat(Seat),
    #[error("vertex {0} is not on the board")]
    UnknownVertex(VertexId),
    #[error("edge {0} is not on the board")]
    UnknownEdge(EdgeId),
    #[error("hex {0} is not on the board")]
    UnknownHex(HexCoord),
    #[error("vertex {0} holds two buildings (B-BLD-7)")]
    VertexOccupied(VertexId),
    #[error("the buildings on {0} and {1} are one edge apart (B-BLD-4, B-GEO-9)")]
    BuildingsTooClose(VertexId, VertexId),
    #[error("edge {0} holds two pieces: one road or one ship per edge (B-BLD-7, SEA-2)")]
    EdgeOccupied(EdgeId),
    #[error("edge {0} does not touch land, so it takes no road (B-GEO-9)")]
    EdgeNotBuildable(EdgeId),
    #[error("edge {0} does not touch the sea, so it takes no ship (B-GEO-9, SEA-2)")]
    EdgeNotNavigable(EdgeId),
    #[error("the road of seat {seat} on {edge} does not connect to a building of seat {seat} (B-BLD-3)")]
    RoadNotConnected { seat: Seat, edge: EdgeId },
    #[error(
        "the ship of seat {seat} on {edge} does not connect to a building of seat {seat} through its ships (SEA-3)"
    )]
    ShipNotConnected { seat: Seat, edge: EdgeId },
    #[error("seat {seat} has {placed} {piece} on the board, more than its supply of {supply} (B-CMP-7)")]
    TooManyPieces { seat: Seat, piece: &'static str, placed: u32, supply: u32 },
    #[error("the robber must stand on a land hex, not on {0} (B-ROB-2)")]
    RobberNotOnLand(HexCoord),
    #[error("the pirate must stand on a sea hex, not on {0} (SEA-7)")]
    PirateNotOnSea(HexCoord),
    #[error("the bank and the hands hold {held} {}, the game has {expected} (B-CMP-5)", .resource.name())]
    ResourcesNotConserved { resource: Resource, held: u32, expected: u32 },
    #[error(
        "the deck, the hands and the knights played hold {held} {}, more than the game's {expected} (B-CMP-6)",
        .card.name()
    )]
    DevCardsNotConserved { card: DevCard, held: u32, expected: u32 },
    #[error("longest road: {0}")]
    LongestRoad(String),
    #[error("largest army: {0}")]
    LargestArmy(String),
    #[error("phase: {0}")]
    InvalidPhase(String),
    #[error("turn: {0}")]
    InvalidTurn(String),
    #[error("trade offer {id}: {reason}")]
    InvalidOffer { id: u32, reason: &'static str },
    #[error("{0} is not part of this game's rules")]
    NotInThisGame(&'static str),
    #[error("seafarers: {0}")]
    Seafarers(String),
    #[error("wonders: {0}")]
    Wonders(String),
    #[error("cities & knights: {0}")]
    CitiesKnights(String),
    #[error("seat {seat} has {points} victory points on its own turn: the game would be over (B-WIN-3)")]
    AlreadyWon { seat: Seat, points: u32 },
}

impl PositionError {
    /// Returns the stable snake_case code of the problem.
    pub const fn code(&self) -> &'static str {
        match self {
            PositionError::Setup(error) => error.code(),
            PositionError::UnknownSeat(_) => "unknown_seat",
            PositionError::UnknownVertex(_) => "unknown_vertex",
            PositionError::UnknownEdge(_) => "unknown_edge",
            PositionError::UnknownHex(_) => "unknown_hex",
            PositionError::VertexOccupied(_) => "vertex_occupied",
            PositionError::BuildingsTooClose(..) => "buildings_too_close",
            PositionError::EdgeOccupied(_) => "edge_occupied",
            PositionError::EdgeNotBuildable(_) => "edge_not_buildable",
            PositionError::EdgeNotNavigable(_) => "edge_not_navigable",
            PositionError::RoadNotConnected { .. } => "road_not_connected",
            PositionError::ShipNotConnected { .. } => "ship_not_connected",
            PositionError::TooManyPieces { .. } => "too_many_pieces",
            PositionError::RobberNotOnLand(_) => "robber_not_on_land",
            PositionError::PirateNotOnSea(_) => "pirate_not_on_sea",
            PositionError::ResourcesNotConserved { .. } => "resources_not_conserved",
            PositionError::DevCardsNotConserved { .. } => "dev_cards_not_conserved",
            PositionError::LongestRoad(_) => "longest_road_inconsistent",
            PositionError::LargestArmy(_) => "largest_army_inconsistent",
            PositionError::InvalidPhase(_) => "invalid_phase",
            PositionError::InvalidTurn(_) => "invalid_turn",
            PositionError::InvalidOffer { .. } => "invalid_offer",
            PositionError::NotInThisGame(_) => "not_in_this_game",
            PositionError::Seafarers(_) => "seafarers_state_inconsistent",
            PositionError::Wonders(_) => "wonders_state_inconsistent",
            PositionError::AlreadyWon { .. } => "already_won",
            PositionError::CitiesKnights(_) => "cities_knights_state_inconsistent",
        }
    }
}
