//! The turn: before the roll (B-TURN-2/3), the main phase (B-TURN-5), and its end (B-TURN-7).

use crate::{
    chance::Chance,
    config::DevCardsBeforeRoll,
    game::Game,
    model::{Phase, PushInPlace, Resource, Resources, Seat, Turn},
    protocol::{Bandit, Event, Move, RuleError, VictoryCondition},
};

impl Game {
    /// B-TURN-2/3: before the roll, only the roll and (per flag) development cards.
    pub(super) fn decide_pre_roll(
        &self,
        seat: Seat,
        mv: &Move,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let any_card = self.rules().base.dev_cards_before_roll == DevCardsBeforeRoll::Any;
        match mv {
            Move::RollDice => {
                self.decide_roll(seat, chance, events);
                Ok(())
            }
            Move::PlayKnight { hex, steal_from, bandit: Bandit::Robber } => {
                self.decide_knight(seat, *hex, *steal_from, chance, events)
            }
            Move::PlayRoadBuilding | Move::PlayYearOfPlenty { .. } | Move::PlayMonopoly { .. } if any_card => {
                self.decide_progress_card(seat, mv, events)
            }
            Move::PlayRoadBuilding | Move::PlayYearOfPlenty { .. } | Move::PlayMonopoly { .. } => {
                Err(RuleError::OnlyKnightBeforeRoll)
            }
            Move::PlayKnight { bandit: Bandit::Pirate, .. } => Err(RuleError::NotInThisGame("the pirate")),
            Move::EndTurn | Move::TradeWithBank { .. } | Move::MoveShip { .. } => Err(RuleError::MustRollFirst),
            _ if mv.is_build_or_purchase() => Err(RuleError::MustRollFirst),
            _ => Err(RuleError::WrongPhase("roll the dice or play a knight")),
        }
    }

    pub(super) fn pre_roll_moves(&self, seat: Seat, moves: &mut Vec<Move>) {
        moves.push_in_place(|| Move::RollDice);
        self.knight_moves(seat, moves);
        if self.rules().base.dev_cards_before_roll == DevCardsBeforeRoll::Any {
            self.progress_moves(seat, moves);
        }
    }

    pub(super) fn decide_main(
        &self,
        seat: Seat,
        mv: &Move,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if let Some(result) = self.decide_build_or_buy(seat, mv, chance, events) {
            return result;
        }
        match mv {
            Move::PlayKnight { hex, steal_from, bandit: Bandit::Robber } => {
                self.decide_knight(seat, *hex, *steal_from, chance, events)
            }
            Move::PlayRoadBuilding | Move::PlayYearOfPlenty { .. } | Move::PlayMonopoly { .. } => {
                self.decide_progress_card(seat, mv, events)
            }
            Move::TradeWithBank { give, get } => {
                events.push(self.decide_bank_trade(seat, give, get)?);
                Ok(())
            }
            Move::EndTurn => {
                self.decide_end_turn(events);
                Ok(())
            }
            Move::RollDice => Err(RuleError::AlreadyRolled),
            Move::PlayKnight { bandit: Bandit::Pirate, .. } => Err(RuleError::NotInThisGame("the pirate")),
            Move::MoveRobber { .. } => Err(RuleError::WrongPhase("the robber moves only after a 7 or a knight")),
            Move::Discard { .. } | Move::ChooseGoldResources { .. } => Err(RuleError::NothingToDecide),
            _ => Err(RuleError::WrongPhase("this move is not part of the main phase")),
        }
    }

    pub(super) fn main_moves(&self, seat: Seat, moves: &mut Vec<Move>) {
        let hand = self.players[seat.index()].resources;
        moves.push_in_place(|| Move::EndTurn);
        self.build_and_buy_moves(seat, moves);
        self.knight_moves(seat, moves);
        self.progress_moves(seat, moves);
        if self.rules().base.allow_trade_build_interleaving || !self.turn.built_or_bought {
            // Every rate the seat is entitled to, best first (B-TRD-2..4); none is below 2, so a
            // hand without a pair trades nothing and its harbours need no looking up.
            if Resource::ALL.iter().any(|&give| hand.get(give) >= 2) {
                self.bank_trade_moves(seat, &hand, moves);
            }
            self.trade_responses(seat, moves);
        }
    }

    /// Every maritime trade of one card for another the seat's hand allows (B-TRD-2..4).
    fn bank_trade_moves(&self, seat: Seat, hand: &Resources, moves: &mut Vec<Move>) {
        let rates = crate::game::trading::MaritimeRates::of(self, seat);
        for give in Resource::ALL {
            for rate in rates.entitled(give).filter(|&rate| hand.get(give) >= rate) {
                for get in Resource::ALL {
                    if get != give && self.bank.get(get) > 0 {
                        let (give, get) = (Resources::of(give, rate), Resources::of(get, 1));
                        moves.push_in_place(|| Move::TradeWithBank { give, get });
                    }
                }
            }
        }
    }

    /// B-TURN-7: open offers lapse and the next seat clockwise begins, unless an extension
    /// puts something between the turns (X56-8's special building phases).
    pub(crate) fn decide_end_turn(&self, events: &mut Vec<Event>) {
        events.extend(self.expire_offers());
        match self.rules().extensions.iter().find_map(|e| e.turn_end(self)) {
            Some(between) => events.push(between),
            None => events.push_in_place(|| self.next_turn()),
        }
    }

    /// The next seat's turn begins.
    pub(crate) fn next_turn(&self) -> Event {
        // Saturating: a position may start at any turn number (no game reaches `u32::MAX`).
        Event::TurnStarted { seat: self.next_seat(self.turn.active), turn: self.turn.number.saturating_add(1) }
    }

    /// Open offers lapse (at the end of a turn or a special building phase).
    pub(crate) fn expire_offers(&self) -> Option<Event> {
        (!self.offers.is_empty())
            .then(|| Event::TradesExpired { offer_ids: self.offers.iter().map(|o| o.id).collect() })
    }

    pub(crate) fn next_seat(&self, seat: Seat) -> Seat {
        Seat((seat.0 + 1) % self.player_count())
    }

    /// Engine decision (`GameConfig::turn_limit`): a turn past the limit does not begin; the
    /// game ends instead, won by the seat with the most victory points (VP cards included).
    /// On a tie, the tied seat that would have played soonest wins: counting from the seat
    /// whose turn did not begin, in turn order, so the one that played the fewest turns.
    /// A victory by the rules in the same events (B-WIN-3 at the start of a turn) stands.
    pub(super) fn check_turn_limit(&self, events: &mut Vec<Event>) {
        let Some(limit) = self.rules().base.turn_limit else { return };
        if events.iter().any(|e| matches!(e, Event::GameWon { .. })) {
            return;
        }
        let Some(at) = events.iter().position(|e| matches!(e, Event::TurnStarted { turn, .. } if *turn > limit)) else {
            return;
        };
        let Event::TurnStarted { seat: next, .. } = events[at] else { return };
        // What comes with the turn's start is dropped with it.
        events.truncate(at);
        let mut after = self.clone();
        for event in events.iter() {
            after.apply(event);
        }
        if !after.offers.is_empty() {
            events.push_in_place(|| Event::TradesExpired { offer_ids: after.offers.iter().map(|o| o.id).collect() });
        }
        let order = (0..self.player_count()).map(|i| Seat((next.0 + i) % self.player_count()));
        // `max_by_key` keeps the last of equal keys: walk the order backwards.
        let Some(seat) = order.rev().max_by_key(|&seat| after.victory_points(seat)) else { return };
        events.push(Event::GameWon {
            seat,
            victory_points: after.victory_points(seat),
            victory_point_cards: after.players[seat.index()].victory_point_cards(),
            condition: VictoryCondition::TurnLimit,
        });
    }

    pub(super) fn apply_turn_started(&mut self, seat: Seat, turn: u32) {
        self.turn = Turn::new(turn, seat);
        // B-DEV-3: cards bought before this turn began become playable.
        for player in &mut self.players {
            let fresh = std::mem::take(&mut player.new_dev_cards);
            player.dev_cards.add(&fresh);
        }
        self.phase = Phase::PreRoll;
        self.then.clear();
    }
}
