//! Warships (PIR-15): a Knight card turns one of the player's ships into a warship; the
//! robber is not in play (PIR-2) and there is no Largest Army (PIR-17).

use super::super::Seafarers;
use crate::{
    board::EdgeId,
    config::WarshipChoice,
    game::Game,
    model::{DevCard, Seat},
    protocol::{Event, Move, RuleError},
};

impl Seafarers {
    /// PIR-15: the card's timing is a Knight's (B-DEV-2, B-TURN-3); the ship is the oldest
    /// that is not a warship yet (`oldest`) or the one the play names (`player_choice`).
    pub(crate) fn decide_warship(
        &self,
        game: &Game,
        seat: Seat,
        ship: Option<EdgeId>,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        game.check_playable(seat, DevCard::Knight)?;
        let plain = game.ext.seafarers.pirate_islands.plain_ships(game, seat);
        let edge = match (self.pirate.warship_choice, ship) {
            (WarshipChoice::Oldest, None) => *plain.first().ok_or(RuleError::NoShipForWarship)?,
            (WarshipChoice::Oldest, Some(_)) => {
                return Err(RuleError::WrongPhase("your oldest ship becomes the warship: name none"))
            }
            (WarshipChoice::PlayerChoice, None) if plain.is_empty() => return Err(RuleError::NoShipForWarship),
            (WarshipChoice::PlayerChoice, None) => {
                return Err(RuleError::WrongPhase("name the ship that becomes a warship"))
            }
            (WarshipChoice::PlayerChoice, Some(edge)) if plain.contains(&edge) => edge,
            (WarshipChoice::PlayerChoice, Some(edge)) => return Err(RuleError::NotAWarshipCandidate(edge)),
        };
        events.push(Event::KnightPlayed { seat });
        events.push(Event::ShipBecameWarship { seat, edge });
        Ok(())
    }

    pub(crate) fn warship_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        if game.check_playable(seat, DevCard::Knight).is_err() {
            return;
        }
        let plain = game.ext.seafarers.pirate_islands.plain_ships(game, seat);
        match self.pirate.warship_choice {
            WarshipChoice::Oldest if !plain.is_empty() => moves.push(Move::PlayWarship { ship: None }),
            WarshipChoice::Oldest => {}
            WarshipChoice::PlayerChoice => {
                moves.extend(plain.into_iter().map(|edge| Move::PlayWarship { ship: Some(edge) }))
            }
        }
    }
}
