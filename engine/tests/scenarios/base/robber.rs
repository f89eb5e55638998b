//! 9.3 Turn, production, robber: TC-12 .. TC-22.

use catan_engine::{
    events::SeatResources, state::PendingDiscard, Bandit, DevCard, Event, FixedChance, GameConfig, Move, Phase,
    Resource, Resources, Setup,
};

use super::support::*;

const SETTLEMENT_COST: Resources = Resources::new(1, 1, 1, 1, 0);

/// TC-12 [B-TURN-2]: before the roll, building, trading and buying are refused; an older
/// Knight may be played; then the roll.
#[test]
fn tc_12_before_the_roll_only_a_knight_or_the_roll() {
    let mut s = given()
        .settlement(P0, "0,-1,N")
        .road(P0, "0,-1,NE")
        .give(P0, Resources::new(2, 2, 2, 2, 6))
        .give(P1, Resources::new(0, 0, 1, 0, 0))
        .card(P0, DevCard::Knight)
        .card(P0, DevCard::Monopoly)
        .turn(P0)
        .start();
    assert_eq!(*s.game.phase(), Phase::PreRoll);
    s.rejects(P0, Move::BuildRoad { edge: e("0,-1,E") }, "must_roll_first");
    s.rejects(P0, Move::BuildSettlement { vertex: v("0,0,N") }, "must_roll_first");
    s.rejects(P0, Move::BuildCity { vertex: v("0,-1,N") }, "must_roll_first");
    s.rejects(P0, Move::BuyDevelopmentCard, "must_roll_first");
    s.rejects(
        P0,
        Move::TradeWithBank { give: Resources::of(Resource::Ore, 4), get: Resources::of(Resource::Brick, 1) },
        "must_roll_first",
    );
    s.rejects(
        P0,
        Move::OfferTrade {
            give: Resources::of(Resource::Ore, 1),
            get: Resources::of(Resource::Wool, 1),
            give_commodities: catan_engine::Commodities::NONE,
            get_commodities: catan_engine::Commodities::NONE,
            to: None,
            counter_to: None,
        },
        "wrong_phase",
    );
    // B-TURN-3 default knight_only: no progress card before the roll.
    s.rejects(P0, Move::PlayMonopoly { resource: Resource::Wool }, "only_knight_before_roll");

    let events = s.when(P0, Move::PlayKnight { hex: h("1,-1"), steal_from: None, bandit: Bandit::Robber });
    assert_eq!(events, [Event::KnightPlayed { seat: P0 }, Event::RobberMoved { seat: P0, hex: h("1,-1") }]);
    assert_eq!(*s.game.phase(), Phase::PreRoll);
    assert_eq!(s.game.robber_hex(), Some(h("1,-1")));
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(5, 5));
    assert_eq!(events[0], Event::DiceRolled { seat: P0, red: 5, white: 5 });
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// TC-13 [B-TURN-1]: the turn cannot end before the roll; after the roll it passes clockwise.
#[test]
fn tc_13_turn_cannot_end_before_the_roll() {
    let mut s = given().turn(P0).start();
    s.rejects(P0, Move::EndTurn, "must_roll_first");
    s.rejects(P1, Move::RollDice, "not_your_turn");
    s.when_with(P0, Move::RollDice, FixedChance::dice(1, 2));
    s.rejects(P0, Move::RollDice, "already_rolled");
    let events = s.when(P0, Move::EndTurn);
    assert!(events.iter().any(|ev| matches!(ev, Event::TurnStarted { seat, .. } if *seat == P1)));
    assert_eq!(s.game.active_seat(), P1);
    assert_eq!(*s.game.phase(), Phase::PreRoll);
}

/// The TC-14/15 position: P1 settlement (0,-1,N), P2 city (-1,2,N), P0 to roll.
fn production_position() -> Setup {
    given().settlement(P1, "0,-1,N").city(P2, "-1,2,N").turn(P0)
}

/// TC-14 [B-PROD-1]: a 6 pays P1 1 brick (settlement) and P2 2 grain (city); nobody else.
#[test]
fn tc_14_roll_pays_settlements_one_and_cities_two() {
    let mut s = production_position().start();
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(4, 2));
    assert!(events.contains(&Event::ResourcesProduced {
        roll: 6,
        gains: vec![
            SeatResources { seat: P1, resources: Resources::of(Resource::Brick, 1) },
            SeatResources { seat: P2, resources: Resources::of(Resource::Grain, 2) },
        ]
        .into(),
        shortages: vec![].into(),
        discoveries: vec![].into(),
    }));
    assert_eq!(s.hand(P0), Resources::ZERO);
    assert_eq!(s.hand(P1), Resources::of(Resource::Brick, 1));
    assert_eq!(s.hand(P2), Resources::of(Resource::Grain, 2));
    assert_eq!(s.hand(P3), Resources::ZERO);
    assert_eq!(*s.game.bank(), Resources::new(19, 18, 19, 17, 19));
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// TC-15 [B-PROD-2]: with the robber on hills 6 (0,-1), P1 gets nothing; P2 still gets 2 grain.
#[test]
fn tc_15_robber_hex_produces_nothing() {
    let mut s = production_position().robber("0,-1").start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(4, 2));
    assert_eq!(s.hand(P1), Resources::ZERO);
    assert_eq!(s.hand(P2), Resources::of(Resource::Grain, 2));
}

/// TC-16 [B-PROD-4]: bank brick 2, owed 3 to two players: nobody gets brick; grain is paid.
#[test]
fn tc_16_bank_shortage_with_two_claimants_pays_nobody() {
    let mut s = given()
        .give(P0, Resources::of(Resource::Brick, 17))
        .city(P1, "0,-1,N")
        .settlement(P3, "0,-1,S")
        .city(P2, "-1,2,N")
        .turn(P0)
        .start();
    assert_eq!(s.game.bank().get(Resource::Brick), 2);
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(4, 2));
    assert!(events.contains(&Event::ResourcesProduced {
        roll: 6,
        gains: vec![SeatResources { seat: P2, resources: Resources::of(Resource::Grain, 2) }].into(),
        shortages: vec![Resource::Brick].into(),
        discoveries: vec![].into(),
    }));
    assert_eq!(s.hand(P1), Resources::ZERO);
    assert_eq!(s.hand(P3), Resources::ZERO);
    assert_eq!(s.hand(P2), Resources::of(Resource::Grain, 2));
    assert_eq!(s.game.bank().get(Resource::Brick), 2);
}

/// TC-17 [B-PROD-4]: bank brick 1, only P1 owed (2): P1 takes the last brick.
#[test]
fn tc_17_bank_shortage_with_one_claimant_pays_what_is_left() {
    let mut s = given().give(P0, Resources::of(Resource::Brick, 18)).city(P1, "0,-1,N").turn(P0).start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(4, 2));
    assert_eq!(s.hand(P1), Resources::of(Resource::Brick, 1));
    assert_eq!(s.game.bank().get(Resource::Brick), 0);
}

/// TC-18 [B-ROB-1]: on a 7, hands of 9, 8, 7, 11 discard 4, 4, 0, 5; the robber waits for all
/// discards; a wrong-size discard is refused; 10 discards 5 and 15 discards 7.
#[test]
fn tc_18_sevens_make_every_big_hand_discard_half() {
    let mut s = given()
        .give(P0, Resources::new(5, 4, 0, 0, 0))
        .give(P1, Resources::new(0, 0, 8, 0, 0))
        .give(P2, Resources::new(0, 0, 0, 7, 0))
        .give(P3, Resources::new(2, 2, 2, 2, 3))
        .turn(P0)
        .start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(3, 4));
    let pending = vec![
        PendingDiscard { seat: P0, count: 4 },
        PendingDiscard { seat: P1, count: 4 },
        PendingDiscard { seat: P3, count: 5 },
    ];
    assert_eq!(*s.game.phase(), Phase::Discard { pending: pending.into() });
    assert_eq!(s.game.waiting_for(), [P0, P1, P3]);
    s.rejects(P0, Move::MoveRobber { hex: h("1,-1"), steal_from: None }, "wrong_phase");
    s.rejects(P1, Move::Discard { resources: Resources::of(Resource::Wool, 3) }, "wrong_discard_count");
    s.rejects(P1, Move::Discard { resources: Resources::of(Resource::Wool, 5) }, "wrong_discard_count");
    s.rejects(P1, Move::Discard { resources: Resources::of(Resource::Ore, 4) }, "insufficient_resources");
    s.rejects(P2, Move::Discard { resources: Resources::ZERO }, "nothing_to_decide");
    // Every legal discard names exactly floor(n/2) cards the player holds.
    for mv in s.game.legal_moves(P3) {
        let Move::Discard { resources } = mv else { panic!("{mv:?}") };
        assert_eq!(resources.total(), 5);
        assert!(s.hand(P3).contains(&resources));
    }

    s.when(P0, Move::Discard { resources: Resources::new(2, 2, 0, 0, 0) });
    s.when(P3, Move::Discard { resources: Resources::new(1, 1, 1, 1, 1) });
    s.rejects(P0, Move::MoveRobber { hex: h("1,-1"), steal_from: None }, "wrong_phase");
    s.rejects(P0, Move::Discard { resources: Resources::new(2, 2, 0, 0, 0) }, "nothing_to_decide");
    assert_eq!(s.game.waiting_for(), [P1]);
    s.when(P1, Move::Discard { resources: Resources::of(Resource::Wool, 4) });
    assert_eq!(*s.game.phase(), Phase::MoveRobber);
    assert_eq!([s.hand(P0).total(), s.hand(P1).total(), s.hand(P2).total(), s.hand(P3).total()], [5, 4, 7, 6]);
    assert_eq!(s.game.bank().total(), 95 - 22);
    s.when(P0, Move::MoveRobber { hex: h("1,-1"), steal_from: None });
    assert_eq!(*s.game.phase(), Phase::Main);

    let mut s =
        given().give(P1, Resources::new(2, 2, 2, 2, 2)).give(P2, Resources::new(3, 3, 3, 3, 3)).turn(P0).start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(6, 1));
    let pending = vec![PendingDiscard { seat: P1, count: 5 }, PendingDiscard { seat: P2, count: 7 }];
    assert_eq!(*s.game.phase(), Phase::Discard { pending: pending.into() });
}

/// TC-19 [B-ROB-2, B-ROB-4]: the robber must move; the desert is allowed by default and refused
/// with `robber_may_enter_desert = false`; sea hexes never.
#[test]
fn tc_19_robber_must_move_to_another_land_hex() {
    fn robber_on_hills(config: GameConfig) -> Scenario {
        let mut s = given_with(config).robber("0,-1").turn(P0).start();
        s.when_with(P0, Move::RollDice, FixedChance::dice(2, 5));
        assert_eq!(*s.game.phase(), Phase::MoveRobber);
        s
    }
    let mut s = robber_on_hills(config(4));
    s.rejects(P0, Move::MoveRobber { hex: h("0,-1"), steal_from: None }, "robber_must_move");
    for sea in ["0,-3", "3,0", "-3,3", "-2,-1"] {
        s.rejects(P0, Move::MoveRobber { hex: h(sea), steal_from: None }, "robber_not_on_land");
    }
    s.rejects(P0, Move::MoveRobber { hex: h("5,5"), steal_from: None }, "unknown_hex");
    s.rejects(P0, Move::EndTurn, "wrong_phase");
    // 18 other land hexes, each without a victim.
    assert_eq!(s.game.legal_moves(P0).len(), 18);
    s.when(P0, Move::MoveRobber { hex: h("0,0"), steal_from: None });
    assert_eq!(s.game.robber_hex(), Some(h("0,0")));

    let s = robber_on_hills(GameConfig { robber_may_enter_desert: false, ..config(4) });
    s.rejects(P0, Move::MoveRobber { hex: h("0,0"), steal_from: None }, "robber_desert_forbidden");
    assert_eq!(s.game.legal_moves(P0).len(), 17);
}

/// TC-20 [B-ROB-3]: only an adjacent opponent with cards can be robbed; the injected pick moves
/// one card from P1 to P0.
#[test]
fn tc_20_steal_only_from_adjacent_opponents_with_cards() {
    let mut s = given()
        .settlement(P1, "0,-1,N")
        .settlement(P2, "0,-1,S")
        .give(P1, Resources::new(0, 0, 1, 0, 2))
        .give(P0, Resources::new(1, 0, 0, 0, 0))
        .give(P3, Resources::new(0, 1, 0, 0, 0))
        .turn(P0)
        .start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(4, 3));
    let at_hills: Vec<Move> = s
        .game
        .legal_moves(P0)
        .into_iter()
        .filter(|mv| matches!(mv, Move::MoveRobber { hex, .. } if *hex == h("0,-1")))
        .collect();
    assert_eq!(at_hills, [Move::MoveRobber { hex: h("0,-1"), steal_from: Some(P1) }]);
    s.rejects(P0, Move::MoveRobber { hex: h("0,-1"), steal_from: Some(P2) }, "invalid_victim");
    s.rejects(P0, Move::MoveRobber { hex: h("0,-1"), steal_from: Some(P0) }, "invalid_victim");
    s.rejects(P0, Move::MoveRobber { hex: h("0,-1"), steal_from: Some(P3) }, "invalid_victim");
    s.rejects(P0, Move::MoveRobber { hex: h("0,-1"), steal_from: None }, "victim_required");
    let events =
        s.when_with(P0, Move::MoveRobber { hex: h("0,-1"), steal_from: Some(P1) }, FixedChance::steal(Resource::Wool));
    assert!(events.contains(&Event::ResourceStolen { thief: P0, victim: P1, resource: Some(Resource::Wool) }));
    assert_eq!(s.hand(P1), Resources::new(0, 0, 0, 0, 2));
    assert_eq!(s.hand(P0), Resources::new(1, 0, 1, 0, 0));
    assert_eq!(s.hand(P2), Resources::ZERO);
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// TC-21 [B-ROB-3]: a hex without opponent buildings means no steal; straight to MAIN.
#[test]
fn tc_21_no_victim_means_no_steal() {
    let mut s = given()
        .settlement(P0, "2,-2,N")
        .give(P0, Resources::new(0, 0, 1, 0, 0))
        .give(P1, SETTLEMENT_COST)
        .settlement(P1, "0,-1,N")
        .turn(P0)
        .start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(1, 6));
    s.rejects(P0, Move::MoveRobber { hex: h("2,-2"), steal_from: Some(P0) }, "invalid_victim");
    s.rejects(P0, Move::MoveRobber { hex: h("2,-2"), steal_from: Some(P1) }, "invalid_victim");
    let events = s.when(P0, Move::MoveRobber { hex: h("2,-2"), steal_from: None });
    assert_eq!(
        events,
        [
            Event::RobberMoved { seat: P0, hex: h("2,-2") },
            Event::PhaseChanged { phase: Phase::Main, then: vec![].into() }
        ]
    );
    assert_eq!(s.hand(P0), Resources::new(0, 0, 1, 0, 0));
    assert_eq!(s.hand(P1), SETTLEMENT_COST);
}

/// TC-22 [B-ROB-5, B-DEV-4]: a Knight moves the robber and steals one card from one chosen
/// opponent; nobody discards, even with 12 cards.
#[test]
fn tc_22_knight_steals_once_without_discards() {
    let mut s = given()
        .settlement(P1, "0,-1,N")
        .settlement(P2, "0,-1,S")
        .give(P1, Resources::new(3, 3, 2, 2, 2))
        .give(P2, Resources::new(0, 0, 0, 3, 0))
        .card(P0, DevCard::Knight)
        .turn(P0)
        .start();
    let events = s.when_with(
        P0,
        Move::PlayKnight { hex: h("0,-1"), steal_from: Some(P1), bandit: Bandit::Robber },
        FixedChance::steal(Resource::Ore),
    );
    assert_eq!(
        events,
        [
            Event::KnightPlayed { seat: P0 },
            Event::RobberMoved { seat: P0, hex: h("0,-1") },
            Event::ResourceStolen { thief: P0, victim: P1, resource: Some(Resource::Ore) },
        ]
    );
    assert_eq!(*s.game.phase(), Phase::PreRoll);
    assert_eq!(s.hand(P0), Resources::of(Resource::Ore, 1));
    assert_eq!(s.hand(P1).total(), 11);
    assert_eq!(s.hand(P2), Resources::of(Resource::Grain, 3));
    assert_eq!(s.game.view(catan_engine::Viewer::Spectator).players[0].knights_played, 1);
    assert_eq!(s.game.player(P0).unwrap().dev_card_count(), 0);
}
