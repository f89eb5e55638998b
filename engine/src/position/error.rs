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
    #[error("hidden cards: {0} (B-CMP-5)")]
    Unseen(String),
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
            PositionError::Unseen(_) => "unseen_cards_inconsistent",
            PositionError::CitiesKnights(_) => "cities_knights_state_inconsistent",
        }
    }
}

impl PositionError {
    /// Returns the ids of the rules (RULES.md) the failed check stands for, the main one
    /// first: those its message names (`B-SET-3/7` read as `B-SET-3`, `B-SET-7`, and
    /// `WON-8..10` as `WON-8`, `WON-9`, `WON-10`), else the rule of the check's kind (a hex
    /// off the board: B-GEO-1). Empty for a check that stands for no numbered rule (a seat
    /// not in the game, a part of another expansion named without one).
    pub fn rules(&self) -> Vec<String> {
        let named = rule_ids(&self.to_string());
        if !named.is_empty() {
            return named;
        }
        let fallback: &[&str] = match self {
            PositionError::UnknownHex(_) => &["B-GEO-1"],
            PositionError::UnknownVertex(_) => &["B-GEO-3"],
            PositionError::UnknownEdge(_) => &["B-GEO-7"],
            PositionError::LongestRoad(_) => &["B-LR-3", "B-LR-4"],
            PositionError::LargestArmy(_) => &["B-LA-1", "B-LA-2"],
            PositionError::InvalidOffer { .. } => &["B-TRD-5"],
            PositionError::Wonders(_) => &["WON-8"],
            _ => &[],
        };
        fallback.iter().map(|id| (*id).to_owned()).collect()
    }

    /// Returns the main rule id of [`rules`](Self::rules), if any.
    pub fn rule(&self) -> Option<String> {
        self.rules().into_iter().next()
    }
}

/// The rule ids written in `text`: uppercase words joined by hyphens and ending in a number
/// (`B-BLD-4`, `SEA-2`, `X56-8`, `CK-PC-7`), with `/n` and `..n` after one read as more ids of
/// the same prefix; each once, in order.
fn rule_ids(text: &str) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    let mut push = |id: String| {
        if !ids.contains(&id) {
            ids.push(id);
        }
    };
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '/' || c == '.';
    for token in text.split(|c: char| !is_word(c)) {
        let token = token.trim_end_matches('.');
        // The id itself: the part before any `/` or `..`.
        let head = token.split(['/']).next().unwrap_or_default();
        let head = head.split("..").next().unwrap_or_default();
        let Some((prefix, number)) = head.rsplit_once('-') else { continue };
        let prefix_ok = !prefix.is_empty()
            && prefix.split('-').all(|part| {
                !part.is_empty()
                    && part.starts_with(|c: char| c.is_ascii_uppercase())
                    && part.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            });
        let Ok(first) = number.parse::<u32>() else { continue };
        if !prefix_ok {
            continue;
        }
        push(format!("{prefix}-{first}"));
        let rest = &token[head.len()..];
        if let Some(last) = rest.strip_prefix("..").and_then(|n| n.parse::<u32>().ok()) {
            for n in first + 1..=last.min(first + 20) {
                push(format!("{prefix}-{n}"));
            }
        } else {
            for more in rest.split('/').filter_map(|n| n.parse::<u32>().ok()) {
                push(format!("{prefix}-{more}"));
            }
        }
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ids_are_read_from_the_message() {
        let cases = [
            ("the buildings on a and b are one edge apart (B-BLD-4, B-GEO-9)", vec!["B-BLD-4", "B-GEO-9"]),
            ("turn 3 in phase setup: (B-SET-3/7)", vec!["B-SET-3", "B-SET-7"]),
            ("one wonder per seat (WON-8..10)", vec!["WON-8", "WON-9", "WON-10"]),
            ("special building (X56-8), CK-PC-7.", vec!["X56-8", "CK-PC-7"]),
            ("seat 7 is not in this game", vec![]),
            ("edge 0,-1,NE is on tile 0,-1", vec![]),
        ];
        for (text, expected) in cases {
            assert_eq!(rule_ids(text), expected, "{text}");
        }
    }

    #[test]
    fn every_check_names_its_rule() {
        let v = "0,0,N".parse().unwrap();
        let close = PositionError::BuildingsTooClose(v, v);
        assert_eq!(close.rule().as_deref(), Some("B-BLD-4"));
        assert_eq!(close.rules(), ["B-BLD-4", "B-GEO-9"]);
        assert_eq!(close.code(), "buildings_too_close");
        assert_eq!(PositionError::UnknownHex(crate::HexCoord::new(9, 9)).rule().as_deref(), Some("B-GEO-1"));
        assert_eq!(PositionError::LongestRoad("seat 1 holds it".into()).rules(), ["B-LR-3", "B-LR-4"]);
        assert_eq!(PositionError::UnknownSeat(Seat(5)).rule(), None);
    }
}
