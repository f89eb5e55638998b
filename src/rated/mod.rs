//! Rated play as rules of its own, without storage or HTTP: the rating pools and which games
//! belong to them ([`pools`]), how a finished game becomes a finish order and the Weng-Lin
//! update of its players' ratings ([`model`]), and which waiting seeks make a game
//! ([`matching`]), and the bot ladder that rates the built-in bots against each other in
//! seeded games ([`ladder`]). The store writes what these decide; the handlers serve it.

pub mod ladder;
pub mod matching;
pub mod model;
pub mod pools;

pub use model::{finish_order, places, rate_game, Finish, Rating, RatingChange, MODEL};
pub use pools::{Pool, RATED_TURN_TIMER_SECONDS};
