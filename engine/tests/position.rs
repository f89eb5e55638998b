//! Building positions with [`catan_engine::Setup`]: every position reached in play round-trips
//! (`round_trip`); each validation refuses what it must, naming its rule (`validation`, and
//! `seafarers` for ships, the pirate and Seafarers' memory); `Setup::position` never panics and accepts only games the rules can play (`mutations`); and a position redacted for one reader builds a game in which the reader has the same legal moves and view (`redacted`).

#[path = "common/islands.rs"]
mod islands;
#[path = "position/mutations.rs"]
mod mutations;
#[path = "position/redacted.rs"]
mod redacted;
#[path = "position/round_trip.rs"]
mod round_trip;
#[path = "common/sea.rs"]
mod sea;
#[path = "position/seafarers.rs"]
mod seafarers;
#[path = "position/validation.rs"]
mod validation;

use catan_engine::{EdgeId, Game, HexCoord, Phase, Seat, Setup, VertexId};

/// A vertex, edge or hex from its id (`"0,-1,N"`, `"0,-1,E"`, `"0,-1"`).
fn v(id: &str) -> VertexId {
    id.parse().unwrap()
}
fn e(id: &str) -> EdgeId {
    id.parse().unwrap()
}
fn h(id: &str) -> HexCoord {
    id.parse().unwrap()
}

/// `seat`'s turn, rolled (a 5): the main phase.
fn main_phase(setup: Setup, seat: Seat) -> Setup {
    setup.with_turn(1, seat).with_dice(2, 3).with_phase(Phase::Main, vec![])
}

/// The position is refused with `code`; returns the message.
#[track_caller]
fn refused(setup: Setup, code: &str) -> String {
    match setup.position() {
        Ok(_) => panic!("the position was accepted, expected {code}"),
        Err(error) => {
            assert_eq!(error.code(), code, "{error}");
            error.to_string()
        }
    }
}

/// The position is accepted.
#[track_caller]
fn accepted(setup: Setup) -> Game {
    setup.position().unwrap_or_else(|error| panic!("refused: {} ({error})", error.code()))
}
