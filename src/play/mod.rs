//! Play that no request drives: the built-in bots ([`bots`]), and the turn limit and turn
//! timer that make every game end ([`turn_timer`]). Their moves go through the same write path
//! as a user's ([`crate::store`]).

pub mod bots;
pub mod seeks;
pub mod turn_timer;
