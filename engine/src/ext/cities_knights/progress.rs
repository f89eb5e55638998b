//! Progress cards as far as this issue goes (CK-CMP-2, CK-IMP-6, CK-EVT-2/3): three decks of
//! 18, drawn face down on a city gate by every seat whose level in the gate's track opens the
//! window for the red die. The cards' effects come with the second issue; the two VP cards
//! are revealed on drawing and score (CK-EVT-3).

use super::{
    types::{ProgressCard, ProgressCards},
    CitiesKnights, Track,
};
use crate::model::PushInPlace;
use crate::{
    chance::{draw_card, Chance, Draw},
    game::Game,
    model::{CardKind, Counts, Seat},
    protocol::Event,
};

/// The draw of a progress card from a deck.
pub const PROGRESS_CARD: Draw = Draw::PROGRESS_CARD;

const NAMES: [&str; 25] = [
    "alchemist",
    "crane",
    "engineer",
    "inventor",
    "irrigation",
    "medicine",
    "mining",
    "printer",
    "road_building",
    "smith",
    "commercial_harbor",
    "master_merchant",
    "merchant",
    "merchant_fleet",
    "resource_monopoly",
    "trade_monopoly",
    "bishop",
    "constitution",
    "deserter",
    "diplomat",
    "intrigue",
    "saboteur",
    "spy",
    "warlord",
    "wedding",
];

use ProgressCard as P;

impl ProgressCard {
    pub const ALL: [ProgressCard; 25] = [
        P::Alchemist,
        P::Crane,
        P::Engineer,
        P::Inventor,
        P::Irrigation,
        P::Medicine,
        P::Mining,
        P::Printer,
        P::RoadBuilding,
        P::Smith,
        P::CommercialHarbor,
        P::MasterMerchant,
        P::Merchant,
        P::MerchantFleet,
        P::ResourceMonopoly,
        P::TradeMonopoly,
        P::Bishop,
        P::Constitution,
        P::Deserter,
        P::Diplomat,
        P::Intrigue,
        P::Saboteur,
        P::Spy,
        P::Warlord,
        P::Wedding,
    ];

    /// The deck (track colour) the card belongs to (CK-CMP-2).
    pub const fn track(self) -> Track {
        match self as usize {
            0..=9 => Track::Science,
            10..=15 => Track::Trade,
            _ => Track::Politics,
        }
    }

    /// Printer and Constitution: 1 VP, revealed when drawn (CK-EVT-3).
    pub const fn is_victory_point(self) -> bool {
        matches!(self, P::Printer | P::Constitution)
    }
}

impl CardKind for ProgressCard {
    const ALL: &'static [ProgressCard] = &ProgressCard::ALL;
    const NAMES: &'static [&'static str] = &NAMES;
    type Array = [u32; 25];
    fn index(self) -> usize {
        self as usize
    }
    fn name(self) -> &'static str {
        NAMES[self as usize]
    }
}

/// The 54 cards: 18 per deck (CK-CMP-2, CK-PC-7).
pub fn full_decks() -> ProgressCards {
    Counts::from_array([2, 2, 1, 2, 2, 2, 2, 1, 2, 2, 2, 2, 6, 2, 4, 2, 2, 1, 2, 2, 2, 2, 3, 2, 2])
}

/// The cards of `cards` in `track`'s deck.
pub fn of_track(cards: &ProgressCards, track: Track) -> ProgressCards {
    let mut out = *cards;
    for card in ProgressCard::ALL.into_iter().filter(|c| c.track() != track) {
        out.set(card, 0);
    }
    out
}

/// One deck as it is drawn from: the cards never drawn (in random order) lie on top of those
/// played or discarded, which went to the bottom in order (CK-PC-3). The bottom is read in
/// the state's list of returned cards, not collected (a deck is made on every gate rolled).
pub(super) struct Deck<'a> {
    shuffled: ProgressCards,
    track: Track,
    /// The returned cards not yet drawn: those of this track in it are the bottom, in order.
    bottom: &'a [ProgressCard],
}

impl<'a> Deck<'a> {
    pub(super) fn of(state: &'a super::CitiesKnightsState, track: Track) -> Deck<'a> {
        Deck { shuffled: of_track(&state.shuffled_cards(), track), track, bottom: &state.returned }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.shuffled.is_empty() && !self.bottom.iter().any(|c| c.track() == self.track)
    }

    /// The top card: a random one of those never drawn, else the first card put under them.
    pub(super) fn draw(&mut self, chance: &mut dyn Chance) -> Option<ProgressCard> {
        if self.shuffled.is_empty() {
            let at = self.bottom.iter().position(|c| c.track() == self.track)?;
            let card = self.bottom[at];
            self.bottom = &self.bottom[at + 1..];
            return Some(card);
        }
        let card = draw_card(chance, PROGRESS_CARD, &self.shuffled)?;
        *self.shuffled.get_mut(card) -= 1;
        Some(card)
    }
}

impl super::CitiesKnightsState {
    /// The cards of the three decks never drawn, or shuffled in: the 54 less those held and
    /// those put under the decks.
    pub(super) fn shuffled_cards(&self) -> ProgressCards {
        let held = self.progress.iter().fold(ProgressCards::default(), |sum, hand| sum + *hand);
        let mut returned = ProgressCards::default();
        for card in &self.returned {
            *returned.get_mut(*card) += 1;
        }
        full_decks() - held - returned
    }

    /// A card leaves `seat`'s hand for the bottom of its deck (CK-PC-3).
    pub(super) fn give_back(&mut self, seat: Seat, card: ProgressCard) {
        let hand = Self::of_seat(&mut self.progress, seat);
        if hand.get(card) > 0 {
            *hand.get_mut(card) -= 1;
            self.returned.push(card);
        }
    }

    /// A drawn card comes from the shuffled cards while the deck has any, else from under
    /// them (CK-PC-3).
    pub(super) fn take_drawn(&mut self, seat: Seat, card: ProgressCard) {
        if of_track(&self.shuffled_cards(), card.track()).is_empty() {
            match self.returned.iter().position(|c| *c == card) {
                Some(at) => {
                    self.returned.remove(at);
                }
                None => return,
            }
        }
        *Self::of_seat(&mut self.progress, seat).get_mut(card) += 1;
    }
}

impl Game {
    /// The progress cards still in the decks (all three): the 54 less those held.
    pub fn progress_decks(&self) -> ProgressCards {
        let held = self.ext.cities_knights.progress.iter().fold(ProgressCards::default(), |sum, hand| sum + *hand);
        full_decks() - held
    }

    /// The progress cards `seat` holds, VP cards included (CK-PC-6: hidden from others but
    /// for the VP cards, which lie face up, CK-EVT-3).
    pub fn progress_cards(&self, seat: Seat) -> ProgressCards {
        self.ext.cities_knights.progress.get(seat.index()).copied().unwrap_or_default()
    }

    /// The VP progress cards `seat` has revealed (CK-EVT-3).
    pub fn progress_points(&self, seat: Seat) -> u32 {
        let cards = self.progress_cards(seat);
        cards.get(P::Printer) + cards.get(P::Constitution)
    }
}

impl CitiesKnights {
    /// CK-IMP-6, CK-EVT-2: on a gate of `track` with red die `red`, every seat whose level
    /// `L >= 1` in that track has `red <= L + 1` draws the top card of the track's deck,
    /// starting with the active seat and going clockwise, while the deck lasts.
    pub(super) fn progress_draws(
        &self,
        game: &Game,
        track: Track,
        red: u8,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) {
        let mut deck = Deck::of(&game.ext.cities_knights, track);
        let mut seat = game.turn_active();
        for _ in 0..game.player_count() {
            let level = game.ext.cities_knights.level(seat, track);
            if level >= 1 && red <= level + 1 {
                let Some(card) = deck.draw(chance) else { break };
                events.push_in_place(|| Event::ProgressCardDrawn { seat, track, card: Some(card) });
            }
            seat = game.next_seat(seat);
        }
    }
}

#[cfg(feature = "openapi")]
mod schema {
    use utoipa::openapi::{RefOr, Schema};

    use super::{ProgressCard, ProgressCards};

    impl utoipa::PartialSchema for ProgressCards {
        fn schema() -> RefOr<Schema> {
            crate::model::cards::schema::object_of::<ProgressCard>(
                "A count of progress cards per kind (Cities & Knights); missing names count as zero.",
                false,
            )
            .into()
        }
    }
    impl utoipa::ToSchema for ProgressCards {
        fn name() -> std::borrow::Cow<'static, str> {
            "ProgressCards".into()
        }
    }
}
