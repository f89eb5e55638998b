//! 9.6 Development cards and Largest Army: TC-34 .. TC-40.

use catan_engine::{
    Bandit, DevCard, DevCards, Event, FixedChance, HexCoord, Move, Phase, Resource, Resources, Seat, VictoryCondition,
    Viewer,
};

use super::support::*;

const CARD_COST: Resources = Resources::new(0, 0, 1, 1, 1);

/// A land hex without buildings other than the robber's current one.
fn empty_hex(s: &Scenario) -> HexCoord {
    ["1,0", "2,-2"].map(h).into_iter().find(|hex| Some(*hex) != s.game.robber_hex()).unwrap()
}

fn knight(s: &Scenario) -> Move {
    Move::PlayKnight { hex: empty_hex(s), steal_from: None, bandit: Bandit::Robber }
}

/// TC-34 [B-DEV-3]: a Knight bought this turn cannot be played; on the next turn it can.
#[test]
fn tc_34_fresh_cards_wait_a_turn() {
    let mut s = given().give(P0, CARD_COST).main_phase(P0).start();
    let events = s.when_with(P0, Move::BuyDevelopmentCard, FixedChance::card(DevCard::Knight));
    assert_eq!(
        events,
        [Event::DevelopmentCardBought { seat: P0, cost: CARD_COST, discoveries: 0, card: Some(DevCard::Knight) }]
    );
    assert_eq!(s.game.development_deck().get(DevCard::Knight), 13);
    s.rejects(P0, knight(&s), "development_card_too_new");
    // Around the table with real turns.
    s.when(P0, Move::EndTurn);
    for seat in [P1, P2, P3] {
        s.rejects(P0, knight(&s), "not_your_turn");
        s.when_with(seat, Move::RollDice, FixedChance::dice(2, 3));
        s.when(seat, Move::EndTurn);
    }
    assert_eq!(s.game.active_seat(), P0);
    let events = s.when(P0, knight(&s));
    assert_eq!(events[0], Event::KnightPlayed { seat: P0 });
}

/// TC-35 [B-DEV-2]: after a Knight before the roll, no Monopoly in the same turn's MAIN.
#[test]
fn tc_35_one_development_card_per_turn() {
    let mut s = given()
        .card(P0, DevCard::Knight)
        .card(P0, DevCard::Monopoly)
        .give(P1, Resources::of(Resource::Wool, 2))
        .turn(P0)
        .start();
    s.when(P0, knight(&s));
    s.when_with(P0, Move::RollDice, FixedChance::dice(2, 2));
    assert_eq!(*s.game.phase(), Phase::Main);
    s.rejects(P0, Move::PlayMonopoly { resource: Resource::Wool }, "development_card_already_played");
    assert_eq!(s.hand(P1), Resources::of(Resource::Wool, 2));
    // Next own turn the Monopoly is fine.
    s.when(P0, Move::EndTurn);
    let mut s = s.then_given().main_phase(P0).start();
    s.when(P0, Move::PlayMonopoly { resource: Resource::Wool });
    assert_eq!(s.hand(P0), Resources::of(Resource::Wool, 2));
}

/// TC-36 [B-DEV-8, B-WIN-3]: at 9 VP, drawing a VP card wins at once and reveals it.
#[test]
fn tc_36_victory_point_card_wins_immediately() {
    let mut s = ["0,-1,N", "-1,0,S", "2,-1,N", "2,0,S"]
        .iter()
        .fold(given(), |setup, site| setup.city(P0, site))
        .settlement(P0, "0,2,N")
        .give(P0, CARD_COST)
        .main_phase(P0)
        .start();
    assert_eq!(s.game.victory_points(P0), 9);
    let events = s.when_with(P0, Move::BuyDevelopmentCard, FixedChance::card(DevCard::VictoryPoint));
    assert_eq!(
        events.last(),
        Some(&Event::GameWon {
            seat: P0,
            victory_points: 10,
            victory_point_cards: 1,
            condition: VictoryCondition::VictoryPoints
        })
    );
    assert_eq!(s.game.winner(), Some(P0));
    assert_eq!(*s.game.phase(), Phase::GameOver);
    // Revealed: everyone now sees the full total.
    assert_eq!(s.game.view(Viewer::Seat(P2)).players[0].victory_points, 10);
    s.rejects(P0, Move::EndTurn, "game_over");
}

/// TC-37 [B-DEV-5]: with one road left, Road Building places one road and ends; with none it is
/// not playable.
#[test]
fn tc_37_road_building_with_one_road_left() {
    // 14 roads: the 10 edges along the top of row 0 and 4 along the bottom of row 0, the
    // latter reaching out from a second settlement (every road connects, B-BLD-3).
    let top =
        ["-2,-1,S", "-2,0,N", "-1,-1,S", "-1,0,N", "0,-1,S", "0,0,N", "1,-1,S", "1,0,N", "2,-1,S", "2,0,N", "3,-1,S"];
    let bottom = ["-3,1,N", "-2,0,S", "-2,1,N", "-1,0,S", "-1,1,N"];
    let position = |bottom: &[&str]| {
        given()
            .settlement(P0, "-2,-1,S")
            .roads_along(P0, &top)
            .settlement(P0, "-2,1,N")
            .roads_along(P0, bottom)
            .card(P0, DevCard::RoadBuilding)
            .main_phase(P0)
            .start()
    };
    let mut s = position(&bottom);
    assert_eq!(s.game.player(P0).unwrap().roads_on_board(), 14);
    let events = s.when(P0, Move::PlayRoadBuilding);
    assert_eq!(
        events.last(),
        Some(&Event::PhaseChanged { phase: Phase::RoadBuilding { roads_left: 1 }, then: vec![Phase::Main].into() })
    );
    s.rejects(P0, Move::EndTurn, "wrong_phase");
    let events = s.when(P0, Move::BuildRoad { edge: e("-1,1,NE") });
    assert!(events.contains(&Event::RoadBuilt { seat: P0, edge: e("-1,1,NE"), cost: Resources::ZERO }));
    assert_eq!(*s.game.phase(), Phase::Main);
    assert_eq!(s.game.player(P0).unwrap().roads_on_board(), 15);
    assert!(s.hand(P0).is_empty());
    assert_eq!(s.game.player(P0).unwrap().dev_card_count(), 0);

    // With 0 roads in supply (15 on the board) the card is not playable.
    let mut bottom15 = bottom.to_vec();
    bottom15.push("0,0,S");
    let s = position(&bottom15);
    assert_eq!(s.game.player(P0).unwrap().roads_on_board(), 15);
    s.rejects(P0, Move::PlayRoadBuilding, "no_pieces_left");
}

/// TC-38 [B-DEV-6]: with no ore in the bank, Year of Plenty cannot take ore.
#[test]
fn tc_38_year_of_plenty_takes_only_what_the_bank_has() {
    use Resource::*;
    let mut s = given().give(P1, Resources::of(Ore, 19)).card(P0, DevCard::YearOfPlenty).main_phase(P0).start();
    assert_eq!(s.game.bank().get(Resource::Ore), 0);
    s.rejects(P0, Move::PlayYearOfPlenty { resources: Resources::of(Ore, 2) }, "bank_shortage");
    s.rejects(P0, Move::PlayYearOfPlenty { resources: Resources::new(0, 0, 1, 0, 1) }, "bank_shortage");
    s.rejects(P0, Move::PlayYearOfPlenty { resources: Resources::of(Wool, 3) }, "wrong_year_of_plenty_count");
    s.when(P0, Move::PlayYearOfPlenty { resources: Resources::of(Wool, 2) });
    assert_eq!(s.hand(P0), Resources::of(Wool, 2));
    assert_eq!(s.game.bank().get(Resource::Wool), 17);
}

/// TC-39 [B-DEV-7]: Monopoly on wool takes every other player's wool.
#[test]
fn tc_39_monopoly_takes_all_of_one_resource() {
    use Resource::*;
    let mut s = given()
        .give(P1, Resources::new(1, 0, 3, 0, 0))
        .give(P2, Resources::of(Ore, 2))
        .give(P3, Resources::new(0, 0, 2, 1, 0))
        .give(P0, Resources::of(Wool, 1))
        .card(P0, DevCard::Monopoly)
        .main_phase(P0)
        .start();
    s.when(P0, Move::PlayMonopoly { resource: Wool });
    assert_eq!(s.hand(P0), Resources::of(Wool, 6));
    assert_eq!(s.hand(P1), Resources::of(Lumber, 1));
    assert_eq!(s.hand(P2), Resources::of(Ore, 2));
    assert_eq!(s.hand(P3), Resources::of(Grain, 1));
    assert_eq!(s.game.bank().get(Resource::Wool), 19 - 6);
}

/// Plays a Knight for `seat` on a fresh turn of theirs and returns the events.
fn play_knight(s: &mut Scenario, seat: Seat) -> Vec<Event> {
    *s = s.then_given().turn(seat).start();
    let mv = knight(s);
    s.when(seat, mv)
}

/// TC-40 [B-LA-1, B-LA-2]: the 3rd knight takes Largest Army; a tie does not; more does.
#[test]
fn tc_40_largest_army_goes_to_three_then_strictly_more() {
    let mut s = given()
        .with_dev_cards(P1, DevCards::of(DevCard::Knight, 3), DevCards::default())
        .with_dev_cards(P2, DevCards::of(DevCard::Knight, 5), DevCards::default())
        .start();
    for _ in 0..2 {
        assert!(!play_knight(&mut s, P1).iter().any(|ev| matches!(ev, Event::LargestArmyChanged { .. })));
    }
    assert_eq!(s.game.largest_army_holder(), None);
    let events = play_knight(&mut s, P1);
    assert!(events.contains(&Event::LargestArmyChanged { holder: Some(P1), previous: None }));
    assert_eq!(s.game.victory_points(P1), 2);
    for _ in 0..3 {
        assert!(!play_knight(&mut s, P2).iter().any(|ev| matches!(ev, Event::LargestArmyChanged { .. })));
    }
    assert_eq!(s.game.largest_army_holder(), Some(P1));
    let events = play_knight(&mut s, P2);
    assert!(events.contains(&Event::LargestArmyChanged { holder: Some(P2), previous: Some(P1) }));
    assert_eq!(s.game.largest_army_holder(), Some(P2));
    assert_eq!(s.game.victory_points(P1), 0);
    assert_eq!(s.game.victory_points(P2), 2);
    // The holder's further knights change nothing.
    assert!(!play_knight(&mut s, P2).iter().any(|ev| matches!(ev, Event::LargestArmyChanged { .. })));
    assert_eq!(s.game.largest_army_holder(), Some(P2));
    let view = s.game.view(Viewer::Spectator);
    assert_eq!((view.players[1].knights_played, view.players[2].knights_played), (3, 5));
}
