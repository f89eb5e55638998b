//! A pure rules engine for Catan: no I/O, no async, no randomness it does not record.
//!
//! A [`Game`] is always a legal position. [`Game::legal_moves`] lists what a seat may do;
//! [`Game::decide`] validates a [`Move`] and returns the [`Event`]s it causes without changing
//! anything; [`Game::apply`] folds an event into the state and has no rules. Dice, drawn
//! cards and stolen cards come from a [`Chance`] and are written into the events, so
//! [`Game::replay`] of the log rebuilds the game exactly, with no RNG. Rule ids (`B-ROB-3`)
//! refer to the project's RULES.md.
//!
//! The module tree (see `engine/README.md` for the picture of which module may import which,
//! and how to add a ruleset):
//! - [`game`](Game): the facade, and `game/`, what several rulesets share (hands.rs moves
//!   cards between the bank and hands, routes.rs keeps roads' and ships' lengths and trails.rs
//!   searches them, production.rs and trading.rs); `model`: the generic state; [`board`]: geometry, layouts and the topology
//!   every game of a map shares;
//! - `ruleset`: built once from the [`GameConfig`] (the only reader of the variant switches
//!   besides each extension), with `ruleset/board.rs` laying out its board; `base`: the base game's rules by area, which names no
//!   expansion and asks the `Extension` hooks where a variant changes its answer;
//! - `ext`: one folder per extension (five_six, jungle, big_river, seafarers, wonders,
//!   cities_knights), each applying its own events through `Extension::apply`, which
//!   receives the whole game; a `types.rs` in a folder holds the wire types others name;
//! - [`protocol`]: moves, events, errors, the view's wire types and the versioned storage
//!   format; [`view`]: what one viewer may see (each extension adds its part);
//! - [`position`]: building any position for tests and bots; the base game's checks live in
//!   `position/`, each extension's in `ext/<name>/position.rs`, reached through its hooks;
//!   [`bots`], [`sim`]: self-play.
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

mod base;
pub mod board;
pub mod bots;
pub mod chance;
pub mod config;
mod ext;
mod game;
pub mod model;
pub mod position;
pub mod protocol;
pub mod rng;
mod ruleset;
pub mod sim;
pub mod view;

pub use board::{EdgeId, HexCoord, VertexId};
pub use chance::{Chance, Draw, FixedChance, RecordingChance, ScriptedChance, SeededChance};
pub use config::{
    BoardSpec, ClothRobberStart, DevCardsBeforeRoll, FirstPlayer, GameConfig, IslandBonusMode, IslandDefinition,
    PendingHarbour, PirateVpCards, ScenarioId, WarshipChoice,
};
pub use ext::cities_knights::{
    CardDecision, CardTurn, CitiesKnightsSeatView, CitiesKnightsView, DeckView, EventFace, Good, Knight, Merchant,
    Metropolis, ProgressCard, ProgressCards, ProgressPlay, SpiedCards, Track, ACTIVATION_COST, EVENT_DIE, KNIGHT_COST,
    PROGRESS_CARD, WALL_COST,
};
pub use ext::seafarers::cloth::ClothState;
/// The New World's board generator and its legality checks (RULES-SCENARIOS 5.4, 5.5).
pub use ext::seafarers::scenario::new_world;
pub use ext::seafarers::scenario::Gift;
/// The Pirate Islands' wire types (RULES-SCENARIOS section 4).
pub use ext::seafarers::types::{
    BattleOutcome, Fortress, PirateIslandsSeatView, PirateIslandsState, PirateIslandsView,
};
pub use ext::seafarers::types::{StealKind, Village};
pub use ext::wonders::{MarkedSet, Requirement, WonderId, WonderView, WONDER_STAGES};
pub use game::trading::MAX_OPEN_OFFERS_PER_SEAT;
pub use game::Game;
pub use model::{
    cost, Building, BuildingKind, CardKind, Cards, Commodities, Commodity, Counts, DevCard, DevCards, GoldSource,
    PendingDiscard, PendingGold, Phase, Phases, Pieces, PlayerState, Resource, Resources, Seat, SetupStep, TradeOffer,
};
pub use position::{CitiesKnightsSetup, PositionError, SeafarersSetup, SeatSetup, Setup, TurnSetup, WonderSetup};
pub use protocol::{
    Bandit, Event, Move, RuleError, SeatCommodities, SeatCount, SeatResources, SetupError, StartingRoll,
    VictoryCondition, Viewer,
};
pub use ruleset::{TURN_LIMITS, VARIANT_NAMES};
pub use view::GameView;

/// The old module paths, kept so that code written against them still compiles.
pub mod state {
    pub use crate::game::Game;
    pub use crate::model::{
        Building, BuildingKind, DevCard, DevCards, PendingDiscard, PendingGold, Phase, Pieces, PlayerState, Seat,
        SetupStep, TradeOffer,
    };
}
pub mod events {
    pub use crate::protocol::{Event, SeatCount, SeatResources, StartingRoll, Viewer};
}
pub mod resources {
    pub use crate::model::{cost, Resource, Resources};
}
