//! Buying and playing development cards (B-DEV-1..8, B-TURN-8..10).

use crate::{
    board::HexCoord,
    chance::Chance,
    error::RuleError,
    events::{Event, SeatResources},
    moves::Move,
    resources::{cost, Resources},
    state::{DevCard, Game, Phase, ResumePhase, Seat},
};

impl Game {
    /// B-DEV-1, with JUN-5's discoveries standing in for some of the cost cards.
    pub(super) fn decide_buy_card(
        &self,
        seat: Seat,
        replaces: Option<&Resources>,
        chance: &mut impl Chance,
    ) -> Result<Vec<Event>, RuleError> {
        if self.deck.total() == 0 {
            return Err(RuleError::DeckEmpty);
        }
        let (cost, discoveries) = match replaces {
            None => (cost::DEVELOPMENT_CARD, 0),
            Some(replaced) => {
                if replaced.is_empty() || !cost::DEVELOPMENT_CARD.contains(replaced) {
                    return Err(RuleError::InvalidDiscoveryUse);
                }
                if self.players[seat.index()].discoveries < replaced.total() {
                    return Err(RuleError::NotEnoughDiscoveries(replaced.total()));
                }
                (cost::DEVELOPMENT_CARD - *replaced, replaced.total())
            }
        };
        if !self.players[seat.index()].resources.contains(&cost) {
            return Err(RuleError::InsufficientResources);
        }
        let drawn = chance.draw_development_card(&self.deck);
        let card = if self.deck.get(drawn) > 0 { drawn } else { self.deck.nth_card(0).unwrap_or(drawn) };
        Ok(vec![Event::DevelopmentCardBought { seat, cost, discoveries, card: Some(card) }])
    }

    /// B-DEV-2/3: one card per turn, and not one bought this turn.
    pub(crate) fn check_playable(&self, seat: Seat, card: DevCard) -> Result<(), RuleError> {
        if self.turn.dev_card_played {
            return Err(RuleError::DevelopmentCardAlreadyPlayed);
        }
        let player = &self.players[seat.index()];
        if player.dev_cards.get(card) > 0 {
            Ok(())
        } else if player.new_dev_cards.get(card) > 0 {
            Err(RuleError::DevelopmentCardTooNew)
        } else {
            Err(RuleError::NoSuchDevelopmentCard(card.name()))
        }
    }

    /// B-DEV-4: a knight moves the robber and steals, without discards.
    pub(super) fn decide_knight(
        &self,
        seat: Seat,
        hex: HexCoord,
        steal_from: Option<Seat>,
        chance: &mut impl Chance,
    ) -> Result<Vec<Event>, RuleError> {
        self.check_playable(seat, DevCard::Knight)?;
        let mut events = vec![Event::KnightPlayed { seat }];
        events.extend(self.decide_robber(seat, hex, steal_from, chance)?);
        events.extend(self.largest_army_update(seat));
        Ok(events)
    }

    /// Returns how many cards Year of Plenty takes now (B-DEV-6): 2, or what the bank holds.
    pub(crate) fn year_of_plenty_count(&self) -> u32 {
        self.bank.total().min(2)
    }

    pub(super) fn decide_progress_card(&self, seat: Seat, mv: &Move) -> Result<Vec<Event>, RuleError> {
        match mv {
            Move::PlayRoadBuilding => {
                self.check_playable(seat, DevCard::RoadBuilding)?;
                let roads_left = self.players[seat.index()].roads_left;
                if roads_left == 0 {
                    return Err(RuleError::NoPiecesLeft("roads"));
                }
                if !self.has_legal_road_site(seat, None) {
                    return Err(RuleError::NoLegalRoad);
                }
                let resume =
                    if matches!(self.phase, Phase::PreRoll) { ResumePhase::PreRoll } else { ResumePhase::Main };
                Ok(vec![
                    Event::RoadBuildingPlayed { seat },
                    Event::PhaseChanged { phase: Phase::RoadBuilding { roads_left: roads_left.min(2), resume } },
                ])
            }
            Move::PlayYearOfPlenty { resources } => {
                self.check_playable(seat, DevCard::YearOfPlenty)?;
                let expected = self.year_of_plenty_count();
                if expected == 0 {
                    return Err(RuleError::BankShortage);
                }
                if resources.total() != expected {
                    return Err(RuleError::WrongYearOfPlentyCount { expected });
                }
                if !self.bank.contains(resources) {
                    return Err(RuleError::BankShortage);
                }
                Ok(vec![Event::YearOfPlentyPlayed { seat, resources: *resources }])
            }
            Move::PlayMonopoly { resource } => {
                self.check_playable(seat, DevCard::Monopoly)?;
                let taken = self
                    .seats()
                    .filter(|&s| s != seat)
                    .filter_map(|s| {
                        let count = self.players[s.index()].resources.get(*resource);
                        (count > 0).then(|| SeatResources { seat: s, resources: Resources::of(*resource, count) })
                    })
                    .collect();
                Ok(vec![Event::MonopolyPlayed { seat, resource: *resource, taken }])
            }
            _ => Err(RuleError::WrongPhase("not a progress card")),
        }
    }
}
