//! The trade deck's cards (CK-PC-7): Commercial Harbor, Master Merchant, Merchant (and the
//! merchant, CK-MER), Merchant Fleet, Resource Monopoly, Trade Monopoly.
//!
//! - Merchant puts the merchant on a producing hex beside one of the player's buildings: its
//!   holder trades that resource with the bank at 2:1 and has 1 point (CK-MER-1..3); the rates
//!   reach both bank trade moves through [`Game::two_for_one`].
//! - Merchant Fleet: the good named trades at 2:1 for the rest of the turn (`CardTurn`, set
//!   when the card is played).
//! - Resource and Trade Monopoly take from every opponent at once, in one public event.
//! - Commercial Harbor opens `commercial_harbor_exchange`, once per opponent this turn; an
//!   opponent holding commodities of more than one kind chooses the one it gives back in a
//!   `card_decision` (`give_commodity`). The cards are seen by the two seats only.
//! - Master Merchant shows the player the hand of a seat with more points, and the player
//!   takes two of its cards (`take_cards`; all of them at once when it holds two or fewer).

use super::{opponents, CardDecision, Good, ProgressPlay};
use crate::{
    board::HexCoord,
    chance::Chance,
    ext::cities_knights::{CitiesKnights, CitiesKnightsState, Merchant, ProgressCard},
    game::Game,
    model::{Cards, Commodities, Commodity, InlineList, Phase, Resource, Resources, Seat},
    protocol::{Event, Move, RuleError, SeatCommodities, SeatResources},
};

/// Resource Monopoly: the cards each opponent gives at most (CK-PC-7).
const MONOPOLY_RESOURCES: u32 = 2;
/// Master Merchant: the cards taken (CK-PC-7).
const MASTER_MERCHANT_TAKES: u32 = 2;

impl Game {
    /// CK-MER-2, CK-PC-7 Merchant Fleet: the goods `seat` trades with the bank at 2:1 by the
    /// trade deck's cards: the merchant's resource for its holder, and this turn's fleets for
    /// the active seat.
    pub(crate) fn two_for_one(&self, seat: Seat) -> impl Iterator<Item = Good> + '_ {
        let state = &self.ext.cities_knights;
        let merchant = state
            .merchant
            .filter(|m| m.seat == seat)
            .and_then(|m| self.board.hex(m.hex).map(|h| self.board.terrain[h as usize]))
            .and_then(|terrain| terrain.resource())
            .map(Good::Resource);
        let fleets: &[Good] = if seat == self.turn_active() { &state.card_turn.merchant_fleets } else { &[] };
        // An iterator, not a list: every bank trade move of the listing asks (issue 28).
        merchant.into_iter().chain(fleets.iter().copied())
    }

    /// CK-MER-3: the merchant's point, for its holder.
    pub(crate) fn merchant_points(&self, seat: Seat) -> u32 {
        u32::from(self.ext.cities_knights.merchant.is_some_and(|m| m.seat == seat))
    }

    /// The merchant, once a Merchant card placed it (CK-MER).
    pub fn merchant(&self) -> Option<Merchant> {
        self.ext.cities_knights.merchant
    }
}

/// The effect of a card of this deck, played by `seat`, into `events`; `game` is the state
/// after the card left the hand.
pub(super) fn play(
    _ck: &CitiesKnights,
    game: &Game,
    seat: Seat,
    play: &ProgressPlay,
    _chance: &mut dyn Chance,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let effect = match *play {
        ProgressPlay::Merchant { hex } => merchant(game, seat, hex)?,
        // Their lasting effect is in `CardTurn`, set as the card is played.
        ProgressPlay::MerchantFleet { .. } | ProgressPlay::CommercialHarbor => return Ok(()),
        ProgressPlay::ResourceMonopoly { resource } => resource_monopoly(game, seat, resource),
        ProgressPlay::TradeMonopoly { commodity } => trade_monopoly(game, seat, commodity),
        ProgressPlay::MasterMerchant { target } => return master_merchant(game, seat, target, events),
        _ => return Err(RuleError::NotInThisGame("this progress card's effect")),
    };
    events.push(effect);
    Ok(())
}

/// Every way `seat` may play `card` of this deck now.
pub(super) fn plays(_ck: &CitiesKnights, game: &Game, seat: Seat, card: ProgressCard, moves: &mut Vec<Move>) {
    let mut push = |play: ProgressPlay| moves.push(Move::PlayProgressCard { play });
    match card {
        ProgressCard::Merchant => {
            for &hex in &game.board.hexes {
                if merchant_site(game, seat, hex).is_ok() {
                    push(ProgressPlay::Merchant { hex });
                }
            }
        }
        ProgressCard::MerchantFleet => {
            for resource in Resource::ALL {
                push(ProgressPlay::MerchantFleet { good: Good::Resource(resource) });
            }
            for commodity in Commodity::ALL {
                push(ProgressPlay::MerchantFleet { good: Good::Commodity(commodity) });
            }
        }
        ProgressCard::ResourceMonopoly => {
            for resource in Resource::ALL {
                push(ProgressPlay::ResourceMonopoly { resource });
            }
        }
        ProgressCard::TradeMonopoly => {
            for commodity in Commodity::ALL {
                push(ProgressPlay::TradeMonopoly { commodity });
            }
        }
        ProgressCard::CommercialHarbor => push(ProgressPlay::CommercialHarbor),
        ProgressCard::MasterMerchant => {
            for target in game.seats().filter(|&t| ahead(game, seat, t)) {
                push(ProgressPlay::MasterMerchant { target });
            }
        }
        _ => {}
    }
}

/// CK-MER-1: a land hex producing a resource, touching one of the seat's buildings.
fn merchant_site(game: &Game, seat: Seat, hex: HexCoord) -> Result<(), RuleError> {
    let h = game.board.hex(hex).ok_or(RuleError::UnknownHex(hex))?;
    if game.board.terrain[h as usize].resource().is_none() {
        return Err(RuleError::MerchantHexNotProducing(hex));
    }
    let beside =
        game.board.hex_vertices[h as usize].iter().any(|&v| game.building_index(v).is_some_and(|b| b.seat == seat));
    if !beside {
        return Err(RuleError::MerchantHexNotYours(hex));
    }
    Ok(())
}

/// Merchant (CK-MER-1/3): the merchant goes to `hex`, and to `seat` with its point.
fn merchant(game: &Game, seat: Seat, hex: HexCoord) -> Result<Event, RuleError> {
    merchant_site(game, seat, hex)?;
    let from_seat = game.ext.cities_knights.merchant.map(|m| m.seat).filter(|&s| s != seat);
    Ok(Event::MerchantPlaced { seat, hex, from_seat })
}

/// Resource Monopoly: 2 cards of `resource` from each opponent, or all it has.
fn resource_monopoly(game: &Game, seat: Seat, resource: Resource) -> Event {
    let taken = opponents(game, seat)
        .map(|other| {
            let held = game.hand_cards(other).resources.get(resource);
            SeatResources { seat: other, resources: Resources::of(resource, held.min(MONOPOLY_RESOURCES)) }
        })
        .collect();
    Event::ResourceMonopolyTaken { seat, resource, taken }
}

/// Trade Monopoly: 1 card of `commodity` from each opponent holding one.
fn trade_monopoly(game: &Game, seat: Seat, commodity: Commodity) -> Event {
    let taken = opponents(game, seat)
        .map(|other| {
            let held = game.hand_cards(other).commodities.get(commodity);
            SeatCommodities { seat: other, commodities: Commodities::of(commodity, held.min(1)) }
        })
        .collect();
    Event::TradeMonopolyTaken { seat, commodity, taken }
}

/// Master Merchant: `target`'s hand is shown to `seat`, who takes two of its cards (all of
/// them, if it holds two or fewer, at once).
fn master_merchant(game: &Game, seat: Seat, target: Seat, events: &mut Vec<Event>) -> Result<(), RuleError> {
    if game.player(target).is_none() {
        return Err(RuleError::UnknownSeat(target));
    }
    if !ahead(game, seat, target) {
        return Err(RuleError::TargetNotAhead(target));
    }
    let hand = game.hand_cards(target);
    events.push(Event::HandShown { seat, target, cards: Some(hand) });
    if hand.total() > MASTER_MERCHANT_TAKES {
        let decision = CardDecision::TakeCards { seat, from: target, count: MASTER_MERCHANT_TAKES };
        events.push(game.interrupt(Phase::CardDecision { decision }));
    } else if !hand.is_empty() {
        events.push(Event::CardsTaken { seat, from: target, count: hand.total(), cards: Some(hand) });
    }
    Ok(())
}

/// Master Merchant's target: a seat with more points than `seat` (CK-WIN-2 points; C&K has
/// no hidden ones).
fn ahead(game: &Game, seat: Seat, target: Seat) -> bool {
    target != seat && game.public_victory_points(target) > game.public_victory_points(seat)
}

/// Decides a move that follows a card of this deck, if `mv` is one.
pub(super) fn decide_move(
    _ck: &CitiesKnights,
    game: &Game,
    seat: Seat,
    mv: &Move,
    _chance: &mut dyn Chance,
    events: &mut Vec<Event>,
) -> Option<Result<(), RuleError>> {
    let decision = match game.phase() {
        Phase::CardDecision { decision } => Some(decision),
        _ => None,
    };
    match (mv, decision) {
        // While a decision waits, the common errors of the `card_decision` phase.
        (Move::CommercialHarborExchange { .. }, Some(_)) => None,
        (Move::CommercialHarborExchange { with, resource }, None) => {
            Some(exchange(game, seat, *with, *resource, events))
        }
        (Move::GiveCommodity { commodity }, Some(&CardDecision::GiveCommodity { seat: giver, to }))
            if giver == seat =>
        {
            Some(give_commodity(game, seat, to, *commodity).map(|given| events.extend(given)))
        }
        (Move::TakeCards { cards }, Some(&CardDecision::TakeCards { seat: taker, from, count })) if taker == seat => {
            Some(take_cards(game, seat, from, count, cards).map(|taken| events.extend(taken)))
        }
        (Move::GiveCommodity { .. } | Move::TakeCards { .. }, Some(_)) => None,
        (Move::GiveCommodity { .. } | Move::TakeCards { .. }, None) => Some(Err(RuleError::NothingToDecide)),
        _ => None,
    }
}

/// Commercial Harbor: `seat` gives `with` one `resource`; `with`, holding commodities, gives
/// one back (of its choice when it holds more than one kind); holding none, nothing changes
/// hands.
fn exchange(game: &Game, seat: Seat, with: Seat, resource: Resource, events: &mut Vec<Event>) -> Result<(), RuleError> {
    if seat != game.turn_active() {
        return Err(RuleError::NotYourTurn { active: game.turn_active() });
    }
    if *game.phase() != Phase::Main {
        return Err(RuleError::WrongPhase("Commercial Harbor exchanges happen in your main phase"));
    }
    if game.must_shed_progress_cards() {
        return Err(RuleError::ProgressHandOverLimit { limit: game.progress_hand_limit() });
    }
    let Some(offered) = &game.ext.cities_knights.card_turn.commercial_harbor else {
        return Err(RuleError::CommercialHarborNotPlayed);
    };
    if game.player(with).is_none() {
        return Err(RuleError::UnknownSeat(with));
    }
    if with == seat {
        return Err(RuleError::TradePartnerNotAllowed);
    }
    if offered.contains(&with) {
        return Err(RuleError::AlreadyExchangedWith(with));
    }
    if game.hand_cards(seat).resources.get(resource) == 0 {
        return Err(RuleError::InsufficientResources);
    }
    let theirs = game.hand_cards(with).commodities;
    let mut kinds = theirs.kinds();
    let (first, second) = (kinds.next(), kinds.next());
    if first.is_none() {
        events.push(Event::CommercialHarborDeclined { seat, with });
        return Ok(());
    }
    events.push(Event::CommercialHarborOffered { seat, with, resource: Some(resource) });
    events.push(match (first, second) {
        (Some(commodity), None) => Event::CommercialHarborAnswered { seat: with, to: seat, commodity: Some(commodity) },
        _ => game.interrupt(Phase::CardDecision { decision: CardDecision::GiveCommodity { seat: with, to: seat } }),
    });
    Ok(())
}

fn give_commodity(game: &Game, seat: Seat, to: Seat, commodity: Commodity) -> Result<[Event; 2], RuleError> {
    if game.hand_cards(seat).commodities.get(commodity) == 0 {
        return Err(RuleError::CardsNotInHand(seat));
    }
    Ok([Event::CommercialHarborAnswered { seat, to, commodity: Some(commodity) }, game.resume()])
}

fn take_cards(game: &Game, seat: Seat, from: Seat, count: u32, cards: &Cards) -> Result<[Event; 2], RuleError> {
    if cards.total() != count {
        return Err(RuleError::WrongTakeCount { required: count });
    }
    if !game.hand_cards(from).contains(cards) {
        return Err(RuleError::CardsNotInHand(from));
    }
    Ok([Event::CardsTaken { seat, from, count, cards: Some(*cards) }, game.resume()])
}

/// The moves that follow this deck's cards that `seat` may make now.
pub(super) fn more_moves(_ck: &CitiesKnights, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
    match game.phase() {
        Phase::Main => {
            let Some(offered) = &game.ext.cities_knights.card_turn.commercial_harbor else { return };
            if seat != game.turn_active() || game.must_shed_progress_cards() {
                return;
            }
            let hand = game.hand_cards(seat).resources;
            for with in opponents(game, seat).filter(|w| !offered.contains(w)) {
                moves.extend(hand.kinds().map(|resource| Move::CommercialHarborExchange { with, resource }));
            }
        }
        &Phase::CardDecision { decision: CardDecision::GiveCommodity { seat: giver, .. } } if giver == seat => {
            let hand = game.hand_cards(seat).commodities;
            moves.extend(hand.kinds().map(|commodity| Move::GiveCommodity { commodity }));
        }
        &Phase::CardDecision { decision: CardDecision::TakeCards { seat: taker, from, count } } if taker == seat => {
            let hand = game.hand_cards(from);
            let (kinds, held) = singles(&hand);
            choose(&kinds[..held], &hand, count, Cards::default(), &mut |cards| moves.push(Move::TakeCards { cards }));
        }
        _ => {}
    }
}

/// The kinds of card a hand may hold: resources and commodities.
const CARD_KINDS: usize = Resource::ALL.len() + Commodity::ALL.len();

/// One card of each kind `hand` holds, resources first: the first `.1` of `.0` (on the
/// stack, as the listing asks for them every move of the decision).
fn singles(hand: &Cards) -> ([Cards; CARD_KINDS], usize) {
    let resources = hand.resources.kinds().map(|r| Cards::of_resources(Resources::of(r, 1)));
    let commodities = hand.commodities.kinds().map(|c| Cards::of_commodities(Commodities::of(c, 1)));
    let mut kinds = [Cards::default(); CARD_KINDS];
    let mut held = 0;
    for (slot, one) in kinds.iter_mut().zip(resources.chain(commodities)) {
        *slot = one;
        held += 1;
    }
    (kinds, held)
}

/// Every choice of `count` more cards from `hand` added to `chosen`, each once, handed to
/// `out`: kinds are taken in the order of `kinds`, never going back.
fn choose(kinds: &[Cards], hand: &Cards, count: u32, chosen: Cards, out: &mut impl FnMut(Cards)) {
    if count == 0 {
        out(chosen);
        return;
    }
    for (i, one) in kinds.iter().enumerate() {
        let mut more = chosen;
        more.resources += one.resources;
        more.commodities += one.commodities;
        if hand.contains(&more) {
            choose(&kinds[i..], hand, count - 1, more, out);
        }
    }
}

/// Applies this deck's events.
pub(super) fn apply(state: &mut CitiesKnightsState, event: &Event, _phase: &Phase) {
    match event {
        Event::MerchantPlaced { seat, hex, .. } => state.merchant = Some(Merchant { seat: *seat, hex: *hex }),
        Event::CommercialHarborOffered { with, .. } | Event::CommercialHarborDeclined { with, .. } => {
            state.card_turn.commercial_harbor.get_or_insert_with(InlineList::new).push(*with);
        }
        _ => {}
    }
}
