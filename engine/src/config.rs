//! Game configuration: player count, board, and every rule flag of RULES.md 0.4 that
//! concerns the base game, each with its default.

use serde::{Deserialize, Serialize};

use crate::board::{BoardLayout, NumberPlacement};

/// Which board to play on.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum BoardSpec {
    /// The fixed, balanced first-game map (B-GEO-14).
    #[default]
    Beginner,
    /// Terrain and harbours shuffled, numbers per `number_placement` (B-GEO-13).
    Random,
    /// A map given as data; validated when the game is set up.
    Custom(BoardLayout),
}

/// What may be played before the roll (B-TURN-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum DevCardsBeforeRoll {
    /// Only a Knight (the seed's rule).
    #[default]
    KnightOnly,
    /// Any one development card (the publisher's current FAQ).
    Any,
}

/// Who takes the first turn (B-SET-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FirstPlayer {
    /// Everyone rolls; the highest sum starts, ties re-roll.
    #[default]
    Roll,
    /// A fixed seat starts.
    Seat(u8),
}

/// Everything that fixes the rules of one game. Missing fields take their defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct GameConfig {
    /// Number of seats, 2 to 4 (B-CMP-11).
    pub players: u8,
    pub board: BoardSpec,
    /// B-ROB-4: the robber may be moved onto the desert.
    pub robber_may_enter_desert: bool,
    /// B-TURN-3.
    pub dev_cards_before_roll: DevCardsBeforeRoll,
    /// B-TURN-6: trading may follow building in the same turn.
    pub allow_trade_build_interleaving: bool,
    /// B-GEO-12: how numbers are laid on a random board.
    pub number_placement: NumberPlacement,
    /// B-GEO-11: no 6/8 next to another 6/8.
    pub forbid_adjacent_red_numbers: bool,
    /// B-SET-2.
    pub first_player: FirstPlayer,
    /// B-WIN-1: victory points needed to win.
    pub vp_target: u8,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            players: 4,
            board: BoardSpec::Beginner,
            robber_may_enter_desert: true,
            dev_cards_before_roll: DevCardsBeforeRoll::KnightOnly,
            allow_trade_build_interleaving: true,
            number_placement: NumberPlacement::Spiral,
            forbid_adjacent_red_numbers: true,
            first_player: FirstPlayer::Roll,
            vp_target: 10,
        }
    }
}

impl GameConfig {
    /// Returns the default configuration for `players` seats.
    pub fn for_players(players: u8) -> Self {
        GameConfig {
            players,
            ..GameConfig::default()
        }
    }
}
