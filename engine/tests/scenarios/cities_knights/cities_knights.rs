//! 9.12 Cities & Knights: TC-71 .. TC-91 and the rules of RULES.md 8.6 they cite, on the
//! beginner board with P0 first, unless a test says otherwise.

use catan_engine::{
    Bandit, Cards, Commodities, Commodity, Draw, Event, EventFace, FixedChance, GameConfig, Move, PendingDiscard,
    Phase, ProgressCard, Resource, Resources, SeatCommodities, Track, Viewer, EVENT_DIE,
};

use super::support::*;

/// A 4-player Cities & Knights game on the beginner board, P0 first.
pub fn ck(players: u8) -> GameConfig {
    let mut config = config(players);
    config.enable_variants("cities_and_knights").expect("variant");
    config
}

/// Chance that rolls `face` on the event die and `red`, `white` on the number dice.
pub fn roll(face: EventFace, red: u8, white: u8) -> FixedChance {
    FixedChance::dice(red, white).then(EVENT_DIE, face.index())
}

/// P1..P3 place on fixed vertices far from P0's (round 2: cities).
fn others_place(s: &mut Scenario, round: usize) {
    let (seats, vertices) = if round == 1 {
        ([P1, P2, P3], ["2,-1,N", "2,0,S", "0,2,N"])
    } else {
        ([P3, P2, P1], ["-2,2,S", "-2,0,N", "-1,1,S"])
    };
    for (seat, vertex) in seats.into_iter().zip(vertices) {
        let piece = if round == 1 {
            Move::BuildSettlement { vertex: v(vertex) }
        } else {
            Move::BuildCity { vertex: v(vertex) }
        };
        s.when(seat, piece);
        let road = s.game.legal_moves(seat)[0].clone();
        s.when(seat, road);
    }
}

/// The whole setup: P0 settles (-1,0,S) and places its city on `city`; returns the game
/// before P0's last road and the events of the city.
fn setup_to_p0_city(city: &str) -> (Scenario, Vec<Event>) {
    let mut s = Scenario::with(ck(4));
    s.when(P0, Move::BuildSettlement { vertex: v("-1,0,S") });
    s.when(P0, Move::BuildRoad { edge: e("-1,0,SE") });
    others_place(&mut s, 1);
    others_place(&mut s, 2);
    let events = s.when(P0, Move::BuildCity { vertex: v(city) });
    (s, events)
}

/// CK-GEN-1, CK-GEN-2: 13 points to win, no development cards to buy.
#[test]
fn ck_gen_thirteen_points_and_no_development_cards() {
    let s = Scenario::with(ck(4));
    assert_eq!(s.game.vp_target(), 13);
    assert_eq!(s.game.config().variant_name(), "cities_and_knights");
    assert_eq!(s.game.development_deck().total(), 0);
    let s = given_with(ck(4))
        .settlement(P0, "0,-1,N")
        .road(P0, "0,-1,NE")
        .give(P0, Resources::new(0, 0, 1, 1, 1))
        .main_phase(P0)
        .start();
    s.rejects(P0, Move::BuyDevelopmentCard, "not_in_this_game");
    assert!(!s.game.legal_moves(P0).iter().any(|m| matches!(m, Move::BuyDevelopmentCard)));
}

/// TC-71 [CK-SET-1, CK-SET-2]: round-2 placement puts a city (not a settlement) at (0,-1,N) →
/// P0 receives 1 brick, 1 ore, 1 wool (no commodities); the city counts 2 VP.
#[test]
fn tc_71_the_second_setup_piece_is_a_city_with_starting_resources() {
    let (mut s, events) = setup_to_p0_city("0,-1,N");
    assert_eq!(events[0], Event::CityBuilt { seat: P0, vertex: v("0,-1,N"), cost: Resources::ZERO });
    assert!(events.contains(&Event::StartingResourcesReceived { seat: P0, resources: Resources::new(0, 1, 1, 0, 1) }));
    assert_eq!(s.hand(P0), Resources::new(0, 1, 1, 0, 1));
    assert_eq!(s.game.building_at(v("0,-1,N")).map(|b| b.kind), Some(catan_engine::BuildingKind::City));
    let player = s.game.player(P0).unwrap();
    // One settlement and one city on the board; the city took no settlement piece back.
    assert_eq!((player.settlements_on_board(), player.cities_on_board()), (1, 1));
    assert_eq!((player.pieces_left().settlements, player.pieces_left().cities), (4, 3));
    assert_eq!(s.game.public_victory_points(P0), 3);
    let road = s.game.legal_moves(P0)[0].clone();
    s.when(P0, road);
    assert_eq!(*s.game.phase(), Phase::PreRoll);
}

/// CK-SET-1: the first setup piece is a settlement and the second a city; the other piece is
/// refused and not listed.
#[test]
fn ck_set_1_setup_pieces_are_a_settlement_then_a_city() {
    let mut s = Scenario::with(ck(4));
    s.rejects(P0, Move::BuildCity { vertex: v("-1,0,S") }, "wrong_phase");
    assert!(s.game.legal_moves(P0).iter().all(|m| matches!(m, Move::BuildSettlement { .. })));
    s.when(P0, Move::BuildSettlement { vertex: v("-1,0,S") });
    s.when(P0, Move::BuildRoad { edge: e("-1,0,SE") });
    others_place(&mut s, 1);
    s.rejects(P3, Move::BuildSettlement { vertex: v("-2,2,S") }, "wrong_phase");
    assert!(s.game.legal_moves(P3).iter().all(|m| matches!(m, Move::BuildCity { .. })));
    // The distance rule holds for the city as for a settlement (B-SET-4).
    s.rejects(P3, Move::BuildCity { vertex: v("2,-1,N") }, "vertex_occupied");
}

/// CK-TURN-2/3: one roll throws all three dice, recorded in the events in order: the event
/// die first (a ship advances the barbarians, CK-BAR-2), then the number dice and their
/// production. A gate moves no ship.
#[test]
fn ck_turn_3_the_event_die_is_resolved_before_the_number_dice() {
    let mut s = given_with(ck(4)).city(P0, "0,-1,N").road(P0, "0,-1,NE").turn(P0).start();
    // (0,-1) is a hills 4... whatever the hexes, the order is what counts here.
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 2, 3));
    assert_eq!(events[0], Event::EventDieRolled { seat: P0, face: EventFace::Ship });
    assert_eq!(events[1], Event::DiceRolled { seat: P0, red: 2, white: 3 });
    assert_eq!(events[2], Event::BarbariansAdvanced { position: 1 });
    assert!(matches!(events[3], Event::ResourcesProduced { roll: 5, .. }));
    assert_eq!(s.game.barbarian_position(), 1);
    assert_eq!(*s.game.phase(), Phase::Main);

    let mut s = s.then_given().turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Politics, 2, 3));
    assert_eq!(events[0], Event::EventDieRolled { seat: P0, face: EventFace::Politics });
    assert!(!events.iter().any(|e| matches!(e, Event::BarbariansAdvanced { .. })));
    assert_eq!(s.game.barbarian_position(), 1);
}

/// TC-74 [CK-BAR-10] (the robber's part): a first 7 before any barbarian attack: discards
/// happen, the robber stays on the desert and nobody is robbed; the turn goes on.
#[test]
fn tc_74_before_the_first_attack_a_seven_does_not_move_the_robber() {
    let mut s = given_with(ck(4))
        .city(P0, "0,-1,N")
        .road(P0, "0,-1,NE")
        .give(P1, Resources::new(2, 2, 2, 2, 0))
        .turn(P0)
        .start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 3, 4));
    assert_eq!(
        events.last(),
        Some(&Event::PhaseChanged {
            phase: Phase::Discard { pending: vec![PendingDiscard { seat: P1, count: 4 }].into() },
            then: vec![Phase::Main].into()
        })
    );
    s.when(P1, Move::Discard { resources: Resources::new(2, 2, 0, 0, 0) });
    assert_eq!(*s.game.phase(), Phase::Main);
    assert_eq!(s.game.robber_hex(), Some(h("0,0")));
    s.rejects(P0, Move::MoveRobber { hex: h("1,-1"), steal_from: None }, "wrong_phase");
}

fn paper(n: u32) -> Commodities {
    Commodities::of(Commodity::Paper, n)
}
fn cloth(n: u32) -> Commodities {
    Commodities::of(Commodity::Cloth, n)
}

/// The commodities of all hands and the bank: always the game's 36 (CK-CMP-1).
fn commodities_in_game(s: &Scenario) -> Commodities {
    s.game.seats().fold(*s.game.commodity_bank(), |sum, seat| sum + *s.game.player(seat).unwrap().commodities())
}

/// TC-72 [CK-PROD-2]: roll 11 (forest (-1,0)) with P0's city at (-1,0,S) → +1 lumber +1
/// paper; roll 3 (mountains (-1,1)) → +1 ore +1 coin; a city on fields 9 on a 9 → +2 grain.
#[test]
fn tc_72_cities_take_a_commodity_from_forest_pasture_and_mountains() {
    let given =
        || given_with(ck(4)).city(P0, "-1,0,S").road(P0, "-1,0,SE").city(P1, "-2,0,N").road(P1, "-2,0,NE").turn(P0);
    let mut s = given().start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 5, 6));
    assert!(events.contains(&Event::ResourcesProduced {
        roll: 11,
        gains: vec![catan_engine::SeatResources { seat: P0, resources: Resources::new(1, 0, 0, 0, 0) }].into(),
        shortages: vec![].into(),
        discoveries: vec![].into(),
    }));
    let produced = Event::CommoditiesProduced {
        roll: 11,
        gains: vec![SeatCommodities { seat: P0, commodities: paper(1) }].into(),
        shortages: vec![].into(),
    };
    assert!(events.contains(&produced));
    assert_eq!(s.hand(P0), Resources::new(1, 0, 0, 0, 0));
    assert_eq!(*s.game.player(P0).unwrap().commodities(), paper(1));
    assert_eq!(*s.game.commodity_bank(), Commodities::new(11, 12, 12));

    let mut s = given().start();
    s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 1, 2));
    assert_eq!(s.hand(P0), Resources::new(0, 0, 0, 0, 1));
    assert_eq!(*s.game.player(P0).unwrap().commodities(), Commodities::new(0, 0, 1));

    // Fields give a city two grain and no commodity.
    let mut s = given().start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 4, 5));
    assert_eq!(s.hand(P1), Resources::new(0, 0, 0, 2, 0));
    assert!(s.game.player(P1).unwrap().commodities().is_empty());
    assert!(!events.iter().any(|e| matches!(e, Event::CommoditiesProduced { .. })));
}

/// CK-PROD-3, CK-PROD-4: the robber's hex yields no commodity; when the bank cannot pay
/// every claimant of a kind, none of them gets it (a single claimant takes what is left).
#[test]
fn ck_prod_the_robber_and_the_bank_limit_commodities() {
    let mut s = given_with(ck(4)).city(P0, "-1,0,S").road(P0, "-1,0,SE").robber("-1,0").turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 5, 6));
    assert!(!events.iter().any(|e| matches!(e, Event::CommoditiesProduced { .. })));
    assert!(s.game.player(P0).unwrap().commodities().is_empty());

    // Forest 8 at (-2,1) touches P0's city (-1,0,S) and P1's city (-2,1,S); the bank holds one paper.
    let mut s = given_with(ck(4))
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .city(P1, "-2,1,S")
        .road(P1, "-2,1,SE")
        .with_commodities(P2, paper(11))
        .turn(P0)
        .start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 4, 4));
    assert!(events.contains(&Event::CommoditiesProduced {
        roll: 8,
        gains: vec![].into(),
        shortages: vec![Commodity::Paper].into()
    }));
    assert_eq!(commodities_in_game(&s), Commodities::each(12));
}

/// TC-73 [CK-7-1, CK-WALL-2]: roll 7: P1 with 2 walls and 11 cards keeps them; with 12 it
/// discards 6. P2 without walls and 8 cards (5 resources + 3 commodities) discards 4,
/// commodities included.
#[test]
fn tc_73_the_hand_limit_counts_commodities_and_walls() {
    let given = |p1_cards: u32| {
        let mut setup = given_with(ck(4))
            .city(P0, "-1,0,S")
            .road(P0, "-1,0,SE")
            .city(P1, "1,-1,N")
            .road(P1, "1,-1,NE")
            .city(P1, "1,1,S")
            .road(P1, "1,1,SE")
            .settlement(P2, "-2,2,S")
            .road(P2, "-2,2,SE")
            .give(P1, Resources::new(3, 3, 3, 2, 0))
            .with_commodities(P1, cloth(p1_cards - 11))
            .give(P2, Resources::new(1, 1, 1, 1, 1))
            .with_commodities(P2, Commodities::new(1, 1, 1))
            .turn(P0);
        setup.cities_knights.walls = vec![v("1,-1,N"), v("1,1,S")];
        setup.start()
    };
    let mut s = given(11);
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 3, 4));
    assert_eq!(
        events.last(),
        Some(&Event::PhaseChanged {
            phase: Phase::Discard { pending: vec![PendingDiscard { seat: P2, count: 4 }].into() },
            then: vec![Phase::Main].into()
        })
    );
    // P2 may discard commodities (the base game's discard names resources only).
    let cards = Cards::new(Resources::new(1, 1, 0, 0, 0), Commodities::new(1, 1, 0));
    s.rejects(
        P2,
        Move::DiscardCards { cards: Cards::of_commodities(Commodities::new(1, 1, 1)) },
        "wrong_discard_count",
    );
    // Resources alone go by the base game's `discard` (CK-7-1): one move for one discard.
    s.rejects(
        P2,
        Move::DiscardCards { cards: Cards::of_resources(Resources::new(1, 1, 1, 1, 0)) },
        "no_commodity_named",
    );
    s.rejects(
        P2,
        Move::DiscardCards { cards: Cards::of_commodities(Commodities::new(4, 0, 0)) },
        "insufficient_resources",
    );
    s.rejects(P0, Move::DiscardCards { cards }, "nothing_to_decide");
    let events = s.when(P2, Move::DiscardCards { cards });
    assert_eq!(events[0], Event::CardsDiscarded { seat: P2, count: 4, cards: Some(cards) });
    assert_eq!(events[0].redacted_for(Viewer::Seat(P1)), Event::CardsDiscarded { seat: P2, count: 4, cards: None });
    assert_eq!(s.game.hand_cards(P2), Cards::new(Resources::new(0, 0, 1, 1, 1), Commodities::new(0, 0, 1)));
    assert_eq!(*s.game.phase(), Phase::Main);
    assert_eq!(commodities_in_game(&s), Commodities::each(12));

    let mut s = given(12);
    s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 3, 4));
    let Phase::Discard { pending } = s.game.phase().clone() else { panic!("no discard") };
    assert_eq!(pending, vec![PendingDiscard { seat: P1, count: 6 }, PendingDiscard { seat: P2, count: 4 }]);
    assert_eq!(s.game.waiting_for(), vec![P1, P2]);
}

/// CK-7-2: after the first attack the robber moves on a 7 and steals one card drawn from the
/// victim's resources and commodities; a seat holding only commodities can be robbed. Which
/// card is hidden from the other seats.
#[test]
fn ck_7_2_the_robber_steals_commodities_too() {
    let mut s = given_with(ck(4))
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .city(P1, "1,-1,N")
        .road(P1, "1,-1,NE")
        .with_commodities(P1, cloth(2))
        .with_barbarians(0, 1)
        .turn(P0)
        .start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 3, 4));
    assert_eq!(events.last(), Some(&Event::PhaseChanged { phase: Phase::MoveRobber, then: vec![Phase::Main].into() }));
    s.rejects(P0, Move::MoveRobber { hex: h("1,-1"), steal_from: None }, "victim_required");
    let steal = FixedChance::default().then(Draw::STOLEN_CARD, 5 + Commodity::Cloth as usize);
    let events = s.when_with(P0, Move::MoveRobber { hex: h("1,-1"), steal_from: Some(P1) }, steal);
    let stolen = Event::CommodityStolen { thief: P0, victim: P1, commodity: Some(Commodity::Cloth) };
    assert_eq!(events[1], stolen);
    assert_eq!(
        stolen.redacted_for(Viewer::Seat(P2)),
        Event::CommodityStolen { thief: P0, victim: P1, commodity: None }
    );
    assert_eq!(stolen.redacted_for(Viewer::Seat(P1)), stolen);
    assert_eq!(*s.game.player(P0).unwrap().commodities(), cloth(1));
    assert_eq!(*s.game.player(P1).unwrap().commodities(), cloth(1));
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// CK-TRD-1: commodities go to the bank 4:1 for any resource or commodity, and resources
/// 4:1 for a commodity; the cards given are identical.
#[test]
fn ck_trd_1_commodities_trade_with_the_bank() {
    let trade = |give: Cards, get: Cards| Move::TradeCardsWithBank { give, get };
    let mut s = given_with(ck(4))
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .give(P0, Resources::new(4, 0, 0, 0, 0))
        .with_commodities(P0, Commodities::new(1, 5, 0))
        .main_phase(P0)
        .start();
    let ore = Cards::of_resources(Resources::of(Resource::Ore, 1));
    s.rejects(P0, trade(Cards::of_commodities(cloth(3)), ore), "invalid_bank_rate");
    s.rejects(P0, trade(Cards::of_commodities(Commodities::new(1, 3, 0)), ore), "invalid_bank_rate");
    s.rejects(P0, trade(Cards::of_commodities(cloth(4)), Cards::of_commodities(cloth(1))), "same_resource_trade");
    s.rejects(P1, trade(Cards::of_commodities(cloth(4)), ore), "not_your_turn");
    // Resources alone are the base game's `trade_with_bank`: one move per trade, so that
    // `legal_moves` lists every trade `decide` accepts.
    s.rejects(P0, trade(Cards::of_resources(Resources::new(4, 0, 0, 0, 0)), ore), "no_commodity_named");
    s.when(P0, trade(Cards::of_commodities(cloth(4)), ore));
    assert_eq!(s.game.hand_cards(P0), Cards::new(Resources::new(4, 0, 0, 0, 1), Commodities::new(1, 1, 0)));
    s.when(
        P0,
        trade(Cards::of_resources(Resources::new(4, 0, 0, 0, 0)), Cards::of_commodities(Commodities::new(0, 0, 1))),
    );
    assert_eq!(s.game.hand_cards(P0), Cards::new(Resources::new(0, 0, 0, 0, 1), Commodities::new(1, 1, 1)));
    assert_eq!(commodities_in_game(&s), Commodities::each(12));
    assert_eq!(*s.game.bank(), Resources::new(23, 19, 19, 19, 18) - Resources::new(4, 0, 0, 0, 0));
}

/// TC-93 [CK-TRD-2, CK-IMP-5]: P0 with Trade 3 trades 2 cloth for 1 ore; P1 with Trade 2
/// may not (4 cloth for 1 ore at the bank is still fine).
#[test]
fn tc_93_trade_level_three_trades_commodities_two_to_one() {
    let trade = |n: u32| Move::TradeCardsWithBank {
        give: Cards::of_commodities(cloth(n)),
        get: Cards::of_resources(Resources::of(Resource::Ore, 1)),
    };
    let given = |seat, level| {
        given_with(ck(4))
            .city(seat, "-1,0,S")
            .road(seat, "-1,0,SE")
            .with_commodities(seat, cloth(4))
            .with_improvements(seat, [level, 0, 0])
            .main_phase(seat)
            .start()
    };
    let mut s = given(P0, 3);
    s.when(P0, trade(2));
    assert_eq!(*s.game.player(P0).unwrap().commodities(), cloth(2));
    let mut s = given(P1, 2);
    s.rejects(P1, trade(2), "invalid_bank_rate");
    s.when(P1, trade(4));
}

/// CK-CMP-1, CK-PC-6 (hidden hands): other seats see how many commodities a seat holds, not
/// which; the seat itself sees its own.
#[test]
fn ck_cmp_1_views_hide_other_seats_commodities() {
    let s = given_with(ck(4))
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .with_commodities(P0, Commodities::new(1, 2, 0))
        .main_phase(P0)
        .start();
    let theirs = s.game.view(Viewer::Seat(P1));
    assert_eq!(theirs.players[0].commodity_count, Some(3));
    assert_eq!(theirs.players[0].commodities, None);
    assert_eq!(theirs.hand.unwrap().commodities, Some(Commodities::NONE));
    assert_eq!(theirs.commodity_bank, Some(Commodities::new(11, 10, 12)));
    let own = s.game.view(Viewer::Seat(P0));
    assert_eq!(own.hand.unwrap().commodities, Some(Commodities::new(1, 2, 0)));
    let json = serde_json::to_value(s.game.view(Viewer::Seat(P1))).unwrap();
    assert!(json["hand"]["commodities"].is_object());
    // Base games show no commodity fields at all.
    let base = given().main_phase(P0).start().game.view(Viewer::Seat(P0));
    assert_eq!((base.players[0].commodity_count, base.commodity_bank), (None, None));
}

fn coin(n: u32) -> Commodities {
    Commodities::of(Commodity::Coin, n)
}

/// TC-82 [CK-IMP-2, CK-IMP-3]: P0 with a city builds Trade 1 (1 cloth) and Trade 2 (2 cloth)
/// in one turn; Trade 3 needs 3 cloth. Levels come in order: a move builds the next level,
/// up to 5 (level 4 brings the metropolis, TC-84). P1 with only settlements may not build
/// Science 1.
#[test]
fn tc_82_improvements_cost_their_level_in_commodities_and_need_a_city() {
    let build = |track| Move::BuildImprovement { track, city: None };
    let mut s = given_with(ck(4))
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .settlement(P1, "1,-1,N")
        .road(P1, "1,-1,NE")
        .with_commodities(P0, cloth(5))
        .with_commodities(P1, paper(1))
        .main_phase(P0)
        .start();
    let events = s.when(P0, build(Track::Trade));
    assert_eq!(events, vec![Event::ImprovementBuilt { seat: P0, track: Track::Trade, level: 1, cost: cloth(1) }]);
    s.when(P0, build(Track::Trade));
    assert_eq!(s.game.improvement_level(P0, Track::Trade), 2);
    assert_eq!(*s.game.player(P0).unwrap().commodities(), cloth(2));
    s.rejects(P0, build(Track::Trade), "insufficient_resources");
    s.rejects(P0, build(Track::Science), "insufficient_resources");
    assert_eq!(commodities_in_game(&s), Commodities::each(12));
    s.rejects(P1, build(Track::Science), "not_your_turn");

    let s = s.then_given().main_phase(P1).start();
    s.rejects(P1, build(Track::Science), "city_required");

    // Levels 4 and 5 are built and recorded; there is no sixth. Level 4 is the first: it puts
    // the metropolis on P0's city (CK-MET-1), level 5 of its own metropolis' track needs no
    // other city (CK-IMP-4).
    let mut s = given_with(ck(4))
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .with_commodities(P0, coin(9))
        .with_improvements(P0, [0, 3, 0])
        .main_phase(P0)
        .start();
    s.when(P0, Move::BuildImprovement { track: Track::Politics, city: Some(v("-1,0,S")) });
    s.when(P0, build(Track::Politics));
    assert_eq!(s.game.improvement_level(P0, Track::Politics), 5);
    s.rejects(P0, build(Track::Politics), "track_complete");
    // Before the roll nothing is built.
    let s = s.then_given().turn(P0).start();
    s.rejects(P0, build(Track::Trade), "must_roll_first");
}

/// TC-83 [CK-IMP-6, CK-EVT-2]: P1 at Politics 2: a blue gate with red 3 → P1 draws a politics
/// card; with red 4 → no draw. A level-5 player draws on any red die. Draws start with the
/// active player. The card is hidden from other seats.
#[test]
fn tc_83_a_gate_lets_seats_draw_progress_cards_by_level_and_red_die() {
    let given = || {
        given_with(ck(4))
            .city(P0, "-1,0,S")
            .road(P0, "-1,0,SE")
            .city(P1, "1,-1,N")
            .road(P1, "1,-1,NE")
            .with_improvements(P1, [0, 2, 0])
            .turn(P0)
    };
    let mut s = given().start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Politics, 3, 1));
    let drawn: Vec<&Event> = events.iter().filter(|e| matches!(e, Event::ProgressCardDrawn { .. })).collect();
    let [Event::ProgressCardDrawn { seat, track, card: Some(card) }] = drawn[..] else { panic!("{events:?}") };
    assert_eq!((*seat, *track, card.track()), (P1, Track::Politics, Track::Politics));
    assert_eq!(s.game.progress_cards(P1).total(), 1);
    assert_eq!(s.game.progress_decks().total(), 53);
    let redacted = drawn[0].redacted_for(Viewer::Seat(P2));
    if !card.is_victory_point() {
        assert_eq!(redacted, Event::ProgressCardDrawn { seat: P1, track: Track::Politics, card: None });
    }

    let mut s = given().start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Politics, 4, 1));
    assert!(!events.iter().any(|e| matches!(e, Event::ProgressCardDrawn { .. })));
    // Another colour's gate draws nothing for a politics level.
    let mut s = given().start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Science, 1, 1));
    assert!(!events.iter().any(|e| matches!(e, Event::ProgressCardDrawn { .. })));

    // P0 at level 5 draws on a 6, before P1 (whose window a 6 does not open); with red 2
    // both draw, P0 first.
    let mut s = given().with_improvements(P0, [0, 5, 0]).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Politics, 6, 1));
    let seats: Vec<_> = events
        .iter()
        .filter_map(|e| if let Event::ProgressCardDrawn { seat, .. } = e { Some(*seat) } else { None })
        .collect();
    assert_eq!(seats, vec![P0]);
    let mut s = given().with_improvements(P0, [0, 5, 0]).turn(P1).start();
    let events = s.when_with(P1, Move::RollDice, roll(EventFace::Politics, 2, 1));
    let seats: Vec<_> = events
        .iter()
        .filter_map(|e| if let Event::ProgressCardDrawn { seat, .. } = e { Some(*seat) } else { None })
        .collect();
    assert_eq!(seats, vec![P1, P0]);
}

/// CK-EVT-3: a VP progress card drawn is revealed to every seat and scores 1 point at once.
#[test]
fn ck_evt_3_a_drawn_constitution_is_public_and_scores() {
    let mut s = given_with(ck(4))
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .city(P1, "1,-1,N")
        .road(P1, "1,-1,NE")
        .with_improvements(P1, [0, 1, 0])
        .turn(P0)
        .start();
    let chance = roll(EventFace::Politics, 1, 1).then(catan_engine::PROGRESS_CARD, ProgressCard::Constitution as usize);
    let before = s.game.public_victory_points(P1);
    let events = s.when_with(P0, Move::RollDice, chance);
    let drawn = Event::ProgressCardDrawn { seat: P1, track: Track::Politics, card: Some(ProgressCard::Constitution) };
    assert!(events.contains(&drawn));
    assert_eq!(drawn.redacted_for(Viewer::Seat(P2)), drawn);
    assert_eq!(s.game.public_victory_points(P1), before + 1);
}

/// TC-94 [CK-IMP-5]: P0 has Science 3; a roll of 9 gives P0 nothing → P0 takes 1 resource of
/// its choice before the main phase. On a 7 nothing; if P0 took a commodity on the roll, no
/// bonus.
#[test]
fn tc_94_the_aqueduct_gives_a_resource_when_a_roll_gives_nothing() {
    let given = || given_with(ck(4)).city(P0, "-1,0,S").road(P0, "-1,0,SE").with_improvements(P0, [0, 0, 3]).turn(P0);
    let mut s = given().start();
    s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 4, 5));
    assert_eq!(s.game.waiting_for(), vec![P0]);
    assert!(matches!(s.game.phase(), Phase::GoldChoice { source: catan_engine::GoldSource::Aqueduct, .. }));
    let brick = Resources::of(Resource::Brick, 1);
    s.rejects(P0, Move::ChooseGoldResources { resources: Resources::of(Resource::Brick, 2) }, "wrong_gold_count");
    s.rejects(P0, Move::EndTurn, "wrong_phase");
    let events = s.when(P0, Move::ChooseGoldResources { resources: brick });
    assert_eq!(events[0], Event::GoldResourcesTaken { seat: P0, resources: brick });
    assert_eq!(s.hand(P0), brick);
    assert_eq!(*s.game.phase(), Phase::Main);

    let mut s = given().start();
    s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 3, 4));
    assert_eq!(*s.game.phase(), Phase::Main);
    // Roll 11: forest (-1,0) gives the city lumber and paper: no Aqueduct.
    let mut s = given().start();
    s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 5, 6));
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// The barbarians one step from Catan, P0 (A) to roll, with 3 seats A, B, C.
fn attack_given() -> catan_engine::Setup {
    given_with(ck(3)).with_barbarians(6, 0).turn(P0)
}

pub trait Knights {
    fn knight(self, seat: catan_engine::Seat, vertex: &str, rank: u8, active: bool) -> Self;
}
impl Knights for catan_engine::Setup {
    fn knight(self, seat: catan_engine::Seat, vertex: &str, rank: u8, active: bool) -> Self {
        self.with_knight(seat, v(vertex), rank, active)
    }
}

fn attack(events: &[Event]) -> Option<&Event> {
    events.iter().find(|e| matches!(e, Event::BarbariansAttacked { .. }))
}

fn contributions(counts: [u32; 3]) -> catan_engine::model::PerSeat<catan_engine::SeatCount> {
    counts
        .iter()
        .enumerate()
        .map(|(i, &count)| catan_engine::SeatCount { seat: catan_engine::Seat(i as u8), count })
        .collect()
}

/// TC-75 [CK-BAR-1, CK-BAR-2, CK-TURN-3]: with 7 steps, the sixth ship leaves the barbarians
/// at 6 without an attack; the seventh attacks at once, before production; afterwards the
/// ship is back at 0.
#[test]
fn tc_75_the_barbarians_attack_on_the_seventh_ship_before_production() {
    let mut s = given_with(ck(3)).city(P0, "-1,0,S").road(P0, "-1,0,SE").with_barbarians(5, 0).turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 5, 6));
    assert!(attack(&events).is_none());
    assert_eq!(s.game.barbarian_position(), 6);

    let mut s = s.then_given().turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 5, 6));
    let attacked = events.iter().position(|e| matches!(e, Event::BarbariansAttacked { .. })).expect("an attack");
    let produced = events.iter().position(|e| matches!(e, Event::ResourcesProduced { .. })).expect("production");
    assert_eq!(events[attacked - 1], Event::BarbariansAdvanced { position: 7 });
    assert!(attacked < produced, "the attack comes before production: {events:?}");
    // One city, no knights: the barbarians win and P0's only city falls at once.
    assert_eq!(
        attack(&events),
        Some(&Event::BarbariansAttacked { strength: 1, defence: 0, contributions: contributions([0, 0, 0]) })
    );
    assert!(events.contains(&Event::CityPillaged { seat: P0, vertex: v("-1,0,S") }));
    // The pillaged city produces as a settlement: 1 lumber, no paper.
    assert_eq!(
        events[produced],
        Event::ResourcesProduced {
            roll: 11,
            gains: vec![catan_engine::SeatResources { seat: P0, resources: Resources::new(1, 0, 0, 0, 0) }].into(),
            shortages: vec![].into(),
            discoveries: vec![].into(),
        }
    );
    assert!(!events.iter().any(|e| matches!(e, Event::CommoditiesProduced { .. })));
    assert_eq!((s.game.barbarian_position(), s.game.barbarian_attacks()), (0, 1));
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// TC-76 [CK-BAR-3..7] (seed 003, example 1): A has 3 cities and an active strong knight (2);
/// B 1 city and two active basic knights (2); C 2 cities and an active basic knight (1).
/// Barbarians 6 > Catan 5: C, the weakest, loses a city of its choice; then production.
#[test]
fn tc_76_the_weakest_defender_loses_a_city() {
    let mut s = attack_given()
        .city(P0, "-1,-1,N")
        .city(P0, "1,-1,N")
        .city(P0, "0,1,N")
        .knight(P0, "-1,0,N", 2, true)
        .city(P1, "0,-2,N")
        .knight(P1, "0,0,N", 1, true)
        .knight(P1, "1,0,N", 1, true)
        .city(P2, "-2,1,N")
        .city(P2, "1,1,N")
        .knight(P2, "-2,2,N", 1, true)
        .start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 2, 3));
    assert_eq!(
        attack(&events),
        Some(&Event::BarbariansAttacked { strength: 6, defence: 5, contributions: contributions([2, 2, 1]) })
    );
    assert_eq!(*s.game.phase(), Phase::LoseCity { pending: vec![P2].into(), roll: 5 });
    assert_eq!(s.game.waiting_for(), vec![P2]);
    assert!(!events.iter().any(|e| matches!(e, Event::ResourcesProduced { .. })), "production waits");
    let mut choices = s.game.legal_moves(P2);
    choices.sort_by_key(|m| format!("{m:?}"));
    assert_eq!(choices.len(), 2);
    assert!(s.game.legal_moves(P0).is_empty());
    s.rejects(P0, Move::EndTurn, "nothing_to_decide");
    s.rejects(P2, Move::ChooseCityToLose { vertex: v("1,-1,N") }, "not_your_city");
    s.rejects(P2, Move::EndTurn, "wrong_phase");
    let events = s.when(P2, Move::ChooseCityToLose { vertex: v("1,1,N") });
    assert_eq!(events[0], Event::CityPillaged { seat: P2, vertex: v("1,1,N") });
    assert_eq!(s.game.building_at(v("1,1,N")).map(|b| b.kind), Some(catan_engine::BuildingKind::Settlement));
    // Production of the 5 follows: pasture (1,1) gives the new settlement one wool.
    assert!(matches!(events[1], Event::ResourcesProduced { roll: 5, .. }));
    assert_eq!(s.hand(P2), Resources::new(0, 0, 1, 0, 0));
    assert_eq!(*s.game.phase(), Phase::Main);
    // CK-BAR-9: every knight is inactive afterwards.
    assert!(s.game.knights().iter().all(|k| !k.active));
    assert_eq!(s.game.public_victory_points(P2), 3);
}

/// TC-78 [CK-BAR-7] (seed 003, example 3): A 2 cities with two active basic knights (2); B 3
/// cities with an active strong knight (2); C 2 cities with two active basic knights (2).
/// Barbarians 7 > Catan 6, all three tie for weakest: each loses a city.
#[test]
fn tc_78_tied_weakest_defenders_each_lose_a_city() {
    let mut s = attack_given()
        .city(P0, "-1,-1,N")
        .city(P0, "1,-1,N")
        .knight(P0, "-1,0,N", 1, true)
        .knight(P0, "0,0,N", 1, true)
        .city(P1, "0,-2,N")
        .city(P1, "2,-2,N")
        .city(P1, "0,1,N")
        .knight(P1, "1,0,N", 2, true)
        .city(P2, "-2,1,N")
        .city(P2, "1,1,N")
        .knight(P2, "-2,2,N", 1, true)
        .knight(P2, "0,2,N", 1, true)
        .start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 4, 3));
    assert_eq!(
        attack(&events),
        Some(&Event::BarbariansAttacked { strength: 7, defence: 6, contributions: contributions([2, 2, 2]) })
    );
    assert_eq!(*s.game.phase(), Phase::LoseCity { pending: vec![P0, P1, P2].into(), roll: 7 });
    // Any of them may choose first.
    s.when(P1, Move::ChooseCityToLose { vertex: v("0,1,N") });
    s.rejects(P1, Move::ChooseCityToLose { vertex: v("0,-2,N") }, "nothing_to_decide");
    s.when(P2, Move::ChooseCityToLose { vertex: v("1,1,N") });
    let events = s.when(P0, Move::ChooseCityToLose { vertex: v("1,-1,N") });
    // The number dice showed 7: after the pillages, the 7 (the robber moves now: this was
    // the first attack, CK-BAR-10).
    assert_eq!(events.last(), Some(&Event::PhaseChanged { phase: Phase::MoveRobber, then: vec![Phase::Main].into() }));
    for seat in [P0, P1, P2] {
        assert_eq!(s.game.player(seat).unwrap().settlements_on_board(), 1);
    }
}

/// TC-80 [CK-BAR-5, CK-BAR-6, CK-BAR-9]: 4 cities; A's active mighty knight (3) and B's active
/// basic knight (1): 4 >= 4, Catan wins and A takes a Defender of Catan point; then every
/// knight is inactive and the ship at 0. With A 2 and B 2, nobody takes the card: A, then B,
/// draw the top card of a deck of their choice.
#[test]
fn tc_80_the_strongest_defender_or_the_tied_ones_are_rewarded() {
    let given = || {
        attack_given()
            .city(P0, "-1,-1,N")
            .city(P0, "1,-1,N")
            .city(P1, "0,-2,N")
            .city(P2, "1,1,N")
            .knight(P1, "1,0,N", 1, true)
            .knight(P2, "0,2,N", 1, false)
    };
    let mut s = given().knight(P0, "-1,0,N", 3, true).start();
    let before = s.game.public_victory_points(P0);
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 2, 3));
    assert_eq!(
        attack(&events),
        Some(&Event::BarbariansAttacked { strength: 4, defence: 4, contributions: contributions([3, 1, 0]) })
    );
    assert!(events.contains(&Event::DefenderOfCatan { seat: P0 }));
    assert_eq!(s.game.public_victory_points(P0), before + 1);
    assert_eq!(s.game.defender_points(P0), 1);
    assert!(s.game.knights().iter().all(|k| !k.active));
    assert_eq!(s.game.barbarian_position(), 0);
    assert_eq!(*s.game.phase(), Phase::Main);

    let mut s =
        given().knight(P0, "-1,0,N", 1, true).knight(P0, "0,0,N", 1, true).knight(P1, "-2,2,N", 1, true).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 2, 3));
    assert!(!events.iter().any(|e| matches!(e, Event::DefenderOfCatan { .. })));
    assert_eq!(*s.game.phase(), Phase::DefenderDraw { pending: vec![P0, P1].into(), roll: 5 });
    assert_eq!(s.game.waiting_for(), vec![P0]);
    s.rejects(P1, Move::ChooseProgressDeck { track: Track::Trade }, "not_your_turn");
    assert_eq!(s.game.legal_moves(P0).len(), 3);
    let events = s.when(P0, Move::ChooseProgressDeck { track: Track::Trade });
    assert!(matches!(events[0], Event::ProgressCardDrawn { seat: P0, track: Track::Trade, card: Some(_) }));
    let events = s.when(P1, Move::ChooseProgressDeck { track: Track::Science });
    assert!(matches!(events[0], Event::ProgressCardDrawn { seat: P1, track: Track::Science, card: Some(_) }));
    assert!(matches!(events[1], Event::ResourcesProduced { roll: 5, .. }));
    assert_eq!(*s.game.phase(), Phase::Main);
    assert_eq!((s.game.progress_cards(P0).total(), s.game.progress_cards(P1).total()), (1, 1));
}

/// TC-81 [CK-BAR-8, CK-WALL-3]: A loses a city with a wall: the wall goes back to A's supply,
/// A's hand limit drops by 2, the vertex holds a settlement.
#[test]
fn tc_81_a_pillaged_city_loses_its_wall() {
    let mut setup = attack_given().city(P0, "-1,-1,N").city(P1, "0,-2,N").knight(P1, "1,0,N", 1, true);
    setup.cities_knights.walls = vec![v("-1,-1,N")];
    let mut s = setup.start();
    assert_eq!(s.game.city_walls(P0), 1);
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 2, 3));
    assert!(events.contains(&Event::CityPillaged { seat: P0, vertex: v("-1,-1,N") }));
    assert_eq!(s.game.city_walls(P0), 0);
    assert!(!s.game.has_wall(v("-1,-1,N")));
    assert_eq!(s.game.building_at(v("-1,-1,N")).map(|b| b.kind), Some(catan_engine::BuildingKind::Settlement));
    assert_eq!(s.game.player(P0).unwrap().pieces_left().cities, 4);
}

/// TC-86 [CK-KNT-1, CK-KNT-2]: P0 pays 1 wool + 1 ore for a basic knight on an empty vertex at
/// the end of its road, next to P1's settlement (no distance rule); a vertex touching none
/// of P0's roads is refused.
#[test]
fn tc_86_a_knight_is_recruited_at_the_end_of_a_road() {
    let mut s = given_with(ck(4))
        .city(P0, "0,-1,N")
        .road(P0, "0,-1,NE")
        .settlement(P1, "1,-1,N")
        .road(P1, "1,-1,NE")
        .give(P0, Resources::new(0, 0, 2, 0, 2))
        .main_phase(P0)
        .start();
    // (0,-1,NE) joins (0,-1,N) and (1,-2,S), which is next to P1's settlement at (1,-1,N).
    s.rejects(P0, Move::RecruitKnight { vertex: v("-1,0,N") }, "knight_not_connected");
    s.rejects(P0, Move::RecruitKnight { vertex: v("0,-1,N") }, "vertex_occupied");
    let events = s.when(P0, Move::RecruitKnight { vertex: v("1,-2,S") });
    assert_eq!(events, vec![Event::KnightRecruited { seat: P0, vertex: v("1,-2,S"), cost: catan_engine::KNIGHT_COST }]);
    let knight = s.game.knight_at(v("1,-2,S")).copied().unwrap();
    assert_eq!((knight.seat, knight.rank, knight.active), (P0, 1, false));
    assert_eq!(s.hand(P0), Resources::new(0, 0, 1, 0, 1));
    s.rejects(P0, Move::RecruitKnight { vertex: v("1,-2,S") }, "vertex_occupied");
    // CK-KNT-4: activating costs a grain.
    s.rejects(P0, Move::ActivateKnight { vertex: v("1,-2,S") }, "insufficient_resources");
    let s = s.then_given().give(P0, Resources::new(0, 0, 0, 1, 0)).main_phase(P0).start();
    let mut s = s;
    s.when(P0, Move::ActivateKnight { vertex: v("1,-2,S") });
    assert!(s.game.knight_at(v("1,-2,S")).unwrap().active);
    s.rejects(P0, Move::ActivateKnight { vertex: v("1,-2,S") }, "knight_already_active");
}

/// TC-89 [CK-KNT-3]: strong → mighty needs Politics 3; with it the promotion keeps the
/// knight's state; a second promotion of the same knight in a turn is refused.
#[test]
fn tc_89_mighty_knights_need_politics_three() {
    let given = |politics| {
        given_with(ck(4))
            .city(P0, "0,-1,N")
            .road(P0, "0,-1,NE")
            .knight(P0, "1,-2,S", 1, true)
            .knight(P0, "0,-1,S", 2, false)
            .give(P0, Resources::new(0, 0, 3, 0, 3))
            .with_improvements(P0, [0, politics, 0])
            .main_phase(P0)
            .start()
    };
    let s = given(2);
    s.rejects(P0, Move::PromoteKnight { vertex: v("0,-1,S") }, "politics_level_required");
    let mut s = given(3);
    s.when(P0, Move::PromoteKnight { vertex: v("0,-1,S") });
    let mighty = *s.game.knight_at(v("0,-1,S")).unwrap();
    assert_eq!((mighty.rank, mighty.active), (3, false));
    s.rejects(P0, Move::PromoteKnight { vertex: v("0,-1,S") }, "knight_at_top_rank");
    s.when(P0, Move::PromoteKnight { vertex: v("1,-2,S") });
    let strong = *s.game.knight_at(v("1,-2,S")).unwrap();
    assert_eq!((strong.rank, strong.active), (2, true));
    s.rejects(P0, Move::PromoteKnight { vertex: v("1,-2,S") }, "knight_already_promoted");
    // The limit is per turn: the next turn starts with it lifted.
    s.when(P0, Move::EndTurn);
    assert!(s.game.knights().iter().all(|k| !k.promoted_this_turn && !k.activated_this_turn));
}

/// CK-WALL-1: a wall costs 2 brick, under one's own city without a wall, three at most.
#[test]
fn ck_wall_1_walls_stand_under_own_cities_three_at_most() {
    let mut setup = given_with(ck(4))
        .city(P0, "-1,-1,N")
        .city(P0, "1,-1,N")
        .city(P0, "0,1,N")
        .city(P0, "-2,1,N")
        .settlement(P0, "2,-2,N")
        .city(P1, "0,-2,N")
        .give(P0, Resources::new(0, 6, 0, 0, 0))
        .main_phase(P0);
    setup.cities_knights.walls = vec![v("-1,-1,N"), v("1,-1,N")];
    let mut s = setup.start();
    s.rejects(P0, Move::BuildCityWall { vertex: v("-1,-1,N") }, "vertex_occupied");
    s.rejects(P0, Move::BuildCityWall { vertex: v("2,-2,N") }, "not_your_city");
    s.rejects(P0, Move::BuildCityWall { vertex: v("0,-2,N") }, "not_your_city");
    let events = s.when(P0, Move::BuildCityWall { vertex: v("0,1,N") });
    assert_eq!(events, vec![Event::CityWallBuilt { seat: P0, vertex: v("0,1,N"), cost: catan_engine::WALL_COST }]);
    assert_eq!(s.game.city_walls(P0), 3);
    s.rejects(P0, Move::BuildCityWall { vertex: v("-2,1,N") }, "no_pieces_left");
}

/// TC-90 [CK-KNT-9, B-LR-2, B-LR-5]: P0 holds Longest Road with a 5-road path around the
/// desert; P1 recruits a knight on its third vertex (P1's road touches it) → P0's length
/// becomes 3 and nobody holds the card.
#[test]
fn tc_90_a_knight_breaks_an_opponents_longest_road() {
    let mut s = given_with(ck(4))
        .settlement(P0, "0,0,N")
        .roads_along(P0, &["0,0,N", "1,-1,S", "0,1,N", "0,0,S", "-1,1,N", "0,-1,S"])
        .settlement(P1, "1,0,S")
        .roads_along(P1, &["1,0,S", "0,1,N"])
        .give(P1, catan_engine::KNIGHT_COST + Resources::new(0, 1, 0, 0, 0))
        .main_phase(P1)
        .start();
    assert_eq!((s.game.longest_road_holder(), s.road_length(P0)), (Some(P0), 5));
    let events = s.when(P1, Move::RecruitKnight { vertex: v("0,1,N") });
    assert_eq!(s.road_length(P0), 3);
    assert!(events.contains(&Event::LongestRoadChanged { holder: None, previous: Some(P0), length: 3 }));
    assert_eq!(s.game.longest_road_holder(), None);
    // The knight occupies its vertex: no building there, and P0 cannot build a road on
    // through it from its side.
    let s = s.then_given().give(P0, Resources::new(1, 1, 1, 1, 0)).main_phase(P0).start();
    s.rejects(P0, Move::BuildSettlement { vertex: v("0,1,N") }, "vertex_occupied");
}

/// The C&K part of the view: the barbarians, levels, knights and walls for everyone;
/// progress cards as counts for other seats, in full for the seat itself.
#[test]
fn ck_view_shows_the_barbarians_and_hides_progress_cards() {
    let mut setup = given_with(ck(4))
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .knight(P0, "0,0,S", 2, true)
        .with_improvements(P0, [1, 2, 3])
        .with_barbarians(4, 1)
        .main_phase(P0);
    setup.cities_knights.progress = vec![(P0, catan_engine::ProgressCards::of(ProgressCard::Spy, 1))];
    setup.cities_knights.walls = vec![v("-1,0,S")];
    let s = setup.start();
    let theirs = s.game.view(Viewer::Seat(P1)).cities_and_knights.unwrap();
    assert_eq!((theirs.barbarians, theirs.barbarian_steps, theirs.attacks, theirs.robber_active), (4, 7, 1, true));
    let p0 = &theirs.seats[0];
    assert_eq!((p0.improvements, p0.progress_card_count, p0.progress_cards), ([1, 2, 3], 1, None));
    assert_eq!((p0.knights.len(), p0.walls.clone()), (1, vec![v("-1,0,S")]));
    assert_eq!(theirs.decks.iter().map(|d| d.cards_left).sum::<u32>(), 53);
    let own = s.game.view(Viewer::Seat(P0)).cities_and_knights.unwrap();
    assert_eq!(own.seats[0].progress_cards, Some(catan_engine::ProgressCards::of(ProgressCard::Spy, 1)));
    assert!(given().start().game.view(Viewer::Seat(P0)).cities_and_knights.is_none());
}

/// TC-87 [CK-KNT-4, CK-KNT-5, CK-KNT-6]: a knight recruited and activated this turn may not
/// act; the next turn it moves along P0's roads and becomes inactive; re-activated (a grain)
/// it may not act again that turn.
#[test]
fn tc_87_a_knight_acts_once_a_turn_and_not_on_the_turn_it_was_activated() {
    let mut s = given_with(ck(4))
        .city(P0, "0,-1,N")
        .roads_along(P0, &["0,-1,N", "1,-2,S", "1,-1,N"])
        .give(P0, Resources::new(0, 0, 1, 2, 1))
        .main_phase(P0)
        .start();
    s.when(P0, Move::RecruitKnight { vertex: v("1,-2,S") });
    s.when(P0, Move::ActivateKnight { vertex: v("1,-2,S") });
    let step = Move::MoveKnight { from: v("1,-2,S"), to: v("1,-1,N") };
    s.rejects(P0, step.clone(), "knight_cannot_act");
    s.when(P0, Move::EndTurn);
    let mut s = s.then_given().main_phase(P0).start();
    let events = s.when(P0, step.clone());
    assert_eq!(events[0], Event::KnightMoved { seat: P0, from: v("1,-2,S"), to: v("1,-1,N") });
    let knight = *s.game.knight_at(v("1,-1,N")).unwrap();
    assert!(!knight.active);
    assert!(s.game.knight_at(v("1,-2,S")).is_none());
    s.when(P0, Move::ActivateKnight { vertex: v("1,-1,N") });
    s.rejects(P0, Move::MoveKnight { from: v("1,-1,N"), to: v("1,-2,S") }, "knight_cannot_act");
}

/// CK-KNT-6: a knight moves only along its owner's roads, to an empty vertex, and not through
/// an opponent's piece.
#[test]
fn ck_knt_6_knights_move_along_own_roads_only() {
    let s = given_with(ck(4))
        .city(P0, "0,-1,N")
        .roads_along(P0, &["0,-1,N", "1,-2,S", "1,-1,N", "2,-2,S"])
        .knight(P0, "1,-2,S", 1, true)
        .knight(P1, "1,-1,N", 1, false)
        .main_phase(P0)
        .start();
    s.rejects(P0, Move::MoveKnight { from: v("1,-2,S"), to: v("2,-2,S") }, "knight_unreachable");
    s.rejects(P0, Move::MoveKnight { from: v("1,-2,S"), to: v("0,0,N") }, "knight_unreachable");
    s.rejects(P0, Move::MoveKnight { from: v("1,-2,S"), to: v("0,-1,N") }, "vertex_occupied");
    s.rejects(P0, Move::MoveKnight { from: v("1,-1,N"), to: v("1,-2,S") }, "not_your_knight");
}

/// TC-91 [CK-KNT-8, CK-BAR-10]: after the first attack, P0's active knight on a corner of the
/// robber's hex chases it: the robber moves, one card is stolen, the knight stays and is
/// inactive. Before the first attack the chase is refused (TC-74).
#[test]
fn tc_91_a_knight_chases_the_robber_after_the_first_attack() {
    let given = |attacks| {
        given_with(ck(4))
            .city(P0, "0,-1,N")
            .knight(P0, "0,0,N", 2, true)
            .city(P1, "1,-1,N")
            .give(P1, Resources::new(0, 0, 0, 0, 2))
            .with_barbarians(0, attacks)
            .main_phase(P0)
            .start()
    };
    let chase = Move::ChaseRobber { knight: v("0,0,N"), hex: h("1,-1"), steal_from: Some(P1), bandit: Bandit::Robber };
    given(0).rejects(P0, chase.clone(), "robber_waits");
    let mut s = given(1);
    let events = s.when_with(P0, chase, FixedChance::steal(Resource::Ore));
    assert_eq!(
        events,
        vec![
            Event::RobberChased { seat: P0, knight: v("0,0,N") },
            Event::RobberMoved { seat: P0, hex: h("1,-1") },
            Event::ResourceStolen { thief: P0, victim: P1, resource: Some(Resource::Ore) },
        ]
    );
    assert_eq!(s.game.robber_hex(), Some(h("1,-1")));
    let knight = *s.game.knight_at(v("0,0,N")).unwrap();
    assert!(!knight.active);
    assert_eq!(s.hand(P0), Resources::new(0, 0, 0, 0, 1));
    // Inactive now, it cannot chase again.
    s.rejects(
        P0,
        Move::ChaseRobber { knight: v("0,0,N"), hex: h("0,0"), steal_from: None, bandit: Bandit::Robber },
        "knight_cannot_act",
    );
}

/// CK-BAR-8: a seat with no settlement piece left keeps its pillaged city as a settlement
/// that takes no piece: it scores 1, and upgrading it again gives no piece back.
#[test]
fn ck_bar_8_a_pillaged_city_without_a_settlement_piece_still_counts() {
    let mut s = attack_given()
        .city(P0, "-1,-1,N")
        .settlement(P0, "1,-1,N")
        .settlement(P0, "0,1,N")
        .settlement(P0, "-2,1,N")
        .settlement(P0, "1,1,N")
        .settlement(P0, "2,-2,N")
        .city(P1, "0,-2,N")
        .knight(P1, "1,0,N", 1, true)
        .start();
    assert_eq!(s.game.player(P0).unwrap().pieces_left().settlements, 0);
    let before = s.game.public_victory_points(P0);
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 2, 3));
    assert!(events.contains(&Event::CityPillaged { seat: P0, vertex: v("-1,-1,N") }));
    assert_eq!(s.game.public_victory_points(P0), before - 1);
    assert_eq!(s.game.player(P0).unwrap().pieces_left().settlements, 0);
    // The position round-trips, and rebuilding the city takes a city piece, none back.
    let mut s = s.then_given().give(P0, catan_engine::cost::CITY).main_phase(P0).start();
    s.when(P0, Move::BuildCity { vertex: v("-1,-1,N") });
    assert_eq!(s.game.public_victory_points(P0), before);
    assert_eq!(s.game.player(P0).unwrap().pieces_left().settlements, 0);
}

/// P0's active knight of `rank` on (1,-2,S) next to P1's active knight of `p1_rank` on
/// (1,-1,N), along P0's road; P1's roads run on from there along `p1_walk`.
fn displacement_given(rank: u8, p1_rank: u8, p1_walk: &[&str]) -> catan_engine::Setup {
    given_with(ck(4))
        .city(P0, "0,-1,N")
        .roads_along(P0, &["0,-1,N", "1,-2,S", "1,-1,N"])
        .knight(P0, "1,-2,S", rank, true)
        .roads_along(P1, p1_walk)
        .knight(P1, "1,-1,N", p1_rank, true)
        .main_phase(P0)
}

/// TC-88 [CK-KNT-7]: P0's active strong knight displaces P1's basic knight → accepted; P1
/// alone must relocate it to an empty vertex its roads connect to the old spot, and it keeps
/// its state; then P0's turn goes on.
#[test]
fn tc_88_a_strong_knight_displaces_a_basic_one_and_its_owner_relocates_it() {
    let mut s = displacement_given(2, 1, &["1,-1,N", "2,-2,S", "2,-1,N"]).settlement(P1, "2,-1,N").start();
    let displace = Move::DisplaceKnight { from: v("1,-2,S"), to: v("1,-1,N") };
    assert!(s.game.legal_moves(P0).contains(&displace));
    let events = s.when(P0, displace);
    assert_eq!(
        events[0],
        Event::KnightDisplaced { seat: P0, from: v("1,-2,S"), to: v("1,-1,N"), displaced: P1, rank: 1, active: true }
    );
    assert_eq!(s.game.phase(), &Phase::RelocateKnight { seat: P1, vertex: v("1,-1,N"), rank: 1, active: true });
    let strong = *s.game.knight_at(v("1,-1,N")).unwrap();
    assert_eq!((strong.seat, strong.rank, strong.active), (P0, 2, false));
    assert_eq!(s.game.waiting_for(), vec![P1]);
    assert_eq!(s.game.legal_moves(P1), vec![Move::RelocateKnight { to: v("2,-2,S") }]);
    assert!(s.game.legal_moves(P0).is_empty());
    // The pending decision round-trips through a position.
    assert!(s.then_given().start().game == s.game);
    s.rejects(P1, Move::RelocateKnight { to: v("2,-1,N") }, "vertex_occupied");
    s.rejects(P1, Move::RelocateKnight { to: v("1,-2,S") }, "knight_unreachable");
    s.rejects(P1, Move::EndTurn, "wrong_phase");
    let events = s.when(P1, Move::RelocateKnight { to: v("2,-2,S") });
    assert_eq!(
        events[0],
        Event::KnightRelocated { seat: P1, from: v("1,-1,N"), to: v("2,-2,S"), rank: 1, active: true }
    );
    assert_eq!(s.game.phase(), &Phase::Main);
    let basic = *s.game.knight_at(v("2,-2,S")).unwrap();
    assert_eq!((basic.seat, basic.rank, basic.active), (P1, 1, true));
    s.when(P0, Move::EndTurn);
}

/// CK-KNT-7, TC-88: only an opponent's knight of strictly lower rank is displaced; a strong
/// knight against a strong one, an own knight, an empty vertex or one out of reach are
/// refused, and legal moves list only the weaker.
#[test]
fn ck_knt_7_only_a_strictly_weaker_knight_is_displaced() {
    let walk = ["1,-1,N", "2,-2,S", "2,-1,N"];
    let given = |rank, p1_rank| displacement_given(rank, p1_rank, &walk).settlement(P1, "2,-1,N");
    let displace = Move::DisplaceKnight { from: v("1,-2,S"), to: v("1,-1,N") };
    let s = given(2, 2).start();
    s.rejects(P0, displace.clone(), "knight_not_weaker");
    assert!(!s.game.legal_moves(P0).iter().any(|m| matches!(m, Move::DisplaceKnight { .. })));
    let s = given(1, 2).start();
    s.rejects(P0, displace.clone(), "knight_not_weaker");
    s.rejects(P0, Move::MoveKnight { from: v("1,-2,S"), to: v("1,-1,N") }, "vertex_occupied");
    let s = given(3, 2).knight(P1, "2,-2,S", 1, false).start();
    let displacing: Vec<Move> =
        s.game.legal_moves(P0).into_iter().filter(|m| matches!(m, Move::DisplaceKnight { .. })).collect();
    assert_eq!(displacing, vec![displace.clone()]);
    // Not beyond the first opponent's piece, not onto an empty or own vertex.
    s.rejects(P0, Move::DisplaceKnight { from: v("1,-2,S"), to: v("2,-2,S") }, "knight_unreachable");
    s.rejects(P0, Move::DisplaceKnight { from: v("1,-2,S"), to: v("0,-1,N") }, "no_knight_to_displace");
    s.rejects(P1, Move::DisplaceKnight { from: v("1,-1,N"), to: v("2,-2,S") }, "not_your_turn");
    // An inactive knight does not act.
    let s = given_with(ck(4))
        .city(P0, "0,-1,N")
        .roads_along(P0, &["0,-1,N", "1,-2,S", "1,-1,N"])
        .knight(P0, "1,-2,S", 3, false)
        .knight(P1, "1,-1,N", 1, true)
        .roads_along(P1, &walk)
        .settlement(P1, "2,-1,N")
        .main_phase(P0)
        .start();
    s.rejects(P0, displace, "knight_cannot_act");
}

/// CK-KNT-7: a displaced knight with no empty vertex its owner's roads connect to leaves the
/// board for its owner's supply at once; nobody is asked, and the piece can be recruited again.
#[test]
fn ck_knt_7_a_displaced_knight_with_nowhere_to_go_returns_to_the_supply() {
    let mut s = displacement_given(2, 1, &["1,-1,N", "2,-2,S"]).settlement(P1, "2,-2,S").start();
    let events = s.when(P0, Move::DisplaceKnight { from: v("1,-2,S"), to: v("1,-1,N") });
    assert!(events.contains(&Event::KnightReturnedToSupply { seat: P1, vertex: v("1,-1,N"), rank: 1 }));
    assert_eq!(s.game.phase(), &Phase::Main);
    assert_eq!(s.game.waiting_for(), vec![P0]);
    assert!(s.game.knights().iter().all(|k| k.seat != P1));
    assert_eq!(s.game.knight_at(v("1,-1,N")).map(|k| k.seat), Some(P0));
    s.when(P0, Move::EndTurn);
}

/// CK-KNT-7: while the displaced knight's owner decides, nobody else may move: the active
/// seat and the others are told there is nothing for them to decide; an inactive displaced
/// knight stays inactive.
#[test]
fn ck_knt_7_only_the_displaced_knights_owner_decides() {
    let mut s = displacement_given(3, 2, &["1,-1,N", "2,-2,S", "2,-1,N"])
        .settlement(P1, "2,-1,N")
        .roads_along(P1, &["2,-2,S", "1,0,N"])
        .give(P0, Resources::new(0, 0, 1, 1, 1))
        .start();
    s.when(P0, Move::DisplaceKnight { from: v("1,-2,S"), to: v("1,-1,N") });
    for seat in [P0, P2, P3] {
        assert!(s.game.legal_moves(seat).is_empty());
        s.rejects(seat, Move::RelocateKnight { to: v("2,-2,S") }, "nothing_to_decide");
        s.rejects(seat, Move::EndTurn, "nothing_to_decide");
    }
    s.rejects(P0, Move::RecruitKnight { vertex: v("1,-2,S") }, "nothing_to_decide");
    let mut legal = s.game.legal_moves(P1);
    legal.sort_by_key(|m| format!("{m:?}"));
    assert_eq!(legal, vec![Move::RelocateKnight { to: v("1,0,N") }, Move::RelocateKnight { to: v("2,-2,S") }]);
    s.when(P1, Move::RelocateKnight { to: v("1,0,N") });
    let strong = *s.game.knight_at(v("1,0,N")).unwrap();
    assert_eq!((strong.seat, strong.rank, strong.active), (P1, 2, true));
    s.rejects(P1, Move::RelocateKnight { to: v("2,-2,S") }, "nothing_to_decide");
    s.when(P0, Move::RecruitKnight { vertex: v("1,-2,S") });
}

fn improve(track: Track, city: Option<&str>) -> Move {
    Move::BuildImprovement { track, city: city.map(v) }
}

fn metropolis(seat: catan_engine::Seat, track: Track, vertex: &str) -> catan_engine::Metropolis {
    catan_engine::Metropolis { track, seat, vertex: v(vertex) }
}

/// The improvement moves `seat` is offered, sorted.
fn improvement_moves(s: &Scenario, seat: catan_engine::Seat) -> Vec<Move> {
    sorted(s.game.legal_moves(seat).into_iter().filter(|m| matches!(m, Move::BuildImprovement { .. })).collect())
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| format!("{m:?}"));
    moves
}

/// TC-84 [CK-MET-1, CK-MET-3, CK-MET-4]: P1 builds Science 4 first → the science metropolis
/// goes on the P1 city it names (+2 VP). P2 builds Science 4 → no metropolis. P2 builds
/// Science 5 while P1 is at 4 → the metropolis moves to the P2 city it names (P1 −2, P2 +2);
/// P1's city stays a city. Had P1 reached 5 first, P2's level 5 would not take it.
#[test]
fn tc_84_the_first_to_level_four_takes_the_metropolis_and_the_first_to_five_takes_it_over() {
    let mut s = given_with(ck(4))
        .city(P1, "1,-1,N")
        .city(P1, "0,1,N")
        .city(P2, "-2,1,N")
        .city(P2, "0,-2,N")
        .with_improvements(P1, [0, 0, 3])
        .with_improvements(P2, [0, 0, 3])
        .with_commodities(P1, paper(4))
        .with_commodities(P2, paper(4))
        .main_phase(P1)
        .start();
    // One move per city the metropolis may go to; the city must be named.
    assert_eq!(
        improvement_moves(&s, P1),
        sorted(vec![improve(Track::Science, Some("1,-1,N")), improve(Track::Science, Some("0,1,N"))])
    );
    s.rejects(P1, improve(Track::Science, None), "metropolis_city_required");
    s.rejects(P1, improve(Track::Science, Some("-2,1,N")), "not_your_city");
    assert_eq!(s.game.public_victory_points(P1), 4);
    let events = s.when(P1, improve(Track::Science, Some("0,1,N")));
    assert_eq!(
        events,
        vec![
            Event::ImprovementBuilt { seat: P1, track: Track::Science, level: 4, cost: paper(4) },
            Event::MetropolisPlaced { seat: P1, track: Track::Science, vertex: v("0,1,N") },
        ]
    );
    assert_eq!(s.game.metropolis(Track::Science), Some(&metropolis(P1, Track::Science, "0,1,N")));
    assert_eq!(s.game.public_victory_points(P1), 6);
    let view = s.game.view(Viewer::Seat(P2));
    assert_eq!(view.players[1].victory_points, 6);
    let ck_view = view.cities_and_knights.unwrap();
    assert_eq!(ck_view.seats[1].metropolises, vec![metropolis(P1, Track::Science, "0,1,N")]);
    assert_eq!((ck_view.seats[1].metropolis_points, ck_view.seats[2].metropolis_points), (2, 0));

    // P2 at level 4 while P1 holds it: no metropolis, and no city to name.
    let mut s = s.then_given().with_commodities(P2, paper(5)).main_phase(P2).start();
    s.rejects(P2, improve(Track::Science, Some("-2,1,N")), "no_metropolis_to_place");
    let events = s.when(P2, improve(Track::Science, None));
    assert_eq!(events, vec![Event::ImprovementBuilt { seat: P2, track: Track::Science, level: 4, cost: paper(4) }]);
    assert_eq!(s.game.public_victory_points(P2), 4);
    // P2 first to level 5 while P1 is at 4: it takes the metropolis onto a city it names.
    s.rejects(P2, improve(Track::Science, None), "metropolis_city_required");
    assert_eq!(
        improvement_moves(&s, P2),
        sorted(vec![improve(Track::Science, Some("0,-2,N")), improve(Track::Science, Some("-2,1,N"))])
    );
    let events = s.when(P2, improve(Track::Science, Some("-2,1,N")));
    assert_eq!(
        events[1],
        Event::MetropolisMoved { seat: P2, track: Track::Science, from_seat: P1, from: v("0,1,N"), to: v("-2,1,N") }
    );
    assert_eq!((s.game.public_victory_points(P1), s.game.public_victory_points(P2)), (4, 6));
    assert_eq!(s.game.metropolis_at(v("0,1,N")), None);
    assert_eq!(s.game.building_at(v("0,1,N")).map(|b| b.kind), Some(catan_engine::BuildingKind::City));
    assert_eq!(s.game.metropolises(), &[metropolis(P2, Track::Science, "-2,1,N")]);

    // CK-MET-4: with P1 at 5 first, P2's level 5 takes nothing.
    let mut s = given_with(ck(4))
        .city(P1, "1,-1,N")
        .city(P1, "0,1,N")
        .city(P2, "-2,1,N")
        .with_improvements(P1, [0, 0, 5])
        .with_improvements(P2, [0, 0, 4])
        .with_metropolis(P1, Track::Science, v("0,1,N"))
        .with_commodities(P2, paper(5))
        .main_phase(P2)
        .start();
    s.rejects(P2, improve(Track::Science, Some("-2,1,N")), "no_metropolis_to_place");
    let events = s.when(P2, improve(Track::Science, None));
    assert_eq!(events, vec![Event::ImprovementBuilt { seat: P2, track: Track::Science, level: 5, cost: paper(5) }]);
    assert_eq!(s.game.metropolises(), &[metropolis(P1, Track::Science, "0,1,N")]);
    assert_eq!((s.game.public_victory_points(P1), s.game.public_victory_points(P2)), (6, 2));
}

/// TC-85 [CK-MET-2, CK-IMP-4]: P3's only city carries the trade metropolis → Politics 4 is
/// refused (and not offered); Trade 5, its own metropolis' track, is allowed. After P3
/// upgrades a settlement to a city, Politics 4 is accepted and its metropolis goes there.
#[test]
fn tc_85_a_seat_whose_only_city_is_a_metropolis_builds_no_level_four_elsewhere() {
    let mut s = given_with(ck(4))
        .city(P3, "0,1,N")
        .settlement(P3, "1,-1,N")
        .with_improvements(P3, [4, 3, 0])
        .with_metropolis(P3, Track::Trade, v("0,1,N"))
        .with_commodities(P3, coin(4) + cloth(5))
        .give(P3, Resources::new(0, 0, 0, 2, 3))
        .main_phase(P3)
        .start();
    assert_eq!(s.game.public_victory_points(P3), 5);
    s.rejects(P3, improve(Track::Politics, None), "city_without_metropolis_required");
    s.rejects(P3, improve(Track::Politics, Some("0,1,N")), "city_without_metropolis_required");
    assert_eq!(improvement_moves(&s, P3), vec![improve(Track::Trade, None)]);
    // CK-IMP-4: level 5 of the track whose metropolis P3 holds needs no other city.
    let events = s.when(P3, improve(Track::Trade, None));
    assert_eq!(events, vec![Event::ImprovementBuilt { seat: P3, track: Track::Trade, level: 5, cost: cloth(5) }]);
    s.when(P3, Move::BuildCity { vertex: v("1,-1,N") });
    s.rejects(P3, improve(Track::Politics, Some("0,1,N")), "city_has_metropolis");
    let events = s.when(P3, improve(Track::Politics, Some("1,-1,N")));
    assert_eq!(events[1], Event::MetropolisPlaced { seat: P3, track: Track::Politics, vertex: v("1,-1,N") });
    // Two cities, each with a metropolis: 4 + 4.
    assert_eq!(s.game.public_victory_points(P3), 8);
}

/// CK-MET-1/2, CK-IMP-4: each refusal of an improvement's metropolis has its own code, and
/// none of the refused moves is offered.
#[test]
fn ck_met_2_each_metropolis_refusal_has_its_code() {
    let mut s = given_with(ck(4))
        .city(P0, "-1,-1,N")
        .city(P0, "1,-1,N")
        .settlement(P0, "0,1,N")
        .city(P1, "-2,1,N")
        .with_improvements(P0, [4, 3, 3])
        .with_metropolis(P0, Track::Trade, v("-1,-1,N"))
        .with_commodities(P0, coin(4) + cloth(5) + paper(4))
        .main_phase(P0)
        .start();
    s.rejects(P0, improve(Track::Politics, None), "metropolis_city_required");
    s.rejects(P0, improve(Track::Politics, Some("-1,-1,N")), "city_has_metropolis");
    s.rejects(P0, improve(Track::Politics, Some("0,1,N")), "not_your_city");
    s.rejects(P0, improve(Track::Politics, Some("-2,1,N")), "not_your_city");
    s.rejects(P0, improve(Track::Politics, Some("7,7,N")), "unknown_vertex");
    // Level 5 of its own metropolis' track: P0 keeps it; there is none to place.
    s.rejects(P0, improve(Track::Trade, Some("1,-1,N")), "no_metropolis_to_place");
    s.when(P0, improve(Track::Politics, Some("1,-1,N")));
    // Both cities carry a metropolis: no level 4 in the third track.
    s.rejects(P0, improve(Track::Science, None), "city_without_metropolis_required");
    s.rejects(P0, improve(Track::Science, Some("1,-1,N")), "city_without_metropolis_required");
    assert_eq!(improvement_moves(&s, P0), vec![improve(Track::Trade, None)]);
}

/// TC-77 [CK-BAR-7, CK-MET-5] (seed 003, example 2): A 3 cities and two active basic knights
/// (2); B 1 city, a metropolis, no active knight (0); C 2 cities and an active mighty knight
/// (3). Barbarians 6 (the metropolis counts as one city, CK-BAR-3) > Catan 5: B is immune
/// and skipped, A (2) < C (3) → A loses a city.
#[test]
fn tc_77_a_seat_with_only_a_metropolis_is_skipped_and_the_next_weakest_loses_a_city() {
    let mut s = attack_given()
        .city(P0, "-1,-1,N")
        .city(P0, "1,-1,N")
        .city(P0, "0,1,N")
        .knight(P0, "-1,0,N", 1, true)
        .knight(P0, "0,0,N", 1, true)
        .city(P1, "0,-2,N")
        .with_improvements(P1, [4, 0, 0])
        .with_metropolis(P1, Track::Trade, v("0,-2,N"))
        .knight(P1, "1,0,N", 1, false)
        .city(P2, "-2,1,N")
        .city(P2, "1,1,N")
        .knight(P2, "-2,2,N", 3, true)
        .start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 2, 3));
    assert_eq!(
        attack(&events),
        Some(&Event::BarbariansAttacked { strength: 6, defence: 5, contributions: contributions([2, 0, 3]) })
    );
    assert!(!events.iter().any(|e| matches!(e, Event::CityPillaged { .. })));
    assert_eq!(*s.game.phase(), Phase::LoseCity { pending: vec![P0].into(), roll: 5 });
    assert_eq!(s.game.legal_moves(P0).len(), 3);
    assert!(s.game.legal_moves(P1).is_empty());
    s.rejects(P1, Move::ChooseCityToLose { vertex: v("0,-2,N") }, "nothing_to_decide");
    s.when(P0, Move::ChooseCityToLose { vertex: v("0,1,N") });
    assert_eq!(s.game.player(P0).unwrap().cities_on_board(), 2);
    assert_eq!(s.game.building_at(v("0,-2,N")).map(|b| b.kind), Some(catan_engine::BuildingKind::City));
    assert_eq!(s.game.public_victory_points(P1), 4);
}

/// TC-79 [CK-BAR-7] (seed 003, example 4): A 3 cities, an active mighty and an active basic
/// knight (4); B 2 cities, both metropolises, an active basic knight (1); C 1 city, a
/// metropolis, no active knight (0). Barbarians 6 > Catan 5: B and C are immune; A, the only
/// seat with a city without a metropolis, loses one although it defended most.
#[test]
fn tc_79_the_only_eligible_seat_loses_a_city_although_it_defended_most() {
    let mut s = attack_given()
        .city(P0, "-1,-1,N")
        .city(P0, "1,-1,N")
        .city(P0, "0,1,N")
        .knight(P0, "-1,0,N", 3, true)
        .knight(P0, "0,0,N", 1, true)
        .city(P1, "0,-2,N")
        .city(P1, "2,-2,N")
        .with_improvements(P1, [4, 4, 0])
        .with_metropolis(P1, Track::Trade, v("0,-2,N"))
        .with_metropolis(P1, Track::Politics, v("2,-2,N"))
        .knight(P1, "1,0,N", 1, true)
        .city(P2, "-2,1,N")
        .with_improvements(P2, [0, 0, 4])
        .with_metropolis(P2, Track::Science, v("-2,1,N"))
        .start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 2, 3));
    assert_eq!(
        attack(&events),
        Some(&Event::BarbariansAttacked { strength: 6, defence: 5, contributions: contributions([4, 1, 0]) })
    );
    assert_eq!(*s.game.phase(), Phase::LoseCity { pending: vec![P0].into(), roll: 5 });
    assert_eq!(s.game.waiting_for(), vec![P0]);
    s.when(P0, Move::ChooseCityToLose { vertex: v("1,-1,N") });
    assert_eq!(s.game.player(P0).unwrap().cities_on_board(), 2);
    assert_eq!((s.game.player(P1).unwrap().cities_on_board(), s.game.player(P2).unwrap().cities_on_board()), (2, 1));
    assert_eq!(s.game.metropolises().len(), 3);
}

/// CK-MET-5, CK-WALL-1/3: a metropolis with a wall is never pillaged: the weakest seat
/// chooses among its other cities only (choosing the metropolis is refused), and the wall
/// stays under the metropolis. With one other city, that one falls at once.
#[test]
fn ck_met_5_a_metropolis_with_a_wall_is_never_pillaged() {
    let given = || {
        let mut setup = attack_given()
            .city(P0, "-1,-1,N")
            .city(P0, "1,-1,N")
            .with_improvements(P0, [0, 4, 0])
            .with_metropolis(P0, Track::Politics, v("-1,-1,N"))
            .city(P1, "-2,1,N")
            .knight(P1, "1,0,N", 1, true);
        setup.cities_knights.walls = vec![v("-1,-1,N")];
        setup
    };
    // One city without a metropolis: it falls at once; the metropolis keeps city and wall.
    let mut s = given().start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 2, 3));
    assert!(events.contains(&Event::CityPillaged { seat: P0, vertex: v("1,-1,N") }));
    assert!(!events.iter().any(|e| matches!(e, Event::CityPillaged { vertex, .. } if *vertex == v("-1,-1,N"))));
    assert!(s.game.has_wall(v("-1,-1,N")));
    assert_eq!(s.game.metropolis_at(v("-1,-1,N")), Some(Track::Politics));
    // City 2 + metropolis 2 + the pillaged city's settlement 1.
    assert_eq!(s.game.public_victory_points(P0), 5);

    // Two others: P0 chooses among them only.
    let mut s = given().city(P0, "0,1,N").start();
    s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 2, 3));
    assert_eq!(*s.game.phase(), Phase::LoseCity { pending: vec![P0].into(), roll: 5 });
    assert_eq!(
        sorted(s.game.legal_moves(P0)),
        sorted(vec![Move::ChooseCityToLose { vertex: v("0,1,N") }, Move::ChooseCityToLose { vertex: v("1,-1,N") }])
    );
    s.rejects(P0, Move::ChooseCityToLose { vertex: v("-1,-1,N") }, "metropolis_not_pillaged");
    s.when(P0, Move::ChooseCityToLose { vertex: v("0,1,N") });
    assert!(s.game.has_wall(v("-1,-1,N")));
    assert_eq!(s.game.city_walls(P0), 1);

    // Only the walled metropolis: P0 is skipped and P1, stronger but eligible, loses its city.
    let mut setup = attack_given()
        .city(P0, "-1,-1,N")
        .with_improvements(P0, [0, 4, 0])
        .with_metropolis(P0, Track::Politics, v("-1,-1,N"))
        .city(P1, "-2,1,N")
        .city(P1, "1,1,N")
        .knight(P1, "1,0,N", 1, true);
    setup.cities_knights.walls = vec![v("-1,-1,N")];
    let mut s = setup.start();
    s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 2, 3));
    assert_eq!(*s.game.phase(), Phase::LoseCity { pending: vec![P1].into(), roll: 5 });
}

/// CK-WIN-2, CK-MET-1: the metropolis' 2 points count toward the 13: P0 at 11 wins on its own
/// turn by building Science 4.
#[test]
fn ck_win_2_a_metropolis_wins_the_game() {
    let mut setup = given_with(ck(4))
        .city(P0, "-1,-1,N")
        .city(P0, "1,-1,N")
        .city(P0, "0,1,N")
        .city(P0, "-2,1,N")
        .with_improvements(P0, [0, 0, 3])
        .with_commodities(P0, paper(4))
        .main_phase(P0);
    setup.cities_knights.defenders = vec![(P0, 3)];
    let mut s = setup.start();
    assert_eq!(s.game.victory_points(P0), 11);
    let events = s.when(P0, improve(Track::Science, Some("0,1,N")));
    assert!(
        matches!(events.last(), Some(Event::GameWon { seat, victory_points: 13, .. }) if *seat == P0),
        "{events:?}"
    );
    assert!(s.game.is_over());
}

/// CK-MET in positions: metropolises round-trip through `Setup`, and a position is refused
/// whose metropolis stands on no city of its seat, shares a city or a track, has a holder
/// below level 4 or below another seat's level. A `lose_city` decision needs a city without
/// a metropolis. Moves and positions stored before metropolises still read.
#[test]
fn ck_met_positions_check_the_metropolises() {
    let base = || {
        given_with(ck(4))
            .city(P0, "-1,-1,N")
            .city(P0, "1,-1,N")
            .settlement(P0, "0,1,N")
            .with_improvements(P0, [4, 4, 0])
            .main_phase(P0)
    };
    let s = base().with_metropolis(P0, Track::Trade, v("-1,-1,N")).start();
    let back = s.then_given();
    assert_eq!(back.cities_knights.metropolises, vec![metropolis(P0, Track::Trade, "-1,-1,N")]);
    assert!(back.position().unwrap() == s.game);
    let refused = [
        base().with_metropolis(P0, Track::Trade, v("0,1,N")),
        base().with_metropolis(P1, Track::Trade, v("-1,-1,N")),
        base().with_metropolis(P0, Track::Trade, v("-1,-1,N")).with_metropolis(P0, Track::Politics, v("-1,-1,N")),
        base().with_metropolis(P0, Track::Trade, v("-1,-1,N")).with_metropolis(P0, Track::Trade, v("1,-1,N")),
        base().with_metropolis(P0, Track::Science, v("-1,-1,N")),
        base().with_improvements(P1, [5, 0, 0]).with_metropolis(P0, Track::Trade, v("-1,-1,N")),
    ];
    for setup in refused {
        let metropolises = setup.cities_knights.metropolises.clone();
        let error = setup.position().expect_err(&format!("{metropolises:?}"));
        assert_eq!(error.code(), "cities_knights_state_inconsistent", "{metropolises:?}: {error}");
    }
    let lose = given_with(ck(4))
        .city(P0, "-1,-1,N")
        .with_improvements(P0, [4, 0, 0])
        .with_metropolis(P0, Track::Trade, v("-1,-1,N"))
        .with_turn(1, P0)
        .with_dice(2, 3)
        .with_phase(Phase::LoseCity { pending: vec![P0].into(), roll: 5 }, vec![]);
    assert!(lose.clone().city(P0, "1,-1,N").position().is_ok());
    assert_eq!(lose.position().expect_err("no city to lose").code(), "invalid_phase");
    // Stored without the new fields.
    let mv: Move = serde_json::from_str(r#"{"type":"build_improvement","track":"trade"}"#).unwrap();
    assert_eq!(mv, improve(Track::Trade, None));
    assert_eq!(serde_json::to_string(&mv).unwrap(), r#"{"type":"build_improvement","track":"trade"}"#);
    let ck_setup: catan_engine::CitiesKnightsSetup = serde_json::from_str(r#"{"barbarians":3}"#).unwrap();
    assert!(ck_setup.metropolises.is_empty());
    assert!(!serde_json::to_string(&ck_setup).unwrap().contains("metropolises"));
}
