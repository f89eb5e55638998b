//! The rules: `decide` validates a move against the state and returns the events it causes,
//! without mutating anything. One module per area of RULES.md.

mod awards;
mod building;
mod development;
mod robber;
mod setup;
mod trading;
mod turn;

pub(crate) use awards::road_length;
pub(crate) use trading::bank_rates;

use crate::{
    chance::Chance,
    config::DevCardsBeforeRoll,
    error::RuleError,
    events::Event,
    moves::Move,
    state::{Game, Phase, Seat},
};

/// Most open offers one seat may have at once; keeps the offer list (and every view) small.
pub const MAX_OPEN_OFFERS_PER_SEAT: usize = 8;

impl Game {
    /// Validates `mv` by `seat` and returns the events it causes. Never mutates the game.
    ///
    /// Random outcomes (dice, drawn card, stolen card) are taken from `chance` and recorded
    /// in the events; pass [`Game::chance`] for the game's own stream.
    ///
    /// # Errors
    /// A [`RuleError`] naming the broken rule; the game is unchanged.
    pub fn decide(&self, seat: Seat, mv: &Move, chance: &mut impl Chance) -> Result<Vec<Event>, RuleError> {
        if self.winner.is_some() {
            return Err(RuleError::GameOver);
        }
        if seat.index() >= self.players.len() {
            return Err(RuleError::UnknownSeat(seat));
        }
        let mut events = match (&self.phase, mv) {
            (Phase::GameOver, _) => return Err(RuleError::GameOver),
            (Phase::Setup { .. }, _) => self.decide_setup(seat, mv)?,
            (Phase::Discard { pending }, Move::Discard { resources }) => {
                return self.decide_discard(seat, pending, resources);
            }
            (Phase::GoldChoice { roll, pending, chosen }, Move::ChooseGoldResources { resources }) => {
                return self.decide_gold_choice(seat, *roll, pending, chosen, resources);
            }
            (Phase::Discard { .. } | Phase::GoldChoice { .. }, _) if seat == self.turn.active => {
                return Err(RuleError::WrongPhase("waiting for other players' decisions"));
            }
            (Phase::Discard { .. } | Phase::GoldChoice { .. }, _) => return Err(RuleError::NothingToDecide),
            (_, Move::OfferTrade { give, get, to, counter_to }) => {
                return self.decide_offer(seat, give, get, to.as_deref(), *counter_to);
            }
            (_, Move::AcceptTrade { offer_id }) => return self.decide_accept(seat, *offer_id),
            (_, Move::DeclineTrade { offer_id }) => return self.decide_decline(seat, *offer_id),
            (_, Move::WithdrawTrade { offer_id }) => return self.decide_withdraw(seat, *offer_id),
            (_, Move::ConfirmTrade { offer_id, with }) => self.decide_confirm(seat, *offer_id, *with)?,
            (Phase::SpecialBuilding { seat: builder }, mv) => {
                if seat != *builder {
                    return Err(RuleError::NotYourTurn { active: *builder });
                }
                // X56-9: `check_victory` lets nobody win until the next turn starts.
                self.decide_special_building(seat, mv, chance)?
            }
            _ if seat != self.turn.active => return Err(RuleError::NotYourTurn { active: self.turn.active }),
            (Phase::PreRoll, mv) => self.decide_pre_roll(seat, mv, chance)?,
            (Phase::MoveRobber, Move::MoveRobber { hex, steal_from }) => {
                let mut events = self.decide_robber(seat, *hex, *steal_from, chance)?;
                events.push(Event::PhaseChanged { phase: Phase::Main });
                events
            }
            (Phase::MoveRobber, _) => return Err(RuleError::WrongPhase("move the robber first")),
            (Phase::RoadBuilding { roads_left, resume }, Move::BuildRoad { edge }) => {
                self.decide_free_road(seat, *edge, *roads_left, *resume)?
            }
            (Phase::RoadBuilding { .. }, _) => {
                return Err(RuleError::WrongPhase("place the roads of road building first"));
            }
            (Phase::Main, mv) => self.decide_main(seat, mv, chance)?,
        };
        self.check_victory(&mut events);
        Ok(events)
    }

    /// B-TURN-2/3: before the roll, only the roll and (per flag) development cards.
    fn decide_pre_roll(&self, seat: Seat, mv: &Move, chance: &mut impl Chance) -> Result<Vec<Event>, RuleError> {
        let any_card = self.config.dev_cards_before_roll == DevCardsBeforeRoll::Any;
        match mv {
            Move::RollDice => Ok(self.decide_roll(seat, chance)),
            Move::PlayKnight { hex, steal_from } => self.decide_knight(seat, *hex, *steal_from, chance),
            Move::PlayRoadBuilding | Move::PlayYearOfPlenty { .. } | Move::PlayMonopoly { .. } if any_card => {
                self.decide_progress_card(seat, mv)
            }
            Move::PlayRoadBuilding | Move::PlayYearOfPlenty { .. } | Move::PlayMonopoly { .. } => {
                Err(RuleError::OnlyKnightBeforeRoll)
            }
            Move::EndTurn
            | Move::BuildRoad { .. }
            | Move::BuildSettlement { .. }
            | Move::BuildCity { .. }
            | Move::BuyDevelopmentCard
            | Move::BuyDevelopmentCardWithDiscoveries { .. }
            | Move::TradeWithBank { .. } => Err(RuleError::MustRollFirst),
            _ => Err(RuleError::WrongPhase("roll the dice or play a knight")),
        }
    }

    /// Building and buying, the same in the main phase and a special building phase; `None`
    /// for any other move.
    fn decide_build_or_buy(
        &self,
        seat: Seat,
        mv: &Move,
        chance: &mut impl Chance,
    ) -> Option<Result<Vec<Event>, RuleError>> {
        Some(match mv {
            Move::BuildRoad { edge } => self.decide_road(seat, *edge),
            Move::BuildSettlement { vertex } => self.decide_settlement(seat, *vertex),
            Move::BuildCity { vertex } => self.decide_city(seat, *vertex),
            Move::BuyDevelopmentCard => self.decide_buy_card(seat, None, chance),
            Move::BuyDevelopmentCardWithDiscoveries { replaces } => self.decide_buy_card(seat, Some(replaces), chance),
            _ => return None,
        })
    }

    fn decide_main(&self, seat: Seat, mv: &Move, chance: &mut impl Chance) -> Result<Vec<Event>, RuleError> {
        if let Some(result) = self.decide_build_or_buy(seat, mv, chance) {
            return result;
        }
        match mv {
            Move::BuildRoad { .. }
            | Move::BuildSettlement { .. }
            | Move::BuildCity { .. }
            | Move::BuyDevelopmentCard
            | Move::BuyDevelopmentCardWithDiscoveries { .. } => unreachable_dispatch(),
            Move::PlayKnight { hex, steal_from } => self.decide_knight(seat, *hex, *steal_from, chance),
            Move::PlayRoadBuilding | Move::PlayYearOfPlenty { .. } | Move::PlayMonopoly { .. } => {
                self.decide_progress_card(seat, mv)
            }
            Move::TradeWithBank { give, get } => self.decide_bank_trade(seat, give, get),
            Move::EndTurn => Ok(self.decide_end_turn()),
            Move::RollDice => Err(RuleError::AlreadyRolled),
            Move::MoveRobber { .. } => Err(RuleError::WrongPhase("the robber moves only after a 7 or a knight")),
            Move::Discard { .. } | Move::ChooseGoldResources { .. } => Err(RuleError::NothingToDecide),
            Move::OfferTrade { .. }
            | Move::AcceptTrade { .. }
            | Move::DeclineTrade { .. }
            | Move::ConfirmTrade { .. }
            | Move::WithdrawTrade { .. } => unreachable_dispatch(),
        }
    }

    /// X56-8: build and buy only; no development cards, no bank trades.
    fn decide_special_building(
        &self,
        seat: Seat,
        mv: &Move,
        chance: &mut impl Chance,
    ) -> Result<Vec<Event>, RuleError> {
        if let Some(result) = self.decide_build_or_buy(seat, mv, chance) {
            return result;
        }
        match mv {
            Move::EndTurn => Ok(self.decide_end_special_building(seat)),
            _ => Err(RuleError::WrongPhase("a special building phase allows only building and buying")),
        }
    }
}

/// Moves dispatched earlier (trades, building); reaching here would be a dispatch bug,
/// reported as a rule error rather than a panic.
fn unreachable_dispatch() -> Result<Vec<Event>, RuleError> {
    Err(RuleError::WrongPhase("this move is handled elsewhere"))
}
