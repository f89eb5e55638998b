//! Maritime trade with the bank (B-TRD-1..4) and domestic trade offers (B-TRD-5..8).

use crate::{
    error::RuleError,
    events::Event,
    resources::{Resource, Resources},
    state::{Game, Phase, Seat, TradeOffer},
};

use super::MAX_OPEN_OFFERS_PER_SEAT;

/// Returns `seat`'s bank rate for each resource: 4, 3 with a generic harbour, 2 with the
/// resource's special harbour (B-TRD-2..4, B-GEO-10).
pub(crate) fn bank_rates(game: &Game, seat: Seat) -> [u32; 5] {
    let mut rates = [4; 5];
    for &v in &game.board.harbour_vertices {
        if game.buildings[v as usize].is_none_or(|b| b.seat != seat) {
            continue;
        }
        match game.board.vertex_harbour[v as usize].map(|k| k.special_resource()) {
            Some(None) => rates.iter_mut().for_each(|r| *r = (*r).min(3)),
            Some(Some(resource)) => rates[resource.index()] = 2,
            None => {}
        }
    }
    rates
}

impl Game {
    /// B-TURN-6 with the flag off: no trading after the first build or purchase.
    fn check_trading_open(&self) -> Result<(), RuleError> {
        match self.phase {
            Phase::Main => {}
            Phase::SpecialBuilding { .. } if self.config.sbp_trade_with_previous_player => return Ok(()),
            Phase::SpecialBuilding { .. } => {
                return Err(RuleError::WrongPhase("no trading in a special building phase"));
            }
            _ => return Err(RuleError::WrongPhase("trading happens in the main phase of a turn, after the roll")),
        }
        if !self.config.allow_trade_build_interleaving && self.turn.built_or_bought {
            return Err(RuleError::TradingClosed);
        }
        Ok(())
    }

    /// The only pair that may trade in a special building phase: the builder and the player
    /// whose turn just ended (X56-8).
    pub(crate) fn special_building_partner(&self, seat: Seat) -> Option<Seat> {
        match self.phase {
            Phase::SpecialBuilding { seat: builder } if seat == builder => Some(self.turn.active),
            Phase::SpecialBuilding { seat: builder } if seat == self.turn.active => Some(builder),
            _ => None,
        }
    }

    pub(super) fn decide_bank_trade(
        &self,
        seat: Seat,
        give: &Resources,
        get: &Resources,
    ) -> Result<Vec<Event>, RuleError> {
        self.check_trading_open()?;
        if give.is_empty() || get.is_empty() {
            return Err(RuleError::EmptyTradeSide);
        }
        if give.overlaps(get) {
            return Err(RuleError::SameResourceTrade);
        }
        let rates = bank_rates(self, seat);
        let mut trades = 0;
        for resource in Resource::ALL {
            let given = give.get(resource);
            let rate = rates[resource.index()];
            if !given.is_multiple_of(rate) {
                return Err(RuleError::InvalidBankRate);
            }
            trades += given / rate;
        }
        if trades != get.total() {
            return Err(RuleError::InvalidBankRate);
        }
        if !self.players[seat.index()].resources.contains(give) {
            return Err(RuleError::InsufficientResources);
        }
        if !self.bank.contains(get) {
            return Err(RuleError::BankShortage);
        }
        Ok(vec![Event::BankTraded { seat, give: *give, get: *get }])
    }

    pub(super) fn decide_offer(
        &self,
        seat: Seat,
        give: &Resources,
        get: &Resources,
        to: Option<&[Seat]>,
        counter_to: Option<u32>,
    ) -> Result<Vec<Event>, RuleError> {
        self.check_trading_open()?;
        if give.is_empty() || get.is_empty() {
            return Err(RuleError::EmptyTradeSide); // B-TRD-7
        }
        if give.overlaps(get) {
            return Err(RuleError::SameResourceTrade); // B-TRD-8
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
            _ if matches!(self.phase, Phase::SpecialBuilding { .. }) => {
                let partner = self.special_building_partner(seat).ok_or(RuleError::TradePartnerNotAllowed)?;
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
        if !self.players[seat.index()].resources.contains(give) {
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
            give: *give,
            get: *get,
            counter_to,
            accepted_by: Vec::new(),
            declined_by: Vec::new(),
        };
        Ok(vec![Event::TradeOffered { offer }])
    }

    fn open_offer(&self, id: u32) -> Result<&TradeOffer, RuleError> {
        self.offers.iter().find(|o| o.id == id).ok_or(RuleError::OfferNotFound(id))
    }

    pub(super) fn decide_accept(&self, seat: Seat, offer_id: u32) -> Result<Vec<Event>, RuleError> {
        self.check_trading_open()?;
        let offer = self.open_offer(offer_id)?;
        if !offer.to.contains(&seat) {
            return Err(RuleError::NotAnAddressee);
        }
        if offer.accepted_by.contains(&seat) {
            return Err(RuleError::AlreadyResponded);
        }
        if !self.players[seat.index()].resources.contains(&offer.get) {
            return Err(RuleError::InsufficientResources);
        }
        Ok(vec![Event::TradeAccepted { offer_id, seat }])
    }

    pub(super) fn decide_decline(&self, seat: Seat, offer_id: u32) -> Result<Vec<Event>, RuleError> {
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

    pub(super) fn decide_withdraw(&self, seat: Seat, offer_id: u32) -> Result<Vec<Event>, RuleError> {
        self.check_trading_open()?;
        let offer = self.open_offer(offer_id)?;
        if offer.from != seat {
            return Err(RuleError::NotTheOfferer);
        }
        Ok(vec![Event::TradeWithdrawn { offer_id }])
    }

    /// The offerer completes the trade with one accepter; both hands are checked again now.
    pub(super) fn decide_confirm(&self, seat: Seat, offer_id: u32, with: Seat) -> Result<Vec<Event>, RuleError> {
        self.check_trading_open()?;
        let offer = self.open_offer(offer_id)?;
        if offer.from != seat {
            return Err(RuleError::NotTheOfferer);
        }
        if !offer.accepted_by.contains(&with) {
            return Err(RuleError::PartnerHasNotAccepted(with));
        }
        if !self.players[seat.index()].resources.contains(&offer.give)
            || !self.players[with.index()].resources.contains(&offer.get)
        {
            return Err(RuleError::InsufficientResources);
        }
        Ok(vec![Event::TradeCompleted { offer_id, from: seat, with, give: offer.give, get: offer.get }])
    }
}
