//! A pure rules engine for Catan: no I/O, no async, no randomness it does not record.
//!
//! A [`Game`] is always a legal position. [`Game::legal_moves`] lists what a seat may do;
//! [`Game::decide`] validates a [`Move`] and returns the [`Event`]s it causes without changing
//! anything; [`Game::apply`] folds an event into the state and has no rules. Dice, drawn
//! cards and stolen cards come from a [`Chance`] and are written into the events, so
//! [`Game::replay`] of the log rebuilds the game exactly, with no RNG. Rule ids (`B-ROB-3`)
//! refer to the project's RULES.md.
//!
//! ```
//! use catan_engine::{Game, GameConfig, Move, Seat, Viewer};
//!
//! // A 4-player game on the beginner board; the seed fixes every chance outcome.
//! let mut game = Game::new(GameConfig::for_players(4), 42).unwrap();
//! let seat = game.active_seat();
//!
//! // During setup the placing seat may build a settlement on any legal vertex.
//! let moves = game.legal_moves(seat);
//! assert!(matches!(moves[0], Move::BuildSettlement { .. }));
//!
//! // Decide, then apply: the event log is the game.
//! let events = game.decide(seat, &moves[0], &mut game.chance()).unwrap();
//! for event in &events {
//!     game.apply(event);
//! }
//! assert_eq!(game.view(Viewer::Seat(seat)).board.buildings.len(), 1);
//!
//! // An illegal move names the rule it breaks.
//! let error = game.decide(seat, &Move::RollDice, &mut game.chance()).unwrap_err();
//! assert_eq!(error.code(), "wrong_phase");
//! ```

#![forbid(unsafe_code)]

pub mod board;
pub mod bots;
pub mod chance;
pub mod config;
pub mod error;
pub mod events;
mod game;
mod legal;
pub mod moves;
pub mod resources;
mod rng;
mod rules;
pub mod sim;
pub mod state;
pub mod variants;
pub mod view;

pub use board::{EdgeId, HexCoord, VertexId};
pub use chance::{Chance, FixedChance, SeededChance};
pub use config::{BoardSpec, DevCardsBeforeRoll, FirstPlayer, GameConfig};
pub use error::{RuleError, SetupError};
pub use events::{Event, Viewer};
pub use moves::Move;
pub use resources::{Resource, Resources};
pub use rules::MAX_OPEN_OFFERS_PER_SEAT;
pub use state::{DevCard, DevCards, Game, Phase, Seat};
pub use view::GameView;
