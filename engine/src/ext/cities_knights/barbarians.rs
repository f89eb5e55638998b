//! The barbarians (CK-BAR): the ship's advance on the event die.

use super::CitiesKnights;
use crate::{game::Game, protocol::Event};

impl CitiesKnights {
    /// CK-BAR-2: a ship on the event die moves the barbarians one step closer to Catan.
    pub(super) fn advance(&self, game: &Game) -> Vec<Event> {
        let position = game.ext.cities_knights.barbarians.saturating_add(1).min(self.barbarian_steps);
        vec![Event::BarbariansAdvanced { position }]
    }
}
