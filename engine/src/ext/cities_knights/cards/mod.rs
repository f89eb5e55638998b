//! Playing progress cards (CK-PC-2..7): one move, `play_progress_card`, carries a
//! [`ProgressPlay`] naming the card and its parameters. This module checks what every card
//! shares — the seat holds it, the timing (CK-PC-2), the card going to the bottom of its deck
//! (CK-PC-3) — and hands the effect to its deck's file: `science.rs`, `trade.rs`,
//! `politics.rs`. Cards that make seats decide use one phase, `card_decision`, whose
//! [`CardDecision`] says what is awaited (`decision.rs`). The hand limit and its overflow
//! (CK-PC-4/5) are in `overflow.rs`.

mod overflow;
mod politics;
mod science;
mod trade;

pub use super::types::{CardDecision, CardTurn, Good, Merchant};

use super::{CitiesKnights, ProgressCard, ProgressPlay, Track};
use crate::{
    chance::Chance,
    ext::ExtState,
    game::Game,
    model::{InlineList, Phase, Seat},
    protocol::{Event, Move, RuleError},
};

impl ProgressPlay {
    /// The card played.
    pub const fn card(&self) -> ProgressCard {
        match self {
            ProgressPlay::Alchemist { .. } => ProgressCard::Alchemist,
            ProgressPlay::Crane => ProgressCard::Crane,
            ProgressPlay::Engineer { .. } => ProgressCard::Engineer,
            ProgressPlay::Inventor { .. } => ProgressCard::Inventor,
            ProgressPlay::Irrigation => ProgressCard::Irrigation,
            ProgressPlay::Medicine { .. } => ProgressCard::Medicine,
            ProgressPlay::Mining => ProgressCard::Mining,
            ProgressPlay::RoadBuilding => ProgressCard::RoadBuilding,
            ProgressPlay::Smith { .. } => ProgressCard::Smith,
            ProgressPlay::CommercialHarbor => ProgressCard::CommercialHarbor,
            ProgressPlay::MasterMerchant { .. } => ProgressCard::MasterMerchant,
            ProgressPlay::Merchant { .. } => ProgressCard::Merchant,
            ProgressPlay::MerchantFleet { .. } => ProgressCard::MerchantFleet,
            ProgressPlay::ResourceMonopoly { .. } => ProgressCard::ResourceMonopoly,
            ProgressPlay::TradeMonopoly { .. } => ProgressCard::TradeMonopoly,
            ProgressPlay::Bishop { .. } => ProgressCard::Bishop,
            ProgressPlay::Deserter { .. } => ProgressCard::Deserter,
            ProgressPlay::Diplomat { .. } => ProgressCard::Diplomat,
            ProgressPlay::Intrigue { .. } => ProgressCard::Intrigue,
            ProgressPlay::Saboteur => ProgressCard::Saboteur,
            ProgressPlay::Spy { .. } => ProgressCard::Spy,
            ProgressPlay::Warlord => ProgressCard::Warlord,
            ProgressPlay::Wedding => ProgressCard::Wedding,
        }
    }
}

impl CardTurn {
    pub fn is_unused(&self) -> bool {
        *self == CardTurn::default()
    }

    /// A new turn's: nothing played yet. The fleets' list keeps its room for the next.
    fn start_turn(&mut self) {
        self.crane = false;
        self.merchant_fleets.clear();
        self.commercial_harbor = None;
    }
}

impl CitiesKnights {
    /// CK-PC-2/3: a card the seat holds, in its timing; the card goes to the bottom of its
    /// deck and its effect follows.
    pub(super) fn decide_play(
        &self,
        game: &Game,
        seat: Seat,
        play: &ProgressPlay,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let card = play.card();
        if seat != game.turn_active() {
            return Err(RuleError::NotYourTurn { active: game.turn_active() });
        }
        if game.progress_cards(seat).get(card) == 0 {
            return Err(RuleError::ProgressCardNotHeld(card));
        }
        if card == ProgressCard::Alchemist && *game.phase() != Phase::PreRoll {
            return Err(RuleError::ProgressCardTiming(
                "the alchemist is played before the roll, in place of the number dice (CK-PC-2)",
            ));
        }
        if card != ProgressCard::Alchemist && *game.phase() != Phase::Main {
            return Err(RuleError::ProgressCardTiming("progress cards are played in your main phase (CK-PC-2)"));
        }
        if let Some(in_force) = effect_in_force(game, play) {
            return Err(RuleError::ProgressCardInForce(in_force));
        }
        // The play comes first; its effect, read off the state after it, follows it in the
        // buffer (an error leaves the buffer to the caller, who clears it).
        let played = events.len();
        events.push(Event::ProgressCardPlayed { seat, play: play.clone() });
        game.with_copy(|after| {
            after.apply(&events[played]);
            match card.track() {
                Track::Science => science::play(self, after, seat, play, chance, events),
                Track::Trade => trade::play(self, after, seat, play, chance, events),
                Track::Politics => politics::play(self, after, seat, play, chance, events),
            }
        })
    }

    /// The moves that follow a card (answers to its decisions, and moves it opens in the
    /// main phase), if `mv` is one.
    pub(super) fn decide_card_move(
        &self,
        game: &Game,
        seat: Seat,
        mv: &Move,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Option<Result<(), RuleError>> {
        if let Move::DiscardProgressCard { card } = mv {
            return Some(self.decide_progress_discard(game, seat, *card, events));
        }
        science::decide_move(self, game, seat, mv, chance, events)
            .or_else(|| trade::decide_move(self, game, seat, mv, chance, events))
            .or_else(|| politics::decide_move(self, game, seat, mv, chance, events))
    }

    /// Every card `seat` may play now, each with every choice of its parameters, and the
    /// moves cards opened.
    pub(super) fn card_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        let timing = match game.phase() {
            Phase::PreRoll => Some(true),
            Phase::Main => Some(false),
            _ => None,
        };
        if let (Some(pre_roll), true) = (timing, seat == game.turn_active()) {
            let hand = game.progress_cards(seat);
            let start = moves.len();
            for card in hand.kinds().filter(|c| (*c == ProgressCard::Alchemist) == pre_roll) {
                match card.track() {
                    Track::Science => science::plays(self, game, seat, card, moves),
                    Track::Trade => trade::plays(self, game, seat, card, moves),
                    Track::Politics => politics::plays(self, game, seat, card, moves),
                }
            }
            // The plays listed here that would add nothing go, in place (no scratch list).
            let adds_something =
                |mv: &Move| !matches!(mv, Move::PlayProgressCard { play } if effect_in_force(game, play).is_some());
            let mut index = 0;
            moves.retain(|mv| {
                index += 1;
                index <= start || adds_something(mv)
            });
        }
        science::more_moves(self, game, seat, moves);
        trade::more_moves(self, game, seat, moves);
        politics::more_moves(self, game, seat, moves);
        self.overflow_moves(game, seat, moves);
    }

    /// Whether a `card_decision` phase lets `seat` decide (for the errors of other moves).
    pub(super) fn decision_waits_for(game: &Game, seat: Seat) -> bool {
        match game.phase() {
            Phase::CardDecision { decision } => decision.waits_for(seat),
            _ => false,
        }
    }
}

/// Why `play` would add nothing to what a card played this turn already put in force, if
/// so: refused rather than wasted (CK-PC-7: two Cranes do not combine on one improvement).
fn effect_in_force(game: &Game, play: &ProgressPlay) -> Option<&'static str> {
    let turn = &game.ext.cities_knights.card_turn;
    match play {
        ProgressPlay::Crane if turn.crane => Some("a crane already waits for your next improvement"),
        ProgressPlay::MerchantFleet { good } if turn.merchant_fleets.contains(good) => {
            Some("a merchant fleet already trades this good at 2:1 this turn")
        }
        ProgressPlay::CommercialHarbor if turn.commercial_harbor.is_some() => {
            Some("a commercial harbor is already in play this turn")
        }
        _ => None,
    }
}

/// The other seats, in seat order: those a card's effect reaches.
fn opponents(game: &Game, seat: Seat) -> impl Iterator<Item = Seat> + '_ {
    game.seats().filter(move |&s| s != seat)
}

/// Applies the progress cards' events: a played card leaves the hand for the bottom of its
/// deck (CK-PC-3); each deck's file applies its own.
pub(super) fn apply(state: &mut ExtState, event: &Event, phase: &Phase) {
    let ck = &mut state.cities_knights;
    match event {
        Event::ProgressCardPlayed { seat, play } => {
            ck.give_back(*seat, play.card());
            match play {
                ProgressPlay::Crane => ck.card_turn.crane = true,
                ProgressPlay::MerchantFleet { good } => ck.card_turn.merchant_fleets.push(*good),
                ProgressPlay::CommercialHarbor => {
                    ck.card_turn.commercial_harbor.get_or_insert_with(InlineList::new);
                }
                _ => {}
            }
        }
        Event::ProgressCardDiscarded { seat, card: Some(card), .. } => ck.give_back(*seat, *card),
        Event::TurnStarted { .. } => ck.card_turn.start_turn(),
        _ => {}
    }
    science::apply(ck, event, phase);
    trade::apply(ck, event, phase);
    politics::apply(ck, event, phase);
    // Emptied hands at the end of the list are dropped, as a position rebuilds it.
    while ck.progress.last().is_some_and(|hand| hand.is_empty()) {
        ck.progress.pop();
    }
}
