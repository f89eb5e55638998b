//! A position as one reader may see it (issue 31): the hands of the other seats as counts,
//! the cards nobody sees pooled, no seed ([`Setup::redacted_for`]); and such a position built
//! back into a game by dealing the pooled cards into the counted hands ([`deal`]), so that
//! the reader's legal moves in it are those of the real game.
//!
//! What the reader does not see is exactly what the game view hides from it: another seat's
//! resource cards and development cards (and, in Cities & Knights, its commodities and its
//! progress cards but the victory point ones, which lie face up). What it may know from the
//! public record stays: the bank, every count, the pieces, the phase, the offers, and the
//! pooled composition of the hidden cards (the game's cards less the bank and the cards it
//! sees), which is no secret since the reader can count it from what was played.

use serde::{Deserialize, Serialize};

use super::{checks, PositionError, SeatSetup, Setup};
use crate::{
    ext::cities_knights::ProgressCards,
    model::{CardKind, Commodities, Counts, DevCards, Resources, Seat},
    protocol::Viewer,
    ruleset::Ruleset,
};

/// The cards of one seat that the reader of a redacted position does not see, as counts:
/// the seat's [`SeatSetup`] holds none of them (absent: the reader sees that part).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct HiddenHand {
    /// Resource cards held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<u32>,
    /// Development cards held since before this turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dev_cards: Option<u32>,
    /// Development cards bought this turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_dev_cards: Option<u32>,
    /// Commodity cards held (Cities & Knights).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commodities: Option<u32>,
    /// Progress cards held but the victory point ones, which stay shown (Cities & Knights).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress_cards: Option<u32>,
}

impl HiddenHand {
    pub fn is_empty(&self) -> bool {
        *self == HiddenHand::default()
    }
}

/// What a redacted position's reader does not see, pooled: the hidden hands' cards together
/// (with the development deck's, and the progress decks' never drawn), by kind. Building the
/// position deals them into the hidden hands by their counts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Unseen {
    /// The seat whose cards the position shows; absent for a spectator's position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reader: Option<Seat>,
    /// The resource cards of the hidden hands together.
    pub resources: Resources,
    /// The development cards of the deck and of the hidden hands together.
    pub dev_cards: DevCards,
    /// The commodities of the hidden hands together (Cities & Knights).
    #[serde(skip_serializing_if = "Counts::is_empty")]
    pub commodities: Commodities,
    /// The progress cards of the hidden hands and those of the decks never drawn, together
    /// (Cities & Knights; the cards put under the decks are the position's `returned`).
    #[serde(skip_serializing_if = "Counts::is_empty")]
    pub progress_cards: ProgressCards,
    /// How many cards each progress deck holds, trade, politics and science, those put under
    /// it included (Cities & Knights).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress_decks: Option<[u32; 3]>,
}

impl Setup {
    /// The position as `viewer` may see it: every other seat's hidden cards as counts
    /// ([`SeatSetup::hidden`]), the cards nobody of them sees pooled in [`Setup::unseen`], the
    /// bank given, the deck left to the deal, and no seed (it would tell every draw to come).
    /// A position already redacted, or whose game is over, is returned as it is.
    #[must_use]
    pub fn redacted_for(mut self, viewer: Viewer) -> Setup {
        if self.is_redacted() || self.winner.is_some() {
            return self;
        }
        let rules = Ruleset::assemble(&self.config);
        let components = &rules.components;
        let players = usize::from(self.config.players).min(self.seats.len());
        let reader = match viewer {
            Viewer::Seat(seat) if seat.index() < players => Some(seat),
            _ => None,
        };
        let bank = self.bank.or_else(|| checks::derived_bank(components, &self.seats[..players]));
        let deck = self.deck.or_else(|| checks::derived_deck(components, &self.seats[..players]));
        let whole = self.clone();
        let mut unseen = Unseen { reader, dev_cards: deck.unwrap_or_default(), ..Unseen::default() };
        for (index, seat) in self.seats.iter_mut().enumerate().take(players) {
            if reader.is_some_and(|reader| reader.index() == index) {
                continue;
            }
            let hidden = seat.hidden.get_or_insert_with(HiddenHand::default);
            hidden.resources = Some(seat.resources.total());
            hidden.dev_cards = Some(seat.dev_cards.total());
            hidden.new_dev_cards = Some(seat.new_dev_cards.total());
            unseen.resources.add(&seat.resources);
            unseen.dev_cards.add(&seat.dev_cards);
            unseen.dev_cards.add(&seat.new_dev_cards);
            seat.resources = Resources::default();
            seat.dev_cards = DevCards::default();
            seat.new_dev_cards = DevCards::default();
        }
        self.bank = bank;
        self.deck = None;
        self.seed = 0;
        self.unseen = Some(unseen);
        for extension in &rules.extensions {
            extension.redact_position(&whole, &mut self);
        }
        self
    }

    /// Tests if the position is one reader's view ([`Setup::redacted_for`]).
    pub fn is_redacted(&self) -> bool {
        self.unseen.is_some()
    }
}

/// The seats of a redacted position that hold hidden cards, with their hands: the active
/// seat first, so that the deal leaves the victory point cards (the last kind) to the others
/// (only the active seat's points can end the game, B-WIN-3).
pub(crate) fn hidden_seats(setup: &mut Setup) -> Vec<(usize, &mut SeatSetup)> {
    let players = usize::from(setup.config.players);
    let active = setup.turn.active.index();
    let mut seats: Vec<(usize, &mut SeatSetup)> =
        setup.seats.iter_mut().enumerate().take(players).filter(|(_, seat)| seat.hidden.is_some()).collect();
    seats.sort_by_key(|(index, _)| *index != active);
    seats
}

/// Takes `count` cards of `pool` (the first kinds first: the last kinds, such as victory
/// point cards, stay in the pool longest), or `None` when the pool holds fewer.
pub(crate) fn take<K: CardKind>(pool: &mut Counts<K>, count: u32) -> Option<Counts<K>> {
    let mut taken = Counts::<K>::default();
    let mut left = count;
    for kind in K::ALL.iter().copied() {
        let n = pool.get(kind).min(left);
        *pool.get_mut(kind) -= n;
        *taken.get_mut(kind) += n;
        left -= n;
    }
    (left == 0).then_some(taken)
}

fn short(what: &str, seat: usize) -> PositionError {
    PositionError::Unseen(format!("the unseen {what} are fewer than seat {seat}'s hidden hand holds"))
}

/// Builds a redacted position's hands back: each hidden hand gets its counts of the pooled
/// cards (the base game's resources and development cards here, each extension's own through
/// `Extension::deal_position`), the rest of the development cards is the deck, and the
/// position is plain again. Any deal would do: the reader's legal moves depend on what it
/// sees and on the counts only.
///
/// # Errors
/// [`PositionError::Unseen`] when the pool cannot fill the counts (or holds cards left over
/// that belong to no hand).
pub(crate) fn deal(mut setup: Setup) -> Result<Setup, PositionError> {
    let Some(unseen) = setup.unseen.take() else {
        return Ok(setup);
    };
    let mut resources = unseen.resources;
    let mut dev_cards = unseen.dev_cards;
    for (index, seat) in hidden_seats(&mut setup) {
        let Some(hidden) = seat.hidden.as_mut() else { continue };
        if let Some(count) = hidden.resources.take() {
            seat.resources = take(&mut resources, count).ok_or_else(|| short("resources", index))?;
        }
        if let Some(count) = hidden.dev_cards.take() {
            seat.dev_cards = take(&mut dev_cards, count).ok_or_else(|| short("development cards", index))?;
        }
        if let Some(count) = hidden.new_dev_cards.take() {
            seat.new_dev_cards = take(&mut dev_cards, count).ok_or_else(|| short("development cards", index))?;
        }
    }
    if !resources.is_empty() {
        return Err(PositionError::Unseen(format!(
            "the unseen resources hold {} cards more than the hidden hands",
            resources.total()
        )));
    }
    setup.deck = Some(dev_cards);
    let rules = Ruleset::build(&setup.config)?;
    for extension in &rules.extensions {
        extension.deal_position(&unseen, &mut setup)?;
    }
    // What no extension of this game dealt is a part of another game's.
    for (index, seat) in setup.seats.iter_mut().enumerate() {
        match seat.hidden.take() {
            Some(hidden) if !hidden.is_empty() => {
                return Err(PositionError::Unseen(format!(
                    "seat {index} hides cards this game has none of: {hidden:?}"
                )))
            }
            _ => {}
        }
    }
    Ok(setup)
}
