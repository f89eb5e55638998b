//! The progress hand limit (CK-PC-4/5): at most `progress_hand_limit` cards besides the VP
//! cards (4; 5 with the 5-6 player extension). A seat over the limit off its own main phase
//! discards down to it at once (a `card_decision` interrupting the game); the active seat
//! over the limit in its own turn may instead play cards: its main phase starts with playing
//! or discarding until it is within the limit (`progress_overflow_play_option`).

use super::{CardDecision, ProgressCard};
use crate::{
    ext::cities_knights::CitiesKnights,
    game::Game,
    model::{PendingDiscard, PerSeat, Phase, Seat},
    protocol::{Event, Move, RuleError},
};

impl Game {
    /// CK-PC-4: the most progress cards a seat may hold besides the VP cards.
    pub fn progress_hand_limit(&self) -> u32 {
        let default = if self.config.five_six_extension { 5 } else { 4 };
        self.config.progress_hand_limit.map_or(default, u32::from)
    }

    /// The progress cards `seat` holds that count against the limit (all but the VP cards).
    pub fn progress_hand_size(&self, seat: Seat) -> u32 {
        self.progress_cards(seat).total() - self.progress_points(seat)
    }

    /// How many cards `seat` holds over the limit.
    fn progress_excess(&self, seat: Seat) -> u32 {
        self.progress_hand_size(seat).saturating_sub(self.progress_hand_limit())
    }

    /// CK-PC-5: whether the active seat must play or discard before anything else in its
    /// main phase.
    pub(crate) fn must_shed_progress_cards(&self) -> bool {
        *self.phase() == Phase::Main && self.progress_excess(self.turn_active()) > 0
    }
}

impl CitiesKnights {
    /// CK-PC-5: after a move, every seat over the limit that may not play its way down
    /// discards at once; the game goes on once they have.
    pub(in crate::ext::cities_knights) fn overflow(&self, game: &Game, events: &mut Vec<Event>) {
        if !events.iter().any(|e| matches!(e, Event::ProgressCardDrawn { .. } | Event::ProgressCardTaken { .. })) {
            return;
        }
        game.with_copy(|after| {
            for event in events.iter() {
                after.apply(event);
            }
            if after.is_over()
                || matches!(after.phase(), Phase::CardDecision { decision: CardDecision::DiscardProgressCards { .. } })
            {
                return;
            }
            let active = after.turn_active();
            let plays_down = game.config().progress_overflow_play_option;
            let pending: PerSeat<PendingDiscard> = after
                .seats()
                .filter(|&seat| seat != active || !plays_down)
                .filter_map(|seat| {
                    let count = after.progress_excess(seat);
                    (count > 0).then_some(PendingDiscard { seat, count })
                })
                .collect();
            if !pending.is_empty() {
                events.push(
                    after.interrupt(Phase::CardDecision { decision: CardDecision::DiscardProgressCards { pending } }),
                );
            }
        });
    }

    /// `discard_progress_card`: one card to the bottom of its deck, face down (CK-PC-3/5).
    pub(super) fn decide_progress_discard(
        &self,
        game: &Game,
        seat: Seat,
        card: ProgressCard,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let discarded = Event::ProgressCardDiscarded { seat, track: card.track(), card: Some(card) };
        let held = |game: &Game| {
            if card.is_victory_point() {
                return Err(RuleError::VictoryPointCardKept(card));
            }
            if game.progress_cards(seat).get(card) == 0 {
                return Err(RuleError::ProgressCardNotHeld(card));
            }
            Ok(())
        };
        match game.phase() {
            Phase::CardDecision { decision: CardDecision::DiscardProgressCards { pending } } => {
                let Some(at) = pending.iter().position(|p| p.seat == seat) else {
                    return Err(RuleError::NothingToDecide);
                };
                held(game)?;
                // The seat keeps its place in the list while it owes more.
                let rest: PerSeat<PendingDiscard> = pending
                    .iter()
                    .enumerate()
                    .filter_map(|(i, p)| {
                        if i == at {
                            (p.count > 1).then_some(PendingDiscard { seat, count: p.count - 1 })
                        } else {
                            (p.seat != seat).then_some(*p)
                        }
                    })
                    .collect();
                let next = if rest.is_empty() {
                    game.resume()
                } else {
                    game.continue_with(Phase::CardDecision {
                        decision: CardDecision::DiscardProgressCards { pending: rest },
                    })
                };
                events.extend([discarded, next]);
                Ok(())
            }
            Phase::Main if seat == game.turn_active() && game.must_shed_progress_cards() => {
                held(game)?;
                events.push(discarded);
                Ok(())
            }
            _ => Err(RuleError::NothingToDecide),
        }
    }

    /// The discards a seat over the limit may make now; in the active seat's main phase over
    /// the limit, nothing but plays and discards.
    pub(super) fn overflow_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        let owes = match game.phase() {
            Phase::CardDecision { decision: CardDecision::DiscardProgressCards { pending } } => {
                pending.iter().any(|p| p.seat == seat)
            }
            Phase::Main if seat == game.turn_active() && game.must_shed_progress_cards() => {
                moves.retain(|m| matches!(m, Move::PlayProgressCard { .. }));
                true
            }
            _ => false,
        };
        if owes {
            let hand = game.progress_cards(seat);
            moves.extend(hand.kinds().filter(|c| !c.is_victory_point()).map(|card| Move::DiscardProgressCard { card }));
        }
    }
}
