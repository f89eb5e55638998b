//! The Wonders of Catan part of a position: the claimed wonders and their stages
//! (WON-8..10), each holding one of its seat's ships.

use serde::{Deserialize, Serialize};

use super::{Claim, WonderId, WONDER_STAGES};
use crate::{
    game::Game,
    model::Seat,
    position::{PositionError, Setup},
};

use PositionError as E;

/// A claimed wonder and the stages built (Wonders of Catan, WON-8..10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct WonderSetup {
    pub seat: Seat,
    pub wonder: WonderId,
    #[serde(default)]
    pub stages: u8,
}

/// WON-8/10: each claim by a seat of the game, one wonder per seat and one seat per wonder,
/// a wonder on offer, at most four stages, and a ship of the seat's supply on the card.
pub(super) fn place_wonders(game: &mut Game, claims: &[WonderSetup]) -> Result<(), PositionError> {
    if claims.is_empty() {
        return Ok(());
    }
    let on_offer: Vec<WonderId> = game.wonders().iter().map(|w| w.wonder).collect();
    if on_offer.is_empty() {
        return Err(E::NotInThisGame("wonders (WON-8)"));
    }
    let bad = |message: String| Err(E::Wonders(message));
    for (i, claim) in claims.iter().enumerate() {
        let WonderSetup { seat, wonder, stages } = *claim;
        if seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(seat));
        }
        if !on_offer.contains(&wonder) {
            return bad(format!("the {wonder} is not on offer"));
        }
        let earlier = &claims[..i];
        if earlier.iter().any(|c| c.seat == seat || c.wonder == wonder) {
            return bad(format!("seat {seat} and the {wonder}: one wonder per seat, one seat per wonder (WON-8)"));
        }
        if stages > WONDER_STAGES {
            return bad(format!("the {wonder} has {stages} stages of {} (WON-10)", WONDER_STAGES));
        }
        if game.players[seat.index()].pieces_left.ships == 0 {
            return bad(format!("seat {seat} has no ship left to mark the {wonder} (WON-8)"));
        }
        game.retire_ship(seat);
        game.ext.wonders.claims.push(Claim { seat, wonder, stages });
    }
    Ok(())
}

/// The claims, for a game's position.
pub(super) fn export(game: &Game, setup: &mut Setup) {
    let claims = game.ext.wonders.claims.iter();
    setup.wonders = claims.map(|c| WonderSetup { seat: c.seat, wonder: c.wonder, stages: c.stages }).collect();
}

/// Building a Wonders of Catan position.
impl Setup {
    /// `seat` has claimed `wonder` and built `stages` of it (WON-8..10); the claim takes one
    /// ship of the seat's supply.
    #[must_use]
    pub fn with_wonder(mut self, seat: Seat, wonder: WonderId, stages: u8) -> Self {
        self.wonders.push(WonderSetup { seat, wonder, stages });
        self
    }
}
