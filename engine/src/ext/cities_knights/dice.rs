//! The three dice of Cities & Knights (CK-CMP-8, CK-TURN-2/3): the red and white number dice
//! and the event die, rolled together and resolved in RULES.md's order — the event die first
//! (the barbarians advance, and attack on arrival; a gate lets progress cards be drawn), then
//! the number dice (a 7, or production).

use serde::{Deserialize, Serialize};

use crate::{
    chance::{roll_dice, Chance, Draw},
    game::Game,
    model::Seat,
    protocol::Event,
};

/// The event die's draw: three ship faces and one gate of each colour (CK-EVT-1).
pub const EVENT_DIE: Draw = Draw("event_die");

/// What the event die shows (CK-CMP-8, CK-EVT-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum EventFace {
    /// The barbarian ship (three of the six faces): the barbarians advance (CK-BAR-2).
    Ship,
    /// The yellow city gate: trade progress cards may be drawn (CK-EVT-2).
    Trade,
    /// The blue city gate: politics progress cards.
    Politics,
    /// The green city gate: science progress cards.
    Science,
}

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

/// CK-TURN-2/3: all three dice, recorded in the events, then resolved in order: what the
/// event die does (`on_event_die`, given the red die), then the number dice on the state the
/// event die left (`on_number_dice`, given that state and the sum).
pub(crate) fn roll_three_dice(
    game: &Game,
    seat: Seat,
    chance: &mut dyn Chance,
    on_event_die: impl FnOnce(&Game, EventFace, u8, &mut dyn Chance) -> Vec<Event>,
    on_number_dice: impl FnOnce(&Game, u8) -> Vec<Event>,
) -> Vec<Event> {
    let face = roll_event_die(chance);
    let (red, white) = roll_dice(chance);
    let mut events = vec![Event::EventDieRolled { seat, face }, Event::DiceRolled { seat, red, white }];
    let event_die = on_event_die(game, face, red, chance);
    if event_die.is_empty() {
        events.extend(on_number_dice(game, red + white));
    } else {
        let mut after = game.clone();
        for event in &event_die {
            after.apply(event);
        }
        events.extend(event_die);
        events.extend(on_number_dice(&after, red + white));
    }
    events
}
