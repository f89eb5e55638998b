//! The trade deck's progress cards (RULES.md 8.6.13 CK-PC-7) and the merchant (8.6.14
//! CK-MER-1..3, TC-95), on the beginner board with P0 first: each card's effect, its refusal
//! codes, its timing, the card under its deck (CK-PC-3), what other seats see of the cards
//! that change hands, and `legal_moves` listing exactly the plays `decide` accepts.

use catan_engine::{
    CardDecision, Cards, Commodities, Commodity, Event, Good, HexCoord, Move, Phase, ProgressCard, ProgressCards,
    ProgressPlay, Resource, Resources, Seat, SeatCommodities, SeatResources, Setup, Viewer,
};

use super::cities_knights::ck;
use super::support::*;

/// Progress cards in a seat's hand (they come from the decks).
trait Holds {
    fn holds(self, seat: Seat, cards: &[ProgressCard]) -> Self;
}

impl Holds for Setup {
    fn holds(mut self, seat: Seat, cards: &[ProgressCard]) -> Setup {
        let mut hand = ProgressCards::default();
        for &card in cards {
            *hand.get_mut(card) += 1;
        }
        self.cities_knights.progress.push((seat, hand));
        self
    }
}

fn play(play: ProgressPlay) -> Move {
    Move::PlayProgressCard { play }
}

/// The plays `seat` may make now, in a stable order.
fn plays(s: &Scenario, seat: Seat) -> Vec<Move> {
    sorted(s.game.legal_moves(seat).into_iter().filter(|m| matches!(m, Move::PlayProgressCard { .. })).collect())
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| format!("{m:?}"));
    moves
}

fn cards(resources: Resources, commodities: Commodities) -> Cards {
    Cards::new(resources, commodities)
}

fn wool(n: u32) -> Resources {
    Resources::of(Resource::Wool, n)
}

fn points(s: &Scenario, seat: Seat) -> u32 {
    s.game.victory_points(seat)
}

/// The cards of `card`'s kind left in the decks.
fn in_deck(s: &Scenario, card: ProgressCard) -> u32 {
    s.game.progress_decks().get(card)
}

/// TC-95 [CK-MER-1, CK-MER-2, CK-MER-3]: P0 plays Merchant onto pasture (1,-1) next to its
/// settlement → +1 VP, 2 wool → 1 brick accepted. P1 then plays Merchant → P0 −1 VP and loses
/// the 2:1 rate; P1 holds the point.
#[test]
fn tc_95_the_merchant_gives_two_for_one_and_a_point_until_another_merchant_moves_it() {
    let merchant = ProgressCard::Merchant;
    let mut s = given_with(ck(4))
        .settlement(P0, "0,0,N")
        .road(P0, "0,-1,E")
        .settlement(P1, "-1,0,S")
        .road(P1, "-1,0,SE")
        .give(P0, wool(2))
        .holds(P0, &[merchant])
        .holds(P1, &[merchant])
        .main_phase(P0)
        .start();
    let brick = Resources::of(Resource::Brick, 1);
    s.rejects(P0, Move::TradeWithBank { give: wool(2), get: brick }, "invalid_bank_rate");
    assert_eq!((points(&s, P0), in_deck(&s, merchant)), (1, 4));
    let events = s.when(P0, play(ProgressPlay::Merchant { hex: h("1,-1") }));
    assert_eq!(events[1], Event::MerchantPlaced { seat: P0, hex: h("1,-1"), from_seat: None });
    // CK-PC-3: the card went under its deck.
    assert_eq!((s.game.progress_cards(P0).get(merchant), in_deck(&s, merchant)), (0, 5));
    assert_eq!(points(&s, P0), 2, "CK-MER-3: 1 point for the merchant");
    assert_eq!(s.game.bank_rates(P0).get(Resource::Wool), 2);
    let view = s.game.view(Viewer::Seat(P2)).cities_and_knights.unwrap();
    assert_eq!(view.merchant.map(|m| (m.seat, m.hex)), Some((P0, h("1,-1"))));
    s.when(P0, Move::TradeWithBank { give: wool(2), get: brick });
    assert_eq!(s.hand(P0), brick);

    // P1's turn: its Merchant takes the merchant, the point and the rate.
    let mut s = s.then_given().give(P0, wool(2)).main_phase(P1).start();
    let events = s.when(P1, play(ProgressPlay::Merchant { hex: h("-1,0") }));
    assert_eq!(events[1], Event::MerchantPlaced { seat: P1, hex: h("-1,0"), from_seat: Some(P0) });
    assert_eq!((points(&s, P0), points(&s, P1)), (1, 2));
    assert_eq!(s.game.bank_rates(P1).get(Resource::Lumber), 2);
    let s = s.then_given().main_phase(P0).start();
    assert_eq!(s.game.bank_rates(P0).get(Resource::Wool), 4);
    s.rejects(P0, Move::TradeWithBank { give: wool(2), get: brick }, "invalid_bank_rate");
}

/// CK-MER-1: the merchant stands on a hex producing a resource that touches one of the
/// player's settlements or cities; every such hex is a listed play, and only those.
#[test]
fn ck_mer_1_the_merchant_goes_on_a_producing_hex_beside_your_buildings() {
    let s = given_with(ck(4))
        .settlement(P0, "0,0,N")
        .road(P0, "0,-1,E")
        .holds(P0, &[ProgressCard::Merchant])
        .main_phase(P0)
        .start();
    let merchant = |hex: HexCoord| play(ProgressPlay::Merchant { hex });
    // (0,0,N) touches the desert (0,0), hills (0,-1) and pasture (1,-1).
    assert_eq!(plays(&s, P0), sorted(vec![merchant(h("0,-1")), merchant(h("1,-1"))]));
    s.rejects(P0, merchant(h("0,0")), "merchant_hex_not_producing");
    s.rejects(P0, merchant(h("0,-3")), "merchant_hex_not_producing");
    s.rejects(P0, merchant(h("2,0")), "merchant_hex_not_yours");
    s.rejects(P0, merchant(h("9,9")), "unknown_hex");
    s.rejects(P1, merchant(h("0,-1")), "not_your_turn");
    // Positions hold the merchant only where a Merchant card could have put it.
    let mut setup = s.then_given();
    setup.cities_knights.merchant = Some(catan_engine::Merchant { seat: P0, hex: h("2,0") });
    assert_eq!(setup.position().unwrap_err().code(), "cities_knights_state_inconsistent");
}

/// CK-PC-7 Merchant Fleet: the good named trades with the bank at 2:1 for the rest of the
/// turn — a resource through `trade_with_bank`, a commodity through `trade_cards_with_bank`.
#[test]
fn ck_pc_7_merchant_fleet_trades_its_good_two_to_one_for_the_rest_of_the_turn() {
    let fleet = ProgressCard::MerchantFleet;
    let mut s = given_with(ck(4))
        .settlement(P0, "0,0,N")
        .road(P0, "0,-1,E")
        .give(P0, Resources::of(Resource::Ore, 2))
        .with_commodities(P0, Commodities::of(Commodity::Coin, 2))
        .holds(P0, &[fleet, fleet])
        .main_phase(P0)
        .start();
    let goods = Resource::ALL.map(Good::Resource).into_iter().chain(Commodity::ALL.map(Good::Commodity));
    assert_eq!(plays(&s, P0), sorted(goods.map(|good| play(ProgressPlay::MerchantFleet { good })).collect()));
    let ore_trade =
        Move::TradeWithBank { give: Resources::of(Resource::Ore, 2), get: Resources::of(Resource::Brick, 1) };
    let coin_trade = Move::TradeCardsWithBank {
        give: Cards::of_commodities(Commodities::of(Commodity::Coin, 2)),
        get: Cards::of_resources(Resources::of(Resource::Grain, 1)),
    };
    s.rejects(P0, ore_trade.clone(), "invalid_bank_rate");
    s.rejects(P0, coin_trade.clone(), "invalid_bank_rate");
    s.when(P0, play(ProgressPlay::MerchantFleet { good: Good::Resource(Resource::Ore) }));
    assert_eq!(s.game.bank_rates(P0).get(Resource::Ore), 2);
    // A second fleet for the same good adds nothing: refused and not listed (CK-PC-7).
    s.rejects(P0, play(ProgressPlay::MerchantFleet { good: Good::Resource(Resource::Ore) }), "progress_card_in_force");
    s.when(P0, ore_trade);
    s.when(P0, play(ProgressPlay::MerchantFleet { good: Good::Commodity(Commodity::Coin) }));
    s.when(P0, coin_trade);
    assert_eq!(s.game.hand_cards(P0), cards(Resources::new(0, 1, 0, 1, 0), Commodities::NONE));
    assert_eq!(in_deck(&s, fleet), 2, "CK-PC-3: both under the deck");
    // The turn over, the rates are gone.
    s.when(P0, Move::EndTurn);
    assert_eq!(s.game.bank_rates(P0).get(Resource::Ore), 4);
}

/// CK-PC-7 Resource Monopoly: each opponent gives 2 cards of the resource named, or all it
/// has; one public event says what each gave.
#[test]
fn ck_pc_7_resource_monopoly_takes_two_of_a_resource_from_each_opponent() {
    let grain = |n| Resources::of(Resource::Grain, n);
    let mut s = given_with(ck(4))
        .settlement(P0, "0,0,N")
        .road(P0, "0,-1,E")
        .give(P1, grain(3) + wool(1))
        .give(P2, grain(1))
        .holds(P0, &[ProgressCard::ResourceMonopoly])
        .main_phase(P0)
        .start();
    let all = Resource::ALL.map(|resource| play(ProgressPlay::ResourceMonopoly { resource }));
    assert_eq!(plays(&s, P0), sorted(all.to_vec()));
    let events = s.when(P0, play(ProgressPlay::ResourceMonopoly { resource: Resource::Grain }));
    let taken = vec![
        SeatResources { seat: P1, resources: grain(2) },
        SeatResources { seat: P2, resources: grain(1) },
        SeatResources { seat: P3, resources: grain(0) },
    ];
    let expected = Event::ResourceMonopolyTaken { seat: P0, resource: Resource::Grain, taken: taken.into() };
    assert_eq!(events[1], expected);
    assert_eq!(events[1].redacted_for(Viewer::Seat(P3)), expected, "public");
    assert_eq!((s.hand(P0), s.hand(P1), s.hand(P2)), (grain(3), grain(1) + wool(1), grain(0)));
}

/// CK-PC-7 Trade Monopoly: each opponent holding the commodity named gives 1 of it.
#[test]
fn ck_pc_7_trade_monopoly_takes_one_commodity_from_each_opponent_holding_it() {
    let cloth = |n| Commodities::of(Commodity::Cloth, n);
    let mut s = given_with(ck(4))
        .settlement(P0, "0,0,N")
        .road(P0, "0,-1,E")
        .with_commodities(P1, cloth(2))
        .with_commodities(P3, cloth(1) + Commodities::of(Commodity::Coin, 1))
        .holds(P0, &[ProgressCard::TradeMonopoly])
        .main_phase(P0)
        .start();
    let all = Commodity::ALL.map(|commodity| play(ProgressPlay::TradeMonopoly { commodity }));
    assert_eq!(plays(&s, P0), sorted(all.to_vec()));
    let events = s.when(P0, play(ProgressPlay::TradeMonopoly { commodity: Commodity::Cloth }));
    let taken = vec![
        SeatCommodities { seat: P1, commodities: cloth(1) },
        SeatCommodities { seat: P2, commodities: cloth(0) },
        SeatCommodities { seat: P3, commodities: cloth(1) },
    ];
    assert_eq!(events[1], Event::TradeMonopolyTaken { seat: P0, commodity: Commodity::Cloth, taken: taken.into() });
    let commodities = |seat| s.game.hand_cards(seat).commodities;
    assert_eq!((commodities(P0), commodities(P1)), (cloth(2), cloth(1)));
    assert_eq!(commodities(P3), Commodities::of(Commodity::Coin, 1));
}

/// CK-PC-7 Commercial Harbor: once per opponent this turn, P0 gives 1 resource; an opponent
/// holding commodities gives one of its choice back (at once when it holds one kind), one
/// holding none gives nothing and keeps its cards. The cards are seen by the two seats only.
#[test]
fn ck_pc_7_commercial_harbor_exchanges_a_resource_for_a_commodity_of_the_opponents_choice() {
    let grain = |n| Resources::of(Resource::Grain, n);
    let exchange = |with, resource| Move::CommercialHarborExchange { with, resource };
    let mut s = given_with(ck(4))
        .settlement(P0, "0,0,N")
        .road(P0, "0,-1,E")
        .give(P0, grain(3))
        .with_commodities(P1, Commodities::new(1, 1, 0))
        .with_commodities(P2, Commodities::of(Commodity::Coin, 2))
        .holds(P0, &[ProgressCard::CommercialHarbor, ProgressCard::CommercialHarbor])
        .main_phase(P0)
        .start();
    s.rejects(P0, exchange(P1, Resource::Grain), "commercial_harbor_not_played");
    assert_eq!(plays(&s, P0), vec![play(ProgressPlay::CommercialHarbor)]);
    s.when(P0, play(ProgressPlay::CommercialHarbor));
    // One harbour a turn: a second would add nothing (CK-PC-7).
    s.rejects(P0, play(ProgressPlay::CommercialHarbor), "progress_card_in_force");
    let listed: Vec<Move> =
        s.game.legal_moves(P0).into_iter().filter(|m| matches!(m, Move::CommercialHarborExchange { .. })).collect();
    assert_eq!(
        listed,
        vec![exchange(P1, Resource::Grain), exchange(P2, Resource::Grain), exchange(P3, Resource::Grain)]
    );
    s.rejects(P0, exchange(P0, Resource::Grain), "trade_partner_not_allowed");
    s.rejects(P0, exchange(P1, Resource::Ore), "insufficient_resources");
    s.rejects(P1, exchange(P2, Resource::Grain), "not_your_turn");

    // P2 holds one kind: its coin comes back at once.
    let events = s.when(P0, exchange(P2, Resource::Grain));
    let offered = Event::CommercialHarborOffered { seat: P0, with: P2, resource: Some(Resource::Grain) };
    let answered = Event::CommercialHarborAnswered { seat: P2, to: P0, commodity: Some(Commodity::Coin) };
    assert_eq!(events, vec![offered.clone(), answered.clone()]);
    assert_eq!(offered.redacted_for(Viewer::Seat(P2)), offered);
    assert_eq!(answered.redacted_for(Viewer::Seat(P0)), answered);
    assert_eq!(
        offered.redacted_for(Viewer::Seat(P3)),
        Event::CommercialHarborOffered { seat: P0, with: P2, resource: None }
    );
    assert_eq!(
        answered.redacted_for(Viewer::Spectator),
        Event::CommercialHarborAnswered { seat: P2, to: P0, commodity: None }
    );
    assert_eq!(s.game.hand_cards(P0), cards(grain(2), Commodities::of(Commodity::Coin, 1)));
    assert_eq!(s.game.hand_cards(P2), cards(grain(1), Commodities::of(Commodity::Coin, 1)));
    s.rejects(P0, exchange(P2, Resource::Grain), "already_exchanged_with");

    // P3 holds no commodity: nothing changes hands, and P3 was offered its exchange.
    let events = s.when(P0, exchange(P3, Resource::Grain));
    assert_eq!(events, vec![Event::CommercialHarborDeclined { seat: P0, with: P3 }]);
    assert_eq!((s.hand(P0), s.hand(P3)), (grain(2), Resources::ZERO));
    s.rejects(P0, exchange(P3, Resource::Grain), "already_exchanged_with");

    // P1 holds paper and cloth: it chooses.
    let events = s.when(P0, exchange(P1, Resource::Grain));
    let decision = CardDecision::GiveCommodity { seat: P1, to: P0 };
    assert_eq!(s.game.phase(), &Phase::CardDecision { decision });
    assert_eq!(events[0], Event::CommercialHarborOffered { seat: P0, with: P1, resource: Some(Resource::Grain) });
    let give = |commodity| Move::GiveCommodity { commodity };
    assert_eq!(s.game.legal_moves(P1), vec![give(Commodity::Paper), give(Commodity::Cloth)]);
    assert!(s.game.legal_moves(P0).is_empty());
    s.rejects(P1, give(Commodity::Coin), "cards_not_in_hand");
    s.rejects(P0, give(Commodity::Coin), "nothing_to_decide");
    s.rejects(P0, Move::EndTurn, "nothing_to_decide");
    s.rejects(P1, Move::TakeCards { cards: cards(grain(1), Commodities::NONE) }, "wrong_phase");
    let events = s.when(P1, give(Commodity::Cloth));
    assert_eq!(
        events[0].redacted_for(Viewer::Seat(P2)),
        Event::CommercialHarborAnswered { seat: P1, to: P0, commodity: None }
    );
    assert_eq!(s.game.phase(), &Phase::Main);
    assert_eq!(s.game.hand_cards(P0), cards(grain(1), Commodities::new(0, 1, 1)));
    assert_eq!(s.game.hand_cards(P1), cards(grain(1), Commodities::new(1, 0, 0)));
    assert!(s.game.legal_moves(P0).iter().all(|m| !matches!(m, Move::CommercialHarborExchange { .. })));
    s.rejects(P0, exchange(P1, Resource::Grain), "already_exchanged_with");
}

/// CK-PC-7 Master Merchant: P0 names a seat with more points, sees its resources and
/// commodities (the two seats alone), and takes any 2 of them.
#[test]
fn ck_pc_7_master_merchant_takes_two_cards_of_a_seat_with_more_points() {
    let given = |p1_hand: Cards| {
        given_with(ck(4))
            .settlement(P0, "0,0,N")
            .road(P0, "0,-1,E")
            .city(P1, "-1,0,S")
            .road(P1, "-1,0,SE")
            .settlement(P2, "2,0,S")
            .road(P2, "2,0,SE")
            .give(P1, p1_hand.resources)
            .with_commodities(P1, p1_hand.commodities)
            .holds(P0, &[ProgressCard::MasterMerchant])
            .main_phase(P0)
            .start()
    };
    let ore = Resources::of(Resource::Ore, 1);
    let cloth = |n| Commodities::of(Commodity::Cloth, n);
    let hand = cards(ore + wool(1), cloth(2));
    let mut s = given(hand);
    // P1 has 2 points; P2 as many as P0 (1), P3 none.
    assert_eq!(plays(&s, P0), vec![play(ProgressPlay::MasterMerchant { target: P1 })]);
    s.rejects(P0, play(ProgressPlay::MasterMerchant { target: P2 }), "target_not_ahead");
    s.rejects(P0, play(ProgressPlay::MasterMerchant { target: P0 }), "target_not_ahead");
    s.rejects(P0, play(ProgressPlay::MasterMerchant { target: Seat(7) }), "unknown_seat");
    let events = s.when(P0, play(ProgressPlay::MasterMerchant { target: P1 }));
    let shown = Event::HandShown { seat: P0, target: P1, cards: Some(hand) };
    assert_eq!(events[1], shown);
    assert_eq!(shown.redacted_for(Viewer::Seat(P1)), shown);
    assert_eq!(shown.redacted_for(Viewer::Seat(P2)), Event::HandShown { seat: P0, target: P1, cards: None });
    let decision = CardDecision::TakeCards { seat: P0, from: P1, count: 2 };
    assert_eq!(s.game.phase(), &Phase::CardDecision { decision });
    let take = |resources, commodities| Move::TakeCards { cards: cards(resources, commodities) };
    let choices = vec![
        take(ore + wool(1), Commodities::NONE),
        take(ore, cloth(1)),
        take(wool(1), cloth(1)),
        take(Resources::ZERO, cloth(2)),
    ];
    assert_eq!(sorted(s.game.legal_moves(P0)), sorted(choices));
    assert!(s.game.legal_moves(P1).is_empty());
    s.rejects(P0, take(ore + wool(1), cloth(1)), "wrong_take_count");
    s.rejects(P0, take(Resources::of(Resource::Ore, 2), Commodities::NONE), "cards_not_in_hand");
    s.rejects(P1, take(ore, cloth(1)), "nothing_to_decide");
    let events = s.when(P0, take(ore, cloth(1)));
    let taken = Event::CardsTaken { seat: P0, from: P1, count: 2, cards: Some(cards(ore, cloth(1))) };
    assert_eq!(events[0], taken);
    assert_eq!(events[0].redacted_for(Viewer::Seat(P1)), taken);
    assert_eq!(
        events[0].redacted_for(Viewer::Seat(P3)),
        Event::CardsTaken { seat: P0, from: P1, count: 2, cards: None }
    );
    assert_eq!(s.game.phase(), &Phase::Main);
    assert_eq!((s.game.hand_cards(P0), s.game.hand_cards(P1)), (cards(ore, cloth(1)), cards(wool(1), cloth(1))));

    // Two cards or fewer: all are taken at once.
    let mut s = given(cards(ore, cloth(1)));
    let events = s.when(P0, play(ProgressPlay::MasterMerchant { target: P1 }));
    assert_eq!(events[2], Event::CardsTaken { seat: P0, from: P1, count: 2, cards: Some(cards(ore, cloth(1))) });
    assert_eq!((s.game.phase(), s.game.hand_cards(P1).total()), (&Phase::Main, 0));
    s.rejects(P0, take(ore, cloth(1)), "nothing_to_decide");
}

/// CK-PC-2: trade cards are played in the player's own main phase, not before the roll, and
/// not by another seat.
#[test]
fn ck_pc_2_trade_cards_are_played_in_the_main_phase_only() {
    let deck = [
        ProgressCard::CommercialHarbor,
        ProgressCard::MasterMerchant,
        ProgressCard::Merchant,
        ProgressCard::MerchantFleet,
        ProgressCard::ResourceMonopoly,
        ProgressCard::TradeMonopoly,
    ];
    let given = given_with(ck(4)).settlement(P0, "0,0,N").road(P0, "0,-1,E").city(P1, "-1,0,S").road(P1, "-1,0,SE");
    let every = [
        ProgressPlay::CommercialHarbor,
        ProgressPlay::MasterMerchant { target: P1 },
        ProgressPlay::Merchant { hex: h("1,-1") },
        ProgressPlay::MerchantFleet { good: Good::Resource(Resource::Ore) },
        ProgressPlay::ResourceMonopoly { resource: Resource::Ore },
        ProgressPlay::TradeMonopoly { commodity: Commodity::Coin },
    ];
    for (card, p) in deck.into_iter().zip(every) {
        assert_eq!(p.card(), card);
        let before_roll = given.clone().holds(P0, &[card]).turn(P0).start();
        before_roll.rejects(P0, play(p.clone()), "progress_card_timing");
        let main = given.clone().holds(P0, &[card]).main_phase(P0).start();
        assert!(main.game.legal_moves(P0).contains(&play(p.clone())), "{p:?} is listed in the main phase");
        main.rejects(P1, play(p), "not_your_turn");
    }
}
