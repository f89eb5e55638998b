//! SEA-15: Cities & Knights with Seafarers, on the two islands of `common/sea.rs` under the
//! Four Islands rules (island bonus off): knights recruited at and moving along ships, the
//! pirate chased by knights, stealing commodities and waiting for the first attack (CK-BAR-10),
//! cities on gold yielding resources only, the Aqueduct after the gold choices, and which
//! variants combine.

use catan_engine::{
    Bandit, BuildingKind, Commodities, Commodity, Draw, Event, EventFace, FixedChance, GameConfig, GoldSource, Move,
    PendingGold, Phase, Resources, ScenarioId, Setup,
};

use super::cities_knights::{roll, Knights};
use crate::{sea, support::*};

/// Island A's east coast, a corner of the channel's sea hexes (0,-1) and (0,0).
const A_EAST: &str = "0,-1,S";
/// The other end of the coast edge (-1,0,E) from A_EAST, on island A's hills.
const A_SOUTH_EAST: &str = "-1,1,N";
const COAST_E: &str = "-1,0,E";
/// Island A's inland vertex and north corner.
const A_INLAND: &str = "-2,1,N";
const A_NORTH: &str = "-2,0,N";
/// Island B's west coast, where the channel lands.
const B_WEST: &str = "1,0,N";
/// The channel from A_EAST to B_WEST: three edges between sea hexes.
const CHANNEL: [&str; 3] = ["0,-1,SE", "0,0,NE", "1,-1,SE"];
/// The channel's sea hexes.
const SEA_WEST: &str = "0,0";
const SEA_EAST: &str = "1,-1";
/// A corner of island B's gold field (3,-1), number 8, touching no other land.
const GOLD_CORNER: &str = "3,-1,N";

/// C&K with Seafarers' Four Islands rules, 4 players, P0 first.
fn ck_sea() -> GameConfig {
    let mut config = GameConfig { scenario: Some(ScenarioId::FourIslands), island_bonus_vp: Some(0), ..config(4) };
    config.enable_variants("seafarers+cities_and_knights").expect("variants");
    config
}

fn given() -> Setup {
    Setup::new(ck_sea(), sea::two_islands())
}

fn cloth(n: u32) -> Commodities {
    Commodities::of(Commodity::Cloth, n)
}

/// The stolen card drawn from a hand: resources first, then commodities (CK-7-2).
fn steals(commodity: Commodity) -> FixedChance {
    FixedChance::default().then(Draw::STOLEN_CARD, 5 + commodity as usize)
}

/// The end of `edge` that is not `vertex`.
fn other_end(edge: &str, vertex: &str) -> catan_engine::board::VertexId {
    let ends = e(edge).endpoints();
    if ends[0] == v(vertex) {
        ends[1]
    } else {
        ends[0]
    }
}

/// P0 with a settlement on A_EAST, a road to A_SOUTH_EAST where its active knight stands, and
/// (with `ships`) the channel's ships to island B.
fn knight_by_the_channel(ships: bool) -> Setup {
    let setup = given()
        .settlement(P0, A_EAST)
        .road(P0, COAST_E)
        .knight(P0, A_SOUTH_EAST, 1, true)
        .settlement(P1, A_NORTH)
        .road(P1, "-2,0,NE");
    let setup = if ships { setup.ships(P0, &CHANNEL) } else { setup };
    setup.main_phase(P0)
}

/// SEA-15, CK-KNT-6: a knight moves along its owner's road, through its own settlement and
/// across the ships of the channel to island B; without the ships it cannot get there.
#[test]
fn sea_15_a_knight_moves_along_roads_and_ships() {
    let mut s = knight_by_the_channel(true).start();
    let events = s.when(P0, Move::MoveKnight { from: v(A_SOUTH_EAST), to: v(B_WEST) });
    assert_eq!(events[0], Event::KnightMoved { seat: P0, from: v(A_SOUTH_EAST), to: v(B_WEST) });
    assert!(s.game.knight_at(v(B_WEST)).is_some_and(|k| k.seat == P0 && !k.active));

    let s = knight_by_the_channel(false).start();
    s.rejects(P0, Move::MoveKnight { from: v(A_SOUTH_EAST), to: v(B_WEST) }, "knight_unreachable");
}

/// SEA-15, CK-KNT-2: a knight passes the open sea on ships but stands only by land: the
/// channel's vertices between two sea hexes are no place for it.
#[test]
fn sea_15_a_knight_does_not_stop_at_open_sea() {
    let s = knight_by_the_channel(true).start();
    let mid_channel = other_end(CHANNEL[0], A_EAST);
    let mv = Move::MoveKnight { from: v(A_SOUTH_EAST), to: mid_channel };
    s.rejects(P0, mv, "vertex_not_buildable");
}

/// SEA-15, CK-KNT-1/2: a basic knight is recruited at the end of one's ship, on land.
#[test]
fn sea_15_a_knight_is_recruited_at_the_end_of_a_ship() {
    let mut s = given()
        .settlement(P0, A_EAST)
        .ships(P0, &CHANNEL)
        .give(P0, Resources::new(0, 0, 1, 0, 1))
        .main_phase(P0)
        .start();
    let events = s.when(P0, Move::RecruitKnight { vertex: v(B_WEST) });
    assert!(matches!(events[0], Event::KnightRecruited { seat: P0, vertex, .. } if vertex == v(B_WEST)));
    // Without a ship or road there, the knight is refused.
    let s = given().settlement(P0, A_EAST).give(P0, Resources::new(0, 0, 1, 0, 1)).main_phase(P0).start();
    s.rejects(P0, Move::RecruitKnight { vertex: v(B_WEST) }, "knight_not_connected");
}

/// P0's active knight on A_EAST, a corner of the pirate's hex SEA_WEST; P1 with a ship on a
/// side of SEA_EAST and only commodities in hand; `attacks` barbarian attacks so far.
fn pirate_by_the_knight(attacks: u32) -> Setup {
    given()
        .settlement(P0, A_INLAND)
        .road(P0, "-2,1,NE")
        .knight(P0, A_EAST, 2, true)
        .settlement(P1, B_WEST)
        .ship(P1, CHANNEL[2])
        .with_commodities(P1, cloth(2))
        .pirate(SEA_WEST)
        .with_barbarians(0, attacks)
}

/// SEA-15, CK-KNT-8: an active knight on a corner of the pirate's hex chases it to another
/// sea hex and steals there, here a commodity; the knight stays and is inactive.
#[test]
fn sea_15_a_knight_chases_the_pirate_which_steals_a_commodity() {
    let mut s = pirate_by_the_knight(1).main_phase(P0).start();
    let chase = Move::ChaseRobber { knight: v(A_EAST), hex: h(SEA_EAST), steal_from: Some(P1), bandit: Bandit::Pirate };
    let events = s.when_with(P0, chase, steals(Commodity::Cloth));
    assert_eq!(
        events,
        vec![
            Event::RobberChased { seat: P0, knight: v(A_EAST) },
            Event::PirateMoved { seat: P0, hex: h(SEA_EAST) },
            Event::CommodityStolen { thief: P0, victim: P1, commodity: Some(Commodity::Cloth) },
        ]
    );
    assert_eq!(s.game.pirate_hex(), Some(h(SEA_EAST)));
    assert_eq!(*s.game.player(P0).unwrap().commodities(), cloth(1));
    assert!(s.game.knight_at(v(A_EAST)).is_some_and(|k| !k.active));
}

/// SEA-15, CK-BAR-10: before the first attack the pirate waits: no knight chases it.
#[test]
fn sea_15_the_pirate_waits_for_the_first_attack_before_a_chase() {
    let s = pirate_by_the_knight(0).main_phase(P0).start();
    let chase = Move::ChaseRobber { knight: v(A_EAST), hex: h(SEA_EAST), steal_from: Some(P1), bandit: Bandit::Pirate };
    s.rejects(P0, chase, "robber_waits");
    assert!(!s.game.legal_moves(P0).iter().any(|m| matches!(m, Move::ChaseRobber { .. })));
}

/// SEA-15, CK-KNT-8: only from a corner of the pirate's own hex; the pirate stays at sea.
#[test]
fn sea_15_a_chase_needs_a_knight_at_the_pirate_and_a_sea_hex() {
    let s = pirate_by_the_knight(1).pirate(SEA_EAST).main_phase(P0).start();
    let from_afar = Move::ChaseRobber { knight: v(A_EAST), hex: h("0,-1"), steal_from: None, bandit: Bandit::Pirate };
    s.rejects(P0, from_afar, "knight_not_at_robber");
    let s = pirate_by_the_knight(1).main_phase(P0).start();
    let to_land = Move::ChaseRobber { knight: v(A_EAST), hex: h("-1,0"), steal_from: None, bandit: Bandit::Pirate };
    s.rejects(P0, to_land, "pirate_not_on_sea");
    // The robber's chase is still a land move: the knight is at no robber.
    let robber = Move::ChaseRobber { knight: v(A_EAST), hex: h("-2,0"), steal_from: None, bandit: Bandit::Robber };
    s.rejects(P0, robber, "knight_not_at_robber");
}

/// SEA-15, CK-7-2: after the first attack a 7 lets the roller move the pirate instead of the
/// robber, and the pirate steals commodities too.
#[test]
fn sea_15_on_a_seven_the_pirate_steals_a_commodity() {
    let mut s = pirate_by_the_knight(1).turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 3, 4));
    assert_eq!(events.last(), Some(&Event::PhaseChanged { phase: Phase::MoveRobber, then: vec![Phase::Main].into() }));
    let moves = s.game.legal_moves(P0);
    assert!(moves.iter().any(|m| matches!(m, Move::MoveRobber { .. })));
    let pirate = Move::MovePirate { hex: h(SEA_EAST), steal_from: Some(P1) };
    assert!(moves.contains(&pirate), "{moves:?}");
    let events = s.when_with(P0, pirate, steals(Commodity::Cloth));
    assert_eq!(events[1], Event::CommodityStolen { thief: P0, victim: P1, commodity: Some(Commodity::Cloth) });
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// SEA-15, CK-BAR-10: before the first attack a 7 moves neither the robber nor the pirate.
#[test]
fn sea_15_before_the_first_attack_a_seven_moves_no_pirate() {
    let mut s = pirate_by_the_knight(0).turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 3, 4));
    assert_eq!(events.last(), Some(&Event::PhaseChanged { phase: Phase::Main, then: vec![].into() }));
    assert!(!s.game.legal_moves(P0).iter().any(|m| matches!(m, Move::MovePirate { .. })));
    s.rejects(P0, Move::MovePirate { hex: h(SEA_EAST), steal_from: Some(P1) }, "wrong_phase");
}

/// SEA-15, CK-GEN-2: no development cards, so no Knight moves the pirate.
#[test]
fn sea_15_no_knight_card_moves_the_pirate() {
    let s = pirate_by_the_knight(1).main_phase(P0).start();
    let knight = Move::PlayKnight { hex: h(SEA_EAST), steal_from: Some(P1), bandit: Bandit::Pirate };
    s.rejects(P0, knight, "not_in_this_game");
}

/// SEA-15, SEA-9: a city on a gold field takes two resources of its owner's choice and no
/// commodity.
#[test]
fn sea_15_a_city_on_gold_yields_two_resources_of_choice_and_no_commodity() {
    let mut s = given().city(P0, GOLD_CORNER).with_barbarians(0, 1).turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 4, 4));
    assert!(!events.iter().any(|e| matches!(e, Event::CommoditiesProduced { .. })), "{events:?}");
    let gold = Phase::GoldChoice {
        roll: 8,
        pending: vec![PendingGold { seat: P0, count: 2 }].into(),
        chosen: vec![],
        source: GoldSource::Production,
    };
    assert_eq!(events.last(), Some(&Event::PhaseChanged { phase: gold, then: vec![Phase::Main].into() }));
    s.when(P0, Move::ChooseGoldResources { resources: Resources::new(0, 0, 0, 1, 1) });
    assert_eq!(s.hand(P0), Resources::new(0, 0, 0, 1, 1));
    assert!(s.game.player(P0).unwrap().commodities().is_empty());
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// CK-IMP-5, SEA-9: a seat with the Aqueduct that takes nothing on a roll chooses its card
/// after the gold fields' choices, before the main phase.
#[test]
fn sea_15_the_aqueduct_follows_the_gold_choices() {
    let mut s = given()
        .city(P0, GOLD_CORNER)
        .city(P1, A_INLAND)
        .with_improvements(P1, [0, 0, 3])
        .with_barbarians(0, 1)
        .turn(P0)
        .start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 4, 4));
    let aqueduct = Phase::GoldChoice {
        roll: 0,
        pending: vec![PendingGold { seat: P1, count: 1 }].into(),
        chosen: vec![],
        source: GoldSource::Aqueduct,
    };
    match events.last() {
        Some(Event::PhaseChanged { phase: Phase::GoldChoice { source: GoldSource::Production, .. }, then }) => {
            assert_eq!(then, &vec![aqueduct.clone(), Phase::Main]);
        }
        other => panic!("expected the gold choice first, got {other:?}"),
    }
    s.when(P0, Move::ChooseGoldResources { resources: Resources::new(2, 0, 0, 0, 0) });
    assert_eq!(*s.game.phase(), aqueduct);
    s.when(P1, Move::ChooseGoldResources { resources: Resources::new(0, 0, 0, 0, 1) });
    assert_eq!(*s.game.phase(), Phase::Main);
    assert_eq!(s.hand(P1), Resources::new(0, 0, 0, 0, 1));
}

/// SEA-15, CK-GEN-1, SEA-14: the target is the scenario's plus the three C&K adds (13 for
/// 10); `vp_target` still overrides it. Wonders of Catan (its own victory, WON-11), Jungle and
/// Big River do not combine with C&K.
#[test]
fn sea_15_the_target_is_the_scenario_s_plus_three_and_wonders_does_not_combine() {
    let scenario_target = GameConfig { seafarers: true, ..ck_sea() };
    let mut plain = scenario_target.clone();
    plain.cities_and_knights = false;
    assert_eq!(ck_sea().validate(), Ok(()));
    assert_eq!(ck_sea().victory_target(), plain.victory_target() + 3);
    assert_eq!(GameConfig { vp_target: Some(15), ..ck_sea() }.victory_target(), 15);
    assert_eq!(ck_sea().variant_name(), "seafarers+cities_and_knights");
    for combination in ["wonders+cities_and_knights", "jungle+cities_and_knights", "big_river+cities_and_knights"] {
        let mut config = config(4);
        config.enable_variants(combination).expect("variants");
        let refused = config.validate().expect_err(combination);
        assert_eq!(refused.code(), "invalid_config", "{combination}: {refused}");
    }
    let mut five_six = GameConfig { scenario: Some(ScenarioId::FourIslands), ..config(5) };
    five_six.enable_variants("seafarers+five_six+cities_and_knights").expect("variants");
    assert_eq!(five_six.validate(), Ok(()));
}

/// SEA-15, SEA-6, CK-KNT-2: a knight stands at the end of its owner's road or ship, so a ship
/// that alone joins the knight to its owner's routes does not move (as the Diplomat leaves
/// such a road); with another route there, it moves.
#[test]
fn sea_15_a_ship_that_alone_holds_a_knight_does_not_move() {
    let stranding = || {
        given()
            .settlement(P0, A_EAST)
            .ships(P0, &CHANNEL)
            .knight(P0, B_WEST, 1, false)
            .settlement(P1, A_NORTH)
            .road(P1, "-2,0,NE")
    };
    let last = Move::MoveShip { from: e(CHANNEL[2]), to: e(COAST_E) };
    let s = stranding().main_phase(P0).start();
    s.rejects(P0, last.clone(), "ship_not_at_open_end");
    assert!(!s.game.legal_moves(P0).iter().any(|m| matches!(m, Move::MoveShip { from, .. } if *from == e(CHANNEL[2]))));
    // A road of P0's on island B, from a settlement there, holds the knight instead.
    let island_b = other_end("1,0,NE", B_WEST);
    let mut s =
        stranding().with_building(island_b, P0, BuildingKind::Settlement).road(P0, "1,0,NE").main_phase(P0).start();
    assert!(s.game.legal_moves(P0).contains(&last), "{:?}", s.game.legal_moves(P0));
    s.when(P0, last);
    assert!(s.game.knight_at(v(B_WEST)).is_some_and(|k| k.seat == P0));
}

/// CK-KNT-9, SEA-15: an opponent's knight blocks ships as it blocks roads (B-BLD-3): no ship
/// sets out past the vertex it holds.
#[test]
fn sea_15_an_opponents_knight_blocks_ships() {
    let position = |knight: bool| {
        let setup = given()
            .settlement(P0, A_EAST)
            .ships(P0, &CHANNEL)
            .give(P0, Resources::new(1, 0, 1, 0, 0))
            .settlement(P1, A_NORTH)
            .road(P1, "-2,0,NE");
        let setup = if knight { setup.knight(P1, B_WEST, 1, false) } else { setup };
        setup.main_phase(P0).start()
    };
    // The ships P0 may build on from B_WEST, the channel's end, without the knight there.
    let past_b_west: Vec<Move> = position(false)
        .game
        .legal_moves(P0)
        .into_iter()
        .filter(|m| matches!(m, Move::BuildShip { edge } if edge.endpoints().contains(&v(B_WEST))))
        .collect();
    assert!(!past_b_west.is_empty());
    let blocked = position(true);
    for beyond in past_b_west {
        blocked.rejects(P0, beyond, "ship_not_connected");
    }
}
