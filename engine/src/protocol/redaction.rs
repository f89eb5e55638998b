//! What each reader may see of an event while the game runs ([`Event::redacted_for`]).

use super::events::{Event, Viewer};
use crate::model::Seat;

impl Event {
    /// Returns the event as `viewer` may see it while the game is running: the seed, other
    /// seats' discarded cards, stolen cards between others, and others' drawn development
    /// cards are removed. After game over, pass the event unredacted instead.
    pub fn redacted_for(&self, viewer: Viewer) -> Event {
        let sees = |seat: Seat| viewer == Viewer::Seat(seat);
        let mut event = self.clone();
        match &mut event {
            Event::GameStarted { seed, .. } => *seed = None,
            Event::PositionSet { position } => **position = position.as_ref().clone().redacted_for(viewer),
            Event::ResourcesDiscarded { seat, resources, .. } if !sees(*seat) => *resources = None,
            Event::ResourceStolen { thief, victim, resource } if !sees(*thief) && !sees(*victim) => *resource = None,
            Event::DevelopmentCardBought { seat, card, .. } if !sees(*seat) => *card = None,
            Event::DevelopmentCardGifted { seat, card } if !sees(*seat) => *card = None,
            // PIR-14: which cards the fleet took, the victim only.
            Event::FleetAttack { seat, resources, .. } if !sees(*seat) => *resources = None,
            Event::CardsDiscarded { seat, cards, .. } if !sees(*seat) => *cards = None,
            Event::ProgressCardDrawn { seat, card, .. }
                if !sees(*seat) && !card.is_some_and(|c| c.is_victory_point()) =>
            {
                *card = None
            }
            Event::CommodityStolen { thief, victim, commodity } if !sees(*thief) && !sees(*victim) => *commodity = None,
            Event::ProgressCardDiscarded { seat, card, .. } if !sees(*seat) => *card = None,
            Event::ProgressCardTaken { seat, from, card } if !sees(*seat) && !sees(*from) => *card = None,
            Event::ProgressCardsRevealed { seat, target, cards } if !sees(*seat) && !sees(*target) => *cards = None,
            Event::CardsGiven { seat, to, cards, .. } if !sees(*seat) && !sees(*to) => *cards = None,
            Event::CommercialHarborOffered { seat, with, resource } if !sees(*seat) && !sees(*with) => *resource = None,
            Event::CommercialHarborAnswered { seat, to, commodity } if !sees(*seat) && !sees(*to) => *commodity = None,
            Event::HandShown { seat, target, cards } if !sees(*seat) && !sees(*target) => *cards = None,
            Event::CardsTaken { seat, from, cards, .. } if !sees(*seat) && !sees(*from) => *cards = None,
            // Progress cards' hidden fields go above this line.
            _ => {}
        }
        event
    }
}
