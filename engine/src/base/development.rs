//! Buying and playing development cards (B-DEV-1..8, B-TURN-8..10), and the free roads of
//! Road Building.

use crate::{
    board::{EdgeId, HexCoord},
    chance::{draw_card, Chance, Draw},
    game::Game,
    model::{DevCard, Phase, PushInPlace, Resource, Resources, Seat},
    protocol::{Bandit, Event, Move, RuleError, SeatResources},
};

use crate::game::routes::{FreePiece, Overlay};

impl Game {
    /// B-DEV-1: pays `cost` (the card's price, less what an extension lets stand in for it)
    /// and draws the top card.
    pub(crate) fn decide_buy_card(
        &self,
        seat: Seat,
        cost: Resources,
        discoveries: u32,
        chance: &mut dyn Chance,
    ) -> Result<Event, RuleError> {
        if self.cards_for_sale() == 0 {
            return Err(RuleError::DeckEmpty);
        }
        if !self.players[seat.index()].resources.contains(&cost) {
            return Err(RuleError::InsufficientResources);
        }
        let card = draw_card(chance, Draw::DEVELOPMENT_CARD, &self.deck);
        Ok(Event::DevelopmentCardBought { seat, cost, discoveries, card })
    }

    /// The development cards a seat may still buy: the deck less the cards still set aside
    /// as gifts (FTR-8). Which cards were set aside is never drawn until a gift is claimed:
    /// the unseen cards are alike, so drawing a bought or a gifted card from the whole deck
    /// gives each the chances of the printed stack.
    pub fn cards_for_sale(&self) -> u32 {
        let set_aside = self.rules().components.dev_cards_set_aside;
        if set_aside == 0 {
            return self.deck.total();
        }
        let gifted: u32 = self.rules().extensions.iter().map(|e| e.cards_gifted(self)).sum();
        self.deck.total().saturating_sub(set_aside.saturating_sub(gifted))
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
    pub(crate) fn decide_knight(
        &self,
        seat: Seat,
        hex: HexCoord,
        steal_from: Option<Seat>,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if !self.rules().components.robber_in_play {
            return Err(RuleError::NotInThisGame("the robber"));
        }
        self.check_playable(seat, DevCard::Knight)?;
        events.push_in_place(|| Event::KnightPlayed { seat });
        self.decide_robber(seat, hex, steal_from, chance, events)?;
        events.extend(self.largest_army_update(seat));
        Ok(())
    }

    /// Returns how many cards Year of Plenty takes now (B-DEV-6): 2, or what the bank holds.
    pub(crate) fn year_of_plenty_count(&self) -> u32 {
        self.bank.total().min(2)
    }

    pub(crate) fn decide_progress_card(&self, seat: Seat, mv: &Move, events: &mut Vec<Event>) -> Result<(), RuleError> {
        match mv {
            Move::PlayRoadBuilding => {
                self.check_playable(seat, DevCard::RoadBuilding)?;
                let pieces = self.free_route_pieces(seat);
                if pieces == 0 {
                    return Err(RuleError::NoPiecesLeft("roads"));
                }
                if !self.has_free_route_site(seat, FreePiece::None) {
                    return Err(RuleError::NoLegalRoad);
                }
                events.push_in_place(|| Event::RoadBuildingPlayed { seat });
                events.push_in_place(|| self.interrupt(Phase::RoadBuilding { roads_left: pieces.min(2) }));
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
                events.push_in_place(|| Event::YearOfPlentyPlayed { seat, resources: *resources });
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
                events.push_in_place(|| Event::MonopolyPlayed { seat, resource: *resource, taken });
            }
            _ => return Err(RuleError::WrongPhase("not a progress card")),
        }
        Ok(())
    }

    /// B-DEV-5: a free road; the second must follow while one can be placed.
    pub(super) fn decide_free_road(
        &self,
        seat: Seat,
        edge: EdgeId,
        roads_left: u8,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let e = self.board.edge(edge).ok_or(RuleError::UnknownEdge(edge))?;
        self.check_road_site(e, edge)?;
        if self.players[seat.index()].pieces_left.roads == 0 {
            return Err(RuleError::NoPiecesLeft("roads"));
        }
        if !self.road_connects(seat, e, None) {
            return Err(RuleError::RoadNotConnected(edge));
        }
        events.push_in_place(|| Event::RoadBuilt { seat, edge, cost: Resources::ZERO });
        events.extend(self.longest_road_update(Overlay::road(e, seat)));
        events.push_in_place(|| self.after_free_piece(seat, roads_left, FreePiece::Road(e)));
        Ok(())
    }

    /// Pieces Road Building may place: roads, and with Seafarers ships (SEA-11).
    pub(crate) fn free_route_pieces(&self, seat: Seat) -> u8 {
        self.players[seat.index()].pieces_left.roads.saturating_add(self.ships_to_build(seat))
    }

    /// Tests if a free road (or ship, SEA-11) has a legal place, with `placed` on the board.
    pub(crate) fn has_free_route_site(&self, seat: Seat, placed: FreePiece) -> bool {
        let left = self.players[seat.index()].pieces_left;
        let (road, ship) = match placed {
            FreePiece::Road(e) => (Some(e), None),
            FreePiece::Ship(e) => (None, Some(e)),
            FreePiece::None => (None, None),
        };
        let roads_left = left.roads.saturating_sub(u8::from(road.is_some()));
        let ships_left = self.ships_to_build(seat).saturating_sub(u8::from(ship.is_some()));
        // SEA-2, SEA-11: the coast edge of the ship just placed takes no road (not yet applied,
        // it would otherwise count as a road site and leave the phase with no legal move).
        (roads_left > 0 && self.has_legal_road_site(seat, road, ship))
            || (ships_left > 0 && self.has_legal_ship_site(seat, placed))
    }

    /// What follows one free piece of Road Building: the next one while one may be placed
    /// (B-DEV-5), else the interrupted phase.
    pub(crate) fn after_free_piece(&self, seat: Seat, roads_left: u8, placed: FreePiece) -> Event {
        let remaining = roads_left.saturating_sub(1);
        if remaining > 0 && self.has_free_route_site(seat, placed) {
            self.continue_with(Phase::RoadBuilding { roads_left: remaining })
        } else {
            self.resume()
        }
    }

    pub(super) fn free_road_moves(&self, seat: Seat, moves: &mut Vec<Move>) {
        if self.players[seat.index()].pieces_left.roads > 0 {
            self.road_site_moves(seat, moves);
        }
    }

    pub(super) fn knight_moves(&self, seat: Seat, moves: &mut Vec<Move>) {
        if self.rules().components.robber_in_play && self.check_playable(seat, DevCard::Knight).is_ok() {
            self.robber_moves(seat, moves, |hex, steal_from| Move::PlayKnight {
                hex,
                steal_from,
                bandit: Bandit::Robber,
            });
        }
    }

    pub(super) fn progress_moves(&self, seat: Seat, moves: &mut Vec<Move>) {
        if self.check_playable(seat, DevCard::RoadBuilding).is_ok()
            && self.free_route_pieces(seat) > 0
            && self.has_free_route_site(seat, FreePiece::None)
        {
            moves.push_in_place(|| Move::PlayRoadBuilding);
        }
        if self.check_playable(seat, DevCard::YearOfPlenty).is_ok() {
            let count = self.year_of_plenty_count();
            for (i, first) in Resource::ALL.into_iter().enumerate() {
                if count == 1 {
                    if self.bank.get(first) > 0 {
                        moves.push_in_place(|| Move::PlayYearOfPlenty { resources: Resources::of(first, 1) });
                    }
                    continue;
                }
                for second in &Resource::ALL[i..] {
                    let take = Resources::of(first, 1) + Resources::of(*second, 1);
                    if self.bank.contains(&take) {
                        moves.push_in_place(|| Move::PlayYearOfPlenty { resources: take });
                    }
                }
            }
        }
        if self.check_playable(seat, DevCard::Monopoly).is_ok() {
            moves.extend(Resource::ALL.map(|resource| Move::PlayMonopoly { resource }));
        }
    }

    pub(super) fn apply_card_bought(&mut self, seat: Seat, cost: &Resources, card: Option<DevCard>) {
        self.mark_built_or_bought();
        self.pay(seat, cost);
        // Only a card the deck holds changes hands: a misfit event creates none.
        if let (Some(card), Some(player)) = (card, self.players.get_mut(seat.index())) {
            if self.deck.get(card) > 0 {
                *self.deck.get_mut(card) -= 1;
                *player.new_dev_cards.get_mut(card) += 1;
            }
        }
    }

    pub(super) fn apply_knight(&mut self, seat: Seat) {
        let held = self.players.get(seat.index()).is_some_and(|p| p.dev_cards.get(DevCard::Knight) > 0);
        self.apply_card_played(seat, DevCard::Knight);
        if let (true, Some(player)) = (held, self.players.get_mut(seat.index())) {
            player.knights_played += 1;
        }
    }

    pub(super) fn apply_card_played(&mut self, seat: Seat, card: DevCard) {
        if let Some(player) = self.players.get_mut(seat.index()) {
            let held = player.dev_cards.get_mut(card);
            *held = held.saturating_sub(1);
            self.turn.dev_card_played = true;
        }
    }
}
