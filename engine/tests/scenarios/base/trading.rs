//! 9.5 Trading: TC-28 .. TC-33.

use catan_engine::{state::TradeOffer, Commodities, Event, Move, Resource, Resources};

use super::support::*;

fn bank_trade(give: Resources, get: Resources) -> Move {
    Move::TradeWithBank { give, get }
}
fn of(resource: Resource, n: u32) -> Resources {
    Resources::of(resource, n)
}
fn offer(give: Resources, get: Resources, to: Option<Vec<catan_engine::Seat>>) -> Move {
    let to = to.map(Into::into);
    Move::OfferTrade {
        give,
        get,
        give_commodities: Commodities::NONE,
        get_commodities: Commodities::NONE,
        to,
        counter_to: None,
    }
}

/// TC-28 [B-TRD-2]: without harbours, 4 ore buy 1 brick; 3 ore do not; ore for ore never.
#[test]
fn tc_28_bank_trades_four_for_one() {
    use Resource::*;
    let mut s = given().settlement(P0, "0,-1,N").give(P0, of(Ore, 8)).main_phase(P0).start();
    s.rejects(P0, bank_trade(of(Ore, 3), of(Brick, 1)), "invalid_bank_rate");
    s.rejects(P0, bank_trade(of(Ore, 4), of(Ore, 1)), "same_resource_trade");
    s.rejects(P0, bank_trade(of(Ore, 4), of(Brick, 2)), "invalid_bank_rate");
    let events = s.when(P0, bank_trade(of(Ore, 4), of(Brick, 1)));
    assert_eq!(events, [Event::BankTraded { seat: P0, give: of(Ore, 4), get: of(Brick, 1) }]);
    assert_eq!(s.hand(P0), Resources::new(0, 1, 0, 0, 4));
    assert_eq!(*s.game.bank(), Resources::new(19, 18, 19, 19, 11 + 4));
    // B-TRD-1: only the active player, only in MAIN.
    s.rejects(P1, bank_trade(of(Ore, 4), of(Brick, 1)), "not_your_turn");
}

/// TC-29 [B-TRD-3, B-GEO-10]: a settlement on (0,-2,N), harbour H1 (generic), trades 3:1.
#[test]
fn tc_29_generic_harbour_trades_three_for_one() {
    use Resource::*;
    let mut s = given()
        .settlement(P0, "0,-2,N")
        .give(P0, of(Wool, 3))
        .settlement(P1, "0,1,S")
        .give(P1, of(Wool, 3))
        .main_phase(P0)
        .start();
    s.rejects(P0, bank_trade(of(Wool, 2), of(Grain, 1)), "invalid_bank_rate");
    s.when(P0, bank_trade(of(Wool, 3), of(Grain, 1)));
    assert_eq!(s.hand(P0), of(Grain, 1));
    // P1, without a harbour, cannot do the same on its own turn.
    let s = given().settlement(P1, "0,1,S").give(P1, of(Wool, 3)).main_phase(P1).start();
    s.rejects(P1, bank_trade(of(Wool, 3), of(Grain, 1)), "invalid_bank_rate");
}

/// TC-30 [B-TRD-4]: the wool 2:1 harbour (settlement on (1,-2,N)) trades 2 wool, not 2 ore;
/// 3 ore only with a generic harbour too.
#[test]
fn tc_30_special_harbour_trades_two_for_one_of_its_resource() {
    use Resource::*;
    let mut s = given().settlement(P0, "1,-2,N").give(P0, Resources::new(0, 0, 2, 0, 3)).main_phase(P0).start();
    s.rejects(P0, bank_trade(of(Ore, 2), of(Brick, 1)), "invalid_bank_rate");
    s.rejects(P0, bank_trade(of(Ore, 3), of(Brick, 1)), "invalid_bank_rate");
    s.when(P0, bank_trade(of(Wool, 2), of(Brick, 1)));
    assert_eq!(s.hand(P0), Resources::new(0, 1, 0, 0, 3));

    let mut s = given()
        .settlement(P0, "1,-2,N")
        .settlement(P0, "0,-2,N")
        .give(P0, Resources::new(0, 0, 4, 0, 3))
        .main_phase(P0)
        .start();
    s.rejects(P0, bank_trade(of(Ore, 2), of(Brick, 1)), "invalid_bank_rate");
    s.when(P0, bank_trade(of(Ore, 3), of(Brick, 1)));
    // Batched: 2 wool + 2 wool for two cards, each at the 2:1 rate.
    let batch = bank_trade(of(Wool, 4), Resources::new(1, 0, 0, 1, 0));
    for event in s.game.decide(P0, &batch, &mut s.game.chance()).expect("batched trade") {
        s.game.apply(&event);
    }
    assert_eq!(s.hand(P0), Resources::new(1, 1, 0, 1, 0));
}

/// TC-31 [B-TRD-5]: non-active players cannot trade with each other; P1's offer to the active
/// P0 is accepted and executed.
#[test]
fn tc_31_domestic_trades_include_the_active_player() {
    use Resource::*;
    let mut s = given().give(P0, of(Ore, 1)).give(P1, of(Wool, 1)).give(P2, of(Ore, 1)).main_phase(P0).start();
    s.rejects(P1, offer(of(Wool, 1), of(Ore, 1), Some(vec![P2])), "trade_partner_not_allowed");
    s.rejects(P2, offer(of(Ore, 1), of(Wool, 1), Some(vec![P1])), "trade_partner_not_allowed");
    s.rejects(P1, offer(of(Wool, 1), of(Ore, 1), Some(vec![P0, P2])), "trade_partner_not_allowed");

    let events = s.when(P1, offer(of(Wool, 1), of(Ore, 1), None));
    let [Event::TradeOffered { offer: TradeOffer { id, from, to, .. } }] = events.as_slice() else {
        panic!("{events:?}")
    };
    let (id, from, to) = (*id, *from, to.clone());
    assert_eq!((from, to), (P1, vec![P0]));
    // P2 holds ore but is not a party to it.
    s.rejects(P2, Move::AcceptTrade { offer_id: id }, "not_an_addressee");
    s.when(P0, Move::AcceptTrade { offer_id: id });
    s.rejects(P1, Move::ConfirmTrade { offer_id: id, with: P2 }, "partner_has_not_accepted");
    let events = s.when(P1, Move::ConfirmTrade { offer_id: id, with: P0 });
    assert_eq!(
        events,
        [Event::TradeCompleted {
            offer_id: id,
            from: P1,
            with: P0,
            give: of(Wool, 1),
            get: of(Ore, 1),
            give_commodities: Commodities::NONE,
            get_commodities: Commodities::NONE,
        }]
    );
    assert_eq!(s.hand(P0), of(Wool, 1));
    assert_eq!(s.hand(P1), of(Ore, 1));
    assert_eq!(s.hand(P2), of(Ore, 1));
    assert!(s.game.open_offers().is_empty());
}

/// TC-32 [B-TRD-7, B-TRD-8]: no gifts, no like-for-like.
#[test]
fn tc_32_no_gifts_and_no_like_for_like() {
    use Resource::*;
    let mut s =
        given().give(P0, Resources::new(0, 1, 2, 0, 1)).give(P1, Resources::new(0, 1, 2, 0, 1)).main_phase(P0).start();
    let to_p1 = || Some(vec![P1]);
    s.rejects(P0, offer(of(Brick, 1), Resources::ZERO, to_p1()), "empty_trade_side");
    s.rejects(P0, offer(Resources::ZERO, of(Brick, 1), to_p1()), "empty_trade_side");
    s.rejects(P0, offer(of(Wool, 2), of(Wool, 1), to_p1()), "same_resource_trade");
    s.rejects(P0, offer(Resources::new(0, 0, 1, 0, 1), of(Wool, 1), to_p1()), "same_resource_trade");
    s.rejects(P1, offer(of(Wool, 1), of(Wool, 1), None), "same_resource_trade");
    // A proper offer goes through.
    let events = s.when(P0, offer(of(Wool, 2), of(Brick, 1), to_p1()));
    assert!(matches!(events[0], Event::TradeOffered { .. }));
}

/// TC-33 [B-TRD-6]: no domestic trade before the roll.
#[test]
fn tc_33_no_domestic_trade_before_the_roll() {
    use Resource::*;
    let s = given().give(P0, of(Ore, 1)).give(P1, of(Wool, 1)).turn(P0).start();
    s.rejects(P1, offer(of(Wool, 1), of(Ore, 1), None), "wrong_phase");
    s.rejects(P1, offer(of(Wool, 1), of(Ore, 1), Some(vec![P0])), "wrong_phase");
    s.rejects(P0, offer(of(Ore, 1), of(Wool, 1), Some(vec![P1])), "wrong_phase");
    assert!(s.game.open_offers().is_empty());
}

/// B-TRD-5: a counter-offer answers an offer made to the counterer and, unless other seats
/// are named, goes back to the offer's maker; a seat the offer was not made to cannot counter.
#[test]
fn a_counter_offer_answers_an_offer_made_to_you() {
    use Resource::*;
    let mut s = given().give(P0, of(Ore, 2)).give(P1, of(Wool, 2)).give(P2, of(Grain, 1)).main_phase(P0).start();
    let events = s.when(P0, offer(of(Ore, 1), of(Wool, 2), Some(vec![P1])));
    let [Event::TradeOffered { offer: TradeOffer { id, .. } }] = events.as_slice() else { panic!("{events:?}") };
    let id = *id;
    let counter = |seat_gives: Resources, seat_gets: Resources| Move::OfferTrade {
        give: seat_gives,
        get: seat_gets,
        give_commodities: Commodities::NONE,
        get_commodities: Commodities::NONE,
        to: None,
        counter_to: Some(id),
    };
    s.rejects(P2, counter(of(Grain, 1), of(Ore, 1)), "not_an_addressee");
    s.rejects(P0, counter(of(Ore, 2), of(Wool, 1)), "not_an_addressee");
    let events = s.when(P1, counter(of(Wool, 1), of(Ore, 1)));
    let [Event::TradeOffered { offer }] = events.as_slice() else { panic!("{events:?}") };
    assert_eq!((offer.from, offer.to.clone(), offer.counter_to), (P1, vec![P0], Some(id)));
}

/// B-WIN-4: offers still open when the game is won lapse with it.
#[test]
fn open_offers_lapse_when_the_game_is_won() {
    use Resource::*;
    let mut s = ["0,-2,N", "2,-2,S", "-2,0,N", "-1,2,S"]
        .iter()
        .fold(given(), |setup, vertex| setup.city(P0, vertex))
        .settlement(P0, "1,0,S")
        .give(P0, Resources::new(0, 0, 2, 1, 1))
        .main_phase(P0)
        .start();
    s.when(P0, offer(of(Wool, 1), of(Brick, 1), None));
    assert_eq!(s.game.open_offers().len(), 1);
    let events =
        s.when_with(P0, Move::BuyDevelopmentCard, catan_engine::FixedChance::card(catan_engine::DevCard::VictoryPoint));
    assert!(matches!(events[..], [_, Event::TradesExpired { .. }, Event::GameWon { .. }]), "{events:?}");
    assert!(s.game.open_offers().is_empty());
    assert_eq!(s.game.winner(), Some(P0));
}

/// B-TRD-2/3 (an independent audit's finding): a harbour allows a better rate, it does not
/// forbid 4:1. With a settlement on the generic harbour (0,-2,N) and 4 ore in the main phase,
/// 4 ore for 1 brick is legal and listed, beside 3:1.
#[test]
fn a_generic_harbour_still_allows_four_for_one() {
    use Resource::*;
    let mut s = given().settlement(P0, "0,-2,N").give(P0, of(Ore, 4)).main_phase(P0).start();
    let listed = s.game.legal_moves(P0);
    assert!(listed.contains(&bank_trade(of(Ore, 3), of(Brick, 1))), "3:1 is listed");
    assert!(listed.contains(&bank_trade(of(Ore, 4), of(Brick, 1))), "4:1 is listed too");
    s.when(P0, bank_trade(of(Ore, 4), of(Brick, 1)));
    assert_eq!(s.hand(P0), of(Brick, 1));
}

/// B-TRD-2/4: the wool 2:1 harbour (settlement on (1,-2,N)) with 4 wool: 4:1 is legal and
/// listed, and so are two 2:1 trades at once; 3 wool is no multiple of any rate held.
#[test]
fn a_special_harbour_still_allows_four_for_one() {
    use Resource::*;
    let s = given().settlement(P0, "1,-2,N").give(P0, of(Wool, 4)).main_phase(P0).start();
    assert!(s.game.legal_moves(P0).contains(&bank_trade(of(Wool, 4), of(Brick, 1))), "4:1 is listed");
    assert!(s.game.legal_moves(P0).contains(&bank_trade(of(Wool, 2), of(Brick, 1))), "2:1 is listed");
    s.rejects(P0, bank_trade(of(Wool, 3), of(Brick, 1)), "invalid_bank_rate");
    s.rejects(P0, bank_trade(of(Wool, 4), of(Brick, 3)), "invalid_bank_rate");
    // Batched trades are accepted, though only single trades are listed.
    let events = s.game.decide(P0, &bank_trade(of(Wool, 4), Resources::new(0, 1, 0, 0, 1)), &mut s.game.chance());
    assert!(events.is_ok(), "two 2:1 trades in one move: {events:?}");
}

/// B-TRD-2/3: trades batched in one move may mix the rates held: 7 ore with a generic harbour
/// is one 3:1 and one 4:1 trade (2 cards), never 1 or 3; 5 ore splits into no such trades.
#[test]
fn batched_bank_trades_mix_the_rates_held() {
    use Resource::*;
    let mut s = given().settlement(P0, "0,-2,N").give(P0, of(Ore, 7)).main_phase(P0).start();
    assert!(s.game.legal_moves(P0).contains(&bank_trade(of(Ore, 4), of(Brick, 1))));
    s.rejects(P0, bank_trade(of(Ore, 5), of(Brick, 1)), "invalid_bank_rate");
    s.rejects(P0, bank_trade(of(Ore, 7), of(Brick, 1)), "invalid_bank_rate");
    s.rejects(P0, bank_trade(of(Ore, 7), of(Brick, 3)), "invalid_bank_rate");
    let events = s.game.decide(P0, &bank_trade(of(Ore, 7), Resources::new(0, 1, 0, 1, 0)), &mut s.game.chance());
    assert!(events.is_ok(), "a 3:1 and a 4:1 trade in one move: {events:?}");
    s.when(P0, bank_trade(of(Ore, 4), of(Brick, 1)));
}
