//! What Seafarers keeps beyond the pieces on the board: ships' turn marks, setup sites and
//! island bonuses, fog revealed, the tribe's gifts, the pirate islands and the cloth; and the
//! room its lists are given when the game is set up.

use serde::{Deserialize, Serialize};

use super::{cloth, types};
use crate::{
    board::{EdgeId, HarbourKind, Terrain, VertexId},
    game::Game,
    model::Seat,
};

/// What Seafarers keeps beyond the pieces on the board.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SeafarersState {
    /// Whether the active player has moved a ship this turn (SEA-6).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ship_moved: bool,
    /// Ships built this turn, which may not move before the next (SEA-6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub new_ships: Vec<EdgeId>,
    /// Each seat's setup settlements (SEA-12).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup_sites: Vec<(Seat, VertexId)>,
    /// Settlements that earned an island bonus, with its points (SEA-12).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bonuses: Vec<(Seat, VertexId, u32)>,
    /// Fog tiles turned face up so far: what left the hidden stacks (SEA-13).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revealed: Vec<(Terrain, Option<u8>)>,
    /// The tribe's gifts claimed so far: edge, claimant, gift (FTR-7).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gifts_claimed: Vec<(EdgeId, Seat, crate::Gift)>,
    /// Gift harbours taken and not yet placed, oldest first (FTR-10, FTR-12).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_harbours: Vec<(Seat, HarbourKind)>,
    /// The Pirate Islands' fleet, fortresses and warships (PIR).
    #[serde(default, skip_serializing_if = "types::PirateIslandsState::is_unused")]
    pub pirate_islands: types::PirateIslandsState,
    /// Cloth for Catan's villages, connections and cloth (CLV-5..14).
    #[serde(default, skip_serializing_if = "cloth::ClothState::is_unused")]
    pub cloth: cloth::ClothState,
}

/// By hand for `clone_from`: the victory check's copy of the game takes the lists over into
/// its own buffers instead of new ones (the setup sites are never empty after setup).
/// `clone_from` names every field; `clone` is a `clone_from` into an empty state.
impl Clone for SeafarersState {
    fn clone(&self) -> Self {
        let mut copy = SeafarersState::default();
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &Self) {
        let SeafarersState {
            ship_moved,
            new_ships,
            setup_sites,
            bonuses,
            revealed,
            gifts_claimed,
            pending_harbours,
            cloth,
            pirate_islands,
        } = source;
        self.pirate_islands.clone_from(pirate_islands);
        self.ship_moved = *ship_moved;
        self.new_ships.clone_from(new_ships);
        self.setup_sites.clone_from(setup_sites);
        self.bonuses.clone_from(bonuses);
        self.revealed.clone_from(revealed);
        self.gifts_claimed.clone_from(gifts_claimed);
        self.pending_harbours.clone_from(pending_harbours);
        self.cloth.clone_from(cloth);
    }
}

impl SeafarersState {
    pub(crate) fn is_unused(&self) -> bool {
        *self == SeafarersState::default()
    }
}

/// `Extension::reserve`: every edge may hold a ship; each seat's ships, setup settlements and
/// bonuses have their most; the fog hides a known number of tiles.
pub(super) fn reserve(game: &mut Game) {
    let seats = game.players.len();
    let pieces = game.rules().components.pieces;
    let setup_sites = seats * usize::from(game.rules().components.setup_rounds);
    let fog = game.board.layout().hexes.iter().filter(|h| h.terrain == Terrain::Fog).count();
    // Room only: the list stays empty (and out of the game's JSON) until the first ship.
    game.ships.reserve_exact(game.board.edges.len());
    let state = &mut game.ext.seafarers;
    state.new_ships.reserve(usize::from(pieces.ships));
    state.setup_sites.reserve(setup_sites);
    state.bonuses.reserve(seats * usize::from(pieces.settlements));
    state.revealed.reserve(fog);
}
