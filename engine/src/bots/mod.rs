//! Built-in bots: a [`Bot`] picks one of the legal moves a seat may make. [`BotKind`] names
//! the built-in kinds (serialized `"random"`, `"heuristic"`) and [`new_bot`] builds one.
//!
//! Bots see the game through the public API only and never peek at hidden cards of others:
//! a [`HeuristicBot`] reads what `game.view(Viewer::Seat(own seat))` would show. Every bot
//! returns an index into the legal moves it is given, so every move it makes is legal.

mod heuristic;
mod random;

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};

use crate::{Game, Move, Seat};

pub use heuristic::HeuristicBot;
pub use random::RandomBot;

/// Picks a move among the legal ones.
pub trait Bot {
    /// Returns the index in `moves` (the legal moves of `seat`, never empty) of the move to
    /// make. An index out of range is treated by drivers as the last move.
    fn choose(&mut self, game: &Game, seat: Seat, moves: &[Move]) -> usize;
}

impl<B: Bot + ?Sized> Bot for Box<B> {
    fn choose(&mut self, game: &Game, seat: Seat, moves: &[Move]) -> usize {
        (**self).choose(game, seat, moves)
    }
}

/// The built-in bot kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum BotKind {
    /// Weighted random moves ([`RandomBot`]).
    #[default]
    Random,
    /// Expected-production placement, builds toward victory points, robber on the leader
    /// ([`HeuristicBot`]).
    Heuristic,
}

impl BotKind {
    pub const ALL: [BotKind; 2] = [BotKind::Random, BotKind::Heuristic];

    /// Returns the snake_case name, as serialized.
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Heuristic => "heuristic",
        }
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A bot kind name that is not one of [`BotKind::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot kind {0:?} (expected one of: random, heuristic)")]
pub struct UnknownBotKind(pub String);

impl FromStr for BotKind {
    type Err = UnknownBotKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BotKind::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownBotKind(s.to_owned()))
    }
}

/// Builds a bot of `kind`; `seed` fixes its choices (bots are deterministic given a seed).
pub fn new_bot(kind: BotKind, seed: u64) -> Box<dyn Bot + Send> {
    match kind {
        BotKind::Random => Box::new(RandomBot::new(seed)),
        BotKind::Heuristic => Box::new(HeuristicBot::new(seed)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse_and_serialize_as_snake_case() {
        for kind in BotKind::ALL {
            assert_eq!(kind.name().parse::<BotKind>(), Ok(kind));
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{}\"", kind.name()));
            assert_eq!(serde_json::from_str::<BotKind>(&format!("\"{kind}\"")).unwrap(), kind);
        }
        assert_eq!(" Heuristic ".parse::<BotKind>(), Ok(BotKind::Heuristic));
        assert!("minimax".parse::<BotKind>().is_err());
    }
}
