//! Maritime trade with the bank (B-TRD-1..4) and domestic trade offers (B-TRD-5..8). In
//! Cities & Knights domestic offers may name commodities too (CK-TRD-1): the same rules hold
//! for them, card kind by card kind.

use crate::{
    game::Game,
    model::{Cards, PushInPlace, Resource, Resources, Seat, TradeOffer},
    protocol::{Event, Move, RuleError},
};

use crate::game::trading::{MaritimeRates, TradeWindow, MAX_OPEN_OFFERS_PER_SEAT};

impl Game {
    /// Who may trade now: anyone with the active player in the main phase (until the first
    /// build or purchase with B-TURN-6's flag off); in other phases, what an extension says.
    pub(crate) fn trade_window(&self) -> TradeWindow {
        match self.phase {
            crate::model::Phase::Main => {
                if !self.rules().base.allow_trade_build_interleaving && self.turn.built_or_bought {
                    TradeWindow::Closed(RuleError::TradingClosed)
                } else {
                    TradeWindow::Open
                }
            }
            _ => self.rules().extensions.iter().find_map(|e| e.trade_window(self)).unwrap_or(TradeWindow::Closed(
                RuleError::WrongPhase("trading happens in the main phase of a turn, after the roll"),
            )),
        }
    }

    fn check_trading_open(&self) -> Result<TradeWindow, RuleError> {
        match self.trade_window() {
            TradeWindow::Closed(error) => Err(error),
            window => Ok(window),
        }
    }

    /// Tests if `seat` may make a new trade offer now (B-TRD-5/6, B-TURN-6).
    pub fn may_offer_trade(&self, seat: Seat) -> bool {
        let window_allows = match self.trade_window() {
            TradeWindow::Open => true,
            window @ TradeWindow::Between(..) => window.partner_of(seat).is_some(),
            TradeWindow::Closed(_) => false,
        };
        window_allows
            && self.winner.is_none()
            && seat.index() < self.players.len()
            && (self.rules().base.allow_trade_build_interleaving || !self.turn.built_or_bought)
            && self.players[seat.index()].hand_size() > 0
            && self.offers.iter().filter(|o| o.from == seat).count() < MAX_OPEN_OFFERS_PER_SEAT
    }

    pub(crate) fn decide_bank_trade(&self, seat: Seat, give: &Resources, get: &Resources) -> Result<Event, RuleError> {
        self.check_trading_open()?;
        if give.is_empty() || get.is_empty() {
            return Err(RuleError::EmptyTradeSide);
        }
        if give.overlaps(get) {
            return Err(RuleError::SameResourceTrade);
        }
        // B-TRD-2..4: the cards given of each type split into single trades at rates the
        // seat is entitled to, one card received per trade.
        let rates = MaritimeRates::of(self, seat);
        let (mut fewest, mut most) = (0u32, 0u32);
        for resource in Resource::ALL {
            let (low, high) = rates.trade_counts(resource, give.get(resource)).ok_or(RuleError::InvalidBankRate)?;
            fewest = fewest.saturating_add(low);
            most = most.saturating_add(high);
        }
        if !(fewest..=most).contains(&get.total()) {
            return Err(RuleError::InvalidBankRate);
        }
        if !self.players[seat.index()].resources.contains(give) {
            return Err(RuleError::InsufficientResources);
        }
        if !self.bank.contains(get) {
            return Err(RuleError::BankShortage);
        }
        Ok(Event::BankTraded { seat, give: *give, get: *get })
    }

    pub(crate) fn decide_offer(
        &self,
        seat: Seat,
        give: &Cards,
        get: &Cards,
        to: Option<&[Seat]>,
        counter_to: Option<u32>,
    ) -> Result<Vec<Event>, RuleError> {
        // CK-TRD-1: only Cities & Knights has commodities to trade.
        let names_commodities = !give.commodities.is_empty() || !get.commodities.is_empty();
        if names_commodities && !self.rules().components.has_commodities() {
            return Err(RuleError::NotInThisGame("trading commodities (CK-TRD-1)"));
        }
        let window = self.check_trading_open()?;
        if give.is_empty() || get.is_empty() {
            return Err(RuleError::EmptyTradeSide); // B-TRD-7
        }
        if give.resources.overlaps(&get.resources) || give.commodities.overlaps(&get.commodities) {
            return Err(RuleError::SameResourceTrade); // B-TRD-8, kind by kind
        }
        // A counter-offer answers an offer made to the counterer and goes back to its maker
        // unless other seats are named.
        let countered = match counter_to {
            Some(id) => {
                let original = self.open_offer(id)?;
                if !original.to.contains(&seat) {
                    return Err(RuleError::NotAnAddressee);
                }
                Some(original.from)
            }
            None => None,
        };
        let maker = countered.map(|from| [from]);
        let to = to.or(maker.as_ref().map(|m| &m[..]));
        let active = self.turn.active;
        // B-TRD-5: every domestic trade has the active player on one side.
        let mut to: Vec<Seat> = match to {
            _ if matches!(window, TradeWindow::Between(..)) => {
                let partner = window.partner_of(seat).ok_or(RuleError::TradePartnerNotAllowed)?;
                match to {
                    None => vec![partner],
                    Some([only]) if *only == partner => vec![partner],
                    Some(_) => return Err(RuleError::TradePartnerNotAllowed),
                }
            }
            _ if seat != active => match to {
                None => vec![active],
                Some([only]) if *only == active => vec![active],
                Some(_) => return Err(RuleError::TradePartnerNotAllowed),
            },
            None => self.seats().filter(|&s| s != seat).collect(),
            Some(seats) => {
                if seats.is_empty() || seats.contains(&seat) {
                    return Err(RuleError::TradePartnerNotAllowed);
                }
                if let Some(unknown) = seats.iter().find(|s| s.index() >= self.players.len()) {
                    return Err(RuleError::UnknownSeat(*unknown));
                }
                seats.to_vec()
            }
        };
        to.sort_unstable();
        to.dedup();
        if !self.hand_cards(seat).contains(give) {
            return Err(RuleError::InsufficientResources);
        }
        let open = self.offers.iter().filter(|o| o.from == seat).count();
        if open >= MAX_OPEN_OFFERS_PER_SEAT {
            return Err(RuleError::TooManyOpenOffers(open));
        }
        let offer = TradeOffer {
            id: self.next_offer_id,
            from: seat,
            to,
            give: give.resources,
            get: get.resources,
            give_commodities: give.commodities,
            get_commodities: get.commodities,
            counter_to,
            accepted_by: Vec::new(),
            declined_by: Vec::new(),
        };
        Ok(vec![Event::TradeOffered { offer }])
    }

    fn open_offer(&self, id: u32) -> Result<&TradeOffer, RuleError> {
        self.offers.iter().find(|o| o.id == id).ok_or(RuleError::OfferNotFound(id))
    }

    pub(crate) fn decide_accept(&self, seat: Seat, offer_id: u32) -> Result<Vec<Event>, RuleError> {
        self.check_trading_open()?;
        let offer = self.open_offer(offer_id)?;
        if !offer.to.contains(&seat) {
            return Err(RuleError::NotAnAddressee);
        }
        if offer.accepted_by.contains(&seat) {
            return Err(RuleError::AlreadyResponded);
        }
        if !self.hand_cards(seat).contains(&offer.get_cards()) {
            return Err(RuleError::InsufficientResources);
        }
        Ok(vec![Event::TradeAccepted { offer_id, seat }])
    }

    pub(crate) fn decide_decline(&self, seat: Seat, offer_id: u32) -> Result<Vec<Event>, RuleError> {
        self.check_trading_open()?;
        let offer = self.open_offer(offer_id)?;
        if !offer.to.contains(&seat) {
            return Err(RuleError::NotAnAddressee);
        }
        if offer.declined_by.contains(&seat) {
            return Err(RuleError::AlreadyResponded);
        }
        Ok(vec![Event::TradeDeclined { offer_id, seat }])
    }

    pub(crate) fn decide_withdraw(&self, seat: Seat, offer_id: u32) -> Result<Vec<Event>, RuleError> {
        self.check_trading_open()?;
        let offer = self.open_offer(offer_id)?;
        if offer.from != seat {
            return Err(RuleError::NotTheOfferer);
        }
        Ok(vec![Event::TradeWithdrawn { offer_id }])
    }

    /// The offerer completes the trade with one accepter; both hands are checked again now.
    pub(crate) fn decide_confirm(&self, seat: Seat, offer_id: u32, with: Seat) -> Result<Vec<Event>, RuleError> {
        self.check_trading_open()?;
        let offer = self.open_offer(offer_id)?;
        if offer.from != seat {
            return Err(RuleError::NotTheOfferer);
        }
        if !offer.accepted_by.contains(&with) {
            return Err(RuleError::PartnerHasNotAccepted(with));
        }
        if !self.hand_cards(seat).contains(&offer.give_cards()) || !self.hand_cards(with).contains(&offer.get_cards()) {
            return Err(RuleError::InsufficientResources);
        }
        Ok(vec![Event::TradeCompleted {
            offer_id,
            from: seat,
            with,
            give: offer.give,
            get: offer.get,
            give_commodities: offer.give_commodities,
            get_commodities: offer.get_commodities,
        }])
    }

    /// Responses to open offers: accept/decline as an addressee, confirm/withdraw as offerer.
    pub(crate) fn trade_responses(&self, seat: Seat, moves: &mut Vec<Move>) {
        if matches!(self.trade_window(), TradeWindow::Closed(_)) {
            return;
        }
        let hand = self.hand_cards(seat);
        for offer in &self.offers {
            let offer_id = offer.id;
            if offer.from == seat {
                if hand.contains(&offer.give_cards()) {
                    for &with in &offer.accepted_by {
                        if self.hand_cards(with).contains(&offer.get_cards()) {
                            moves.push_in_place(|| Move::ConfirmTrade { offer_id, with });
                        }
                    }
                }
                moves.push_in_place(|| Move::WithdrawTrade { offer_id });
            } else if offer.to.contains(&seat) {
                if !offer.accepted_by.contains(&seat) && hand.contains(&offer.get_cards()) {
                    moves.push_in_place(|| Move::AcceptTrade { offer_id });
                }
                if !offer.declined_by.contains(&seat) {
                    moves.push_in_place(|| Move::DeclineTrade { offer_id });
                }
            }
        }
    }

    pub(super) fn apply_trade(&mut self, event: &Event) {
        match event {
            Event::TradeOffered { offer } => {
                self.next_offer_id = self.next_offer_id.max(offer.id.saturating_add(1));
                self.offers.push(offer.clone());
            }
            Event::TradeAccepted { offer_id, seat } => {
                if let Some(offer) = self.offers.iter_mut().find(|o| o.id == *offer_id) {
                    offer.declined_by.retain(|s| s != seat);
                    offer.accepted_by.push(*seat);
                }
            }
            Event::TradeDeclined { offer_id, seat } => {
                if let Some(offer) = self.offers.iter_mut().find(|o| o.id == *offer_id) {
                    offer.accepted_by.retain(|s| s != seat);
                    offer.declined_by.push(*seat);
                }
            }
            Event::TradeWithdrawn { offer_id } => self.offers.retain(|o| o.id != *offer_id),
            Event::TradesExpired { offer_ids } => self.offers.retain(|o| !offer_ids.contains(&o.id)),
            Event::TradeCompleted { offer_id, from, with, give, get, give_commodities, get_commodities } => {
                self.transfer(*from, *with, give);
                self.transfer(*with, *from, get);
                self.transfer_commodities(*from, *with, give_commodities);
                self.transfer_commodities(*with, *from, get_commodities);
                self.offers.retain(|o| o.id != *offer_id);
            }
            _ => {}
        }
    }
}
