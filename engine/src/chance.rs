//! Chance as an input: dice, the drawn development card and the stolen card.
//!
//! `decide` asks a [`Chance`] for every random outcome and writes the outcome into the
//! events, so `apply` and `replay` never need randomness. A game's own chance comes from
//! [`Game::chance`](crate::Game::chance): a stream keyed by the secret seed and the number of
//! events applied, so the same seed and the same moves always give the same game. Tests
//! inject outcomes with [`FixedChance`].

use std::collections::VecDeque;

use crate::{
    resources::{Resource, Resources},
    rng::Rng,
    state::{DevCard, DevCards},
};

/// A source of random outcomes for `decide`.
pub trait Chance {
    /// Rolls the two number dice: (red, white), each 1..=6.
    fn roll_dice(&mut self) -> (u8, u8);
    /// Draws one card from a non-empty deck with the given composition.
    fn draw_development_card(&mut self, deck: &DevCards) -> DevCard;
    /// Picks one card at random from a non-empty hand.
    fn steal_card(&mut self, hand: &Resources) -> Resource;
}

/// Chance from a seeded stream (the game's own).
#[derive(Debug, Clone)]
pub struct SeededChance {
    rng: Rng,
}

impl SeededChance {
    pub fn new(seed: u64, stream: u64) -> Self {
        SeededChance { rng: Rng::for_stream(seed, stream) }
    }
}

impl Chance for SeededChance {
    fn roll_dice(&mut self) -> (u8, u8) {
        (self.rng.die(), self.rng.die())
    }

    fn draw_development_card(&mut self, deck: &DevCards) -> DevCard {
        let index = self.rng.below(deck.total().max(1));
        deck.nth_card(index).unwrap_or(DevCard::Knight)
    }

    fn steal_card(&mut self, hand: &Resources) -> Resource {
        let index = self.rng.below(hand.total().max(1));
        hand.nth_card(index).unwrap_or(Resource::Lumber)
    }
}

/// Chance with injected outcomes (RULES.md 0.3), falling back to a seeded stream when a
/// queue is empty or its next outcome is impossible (a card not in the deck or hand).
#[derive(Debug, Clone)]
pub struct FixedChance {
    pub dice: VecDeque<(u8, u8)>,
    pub development_cards: VecDeque<DevCard>,
    pub stolen_cards: VecDeque<Resource>,
    fallback: SeededChance,
}

impl Default for FixedChance {
    fn default() -> Self {
        FixedChance {
            dice: VecDeque::new(),
            development_cards: VecDeque::new(),
            stolen_cards: VecDeque::new(),
            fallback: SeededChance::new(0, 0),
        }
    }
}

impl FixedChance {
    /// Returns chance that rolls `red` and `white` next.
    pub fn dice(red: u8, white: u8) -> Self {
        FixedChance { dice: VecDeque::from([(red, white)]), ..FixedChance::default() }
    }

    /// Returns chance that draws `card` next.
    pub fn card(card: DevCard) -> Self {
        FixedChance { development_cards: VecDeque::from([card]), ..FixedChance::default() }
    }

    /// Returns chance that steals `resource` next.
    pub fn steal(resource: Resource) -> Self {
        FixedChance { stolen_cards: VecDeque::from([resource]), ..FixedChance::default() }
    }
}

impl Chance for FixedChance {
    fn roll_dice(&mut self) -> (u8, u8) {
        match self.dice.pop_front() {
            Some((red, white)) if (1..=6).contains(&red) && (1..=6).contains(&white) => (red, white),
            _ => self.fallback.roll_dice(),
        }
    }

    fn draw_development_card(&mut self, deck: &DevCards) -> DevCard {
        match self.development_cards.pop_front() {
            Some(card) if deck.get(card) > 0 => card,
            _ => self.fallback.draw_development_card(deck),
        }
    }

    fn steal_card(&mut self, hand: &Resources) -> Resource {
        match self.stolen_cards.pop_front() {
            Some(resource) if hand.get(resource) > 0 => resource,
            _ => self.fallback.steal_card(hand),
        }
    }
}
