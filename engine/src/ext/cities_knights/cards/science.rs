//! The science deck's cards (CK-PC-7): Alchemist, Crane, Engineer, Inventor, Irrigation, Medicine, Mining, Road Building, Smith.

use super::ProgressPlay;
use crate::{
    chance::Chance,
    ext::cities_knights::{CitiesKnights, CitiesKnightsState, ProgressCard},
    game::Game,
    model::{Phase, Seat},
    protocol::{Event, Move, RuleError},
};

/// The effect of a card of this deck, played by `seat`; `game` is the state after the card
/// left the hand.
pub(super) fn play(
    _ck: &CitiesKnights,
    _game: &Game,
    _seat: Seat,
    _play: &ProgressPlay,
    _chance: &mut dyn Chance,
) -> Result<Vec<Event>, RuleError> {
    Err(RuleError::NotInThisGame("this progress card's effect"))
}

/// Every way `seat` may play `card` of this deck now.
pub(super) fn plays(_ck: &CitiesKnights, _game: &Game, _seat: Seat, _card: ProgressCard, _moves: &mut Vec<Move>) {}

/// Decides a move that follows a card of this deck, if `mv` is one.
pub(super) fn decide_move(
    _ck: &CitiesKnights,
    _game: &Game,
    _seat: Seat,
    _mv: &Move,
    _chance: &mut dyn Chance,
) -> Option<Result<Vec<Event>, RuleError>> {
    None
}

/// The moves that follow this deck's cards that `seat` may make now.
pub(super) fn more_moves(_ck: &CitiesKnights, _game: &Game, _seat: Seat, _moves: &mut Vec<Move>) {}

/// Applies this deck's events.
pub(super) fn apply(_state: &mut CitiesKnightsState, _event: &Event, _phase: &Phase) {}
