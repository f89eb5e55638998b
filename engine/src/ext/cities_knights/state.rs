//! What Cities & Knights keeps in a game beyond the base game's state.

use serde::{Deserialize, Serialize};

use super::{cards, Knight, Merchant, Metropolis, ProgressCard, ProgressCards, Track};
use crate::{board::VertexId, model::Seat};

/// What Cities & Knights keeps beyond the base game.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct CitiesKnightsState {
    /// The barbarian ship's position on its track, 0 to `barbarian_steps` (CK-BAR-1).
    #[serde(default)]
    pub barbarians: u8,
    /// Barbarian attacks resolved so far (CK-BAR-10 looks at the first).
    #[serde(default)]
    pub attacks: u32,
    /// Each seat's improvement levels, by track in [`Track::ALL`] order (CK-IMP).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub improvements: Vec<[u8; 3]>,
    /// The vertices of cities with a city wall, with the wall's owner (CK-WALL).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub walls: Vec<(VertexId, Seat)>,
    /// The knights on the board (CK-KNT).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub knights: Vec<Knight>,
    /// Defender of Catan cards by seat (CK-BAR-6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defenders: Vec<u32>,
    /// Pillaged cities whose owner had no settlement piece left: they count as settlements
    /// without taking a piece (CK-BAR-8).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pillaged: Vec<VertexId>,
    /// Each seat's progress cards, VP cards included (CK-PC); the decks are the 54 cards
    /// less these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub progress: Vec<ProgressCards>,
    /// The metropolises on the board, one per track at most (CK-MET).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metropolises: Vec<Metropolis>,
    /// Progress cards played or discarded, in order: they lie under the decks' other cards
    /// (CK-PC-3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub returned: Vec<ProgressCard>,
    /// What cards played this turn leave in force (Crane, Merchant Fleet, Commercial Harbor).
    #[serde(default, skip_serializing_if = "cards::CardTurn::is_unused")]
    pub card_turn: cards::CardTurn,
    /// The merchant, once a Merchant card placed it (CK-MER).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merchant: Option<Merchant>,
}

/// Written by hand for `clone_from`, which the look-ahead copies (`Game::with_copy`, the
/// victory check) call on every move that looks ahead: the derived one would allocate every
/// list anew instead of reusing the copy's.
impl Clone for CitiesKnightsState {
    fn clone(&self) -> Self {
        let mut copy = CitiesKnightsState::default();
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &Self) {
        let CitiesKnightsState {
            barbarians,
            attacks,
            improvements,
            walls,
            knights,
            defenders,
            pillaged,
            progress,
            metropolises,
            returned,
            card_turn,
            merchant,
        } = source;
        self.barbarians = *barbarians;
        self.attacks = *attacks;
        self.improvements.clone_from(improvements);
        self.walls.clone_from(walls);
        self.knights.clone_from(knights);
        self.defenders.clone_from(defenders);
        self.pillaged.clone_from(pillaged);
        self.progress.clone_from(progress);
        self.metropolises.clone_from(metropolises);
        self.returned.clone_from(returned);
        self.card_turn.clone_from(card_turn);
        self.merchant = *merchant;
    }
}

impl CitiesKnightsState {
    pub(crate) fn is_unused(&self) -> bool {
        *self == CitiesKnightsState::default()
    }

    /// The seat's level in `track` (CK-IMP-1).
    pub(crate) fn level(&self, seat: Seat, track: Track) -> u8 {
        self.improvements.get(seat.index()).map_or(0, |levels| levels[track as usize])
    }

    /// Room for a whole game of `seats` (issue 28: no allocation per move): each seat's
    /// entries, knights and walls, the metropolises, the progress cards that go back under
    /// their decks, and a pillaged city without a piece for each of the `cities` pieces. The
    /// lists stay empty: a position rebuilds them as they are.
    pub(super) fn reserve(&mut self, seats: usize, cities: usize) {
        self.improvements.reserve(seats);
        self.defenders.reserve(seats);
        self.progress.reserve(seats);
        self.knights.reserve(seats * usize::from(super::knights::MIGHTY) * super::knights::PIECES_PER_RANK);
        self.walls.reserve(seats * super::knights::WALLS_PER_SEAT as usize);
        self.metropolises.reserve(Track::ALL.len());
        self.pillaged.reserve(cities);
        self.returned.reserve(super::progress::full_decks().total() as usize);
        self.card_turn.merchant_fleets.reserve(super::progress::full_decks().get(ProgressCard::MerchantFleet) as usize);
    }

    /// The entry of `seat` in a list kept by seat, grown to hold it.
    pub(super) fn of_seat<T: Default + Clone>(list: &mut Vec<T>, seat: Seat) -> &mut T {
        if list.len() <= seat.index() {
            list.resize(seat.index() + 1, T::default());
        }
        &mut list[seat.index()]
    }

    /// Forgets that the settlement on `vertex` is a pillaged city without a piece (it is
    /// upgraded again); returns whether it was one.
    pub(crate) fn take_pillaged(&mut self, vertex: VertexId) -> bool {
        let before = self.pillaged.len();
        self.pillaged.retain(|v| *v != vertex);
        self.pillaged.len() != before
    }

    /// The walls `seat` has on the board (CK-WALL-1).
    pub(crate) fn walls_of(&self, seat: Seat) -> u32 {
        self.walls.iter().filter(|(_, s)| *s == seat).count() as u32
    }
}
