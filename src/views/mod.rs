//! What the server answers with, apart from the handlers that answer: the game resource and
//! its summaries ([`game`]), moves and the move log ([`moves`]), trade offers
//! ([`trades`]), game records ([`records`]), the analysis of positions a caller sends
//! ([`positions`]), the board picture ([`picture`]), and the spectator page ([`spectator`]).
//! Views are built from what a caller may see, never from hidden state.

pub mod game;
pub mod moves;
pub mod picture;
pub mod positions;
pub mod ratings;
pub mod records;
pub mod seeks;
pub mod spectator;
pub mod trades;

use chrono::{DateTime, NaiveDateTime, Utc};

/// A stored time (UTC, without its zone) as the API shows it.
pub fn utc(at: NaiveDateTime) -> DateTime<Utc> {
    DateTime::from_naive_utc_and_offset(at, Utc)
}
