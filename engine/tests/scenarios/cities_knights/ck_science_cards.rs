//! 9.12 Cities & Knights, the science deck's progress cards (RULES.md 8.6.13, CK-PC-7's
//! science table; CK-PC-2/3, CK-TURN-1..3; TC-96): one test per card, naming its rule, with
//! its effect, its refusal codes and the plays `legal_moves` lists, on the beginner board with
//! P0 first.

use catan_engine::{
    BuildingKind, Commodities, Commodity, Event, EventFace, FixedChance, Move, Phase, ProgressCard, ProgressCards,
    ProgressPlay, Resource, Resources, Seat, Setup, Track, Viewer, KNIGHT_COST,
};

use super::cities_knights::{ck, roll};
use super::support::*;

/// 2 ore + 1 grain: Medicine's city (CK-PC-7).
const MEDICINE: Resources = Resources::new(0, 0, 0, 1, 2);

/// A C&K position (4 seats) where `seat` holds `cards`.
fn holding(setup: Setup, seat: Seat, cards: &[ProgressCard]) -> Setup {
    let mut setup = setup;
    let hand = cards.iter().fold(ProgressCards::default(), |hand, &card| hand + ProgressCards::of(card, 1));
    setup.cities_knights.progress.push((seat, hand));
    setup
}

fn play(play: ProgressPlay) -> Move {
    Move::PlayProgressCard { play }
}

/// The plays of `card` that `legal_moves` lists for `seat`, sorted.
fn listed(s: &Scenario, seat: Seat, card: ProgressCard) -> Vec<String> {
    let mut plays: Vec<String> = s
        .game
        .legal_moves(seat)
        .into_iter()
        .filter_map(|m| match m {
            Move::PlayProgressCard { play } if play.card() == card => Some(format!("{play:?}")),
            _ => None,
        })
        .collect();
    plays.sort();
    plays
}

fn sorted(plays: Vec<ProgressPlay>) -> Vec<String> {
    let mut plays: Vec<String> = plays.iter().map(|p| format!("{p:?}")).collect();
    plays.sort();
    plays
}

/// CK-PC-3: the card played lies under its deck, last of the returned cards.
fn under_its_deck(s: &Scenario, card: ProgressCard) {
    assert_eq!(Setup::from(&s.game).cities_knights.returned.last(), Some(&card), "{card:?} under its deck");
    assert_eq!(s.game.progress_cards(P0).get(card), 0);
}

/// The number token on `hex` as the spectator's view shows it.
fn shown_number(s: &Scenario, hex: &str) -> Option<u8> {
    let view = s.game.view(Viewer::Spectator);
    view.board.hexes.iter().find(|t| t.hex == h(hex)).and_then(|t| t.number)
}

/// TC-96 [CK-PC-7 Alchemist, CK-TURN-3]: P0 plays the Alchemist before the roll choosing red 2
/// and white 4; the event die shows a ship → the barbarians advance first, then production
/// for 6 (the hills (0,-1) give P0's city 2 brick). The number dice are not rolled.
#[test]
fn tc_96_the_alchemist_sets_the_number_dice_after_the_event_die() {
    let given = holding(given_with(ck(4)).city(P0, "0,-1,N").road(P0, "0,-1,NE"), P0, &[ProgressCard::Alchemist]);
    let mut s = given.turn(P0).start();
    // CK-PC-7: 36 plays, one for each pair of faces.
    let expected: Vec<ProgressPlay> =
        (1..=6).flat_map(|red| (1..=6).map(move |white| ProgressPlay::Alchemist { red, white })).collect();
    assert_eq!(listed(&s, P0, ProgressCard::Alchemist), sorted(expected));
    s.rejects(P0, play(ProgressPlay::Alchemist { red: 7, white: 1 }), "die_out_of_range");
    s.rejects(P0, play(ProgressPlay::Alchemist { red: 3, white: 0 }), "die_out_of_range");
    // Dice of 5 and 5 queued: the Alchemist's 2 and 4 stand instead.
    let chance = FixedChance::dice(5, 5).then(catan_engine::EVENT_DIE, EventFace::Ship.index());
    let events = s.when_with(P0, play(ProgressPlay::Alchemist { red: 2, white: 4 }), chance);
    assert_eq!(events[0], Event::ProgressCardPlayed { seat: P0, play: ProgressPlay::Alchemist { red: 2, white: 4 } });
    assert_eq!(events[1], Event::EventDieRolled { seat: P0, face: EventFace::Ship });
    assert_eq!(events[2], Event::DiceRolled { seat: P0, red: 2, white: 4 });
    assert_eq!(events[3], Event::BarbariansAdvanced { position: 1 });
    let Event::ResourcesProduced { roll: 6, gains, .. } = &events[4] else { panic!("{events:?}") };
    assert_eq!(gains.iter().find(|g| g.seat == P0).map(|g| g.resources), Some(Resources::new(0, 2, 0, 0, 0)));
    assert_eq!(*s.game.phase(), Phase::Main);
    assert_eq!(s.game.barbarian_position(), 1);
    assert_eq!(s.hand(P0), Resources::new(0, 2, 0, 0, 0));
    under_its_deck(&s, ProgressCard::Alchemist);
    // Rolled: no second roll.
    s.rejects(P0, Move::RollDice, "already_rolled");
}

/// CK-PC-7 Alchemist, CK-TURN-2: a gate on the event die lets seats draw with the chosen red
/// die, and a chosen 7 is a 7 (CK-7: discards; the robber waits for the first attack).
#[test]
fn ck_pc_7_alchemist_the_chosen_red_die_draws_and_a_chosen_seven_is_a_seven() {
    let given = holding(given_with(ck(4)).city(P0, "0,-1,N").road(P0, "0,-1,NE"), P0, &[ProgressCard::Alchemist]);
    let mut s = given.with_improvements(P0, [0, 0, 1]).give(P1, Resources::new(2, 2, 2, 2, 0)).turn(P0).start();
    let chance = roll(EventFace::Science, 6, 6).then(catan_engine::PROGRESS_CARD, ProgressCard::Crane as usize);
    let events = s.when_with(P0, play(ProgressPlay::Alchemist { red: 2, white: 5 }), chance);
    assert_eq!(events[2], Event::DiceRolled { seat: P0, red: 2, white: 5 });
    // Science 1 draws on a red 1 or 2 (CK-IMP-6).
    assert!(events.contains(&Event::ProgressCardDrawn {
        seat: P0,
        track: Track::Science,
        card: Some(ProgressCard::Crane)
    }));
    assert!(
        matches!(s.game.phase(), Phase::Discard { pending } if pending.iter().any(|p| p.seat == P1 && p.count == 4))
    );
}

/// CK-PC-2, CK-TURN-1: the Alchemist only before the roll, every other science card only in
/// the main phase; a card not held is refused; not on another seat's turn.
#[test]
fn ck_pc_2_science_cards_keep_their_timing() {
    let cards = [ProgressCard::Alchemist, ProgressCard::Crane, ProgressCard::Mining];
    let given = holding(given_with(ck(4)).city(P0, "-1,1,N").road(P0, "-1,1,NE"), P0, &cards);
    let s = given.clone().turn(P0).start();
    s.rejects(P0, play(ProgressPlay::Crane), "progress_card_timing");
    s.rejects(P0, play(ProgressPlay::Mining), "progress_card_timing");
    assert_eq!(listed(&s, P0, ProgressCard::Crane), Vec::<String>::new());
    s.rejects(P1, play(ProgressPlay::Alchemist { red: 1, white: 1 }), "not_your_turn");
    let s = given.main_phase(P0).start();
    s.rejects(P0, play(ProgressPlay::Alchemist { red: 1, white: 1 }), "progress_card_timing");
    assert_eq!(listed(&s, P0, ProgressCard::Alchemist), Vec::<String>::new());
    s.rejects(P0, play(ProgressPlay::Irrigation), "progress_card_not_held");
    s.rejects(P0, play(ProgressPlay::Smith { knights: vec![v("0,1,N")].into() }), "progress_card_not_held");
}

/// CK-PC-7 Crane: the next improvement this turn costs one commodity less (level 1 free);
/// the Crane is used up by it, and two Cranes do not combine on one improvement.
#[test]
fn ck_pc_7_crane_takes_one_commodity_off_the_next_improvement() {
    let given = holding(
        given_with(ck(4)).city(P0, "0,-1,N").road(P0, "0,-1,NE"),
        P0,
        &[ProgressCard::Crane, ProgressCard::Crane],
    );
    let mut s = given.with_commodities(P0, Commodities::of(Commodity::Paper, 1)).main_phase(P0).start();
    assert_eq!(listed(&s, P0, ProgressCard::Crane), sorted(vec![ProgressPlay::Crane]));
    let improve = Move::BuildImprovement { track: Track::Science, city: None };
    let events = s.when(P0, play(ProgressPlay::Crane));
    assert_eq!(events, vec![Event::ProgressCardPlayed { seat: P0, play: ProgressPlay::Crane }]);
    // Everyone sees the Crane waiting (it was played face up).
    assert!(s.game.cities_and_knights_view(None).unwrap().in_force.crane);
    // Two Cranes do not combine on one improvement: the second waits for the first to be used.
    s.rejects(P0, play(ProgressPlay::Crane), "progress_card_in_force");
    // Level 1 is free: the paper stays in the hand.
    let events = s.when(P0, improve.clone());
    assert_eq!(
        events[0],
        Event::ImprovementBuilt { seat: P0, track: Track::Science, level: 1, cost: Commodities::NONE }
    );
    assert_eq!(*s.game.player(P0).unwrap().commodities(), Commodities::of(Commodity::Paper, 1));
    assert!(!s.game.cities_and_knights_view(None).unwrap().in_force.crane);
    // The Crane is used up: level 2 costs its full 2 paper.
    s.rejects(P0, improve.clone(), "insufficient_resources");
    assert_eq!(s.game.improvement_level(P0, Track::Science), 1);
    // The second Crane takes one off level 2.
    s.when(P0, play(ProgressPlay::Crane));
    let events = s.when(P0, improve.clone());
    assert_eq!(
        events[0],
        Event::ImprovementBuilt {
            seat: P0,
            track: Track::Science,
            level: 2,
            cost: Commodities::of(Commodity::Paper, 1)
        }
    );

    // One Crane: level 2 for 1 paper.
    let given = holding(given_with(ck(4)).city(P0, "0,-1,N").road(P0, "0,-1,NE"), P0, &[ProgressCard::Crane]);
    let mut s = given
        .with_improvements(P0, [0, 0, 1])
        .with_commodities(P0, Commodities::of(Commodity::Paper, 1))
        .main_phase(P0)
        .start();
    s.rejects(P0, improve.clone(), "insufficient_resources");
    s.when(P0, play(ProgressPlay::Crane));
    under_its_deck(&s, ProgressCard::Crane);
    // The waiting Crane is part of the position.
    assert!(s.then_given().cities_knights.card_turn.crane);
    let mut s = s.then_given().start();
    assert!(s.game.legal_moves(P0).contains(&improve));
    let events = s.when(P0, improve);
    assert_eq!(
        events[0],
        Event::ImprovementBuilt {
            seat: P0,
            track: Track::Science,
            level: 2,
            cost: Commodities::of(Commodity::Paper, 1)
        }
    );
    assert!(s.game.player(P0).unwrap().commodities().is_empty());
}

/// CK-PC-7 Engineer, CK-WALL-1: a free wall under one of P0's cities without one, three at
/// most; listed for each such city.
#[test]
fn ck_pc_7_engineer_builds_a_free_city_wall() {
    let mut given = holding(
        given_with(ck(4))
            .city(P0, "-1,-1,N")
            .city(P0, "1,-1,N")
            .city(P0, "0,1,N")
            .settlement(P0, "2,-2,N")
            .city(P1, "0,-2,N"),
        P0,
        &[ProgressCard::Engineer],
    )
    .main_phase(P0);
    given.cities_knights.walls = vec![v("-1,-1,N")];
    let mut s = given.clone().start();
    assert_eq!(
        listed(&s, P0, ProgressCard::Engineer),
        sorted(vec![ProgressPlay::Engineer { vertex: v("1,-1,N") }, ProgressPlay::Engineer { vertex: v("0,1,N") }])
    );
    s.rejects(P0, play(ProgressPlay::Engineer { vertex: v("-1,-1,N") }), "vertex_occupied");
    s.rejects(P0, play(ProgressPlay::Engineer { vertex: v("2,-2,N") }), "not_your_city");
    s.rejects(P0, play(ProgressPlay::Engineer { vertex: v("0,-2,N") }), "not_your_city");
    s.rejects(P0, play(ProgressPlay::Engineer { vertex: v("9,9,N") }), "unknown_vertex");
    let events = s.when(P0, play(ProgressPlay::Engineer { vertex: v("0,1,N") }));
    assert_eq!(events[1], Event::CityWallBuilt { seat: P0, vertex: v("0,1,N"), cost: Resources::ZERO });
    assert!(s.game.has_wall(v("0,1,N")));
    assert_eq!(s.hand(P0), Resources::ZERO);
    under_its_deck(&s, ProgressCard::Engineer);
    // Three walls already: no fourth.
    given.cities_knights.walls = vec![v("-1,-1,N"), v("1,-1,N"), v("0,1,N")];
    let s = given.city(P0, "-2,1,N").start();
    s.rejects(P0, play(ProgressPlay::Engineer { vertex: v("-2,1,N") }), "no_pieces_left");
    assert_eq!(listed(&s, P0, ProgressCard::Engineer), Vec::<String>::new());
}

/// CK-PC-7 Inventor: two number tokens other than 2, 12, 6 and 8 swap places; production,
/// the views and a later position read the new numbers; every valid pair is listed.
#[test]
fn ck_pc_7_inventor_swaps_two_number_tokens() {
    let given = holding(given_with(ck(4)).settlement(P0, "1,0,N").road(P0, "1,0,NE"), P0, &[ProgressCard::Inventor]);
    let mut s = given.main_phase(P0).start();
    let swap = |a: &str, b: &str| play(ProgressPlay::Inventor { hexes: [h(a), h(b)] });
    // The beginner board's 12 tokens of 3, 4, 5, 9, 10 and 11: each ordered pair.
    let open = ["0,-2", "2,-2", "1,-1", "2,-1", "-2,0", "-1,0", "1,0", "-1,1", "0,1", "1,1", "-2,2", "0,2"];
    let pairs: Vec<ProgressPlay> = open
        .iter()
        .flat_map(|a| open.iter().filter(move |b| *b != a).map(move |b| ProgressPlay::Inventor { hexes: [h(a), h(b)] }))
        .collect();
    assert_eq!(pairs.len(), 132);
    assert_eq!(listed(&s, P0, ProgressCard::Inventor), sorted(pairs));
    s.rejects(P0, swap("0,-1", "1,0"), "number_not_swappable"); // a 6
    s.rejects(P0, swap("1,0", "2,0"), "number_not_swappable"); // an 8
    s.rejects(P0, swap("1,-2", "1,0"), "number_not_swappable"); // a 2
    s.rejects(P0, swap("1,0", "-1,-1"), "number_not_swappable"); // a 12
    s.rejects(P0, swap("0,0", "1,0"), "number_not_swappable"); // the desert
    s.rejects(P0, swap("1,0", "1,0"), "same_hex_twice");
    s.rejects(P0, swap("1,0", "7,7"), "unknown_hex");
    let events = s.when(P0, swap("1,0", "0,2"));
    assert_eq!(events[1], Event::NumberTokensSwapped { seat: P0, hexes: [h("1,0"), h("0,2")], numbers: [3, 11] });
    assert_eq!((shown_number(&s, "1,0"), shown_number(&s, "0,2")), (Some(11), Some(3)));
    under_its_deck(&s, ProgressCard::Inventor);
    // The next turn, an 11 makes the forest (1,0) give P0's settlement a lumber; a 3 does not.
    let mut s = s.then_given().turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 5, 6));
    let Some(Event::ResourcesProduced { gains, .. }) =
        events.iter().find(|e| matches!(e, Event::ResourcesProduced { .. }))
    else {
        panic!("{events:?}")
    };
    assert_eq!(gains.iter().find(|g| g.seat == P0).map(|g| g.resources), Some(Resources::of(Resource::Lumber, 1)));
    let mut s = s.then_given().turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 1, 2));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::ResourcesProduced { gains, .. } if gains.iter().any(|g| g.seat == P0))));
}

/// CK-PC-7 Irrigation: 2 grain for each fields hex touching P0's settlements or cities, a
/// hex once however many buildings touch it, the robber no matter; the bank gives what it
/// has; nothing to take is refused.
#[test]
fn ck_pc_7_irrigation_gives_two_grain_per_fields_hex() {
    // (0,1) fields touches both buildings; (-1,2) fields the city; the robber on (0,1).
    let base = given_with(ck(4)).settlement(P0, "0,1,N").city(P0, "0,1,S").robber("0,1").main_phase(P0);
    let mut s = holding(base.clone(), P0, &[ProgressCard::Irrigation]).start();
    assert_eq!(listed(&s, P0, ProgressCard::Irrigation), sorted(vec![ProgressPlay::Irrigation]));
    let events = s.when(P0, play(ProgressPlay::Irrigation));
    assert_eq!(events[1], Event::ResourcesHarvested { seat: P0, resources: Resources::of(Resource::Grain, 4) });
    assert_eq!(s.hand(P0), Resources::of(Resource::Grain, 4));
    under_its_deck(&s, ProgressCard::Irrigation);
    // The bank holds 3 grain: P0 takes 3.
    let mut s =
        holding(base.clone(), P0, &[ProgressCard::Irrigation]).give(P1, Resources::of(Resource::Grain, 16)).start();
    s.when(P0, play(ProgressPlay::Irrigation));
    assert_eq!(s.hand(P0), Resources::of(Resource::Grain, 3));
    assert_eq!(s.game.bank().get(Resource::Grain), 0);
    // No grain in the bank: refused, not listed.
    let s = holding(base, P0, &[ProgressCard::Irrigation]).give(P1, Resources::of(Resource::Grain, 19)).start();
    s.rejects(P0, play(ProgressPlay::Irrigation), "bank_shortage");
    // No fields hex beside P0's buildings: refused.
    let s = holding(given_with(ck(4)).city(P0, "-1,1,N").main_phase(P0), P0, &[ProgressCard::Irrigation]).start();
    s.rejects(P0, play(ProgressPlay::Irrigation), "no_hex_to_harvest");
}

/// CK-PC-7 Mining: 2 ore for each mountains hex touching P0's buildings.
#[test]
fn ck_pc_7_mining_gives_two_ore_per_mountains_hex() {
    // The mountains (-1,1) touch the city on (-1,1,N) and the settlement on (-1,1,S); the
    // mountains (0,-2) touch the settlement on (0,-1,N).
    let given = given_with(ck(4)).city(P0, "-1,1,N").settlement(P0, "-1,1,S").settlement(P0, "0,-1,N");
    let mut s = holding(given.main_phase(P0), P0, &[ProgressCard::Mining]).start();
    assert_eq!(listed(&s, P0, ProgressCard::Mining), sorted(vec![ProgressPlay::Mining]));
    let events = s.when(P0, play(ProgressPlay::Mining));
    // (-1,1) once, and (0,-2) beside (0,-1,N).
    assert_eq!(events[1], Event::ResourcesHarvested { seat: P0, resources: Resources::of(Resource::Ore, 4) });
    assert_eq!(s.hand(P0), Resources::of(Resource::Ore, 4));
    under_its_deck(&s, ProgressCard::Mining);
    let s = holding(given_with(ck(4)).city(P0, "0,1,N").main_phase(P0), P0, &[ProgressCard::Mining]).start();
    s.rejects(P0, play(ProgressPlay::Mining), "no_hex_to_harvest");
    assert_eq!(listed(&s, P0, ProgressCard::Mining), Vec::<String>::new());
}

/// CK-PC-7 Medicine: P0's settlement becomes a city for 2 ore + 1 grain; the city piece
/// limit holds; a pillaged city standing without a piece takes none back (CK-BAR-8).
#[test]
fn ck_pc_7_medicine_upgrades_a_settlement_for_two_ore_and_a_grain() {
    let given = given_with(ck(4))
        .settlement(P0, "0,1,N")
        .settlement(P0, "-2,1,N")
        .city(P0, "1,-1,N")
        .settlement(P1, "0,-2,N")
        .give(P0, MEDICINE);
    let mut s = holding(given.clone().main_phase(P0), P0, &[ProgressCard::Medicine]).start();
    assert_eq!(
        listed(&s, P0, ProgressCard::Medicine),
        sorted(vec![ProgressPlay::Medicine { vertex: v("0,1,N") }, ProgressPlay::Medicine { vertex: v("-2,1,N") }])
    );
    s.rejects(P0, play(ProgressPlay::Medicine { vertex: v("1,-1,N") }), "not_your_settlement");
    s.rejects(P0, play(ProgressPlay::Medicine { vertex: v("0,-2,N") }), "not_your_settlement");
    s.rejects(P0, play(ProgressPlay::Medicine { vertex: v("9,9,N") }), "unknown_vertex");
    let points = s.game.public_victory_points(P0);
    let events = s.when(P0, play(ProgressPlay::Medicine { vertex: v("0,1,N") }));
    assert_eq!(events[1], Event::CityBuilt { seat: P0, vertex: v("0,1,N"), cost: MEDICINE });
    assert_eq!(s.game.building_at(v("0,1,N")).map(|b| b.kind), Some(BuildingKind::City));
    assert_eq!(s.hand(P0), Resources::ZERO);
    assert_eq!(s.game.public_victory_points(P0), points + 1);
    under_its_deck(&s, ProgressCard::Medicine);
    // 1 ore short: refused.
    let s = holding(given.clone().main_phase(P0), P0, &[ProgressCard::Medicine])
        .with_hand(P0, Resources::new(0, 0, 0, 1, 1))
        .start();
    s.rejects(P0, play(ProgressPlay::Medicine { vertex: v("0,1,N") }), "insufficient_resources");
    assert_eq!(listed(&s, P0, ProgressCard::Medicine), Vec::<String>::new());
    // All four cities on the board: no city piece left.
    let s = holding(
        given.clone().city(P0, "-1,-1,N").city(P0, "2,-2,N").city(P0, "0,2,N").main_phase(P0),
        P0,
        &[ProgressCard::Medicine],
    )
    .start();
    s.rejects(P0, play(ProgressPlay::Medicine { vertex: v("0,1,N") }), "no_pieces_left");
    // CK-BAR-8: a pillaged city standing as a settlement without a piece.
    let mut pillaged = holding(
        given_with(ck(4))
            .settlement(P0, "1,-1,N")
            .settlement(P0, "0,1,N")
            .settlement(P0, "-2,1,N")
            .settlement(P0, "1,1,N")
            .settlement(P0, "2,-2,N")
            .settlement(P0, "-1,-1,N")
            .give(P0, MEDICINE)
            .main_phase(P0),
        P0,
        &[ProgressCard::Medicine],
    );
    pillaged.cities_knights.pillaged = vec![v("-1,-1,N")];
    let mut s = pillaged.start();
    assert_eq!(s.game.player(P0).unwrap().pieces_left().settlements, 0);
    s.when(P0, play(ProgressPlay::Medicine { vertex: v("-1,-1,N") }));
    assert_eq!(s.game.player(P0).unwrap().pieces_left().settlements, 0);
    assert_eq!(s.game.player(P0).unwrap().pieces_left().cities, 3);
}

/// CK-PC-7 Road Building, B-DEV-5: two free roads with `build_road`, then the main phase
/// resumes; with no road to place, the card is refused.
#[test]
fn ck_pc_7_road_building_places_two_free_roads() {
    let given = given_with(ck(4)).city(P0, "0,1,N").road(P0, "0,1,NE");
    let mut s = holding(given.main_phase(P0), P0, &[ProgressCard::RoadBuilding]).start();
    assert_eq!(listed(&s, P0, ProgressCard::RoadBuilding), sorted(vec![ProgressPlay::RoadBuilding]));
    let events = s.when(P0, play(ProgressPlay::RoadBuilding));
    assert_eq!(
        events[1],
        Event::PhaseChanged { phase: Phase::RoadBuilding { roads_left: 2 }, then: vec![Phase::Main].into() }
    );
    under_its_deck(&s, ProgressCard::RoadBuilding);
    // The phase round-trips as a position.
    let rebuilt = s.then_given().position().unwrap_or_else(|e| panic!("{} {e}", e.code()));
    assert!(rebuilt == s.game, "the road building phase round-trips");
    s.rejects(P0, Move::EndTurn, "wrong_phase");
    let first = s.game.legal_moves(P0)[0].clone();
    assert!(matches!(first, Move::BuildRoad { .. }));
    s.when(P0, first);
    assert_eq!(*s.game.phase(), Phase::RoadBuilding { roads_left: 1 });
    let second = s.game.legal_moves(P0)[0].clone();
    let events = s.when(P0, second);
    assert!(matches!(events[0], Event::RoadBuilt { seat: P0, cost, .. } if cost == Resources::ZERO));
    assert_eq!(*s.game.phase(), Phase::Main);
    assert_eq!(s.game.player(P0).unwrap().pieces_left().roads, 12);
    assert_eq!(s.hand(P0), Resources::ZERO);

    // P1's roads take the three edges of P0's only building: no road to place.
    let given = given_with(ck(4))
        .settlement(P0, "0,1,N")
        .settlement(P1, "1,1,N")
        .roads_along(P1, &["1,1,N", "1,0,S", "0,1,N", "0,0,S"])
        .roads_along(P1, &["0,1,N", "1,-1,S"]);
    let s = holding(given.main_phase(P0), P0, &[ProgressCard::RoadBuilding]).start();
    s.rejects(P0, play(ProgressPlay::RoadBuilding), "no_legal_road");
}

/// CK-PC-7 Smith, CK-KNT-3: one or two distinct knights promoted for free, each once per
/// turn, mighty with Politics 3 only; every valid choice is listed.
#[test]
fn ck_pc_7_smith_promotes_up_to_two_knights_for_free() {
    let given = |politics: u8| {
        holding(
            given_with(ck(4))
                .city(P0, "0,-1,N")
                .road(P0, "0,-1,NE")
                .with_knight(P0, v("1,-2,S"), 1, true)
                .with_knight(P0, v("0,-1,S"), 2, false)
                .with_improvements(P0, [0, politics, 0])
                .give(P0, KNIGHT_COST)
                .main_phase(P0),
            P0,
            &[ProgressCard::Smith],
        )
        .start()
    };
    let (basic, strong) = (v("1,-2,S"), v("0,-1,S"));
    let smith = |knights: Vec<catan_engine::VertexId>| play(ProgressPlay::Smith { knights: knights.into() });
    // Politics 2: the strong knight stays; the basic one alone.
    let s = given(2);
    assert_eq!(listed(&s, P0, ProgressCard::Smith), sorted(vec![ProgressPlay::Smith { knights: vec![basic].into() }]));
    s.rejects(P0, smith(vec![strong]), "politics_level_required");
    s.rejects(P0, smith(vec![basic, strong]), "politics_level_required");
    s.rejects(P0, smith(vec![]), "wrong_knight_count");
    s.rejects(P0, smith(vec![basic, basic, strong]), "wrong_knight_count");
    s.rejects(P0, smith(vec![basic, basic]), "knight_already_promoted");
    s.rejects(P0, smith(vec![v("0,1,N")]), "not_your_knight");
    // Politics 3: either or both, in either order.
    let mut s = given(3);
    assert_eq!(
        listed(&s, P0, ProgressCard::Smith),
        sorted(vec![
            ProgressPlay::Smith { knights: vec![basic].into() },
            ProgressPlay::Smith { knights: vec![strong].into() },
            ProgressPlay::Smith { knights: vec![basic, strong].into() },
            ProgressPlay::Smith { knights: vec![strong, basic].into() },
        ])
    );
    let hand = s.hand(P0);
    let events = s.when(P0, smith(vec![strong, basic]));
    assert_eq!(
        events[1..],
        [
            Event::KnightPromoted { seat: P0, vertex: strong, rank: 3, cost: Resources::ZERO },
            Event::KnightPromoted { seat: P0, vertex: basic, rank: 2, cost: Resources::ZERO },
        ]
    );
    let ranks = (s.game.knight_at(strong).unwrap(), s.game.knight_at(basic).unwrap());
    assert_eq!((ranks.0.rank, ranks.0.active, ranks.1.rank, ranks.1.active), (3, false, 2, true));
    assert_eq!(s.hand(P0), hand);
    under_its_deck(&s, ProgressCard::Smith);
    // CK-KNT-3: not promoted again this turn, even paying.
    s.rejects(P0, Move::PromoteKnight { vertex: basic }, "knight_already_promoted");
    // Promoted by paying first: the Smith may not promote it again.
    let mut s = given(3);
    s.when(P0, Move::PromoteKnight { vertex: basic });
    s.rejects(P0, smith(vec![basic]), "knight_already_promoted");
    assert_eq!(listed(&s, P0, ProgressCard::Smith), sorted(vec![ProgressPlay::Smith { knights: vec![strong].into() }]));
}
