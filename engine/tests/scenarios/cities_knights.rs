//! 9.12 Cities & Knights: TC-71 .. TC-91 and the rules of RULES.md 8.6 they cite, on the
//! beginner board with P0 first, unless a test says otherwise.

use catan_engine::{
    Cards, Commodities, Commodity, Draw, Event, EventFace, FixedChance, GameConfig, Move, PendingDiscard, Phase,
    ProgressCard, Resource, Resources, SeatCommodities, Track, Viewer, EVENT_DIE,
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
            phase: Phase::Discard { pending: vec![PendingDiscard { seat: P1, count: 4 }] },
            then: vec![Phase::Main]
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
        gains: vec![catan_engine::SeatResources { seat: P0, resources: Resources::new(1, 0, 0, 0, 0) }],
        shortages: vec![],
        discoveries: vec![],
    }));
    let produced = Event::CommoditiesProduced {
        roll: 11,
        gains: vec![SeatCommodities { seat: P0, commodities: paper(1) }],
        shortages: vec![],
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
    assert!(events.contains(&Event::CommoditiesProduced { roll: 8, gains: vec![], shortages: vec![Commodity::Paper] }));
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
            phase: Phase::Discard { pending: vec![PendingDiscard { seat: P2, count: 4 }] },
            then: vec![Phase::Main]
        })
    );
    // P2 may discard commodities (the base game's discard names resources only).
    let cards = Cards::new(Resources::new(1, 1, 0, 0, 0), Commodities::new(1, 1, 0));
    s.rejects(
        P2,
        Move::DiscardCards { cards: Cards::of_commodities(Commodities::new(1, 1, 1)) },
        "wrong_discard_count",
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
    assert_eq!(events.last(), Some(&Event::PhaseChanged { phase: Phase::MoveRobber, then: vec![Phase::Main] }));
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
/// up to 5 (CK-IMP-4: levels 4-5 are allowed and recorded). P1 with only settlements may
/// not build Science 1.
#[test]
fn tc_82_improvements_cost_their_level_in_commodities_and_need_a_city() {
    let build = |track| Move::BuildImprovement { track };
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

    // Levels 4 and 5 are built and recorded; there is no sixth.
    let mut s = given_with(ck(4))
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .with_commodities(P0, coin(9))
        .with_improvements(P0, [0, 3, 0])
        .main_phase(P0)
        .start();
    s.when(P0, build(Track::Politics));
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
