//! Chance as an input: every random outcome (dice, a drawn card, a stolen card, and whatever
//! a ruleset adds: an event die, a fog stack, a progress card) is one [`Draw`] from a
//! [`Chance`], and `decide` writes the outcome into the events, so `apply` and `replay` never
//! need randomness. A game's own chance comes from [`Game::chance`](crate::Game::chance): a
//! stream keyed by the secret seed and the number of events applied, so the same seed and the
//! same moves always give the same game. Tests inject outcomes with [`FixedChance`].

use std::collections::VecDeque;

use crate::{
    model::{CardKind, Counts},
    rng::Rng,
};

/// Names a kind of random draw. Rulesets define their own as constants; the name is only
/// for matching injected outcomes and for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Draw(pub &'static str);

impl Draw {
    pub const RED_DIE: Draw = Draw("red_die");
    pub const WHITE_DIE: Draw = Draw("white_die");
    pub const DEVELOPMENT_CARD: Draw = Draw("development_card");
    pub const STOLEN_CARD: Draw = Draw("stolen_card");
    /// Seafarers: the terrain of a fog hex turned up.
    pub const FOG_TERRAIN: Draw = Draw("fog_terrain");
    /// Seafarers: the number token of a fog hex turned up.
    pub const FOG_TOKEN: Draw = Draw("fog_token");
    /// Cities & Knights: the event die.
    pub const EVENT_DIE: Draw = Draw("event_die");
    /// Cities & Knights: a progress card drawn from its deck.
    pub const PROGRESS_CARD: Draw = Draw("progress_card");
    /// The New World: the harbour drawn from the face-down stack (NEW-11).
    pub const HARBOUR: Draw = Draw("harbour");
    /// The Pirate Islands: a card the fleet takes from a hand it beat (PIR-14).
    pub const FLEET_LOSS: Draw = Draw("fleet_loss");
    /// The Pirate Islands: a fortress's defence die (PIR-18).
    pub const FORTRESS_DIE: Draw = Draw("fortress_die");

    /// Every draw a ruleset makes, so that a draw recorded by name (a game record's
    /// `chance`) can be read back ([`Draw::named`]).
    pub const ALL: [Draw; 11] = [
        Draw::RED_DIE,
        Draw::WHITE_DIE,
        Draw::DEVELOPMENT_CARD,
        Draw::STOLEN_CARD,
        Draw::FOG_TERRAIN,
        Draw::FOG_TOKEN,
        Draw::EVENT_DIE,
        Draw::PROGRESS_CARD,
        Draw::HARBOUR,
        Draw::FLEET_LOSS,
        Draw::FORTRESS_DIE,
    ];

    /// The draw called `name`, if a ruleset makes it.
    pub fn named(name: &str) -> Option<Draw> {
        Draw::ALL.into_iter().find(|draw| draw.0 == name)
    }
}

/// A source of random outcomes for `decide`.
pub trait Chance {
    /// Picks one outcome of `draw`: index `i` with probability `weights[i] / sum(weights)`.
    /// `weights` is never empty and never all zero.
    fn pick(&mut self, draw: Draw, weights: &[u32]) -> usize;

    /// Picks one of six equally likely outcomes of `draw` (a die): the same outcome as
    /// `pick` with six weights of one, which a chance may give without walking them.
    fn pick_face(&mut self, draw: Draw) -> usize {
        self.pick(draw, &DIE)
    }
}

const DIE: [u32; 6] = [1; 6];

/// Rolls the two number dice: (red, white), each 1..=6.
pub fn roll_dice<C: Chance + ?Sized>(chance: &mut C) -> (u8, u8) {
    let red = chance.pick_face(Draw::RED_DIE) as u8 + 1;
    let white = chance.pick_face(Draw::WHITE_DIE) as u8 + 1;
    (red.clamp(1, 6), white.clamp(1, 6))
}

/// Draws one card uniformly from `cards` (a deck, or a hand to steal from); `None` when
/// there is none.
pub fn draw_card<K: CardKind, C: Chance + ?Sized>(chance: &mut C, draw: Draw, cards: &Counts<K>) -> Option<K> {
    if cards.is_empty() {
        return None;
    }
    let kind = chance.pick(draw, cards.as_slice());
    K::ALL.get(kind).copied().filter(|k| cards.get(*k) > 0)
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
    fn pick(&mut self, _draw: Draw, weights: &[u32]) -> usize {
        // One uniform number below the total, walked through the weights: the stream a
        // stored game was played with, which must never change.
        let total = weights.iter().fold(0u32, |sum, &w| sum.saturating_add(w));
        let mut index = self.rng.below(total.max(1));
        for (i, &weight) in weights.iter().enumerate() {
            if index < weight {
                return i;
            }
            index -= weight;
        }
        weights.iter().position(|&w| w > 0).unwrap_or(0)
    }

    /// The uniform number itself: walking six weights of one to it gives it back, and the
    /// walk's exit, random by nature, was mispredicted on nearly every roll.
    fn pick_face(&mut self, _draw: Draw) -> usize {
        self.rng.below(6) as usize
    }
}

/// Chance with injected outcomes (RULES.md 0.3): a queue of outcome indices per [`Draw`],
/// falling back to a seeded stream when a draw's queue is empty.
///
/// # Panics
/// An injected outcome that is impossible where it is drawn (a card no longer in the deck or
/// hand, a die face out of range) panics naming the draw: a test that injects it is wrong,
/// and silently drawing something else would hide that.
#[derive(Debug, Clone)]
pub struct FixedChance {
    queued: Vec<(Draw, VecDeque<usize>)>,
    fallback: SeededChance,
}

impl Default for FixedChance {
    fn default() -> Self {
        FixedChance { queued: Vec::new(), fallback: SeededChance::new(0, 0) }
    }
}

impl FixedChance {
    /// Queues outcome `index` for the next `draw` (for a die, the face minus one; for a card,
    /// its kind's index).
    pub fn then(mut self, draw: Draw, index: usize) -> Self {
        match self.queued.iter_mut().find(|(d, _)| *d == draw) {
            Some((_, queue)) => queue.push_back(index),
            None => self.queued.push((draw, VecDeque::from([index]))),
        }
        self
    }

    /// The same outcomes over another stream (usually the game's own,
    /// [`Game::chance`](crate::Game::chance)) for the draws they leave out.
    #[must_use]
    pub fn over(mut self, fallback: SeededChance) -> Self {
        self.fallback = fallback;
        self
    }

    /// Returns chance that rolls `red` and `white` next.
    pub fn dice(red: u8, white: u8) -> Self {
        FixedChance::default().then_dice(red, white)
    }

    /// Queues a roll of `red` and `white` (each 1..=6).
    pub fn then_dice(self, red: u8, white: u8) -> Self {
        let face = |die: u8| usize::from(die).wrapping_sub(1);
        self.then(Draw::RED_DIE, face(red)).then(Draw::WHITE_DIE, face(white))
    }

    /// Returns chance that draws development card `card` next.
    pub fn card(card: crate::DevCard) -> Self {
        FixedChance::default().then(Draw::DEVELOPMENT_CARD, CardKind::index(card))
    }

    /// Returns chance that steals `resource` next.
    pub fn steal(resource: crate::Resource) -> Self {
        FixedChance::default().then(Draw::STOLEN_CARD, CardKind::index(resource))
    }

    /// Tests if every injected outcome has been drawn.
    pub fn is_exhausted(&self) -> bool {
        self.queued.iter().all(|(_, queue)| queue.is_empty())
    }
}

impl Chance for FixedChance {
    fn pick(&mut self, draw: Draw, weights: &[u32]) -> usize {
        let injected = self.queued.iter_mut().find(|(d, _)| *d == draw).and_then(|(_, queue)| queue.pop_front());
        match injected {
            Some(index) if weights.get(index).is_some_and(|&w| w > 0) => index,
            Some(index) => {
                panic!("injected outcome {index} for draw {:?} is impossible here (weights {weights:?})", draw.0)
            }
            None => self.fallback.pick(draw, weights),
        }
    }
}

/// Chance that records every pick of another (`inner`, usually the game's own
/// [`Game::chance`](crate::Game::chance)): which draws a move made, in order, and their
/// outcomes, so that a game record keeps a move's chance apart from the move itself. It
/// changes nothing: every pick is `inner`'s.
#[derive(Debug, Clone)]
pub struct RecordingChance<C> {
    inner: C,
    picks: Vec<(Draw, usize)>,
}

impl<C: Chance> RecordingChance<C> {
    pub fn new(inner: C) -> Self {
        RecordingChance { inner, picks: Vec::new() }
    }

    /// The picks so far, oldest first: each draw with the index `pick` returned.
    pub fn picks(&self) -> &[(Draw, usize)] {
        &self.picks
    }

    /// Returns the picks, oldest first.
    pub fn into_picks(self) -> Vec<(Draw, usize)> {
        self.picks
    }
}

impl<C: Chance> Chance for RecordingChance<C> {
    fn pick(&mut self, draw: Draw, weights: &[u32]) -> usize {
        let index = self.inner.pick(draw, weights);
        self.picks.push((draw, index));
        index
    }
}

/// Chance that plays back recorded picks (a [`RecordingChance`]'s, or a game record's
/// `chance`) strictly in order: unlike [`FixedChance`], which queues outcomes per draw and
/// falls back to a seeded stream, a pick of another draw than the next recorded one, a pick
/// past the end, or an outcome impossible where it is drawn is a divergence, which
/// [`ScriptedChance::finish`] reports (as does a recorded pick left over). `pick` itself
/// cannot fail: on a divergence it returns the first possible outcome.
#[derive(Debug, Clone, Default)]
pub struct ScriptedChance {
    picks: VecDeque<(Draw, usize)>,
    drawn: usize,
    divergence: Option<String>,
}

impl ScriptedChance {
    pub fn new(picks: impl IntoIterator<Item = (Draw, usize)>) -> Self {
        ScriptedChance { picks: picks.into_iter().collect(), drawn: 0, divergence: None }
    }

    /// Checks that every pick was drawn as recorded, and all of them.
    ///
    /// # Errors
    /// The first divergence, in words.
    pub fn finish(self) -> Result<(), String> {
        if let Some(divergence) = self.divergence {
            return Err(divergence);
        }
        match self.picks.front() {
            Some((draw, index)) => {
                Err(format!("{} recorded picks were not drawn, from {:?} outcome {index} on", self.picks.len(), draw.0))
            }
            None => Ok(()),
        }
    }
}

impl Chance for ScriptedChance {
    fn pick(&mut self, draw: Draw, weights: &[u32]) -> usize {
        let fallback = weights.iter().position(|&w| w > 0).unwrap_or(0);
        let number = self.drawn;
        self.drawn += 1;
        if self.divergence.is_some() {
            return fallback;
        }
        let divergence = match self.picks.pop_front() {
            Some((recorded, index)) if recorded == draw && weights.get(index).is_some_and(|&w| w > 0) => return index,
            Some((recorded, index)) if recorded == draw => {
                format!("pick {number} ({:?}): outcome {index} is impossible here (weights {weights:?})", draw.0)
            }
            Some((recorded, _)) => format!("pick {number}: the move draws {:?}, the record {:?}", draw.0, recorded.0),
            None => format!("pick {number}: the move draws {:?} after the last recorded pick", draw.0),
        };
        self.divergence = Some(divergence);
        fallback
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DevCard, DevCards, Resource, Resources};

    #[test]
    fn injected_outcomes_are_drawn_in_order_per_draw() {
        let mut chance = FixedChance::dice(3, 4).then_dice(6, 6).then(Draw::DEVELOPMENT_CARD, 3);
        assert_eq!(roll_dice(&mut chance), (3, 4));
        let deck = DevCards::new(1, 1, 1, 1, 1);
        assert_eq!(draw_card(&mut chance, Draw::DEVELOPMENT_CARD, &deck), Some(DevCard::Monopoly));
        assert_eq!(roll_dice(&mut chance), (6, 6));
        assert!(chance.is_exhausted());
    }

    #[test]
    #[should_panic(expected = "impossible")]
    fn an_impossible_injected_card_is_reported() {
        let mut chance = FixedChance::steal(Resource::Ore);
        draw_card(&mut chance, Draw::STOLEN_CARD, &Resources::new(1, 0, 0, 0, 0));
    }

    #[test]
    #[should_panic(expected = "impossible")]
    fn an_impossible_injected_die_is_reported() {
        roll_dice(&mut FixedChance::dice(0, 7));
    }

    #[test]
    fn recorded_picks_play_back_the_same_outcomes() {
        let deck = DevCards::new(14, 5, 2, 2, 2);
        let mut recording = RecordingChance::new(SeededChance::new(7, 3));
        let mut plain = SeededChance::new(7, 3);
        let rolled = (roll_dice(&mut recording), draw_card(&mut recording, Draw::DEVELOPMENT_CARD, &deck));
        assert_eq!(rolled, (roll_dice(&mut plain), draw_card(&mut plain, Draw::DEVELOPMENT_CARD, &deck)));
        let picks = recording.into_picks();
        assert_eq!(
            picks.iter().map(|(d, _)| *d).collect::<Vec<_>>(),
            [Draw::RED_DIE, Draw::WHITE_DIE, Draw::DEVELOPMENT_CARD]
        );
        let mut scripted = ScriptedChance::new(picks.clone());
        assert_eq!((roll_dice(&mut scripted), draw_card(&mut scripted, Draw::DEVELOPMENT_CARD, &deck)), rolled);
        assert_eq!(scripted.finish(), Ok(()));
        for (draw, _) in &picks {
            assert_eq!(Draw::named(draw.0), Some(*draw));
        }
    }

    #[test]
    fn a_scripted_divergence_is_reported() {
        let mut other_draw = ScriptedChance::new([(Draw::RED_DIE, 2)]);
        draw_card(&mut other_draw, Draw::STOLEN_CARD, &Resources::new(1, 1, 0, 0, 0));
        assert!(other_draw.finish().unwrap_err().contains("\"stolen_card\", the record \"red_die\""));
        let mut past_the_end = ScriptedChance::new([(Draw::RED_DIE, 2)]);
        roll_dice(&mut past_the_end);
        assert!(past_the_end.finish().unwrap_err().contains("after the last recorded pick"));
        let mut impossible = ScriptedChance::new([(Draw::STOLEN_CARD, 4)]);
        draw_card(&mut impossible, Draw::STOLEN_CARD, &Resources::new(1, 0, 0, 0, 0));
        assert!(impossible.finish().unwrap_err().contains("impossible"));
        let left_over = ScriptedChance::new([(Draw::RED_DIE, 2)]);
        assert!(left_over.finish().unwrap_err().contains("not drawn"));
    }

    #[test]
    fn the_seeded_stream_walks_the_weights() {
        // The same draws as `Rng::below(total)` then the n-th card: stored games depend on it.
        let hand = Resources::new(2, 0, 1, 0, 3);
        for seed in 0..50 {
            let mut rng = Rng::for_stream(seed, 9);
            let expected = hand.nth_card(rng.below(hand.total()));
            let mut chance = SeededChance::new(seed, 9);
            assert_eq!(draw_card(&mut chance, Draw::STOLEN_CARD, &hand), expected);
        }
    }
}
