//! The three dice of Cities & Knights (CK-CMP-8, CK-TURN-2/3): the red and white number dice
//! and the event die, rolled together and resolved in RULES.md's order — the event die first
//! (the barbarians advance, and attack on arrival; a gate lets progress cards be drawn), then
//! the number dice (a 7, or production).

pub use super::types::EventFace;
use crate::chance::{Chance, Draw};

/// The event die's draw: three ship faces and one gate of each colour (CK-EVT-1).
pub const EVENT_DIE: Draw = Draw::EVENT_DIE;

impl EventFace {
    /// The faces in the order of [`EVENT_DIE`]'s outcomes.
    pub const ALL: [EventFace; 4] = [EventFace::Ship, EventFace::Trade, EventFace::Politics, EventFace::Science];
    /// How many of the die's six faces show each outcome.
    const WEIGHTS: [u32; 4] = [3, 1, 1, 1];

    /// The improvement track whose gate the face shows; `None` for the ship.
    pub const fn track(self) -> Option<super::Track> {
        match self {
            EventFace::Ship => None,
            EventFace::Trade => Some(super::Track::Trade),
            EventFace::Politics => Some(super::Track::Politics),
            EventFace::Science => Some(super::Track::Science),
        }
    }

    /// The outcome index of the face, for injecting it with `FixedChance::then(EVENT_DIE, _)`.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Rolls the event die.
pub(crate) fn roll_event_die(chance: &mut dyn Chance) -> EventFace {
    let index = chance.pick(EVENT_DIE, &EventFace::WEIGHTS);
    EventFace::ALL.get(index).copied().unwrap_or(EventFace::Ship)
}
