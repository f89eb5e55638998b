//! Cities & Knights domestic trade (RULES.md 8.6, CK-TRD-1): offers between players name
//! commodities too, under the base game's rules for domestic trade (B-TRD-5..8), and the
//! commodities traded are conserved (CK-CMP-1).

use catan_engine::{
    bots::{Bot, HeuristicBot},
    Cards, Commodities, Event, FixedChance, Move, Resource, Resources, Seat, Setup, Track, TradeOffer, Viewer,
};

use super::{cities_knights::ck, support::*};

fn paper(n: u32) -> Commodities {
    Commodities::new(n, 0, 0)
}
fn cloth(n: u32) -> Commodities {
    Commodities::new(0, n, 0)
}
fn coin(n: u32) -> Commodities {
    Commodities::new(0, 0, n)
}
fn of(resource: Resource, n: u32) -> Resources {
    Resources::of(resource, n)
}

/// An offer to everyone naming `give` and `get`, resources and commodities.
fn offer(give: Cards, get: Cards) -> Move {
    Move::OfferTrade {
        give: give.resources,
        get: get.resources,
        give_commodities: give.commodities,
        get_commodities: get.commodities,
        to: None,
        counter_to: None,
    }
}

/// The commodities of all hands and the bank: always the game's 36 (CK-CMP-1).
fn commodities_in_game(s: &Scenario) -> Commodities {
    s.game.seats().fold(*s.game.commodity_bank(), |sum, seat| sum + *s.game.player(seat).unwrap().commodities())
}

/// The resources of all hands and the bank.
fn resources_in_game(s: &Scenario) -> Resources {
    s.game.seats().fold(*s.game.bank(), |sum, seat| sum + *s.game.player(seat).unwrap().resources())
}

/// A Cities & Knights game in P0's main phase, P0 with a city and a road.
fn ck_main(hands: &[(Seat, Resources, Commodities)]) -> Scenario {
    let setup: Setup = given_with(ck(4)).city(P0, "-1,0,S").road(P0, "-1,0,SE");
    hands
        .iter()
        .fold(setup, |setup, &(seat, resources, commodities)| {
            setup.give(seat, resources).with_commodities(seat, commodities)
        })
        .main_phase(P0)
        .start()
}

/// The only offer an `offer_trade` made.
fn offered(events: &[Event]) -> TradeOffer {
    let [Event::TradeOffered { offer }] = events else { panic!("{events:?}") };
    offer.clone()
}

/// CK-TRD-1, B-TRD-5: P0 offers 1 lumber + 2 paper for 1 ore + 1 coin; P1 accepts and P0
/// confirms: both hands change by exactly those cards, nothing else moves, and every
/// resource and commodity is still in the game.
#[test]
fn ck_trd_1_an_offer_naming_commodities_is_accepted_and_executed() {
    let mut s = ck_main(&[(P0, of(Resource::Lumber, 1), paper(2) + cloth(1)), (P1, of(Resource::Ore, 2), coin(1))]);
    let (resources, commodities) = (resources_in_game(&s), commodities_in_game(&s));
    let give = Cards::new(of(Resource::Lumber, 1), paper(2));
    let get = Cards::new(of(Resource::Ore, 1), coin(1));
    let offer = offered(&s.when(P0, offer(give, get)));
    assert_eq!((offer.give_cards(), offer.get_cards()), (give, get));
    assert_eq!(offer.to, vec![P1, P2, P3]);
    // Offers are public: every viewer sees the commodities named, as JSON fields.
    let json = serde_json::to_value(s.game.view(Viewer::Seat(P2))).unwrap();
    assert_eq!(json["trade_offers"][0]["give_commodities"], serde_json::json!({"paper": 2, "cloth": 0, "coin": 0}));
    assert_eq!(json["trade_offers"][0]["get_commodities"]["coin"], 1);
    // An open offer naming commodities is a valid position (it round-trips).
    Setup::from(&s.game).position().expect("the position with the offer");

    // Only P1 holds the coin asked for: P2 cannot accept.
    s.rejects(P2, Move::AcceptTrade { offer_id: offer.id }, "insufficient_resources");
    s.when(P1, Move::AcceptTrade { offer_id: offer.id });
    let confirm = Move::ConfirmTrade { offer_id: offer.id, with: P1 };
    assert!(s.game.legal_moves(P0).contains(&confirm));
    let events = s.when(P0, confirm);
    assert_eq!(
        events,
        [Event::TradeCompleted {
            offer_id: offer.id,
            from: P0,
            with: P1,
            give: of(Resource::Lumber, 1),
            get: of(Resource::Ore, 1),
            give_commodities: paper(2),
            get_commodities: coin(1),
        }]
    );
    assert_eq!(s.game.hand_cards(P0), Cards::new(of(Resource::Ore, 1), cloth(1) + coin(1)));
    assert_eq!(s.game.hand_cards(P1), Cards::new(Resources::new(1, 0, 0, 0, 1), paper(2)));
    assert!(s.game.open_offers().is_empty());
    assert_eq!((resources_in_game(&s), commodities_in_game(&s)), (resources, commodities));
    assert_eq!(commodities, Commodities::each(12));
}

/// CK-TRD-1 with B-TRD-7/8: a side of commodities alone is a side (1 cloth for 1 wool is an
/// offer, and a seat holding only commodities may offer), but a trade still gives something
/// on both sides, and never the same kind both ways; a resource-only offer looks as before.
#[test]
fn ck_trd_1_commodities_follow_the_domestic_trade_rules() {
    let mut s = ck_main(&[(P0, Resources::ZERO, cloth(2)), (P1, of(Resource::Wool, 1), Commodities::NONE)]);
    assert!(s.game.may_offer_trade(P0), "commodities alone are cards to offer");
    let cloth_only = Cards::of_commodities(cloth(1));
    s.rejects(P0, offer(cloth_only, Cards::default()), "empty_trade_side");
    s.rejects(P0, offer(Cards::default(), Cards::of_commodities(coin(1))), "empty_trade_side");
    s.rejects(P0, offer(cloth_only, Cards::new(of(Resource::Wool, 1), cloth(1))), "same_resource_trade");
    let offer_id = offered(&s.when(P0, offer(cloth_only, Cards::of_resources(of(Resource::Wool, 1))))).id;
    s.when(P1, Move::AcceptTrade { offer_id });
    s.when(P0, Move::ConfirmTrade { offer_id, with: P1 });
    assert_eq!(s.game.hand_cards(P0), Cards::new(of(Resource::Wool, 1), cloth(1)));
    assert_eq!(s.game.hand_cards(P1), Cards::of_commodities(cloth(1)));
    // A non-active seat offers commodities to the active player (B-TRD-5).
    let offer_id = offered(&s.when(P1, offer(cloth_only, Cards::of_resources(of(Resource::Wool, 1))))).id;
    assert!(s.game.legal_moves(P0).contains(&Move::AcceptTrade { offer_id }));
    s.when(P1, Move::WithdrawTrade { offer_id });
    // Resource-only offers keep their JSON: no commodity fields in the move, the offer or
    // the completed trade.
    let plain = Move::OfferTrade {
        give: of(Resource::Wool, 1),
        get: of(Resource::Ore, 1),
        give_commodities: Commodities::NONE,
        get_commodities: Commodities::NONE,
        to: None,
        counter_to: None,
    };
    assert!(!serde_json::to_string(&plain).unwrap().contains("commodities"));
    let events = s.when(P0, plain);
    assert!(!serde_json::to_string(&events).unwrap().contains("commodities"), "{events:?}");
}

/// CK-TRD-1, CK-CMP-1: commodities exist only in Cities & Knights; an offer naming them in
/// another game is refused (`not_in_this_game`), and so is a position holding one.
#[test]
fn ck_trd_1_commodities_are_not_traded_in_a_base_game() {
    let s = given().settlement(P0, "-1,0,S").give(P0, of(Resource::Lumber, 2)).main_phase(P0).start();
    let lumber = Cards::of_resources(of(Resource::Lumber, 1));
    s.rejects(P0, offer(lumber, Cards::of_commodities(coin(1))), "not_in_this_game");
    s.rejects(
        P0,
        offer(Cards::new(of(Resource::Lumber, 1), paper(1)), Cards::of_resources(of(Resource::Ore, 1))),
        "not_in_this_game",
    );
    assert!(s
        .game
        .decide(P0, &offer(lumber, Cards::of_resources(of(Resource::Ore, 1))), &mut FixedChance::default())
        .is_ok());
    let with_offer = Setup::from(&s.game).with_offers([TradeOffer {
        id: 1,
        from: P0,
        to: vec![P1],
        give: of(Resource::Lumber, 1),
        get: Resources::ZERO,
        give_commodities: Commodities::NONE,
        get_commodities: coin(1),
        counter_to: None,
        accepted_by: vec![],
        declined_by: vec![],
    }]);
    assert_eq!(with_offer.position().err().map(|e| e.code()), Some("not_in_this_game"));
}

/// B-TRD-5..8 on commodities: the offerer must hold the commodities it gives when it offers,
/// and still hold them when it confirms.
#[test]
fn ck_trd_1_the_giver_must_hold_the_commodities() {
    let mut s = ck_main(&[(P0, Resources::ZERO, paper(1)), (P1, of(Resource::Ore, 1), Commodities::NONE)]);
    let ore = Cards::of_resources(of(Resource::Ore, 1));
    s.rejects(P0, offer(Cards::of_commodities(paper(2)), ore), "insufficient_resources");
    s.rejects(P0, offer(Cards::of_commodities(coin(1)), ore), "insufficient_resources");
    let offer_id = offered(&s.when(P0, offer(Cards::of_commodities(paper(1)), ore))).id;
    s.when(P1, Move::AcceptTrade { offer_id });
    // P0 spends the paper on the science improvement (CK-IMP-2) before confirming.
    s.when(P0, Move::BuildImprovement { track: Track::Science, city: None });
    s.rejects(P0, Move::ConfirmTrade { offer_id, with: P1 }, "insufficient_resources");
    assert_eq!(s.game.hand_cards(P1), ore, "nothing moved");
}

/// B-TRD-5..8 on commodities: an addressee accepts only when it holds the commodities asked
/// for; accepting is then listed and allowed.
#[test]
fn ck_trd_1_the_acceptor_must_hold_the_commodities() {
    let mut s = ck_main(&[
        (P0, of(Resource::Grain, 2), Commodities::NONE),
        (P1, Resources::ZERO, cloth(1)),
        (P2, Resources::ZERO, coin(3)),
    ]);
    let grain = Cards::of_resources(of(Resource::Grain, 1));
    let offer_id = offered(&s.when(P0, offer(grain, Cards::of_commodities(coin(2))))).id;
    s.rejects(P1, Move::AcceptTrade { offer_id }, "insufficient_resources");
    s.when(P1, Move::DeclineTrade { offer_id });
    s.when(P2, Move::AcceptTrade { offer_id });
    s.when(P0, Move::ConfirmTrade { offer_id, with: P2 });
    assert_eq!(s.game.hand_cards(P0), Cards::new(of(Resource::Grain, 1), coin(2)));
    assert_eq!(s.game.hand_cards(P2), Cards::new(of(Resource::Grain, 1), coin(1)));
    assert_eq!(commodities_in_game(&s), Commodities::each(12));
}

/// The heuristic bot, addressed by an offer naming commodities, answers by what its
/// improvements need (CK-TRD-1, CK-IMP-2): two commodities it lacks for a lumber it has
/// plenty of are welcome; giving two cloth for one brick is not.
#[test]
fn the_heuristic_bot_weighs_commodities_in_offers() {
    let answer = |give: Cards, get: Cards, p1: Cards| {
        let mut s = ck_main(&[
            (P0, Resources::new(0, 1, 0, 0, 0), Commodities::new(1, 1, 0)),
            (P1, p1.resources, p1.commodities),
        ]);
        s.when(P0, offer(give, get));
        let moves = s.game.legal_moves(P1);
        let pick = HeuristicBot::new(1).choose(&s.game, P1, &moves);
        moves[pick].clone()
    };
    let welcome = answer(
        Cards::of_commodities(Commodities::new(1, 1, 0)),
        Cards::of_resources(of(Resource::Lumber, 1)),
        Cards::of_resources(of(Resource::Lumber, 4)),
    );
    assert!(matches!(welcome, Move::AcceptTrade { .. }), "{welcome:?}");
    let unwelcome = answer(
        Cards::of_resources(of(Resource::Brick, 1)),
        Cards::of_commodities(cloth(2)),
        Cards::of_commodities(cloth(2)),
    );
    assert!(matches!(unwelcome, Move::DeclineTrade { .. }), "{unwelcome:?}");
}
