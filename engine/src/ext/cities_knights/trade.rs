//! Trading commodities with the bank (CK-TRD-1/2): identical cards of one kind at the
//! seat's rate for that kind, for as many cards of other kinds, resources or commodities.

use super::CitiesKnights;
use crate::model::PushInPlace;
use crate::{
    game::trading::MaritimeRates,
    game::Game,
    model::{Cards, Commodities, Commodity, Phase, Resource, Resources, Seat},
    protocol::{Event, Move, RuleError},
};

/// One kind of card: a resource or a commodity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Resource(Resource),
    Commodity(Commodity),
}

impl Kind {
    fn cards(self, count: u32) -> Cards {
        match self {
            Kind::Resource(r) => Cards::of_resources(Resources::of(r, count)),
            Kind::Commodity(c) => Cards::of_commodities(Commodities::of(c, count)),
        }
    }

    fn all() -> impl Iterator<Item = Kind> {
        Resource::ALL.into_iter().map(Kind::Resource).chain(Commodity::ALL.into_iter().map(Kind::Commodity))
    }
}

impl CitiesKnights {
    /// CK-TRD-1/2: the seat's bank rate for `kind`: a resource as in the base game
    /// (B-TRD-2..4); a commodity 4:1, 3:1 with a generic harbour, 2:1 with Trade level 3.
    fn rate(&self, game: &Game, seat: Seat, kind: Kind, rates: &MaritimeRates) -> u32 {
        match kind {
            Kind::Resource(resource) => rates.best(resource),
            // CK-PC-7 Merchant Fleet: a commodity named trades at 2:1 this turn.
            Kind::Commodity(c) if game.two_for_one(seat).any(|good| good == super::Good::Commodity(c)) => 2,
            Kind::Commodity(_) if game.ext.cities_knights.level(seat, super::Track::Trade) >= 3 => 2,
            Kind::Commodity(_) if rates.generic() => 3,
            Kind::Commodity(_) => 4,
        }
    }

    /// Whether the seat may trade with the bank now (B-TRD-1, B-TURN-6).
    fn may_trade(game: &Game, seat: Seat) -> Result<(), RuleError> {
        if seat != game.turn_active() {
            return Err(RuleError::NotYourTurn { active: game.turn_active() });
        }
        if *game.phase() != Phase::Main {
            return Err(RuleError::WrongPhase("trading happens in the main phase of a turn, after the roll"));
        }
        if !game.rules().base.allow_trade_build_interleaving && game.turn.built_or_bought {
            return Err(RuleError::TradingClosed);
        }
        Ok(())
    }

    pub(super) fn decide_bank_trade(
        &self,
        game: &Game,
        seat: Seat,
        give: &Cards,
        get: &Cards,
    ) -> Result<Event, RuleError> {
        Self::may_trade(game, seat)?;
        if give.is_empty() || get.is_empty() {
            return Err(RuleError::EmptyTradeSide);
        }
        // Resources alone are the base game's `trade_with_bank`: one move for one trade, so
        // that `legal_moves` lists each trade once and lists every trade `decide` accepts.
        if give.commodities.is_empty() && get.commodities.is_empty() {
            return Err(RuleError::NoCommodityNamed("trade_with_bank"));
        }
        // The cards given are identical (CK-TRD-1).
        let mut given = Kind::all().filter(|k| give_of(give, *k) > 0);
        let (Some(kind), None) = (given.next(), given.next()) else { return Err(RuleError::InvalidBankRate) };
        if give_of(get, kind) > 0 {
            return Err(RuleError::SameResourceTrade);
        }
        let rate = self.rate(game, seat, kind, &MaritimeRates::of(game, seat));
        if give.total() != get.total().saturating_mul(rate) {
            return Err(RuleError::InvalidBankRate);
        }
        if !game.hand_cards(seat).contains(give) {
            return Err(RuleError::InsufficientResources);
        }
        if !game.bank().contains(&get.resources) || !game.commodity_bank().contains(&get.commodities) {
            return Err(RuleError::BankShortage);
        }
        Ok(Event::CardsTradedWithBank { seat, give: *give, get: *get })
    }

    /// Single bank trades naming a commodity: a commodity for any other card, or a resource
    /// for a commodity.
    pub(super) fn bank_trade_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        if Self::may_trade(game, seat).is_err() {
            return;
        }
        let hand = game.hand_cards(seat);
        // No rate is below 2: a hand without a pair trades nothing, and its harbours and
        // merchant need no looking up (this runs on every main-phase listing).
        if Kind::all().all(|kind| give_of(&hand, kind) < 2) {
            return;
        }
        let rates = MaritimeRates::of(game, seat);
        let in_bank = |kind: Kind| match kind {
            Kind::Resource(r) => game.bank().get(r) > 0,
            Kind::Commodity(c) => game.commodity_bank().get(c) > 0,
        };
        for give in Kind::all() {
            let rate = self.rate(game, seat, give, &rates);
            if give_of(&hand, give) < rate {
                continue;
            }
            for get in Kind::all().filter(|&k| k != give && in_bank(k)) {
                let names_commodity = matches!(give, Kind::Commodity(_)) || matches!(get, Kind::Commodity(_));
                if names_commodity {
                    moves.push_in_place(|| Move::TradeCardsWithBank { give: give.cards(rate), get: get.cards(1) });
                }
            }
        }
    }
}

/// How many cards of `kind` `cards` holds.
fn give_of(cards: &Cards, kind: Kind) -> u32 {
    match kind {
        Kind::Resource(r) => cards.resources.get(r),
        Kind::Commodity(c) => cards.commodities.get(c),
    }
}
