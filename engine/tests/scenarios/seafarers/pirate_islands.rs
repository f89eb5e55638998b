//! The Pirate Islands (RULES-SCENARIOS section 4; TC-114..TC-124) on the fixed 4-player map
//! ("4"): pre-placed pieces and fortresses, ship lanes, the pirate fleet, warships and the
//! fortress attacks.

use catan_engine::{
    board::HexCoord, cost, BattleOutcome, DevCard, Draw, Event, FixedChance, Game, GameConfig, Move, Phase,
    PirateVpCards, ScenarioId, Seat, Setup, Viewer,
};

use crate::support::*;

fn pirate_config(players: u8) -> GameConfig {
    GameConfig { seafarers: true, scenario: Some(ScenarioId::PirateIslands), ..config(players) }
}

/// P0's ships from its pre-placed ship along its lane to its fortress (-6,3,S) (Appendix A,
/// entry 0): the last two are TC-120's.
const TO_FORTRESS: [&str; 9] =
    ["-2,2,SE", "-3,3,NE", "-3,2,SE", "-4,3,NE", "-4,2,SE", "-5,3,E", "-5,3,SE", "-6,4,NE", "-6,3,SE"];
/// P0's ships from its pre-placed ship to its lone vertex (-5,4,N) (TC-123).
const TO_LONE: [&str; 6] = ["-2,2,SE", "-3,3,E", "-3,3,SE", "-4,4,NE", "-4,3,SE", "-5,4,NE"];

/// A fresh game's position (setup next) of `config`, to give more from.
fn fresh(config: GameConfig) -> Setup {
    given_with(config)
}

/// The fleet at `index` of its path (PIR-11).
fn with_fleet(mut setup: Setup, index: u8) -> Setup {
    let game = Game::new(setup.config.clone(), 7).unwrap();
    let path = game.view(Viewer::Spectator).pirate_islands.unwrap().fleet_path;
    setup.pirate = Some(path[usize::from(index)]);
    setup.seafarers.pirate_islands.fleet_index = index;
    setup
}

fn with_warships(mut setup: Setup, edges: &[&str]) -> Setup {
    setup.seafarers.pirate_islands.warships = edges.iter().map(|x| e(x)).collect();
    setup
}

fn with_strength(mut setup: Setup, seat: Seat, strength: u8) -> Setup {
    for f in setup.seafarers.pirate_islands.fortresses.iter_mut().filter(|f| f.seat == seat) {
        f.strength = strength;
    }
    setup
}

/// `seat`'s fortress conquered: strength 0 and its settlement on the vertex (PIR-19).
fn conquered(setup: Setup, seat: Seat) -> Setup {
    let vertex = setup.seafarers.pirate_islands.fortresses.iter().find(|f| f.seat == seat).unwrap().vertex;
    with_strength(setup, seat, 0).with_building(vertex, seat, catan_engine::BuildingKind::Settlement)
}

/// Ships of P0 beyond the pre-placed one.
fn p0_ships(setup: Setup, edges: &[&str]) -> Setup {
    edges.iter().filter(|x| **x != "-2,2,SE").fold(setup, |s, x| s.ship(P0, x))
}

fn view(game: &Game) -> catan_engine::PirateIslandsView {
    game.view(Viewer::Spectator).pirate_islands.expect("the pirate islands' view")
}

/// Free main-island sites for `count` buildings, away from every building.
fn free_sites(game: &Game, count: usize) -> Vec<String> {
    let board = game.board();
    let mut taken: Vec<u16> = (0..board.vertices.len() as u16).filter(|&x| game.building_index(x).is_some()).collect();
    let mut sites = Vec::new();
    for x in 0..board.vertices.len() as u16 {
        let near = |y: u16| y == x || board.neighbours_of(x).any(|n| n == y);
        if sites.len() < count && board.vertex_is_buildable[x as usize] && !taken.iter().any(|&y| near(y)) {
            taken.push(x);
            sites.push(board.vertices[x as usize].to_string());
        }
    }
    assert_eq!(sites.len(), count);
    sites
}

/// TC-114 [PIR-4, PIR-5, SCN-2]: the pre-placed settlement, ship and fortress; 3 settlements
/// left with one waiting under the fortress; the setup snake on the main island, resources for
/// the round-2 settlement only.
#[test]
fn tc_114_pre_placed_pieces_and_the_setup_on_the_main_island() {
    let mut s = Scenario::with(pirate_config(4));
    let game = &s.game;
    assert_eq!(game.building_index(game.board().vertex(v("-2,3,N")).unwrap()).map(|b| b.seat), Some(P0));
    assert_eq!(game.ship_index(game.board().edge(e("-2,2,SE")).unwrap()), Some(P0));
    let seat0 = &view(game).seats[0];
    assert_eq!((seat0.fortress, seat0.fortress_strength, seat0.lone_vertex), (v("-6,3,S"), 3, v("-5,4,N")));
    assert_eq!(game.player(P0).unwrap().pieces_left().settlements, 3, "5 - pre-placed - reserved");
    assert_eq!(game.player(P0).unwrap().pieces_left().ships, 14);
    assert_eq!(view(game).fleet_hex, Some(HexCoord::new(-3, 3)), "the fleet starts on entry 0");
    // PIR-5: not on the pirate islands; the main island takes it.
    s.rejects(P0, Move::BuildSettlement { vertex: v("-5,4,N") }, "vertex_not_buildable");
    let mut order = Vec::new();
    for placement in 0..8 {
        let Phase::Setup { seat, .. } = *s.game.phase() else { panic!("setup ends early") };
        order.push(seat.0);
        let settle = s.game.legal_moves(seat).into_iter().next().unwrap();
        let events = s.when(seat, settle);
        let gets = events.iter().any(|x| {
            matches!(
                x,
                Event::StartingResourcesReceived { .. } | Event::PhaseChanged { phase: Phase::GoldChoice { .. }, .. }
            )
        });
        assert_eq!(gets, placement >= 4, "resources for the round-2 settlement only");
        if let Phase::GoldChoice { .. } = s.game.phase() {
            let pick = s.game.legal_moves(seat).into_iter().next().unwrap();
            s.when(seat, pick);
        }
        let piece = s.game.legal_moves(seat).into_iter().next().unwrap();
        s.when(seat, piece);
    }
    assert_eq!(order, [0, 1, 2, 3, 3, 2, 1, 0]);
    assert_eq!(s.game.player(P0).unwrap().pieces_left().settlements, 1);
}

/// PIR-5 with SCN-6: `pir_setup_rounds` is the general `setup_rounds` option (default 2);
/// with 3 (three seats), the snake is followed by a clockwise round from the first player, the round-3
/// settlement brings the resources, and the supply is spent but the settlement under the
/// fortress.
#[test]
fn pir_5_three_setup_rounds_by_option() {
    let mut s = Scenario::with(GameConfig { setup_rounds: Some(3), ..pirate_config(3) });
    let (mut order, mut paid) = (Vec::new(), Vec::new());
    while let Phase::Setup { seat, .. } = *s.game.phase() {
        order.push(seat.0);
        let settle = s.game.legal_moves(seat).into_iter().next().unwrap();
        let events = s.when(seat, settle);
        paid.push(events.iter().any(|x| {
            matches!(
                x,
                Event::StartingResourcesReceived { .. } | Event::PhaseChanged { phase: Phase::GoldChoice { .. }, .. }
            )
        }));
        if let Phase::GoldChoice { .. } = s.game.phase() {
            let pick = s.game.legal_moves(seat).into_iter().next().unwrap();
            s.when(seat, pick);
        }
        let piece = s.game.legal_moves(seat).into_iter().next().unwrap();
        s.when(seat, piece);
    }
    assert_eq!(order, [0, 1, 2, 2, 1, 0, 0, 1, 2]);
    assert_eq!(paid, [[false; 6].as_slice(), &[true; 3]].concat());
    assert_eq!(s.game.player(P0).unwrap().pieces_left().settlements, 0, "one waits under the fortress");
    // SCN-6: four seats' twelve placements may find no site on the main island (its 36
    // sites guarantee 9), six seats' eighteen neither (48 sites, 12): refused before the
    // game starts.
    for (players, five_six) in [(4, false), (6, true)] {
        let config = GameConfig { setup_rounds: Some(3), five_six_extension: five_six, ..pirate_config(players) };
        let refused = Game::new(config, 7).map(drop).expect_err("no room for a third round");
        assert_eq!(refused.code(), "invalid_config");
        assert!(refused.to_string().contains("SCN-6"), "{refused}");
    }
}

/// TC-115 [PIR-7, PIR-8, PIR-22]: ships on the own lane only, never a third at a point; roads
/// where ships may not; the fleet's hex is closed to ships.
#[test]
fn tc_115_ships_keep_to_their_lane_without_branching_and_off_the_fleet() {
    let given = with_fleet(fresh(pirate_config(4)), 5).main_phase(P0).give(P0, cost::SHIP + cost::SHIP + cost::ROAD);
    let mut s = given.start();
    s.when(P0, Move::BuildShip { edge: e("-3,3,NE") });
    s.rejects(P0, Move::BuildShip { edge: e("-3,3,E") }, "ship_route_branches");
    s.rejects(P0, Move::BuildShip { edge: e("-2,2,E") }, "not_on_ship_lane");
    s.when(P0, Move::BuildRoad { edge: e("-2,2,E") });
    // PIR-22: at index 0 the fleet sits on (-3,3).
    let s = with_fleet(fresh(pirate_config(4)), 0).main_phase(P0).give(P0, cost::SHIP).start();
    s.rejects(P0, Move::BuildShip { edge: e("-3,3,NE") }, "pirate_blocks_edge");
}

/// PIR-9 with PIR-7: a moved ship keeps to the lane; a moved warship stays a warship.
#[test]
fn pir_9_a_moved_warship_stays_a_warship_on_its_lane() {
    let given = with_fleet(p0_ships(fresh(pirate_config(4)), &["-3,3,NE"]), 5).main_phase(P0);
    let mut s = with_warships(given, &["-3,3,NE"]).start();
    s.rejects(P0, Move::MoveShip { from: e("-3,3,NE"), to: e("-2,2,E") }, "not_on_ship_lane");
    s.when(P0, Move::MoveShip { from: e("-3,3,NE"), to: e("-3,3,E") });
    assert_eq!(view(&s.game).seats[0].warships, vec![e("-3,3,E")]);
}

/// The roll of TC-116: the fleet from index 11 to 13, (-2,2), beside P0's settlement only.
fn fleet_attack(warships: &[&str], red: u8, white: u8) -> (Scenario, Vec<Event>) {
    let ships: Vec<&str> = ["-3,3,NE", "-3,2,SE"].into_iter().take(warships.len().saturating_sub(1)).collect();
    let given = with_fleet(p0_ships(fresh(pirate_config(4)), &ships), 11).turn(P0);
    let given = with_warships(given, warships).give(P0, cost::ROAD + cost::ROAD);
    let mut s = given.start();
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(red, white));
    (s, events)
}

/// TC-116 [PIR-11, PIR-12, PIR-13, PIR-14]: the lower die moves the fleet and is its strength;
/// fewer warships lose 1 + cities random cards, as many tie, more win a card of choice.
#[test]
fn tc_116_the_fleet_attacks_the_one_seat_beside_it() {
    for (red, white) in [(2, 3), (5, 2)] {
        let (s, events) = fleet_attack(&[], red, white);
        let moved = Event::PirateFleetMoved { from: h("-2,0"), to: h("-2,2"), steps: 2, strength: 2 };
        assert!(events.contains(&moved), "{events:?}");
        let attack = events.iter().find_map(|x| match x {
            Event::FleetAttack { seat, strength, warships, outcome, cards_lost, resources } => {
                Some((*seat, *strength, *warships, *outcome, *cards_lost, *resources))
            }
            _ => None,
        });
        let (seat, strength, warships, outcome, cards_lost, lost) = attack.expect("an attack");
        assert_eq!((seat, strength, warships, outcome, cards_lost), (P0, 2, 0, BattleOutcome::Lost, 1));
        assert_eq!(lost.unwrap().total(), 1);
        assert_eq!(view(&s.game).fleet_index, 13);
        // The cards are the victim's secret (PIR-14, B-ROB-3).
        let seen =
            events.iter().find(|x| matches!(x, Event::FleetAttack { .. })).unwrap().redacted_for(Viewer::Seat(P1));
        assert!(matches!(seen, Event::FleetAttack { resources: None, cards_lost: 1, .. }));
        let produced: u32 = events
            .iter()
            .filter_map(|x| match x {
                Event::ResourcesProduced { gains, .. } => {
                    gains.iter().find(|g| g.seat == P0).map(|g| g.resources.total())
                }
                _ => None,
            })
            .sum();
        assert_eq!(s.hand(P0).total(), 4 - 1 + produced);
    }
    let (_, events) = fleet_attack(&["-2,2,SE", "-3,3,NE"], 2, 3);
    assert!(events.iter().any(|x| matches!(x, Event::FleetAttack { outcome: BattleOutcome::Tie, cards_lost: 0, .. })));
    let (mut s, events) = fleet_attack(&["-2,2,SE", "-3,3,NE", "-3,2,SE"], 2, 3);
    assert!(events.iter().any(|x| matches!(x, Event::FleetAttack { outcome: BattleOutcome::Won, .. })));
    let Phase::GoldChoice { pending, .. } = s.game.phase().clone() else { panic!("a pick: {:?}", s.game.phase()) };
    assert_eq!(pending.iter().find(|p| p.seat == P0).map(|p| p.count), Some(1));
    let before = s.hand(P0).total();
    let wool = catan_engine::Resources::new(0, 0, 1, 0, 0);
    s.when(P0, Move::ChooseGoldResources { resources: wool });
    assert!(s.hand(P0).total() > before, "the card of choice arrived with the production");
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// TC-117 [PIR-13]: two seats beside the fleet's hex: nobody is attacked.
#[test]
fn tc_117_two_seats_beside_the_fleet_are_not_attacked() {
    let given = with_fleet(fresh(pirate_config(2)), 11).settlement(P1, "-2,2,N").turn(P0).give(P0, cost::ROAD);
    let mut s = given.start();
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(2, 3));
    assert!(events.iter().any(|x| matches!(x, Event::PirateFleetMoved { steps: 2, .. })));
    assert!(!events.iter().any(|x| matches!(x, Event::FleetAttack { .. })), "{events:?}");
}

/// TC-118 [PIR-10, PIR-11]: on a 7 the fleet sails first, then the discards, then the roller
/// takes a card from anyone, or nobody; nothing is moved.
#[test]
fn tc_118_a_seven_sails_the_fleet_then_discards_then_steals_from_anyone() {
    let eight = catan_engine::Resources::new(2, 2, 2, 2, 0);
    let given = with_fleet(fresh(pirate_config(4)), 0).turn(P0).give(P1, eight).give(P2, cost::ROAD);
    let mut s = given.start();
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(3, 4));
    assert!(events.contains(&Event::PirateFleetMoved { from: h("-3,3"), to: h("-4,1"), steps: 3, strength: 3 }));
    assert!(!events.iter().any(|x| matches!(x, Event::FleetAttack { .. })));
    assert!(matches!(s.game.phase(), Phase::Discard { .. }), "{:?}", s.game.phase());
    let discard = s.game.legal_moves(P1).into_iter().next().unwrap();
    s.when(P1, discard);
    assert_eq!(*s.game.phase(), Phase::StealAny);
    let moves = s.game.legal_moves(P0);
    let victims = [None, Some(P1), Some(P2)];
    assert_eq!(moves, victims.map(|steal_from| Move::ChooseStealVictim { steal_from }).to_vec());
    s.rejects(P0, Move::ChooseStealVictim { steal_from: Some(P3) }, "invalid_victim");
    let events = s.when(P0, Move::ChooseStealVictim { steal_from: Some(P2) });
    assert!(events.iter().any(|x| matches!(x, Event::ResourceStolen { thief: P0, victim: P2, .. })));
    assert_eq!(*s.game.phase(), Phase::Main);
    assert!(s.game.view(Viewer::Spectator).board.robber.is_none(), "no robber (PIR-2)");
}

/// PIR-10: nobody to rob: the steal is skipped at once.
#[test]
fn pir_10_a_seven_with_no_card_to_steal_skips_the_steal() {
    let mut s = with_fleet(fresh(pirate_config(4)), 0).turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(3, 4));
    assert!(events.contains(&Event::StealSkipped { seat: P0 }));
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// TC-119 [PIR-15, PIR-17]: a Knight makes the oldest ship a warship; with none left to make,
/// it is refused; no Largest Army.
#[test]
fn tc_119_knights_make_warships_and_no_largest_army() {
    let mut s = fresh(pirate_config(4)).main_phase(P0).card(P0, DevCard::Knight).start();
    let events = s.when(P0, Move::PlayWarship { ship: None });
    assert!(events.contains(&Event::ShipBecameWarship { seat: P0, edge: e("-2,2,SE") }));
    assert_eq!(view(&s.game).seats[0].warships, vec![e("-2,2,SE")]);
    let hex = HexCoord::new(1, -2);
    let given = with_warships(fresh(pirate_config(4)).main_phase(P0).card(P0, DevCard::Knight), &["-2,2,SE"]);
    let s = given.start();
    s.rejects(P0, Move::PlayWarship { ship: None }, "no_ship_for_warship");
    s.rejects(P0, Move::PlayKnight { hex, steal_from: None, bandit: Default::default() }, "not_in_this_game");
    // The third Knight played: no Largest Army (PIR-17).
    let given = fresh(pirate_config(4)).main_phase(P0).card(P0, DevCard::Knight).with_knights_played(P0, 2);
    let mut s = given.start();
    let events = s.when(P0, Move::PlayWarship { ship: None });
    assert!(!events.iter().any(|x| matches!(x, Event::LargestArmyChanged { .. })));
    assert_eq!(s.game.view(Viewer::Spectator).largest_army, None);
}

/// PIR-15 with `pir_warship_choice = player_choice`: the play names the ship.
#[test]
fn pir_15_the_player_may_choose_the_warship() {
    let config = GameConfig { pir_warship_choice: catan_engine::WarshipChoice::PlayerChoice, ..pirate_config(4) };
    let mut s = p0_ships(fresh(config), &["-3,3,NE"]).main_phase(P0).card(P0, DevCard::Knight).start();
    s.rejects(P0, Move::PlayWarship { ship: None }, "wrong_phase");
    s.rejects(P0, Move::PlayWarship { ship: Some(e("-2,2,E")) }, "not_a_warship_candidate");
    s.when(P0, Move::PlayWarship { ship: Some(e("-3,3,NE")) });
    assert_eq!(view(&s.game).seats[0].warships, vec![e("-3,3,NE")]);
}

fn at_the_fortress(config: GameConfig, strength: u8) -> Setup {
    let given = with_strength(p0_ships(fresh(config), &TO_FORTRESS), P0, strength).main_phase(P0);
    with_warships(given, &["-6,4,NE", "-6,3,SE"])
}

fn die(face: usize) -> FixedChance {
    FixedChance::default().then(Draw::FORTRESS_DIE, face - 1)
}

/// TC-120 [PIR-18]: more warships than the die take a strength and end the turn; as many
/// lose the ship beside the fortress; fewer lose the one behind it too; once a turn, and not
/// in a special building phase.
#[test]
fn tc_120_attacking_the_fortress() {
    let mut s = at_the_fortress(pirate_config(4), 3).start();
    let events = s.when_with(P0, Move::AttackFortress, die(1));
    assert!(events.contains(&Event::FortressAttacked {
        seat: P0,
        defence_roll: 1,
        warships: 2,
        outcome: BattleOutcome::Won,
        ships_lost: vec![]
    }));
    assert_eq!(view(&s.game).seats[0].fortress_strength, 2);
    assert!(events.iter().any(|x| matches!(x, Event::TurnStarted { seat: P1, .. })), "the attack ends the turn");

    let mut s = at_the_fortress(pirate_config(4), 3).start();
    let left = s.ships_left(P0);
    let events = s.when_with(P0, Move::AttackFortress, die(2));
    assert!(events.iter().any(|x| matches!(x, Event::FortressAttacked { outcome: BattleOutcome::Tie, ships_lost, .. } if *ships_lost == vec![e("-6,3,SE")])));
    assert_eq!((s.ships_left(P0), view(&s.game).seats[0].warships.clone()), (left + 1, vec![e("-6,4,NE")]));
    assert_eq!(view(&s.game).seats[0].fortress_strength, 3);

    let mut s = at_the_fortress(pirate_config(4), 3).start();
    let events = s.when_with(P0, Move::AttackFortress, die(5));
    let lost = vec![e("-6,3,SE"), e("-6,4,NE")];
    assert!(events.iter().any(
        |x| matches!(x, Event::FortressAttacked { outcome: BattleOutcome::Lost, ships_lost, .. } if *ships_lost == lost)
    ));
    assert_eq!(s.ships_left(P0), left + 2);

    let config = GameConfig { pir_attack_ends_turn: false, ..pirate_config(4) };
    let mut s = at_the_fortress(config, 3).start();
    s.when_with(P0, Move::AttackFortress, die(1));
    assert_eq!(*s.game.phase(), Phase::Main);
    s.rejects(P0, Move::AttackFortress, "fortress_already_attacked");
}

/// PIR-24 (X56-8): no attack and no warship card in a special building phase.
#[test]
fn pir_24_no_attack_in_a_special_building_phase() {
    let given =
        fresh(pirate_config(5)).turn(P1).with_dice(2, 3).with_phase(Phase::SpecialBuilding { seat: P0 }, vec![]);
    let s = given.card(P0, DevCard::Knight).start();
    s.rejects(P0, Move::AttackFortress, "not_your_turn");
    s.rejects(P0, Move::PlayWarship { ship: None }, "not_your_turn");
}

/// TC-121 [PIR-19, PIR-20]: 10 points without the fortress win nothing; the conquest makes the
/// fortress a settlement and wins at once; a seat with its fortress wins at its turn's start.
#[test]
fn tc_121_only_a_conquered_fortress_lets_ten_points_win() {
    let base = at_the_fortress(pirate_config(4), 1);
    let game = base.clone().start().game;
    let sites = free_sites(&game, 7);
    // P0: the pre-placed settlement, 4 cities and 1 settlement = 10.
    let mut given = base;
    for site in &sites[..4] {
        given = given.city(P0, site);
    }
    given = given.settlement(P0, &sites[4]);
    given = conquered(given, P1).city(P1, &sites[5]).city(P1, &sites[6]);
    let mut s = given.clone().start();
    assert_eq!(s.game.victory_points(P0), 10);
    assert!(s.game.winner().is_none(), "10 points, fortress standing: no win");
    let events = s.when_with(P0, Move::AttackFortress, die(1));
    assert!(events.contains(&Event::FortressConquered { seat: P0, vertex: v("-6,3,S") }));
    assert!(events.iter().any(|x| matches!(x, Event::GameWon { seat: P0, victory_points: 11, .. })), "{events:?}");
    assert!(!events.iter().any(|x| matches!(x, Event::TurnStarted { .. })));
    assert_eq!(s.game.building_index(s.game.board().vertex(v("-6,3,S")).unwrap()).map(|b| b.seat), Some(P0));

    // P1 at 10 with its fortress: it wins when its turn starts.
    let mut given = at_the_fortress(pirate_config(4), 3);
    given = conquered(given, P1).city(P1, &sites[0]).city(P1, &sites[1]).city(P1, &sites[2]).city(P1, &sites[3]);
    let mut s = given.start();
    assert_eq!(s.game.victory_points(P1), 10);
    let events = s.when(P0, Move::EndTurn);
    assert!(events.iter().any(|x| matches!(x, Event::GameWon { seat: P1, .. })), "{events:?}");
}

/// TC-122 [PIR-16]: 2-3 players without VP cards; 4 with them as Knights, or kept.
#[test]
fn tc_122_the_development_deck() {
    let deck = |config: GameConfig| *Game::new(config, 7).unwrap().development_deck();
    let three = deck(pirate_config(3));
    assert_eq!((three.total(), three.get(DevCard::Knight), three.get(DevCard::VictoryPoint)), (20, 14, 0));
    let four = deck(pirate_config(4));
    assert_eq!((four.total(), four.get(DevCard::Knight), four.get(DevCard::VictoryPoint)), (25, 19, 0));
    let keep = deck(GameConfig { pir_vp_cards: PirateVpCards::Keep, ..pirate_config(4) });
    assert_eq!((keep.total(), keep.get(DevCard::Knight), keep.get(DevCard::VictoryPoint)), (25, 14, 5));
}

/// TC-123 [PIR-6, SCN-3]: the own lone vertex takes a settlement; other pirate-island vertices,
/// and another seat's lone vertex, none.
#[test]
fn tc_123_a_settlement_on_the_own_lone_vertex_only() {
    let given = p0_ships(fresh(pirate_config(4)), &TO_LONE).main_phase(P0).give(P0, cost::SETTLEMENT);
    let mut s = given.clone().start();
    s.rejects(P0, Move::BuildSettlement { vertex: v("-6,3,N") }, "vertex_not_buildable");
    s.when(P0, Move::BuildSettlement { vertex: v("-5,4,N") });
    let s = given.turn(P1).with_dice(2, 3).with_phase(Phase::Main, vec![]).give(P1, cost::SETTLEMENT).start();
    s.rejects(P1, Move::BuildSettlement { vertex: v("-5,4,N") }, "vertex_not_buildable");
}

/// TC-124 [PIR-21]: the last fortress falls and the fleet leaves; rolls move nothing and
/// attack nobody; the fleet's old hex takes ships.
#[test]
fn tc_124_the_fleet_leaves_when_every_fortress_is_conquered() {
    let mut given = at_the_fortress(pirate_config(4), 1);
    for seat in [P1, P2, P3] {
        given = conquered(given, seat);
    }
    let mut s = with_fleet(given, 0).start();
    let events = s.when_with(P0, Move::AttackFortress, die(1));
    assert!(events.contains(&Event::PirateFleetDefeated), "{events:?}");
    assert!(view(&s.game).fleet_defeated);
    assert_eq!(view(&s.game).fleet_hex, None);
    let events = s.when_with(P1, Move::RollDice, FixedChance::dice(2, 3));
    assert!(!events.iter().any(|x| matches!(x, Event::PirateFleetMoved { .. } | Event::FleetAttack { .. })));
    // P0 with only its first ship beside (-3,3), the fleet's start: a ship may go there now.
    let mut given = fresh(pirate_config(4));
    for seat in [P0, P1, P2, P3] {
        given = conquered(given, seat);
    }
    given.seafarers.pirate_islands.fleet_defeated = true;
    given.pirate = None;
    let mut s = given.main_phase(P0).give(P0, cost::SHIP).start();
    s.when(P0, Move::BuildShip { edge: e("-3,3,NE") });
}

/// PIR-17, SCN-8: no Longest Trade Route card, whatever the route.
#[test]
fn pir_17_no_longest_route_card() {
    let mut s = p0_ships(fresh(pirate_config(4)), &TO_FORTRESS[..8]).main_phase(P0).give(P0, cost::SHIP).start();
    let events = s.when(P0, Move::BuildShip { edge: e("-6,3,SE") });
    assert!(!events.iter().any(|x| matches!(x, Event::LongestRoadChanged { .. })));
    assert_eq!(s.game.view(Viewer::Spectator).longest_road, None);
}

/// SCN-1, SCN-10, PIR-1, PIR-3: 2-6 players, 10 points to win; never with Cities & Knights.
#[test]
fn scn_1_player_counts_and_scn_10_no_cities_and_knights() {
    assert_eq!(ScenarioId::PirateIslands.player_counts(), vec![2, 3, 4, 5, 6]);
    assert_eq!(ScenarioId::PirateIslands.vp_target(4), Some(10));
    let ck = GameConfig { cities_and_knights: true, ..pirate_config(4) };
    assert!(Game::new(ck, 7).is_err());
    for players in 2..=6 {
        let game = Game::new(pirate_config(players), 7).unwrap();
        assert_eq!(view(&game).seats.len(), usize::from(players));
    }
}

/// PIR-14 with PIR-10: on a 7 the card won from the fleet is taken before the discards, which
/// count it; then the steal.
#[test]
fn pir_14_on_a_seven_the_card_won_comes_before_the_discards() {
    let seven = catan_engine::Resources::new(2, 2, 1, 1, 1);
    let given = with_fleet(p0_ships(fresh(pirate_config(4)), &TO_FORTRESS[..4]), 10).turn(P0);
    let given = with_warships(given, &TO_FORTRESS[..4]).give(P0, seven).give(P1, cost::ROAD);
    let mut s = given.start();
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(3, 4));
    assert!(events.iter().any(|x| matches!(x, Event::FleetAttack { seat: P0, outcome: BattleOutcome::Won, .. })));
    assert!(matches!(s.game.phase(), Phase::GoldChoice { .. }), "{:?}", s.game.phase());
    s.when(P0, Move::ChooseGoldResources { resources: catan_engine::Resources::new(0, 0, 0, 0, 1) });
    let Phase::Discard { pending } = s.game.phase().clone() else { panic!("the discards: {:?}", s.game.phase()) };
    assert_eq!(pending.iter().map(|p| (p.seat, p.count)).collect::<Vec<_>>(), vec![(P0, 4)], "8 cards after the pick");
    let discard = s.game.legal_moves(P0).into_iter().next().unwrap();
    s.when(P0, discard);
    assert_eq!(*s.game.phase(), Phase::StealAny);
}

/// PIR-4, PIR-6: the distance rule keeps every building off a fortress's neighbours by the
/// map itself: none of them touches land anyone may build on, and none is a lone vertex, so a
/// fortress needs no piece on the board to hold its place.
#[test]
fn pir_4_nothing_can_stand_beside_a_fortress_on_any_map() {
    for players in 2..=6 {
        let game = Game::new(pirate_config(players), 7).unwrap();
        let board = game.board();
        let seats = view(&game).seats;
        for s in &seats {
            let f = board.vertex(s.fortress).unwrap();
            assert!(!board.vertex_is_buildable[f as usize], "{players} players: fortress {}", s.fortress);
            for n in board.neighbours_of(f) {
                let next = board.vertices[n as usize];
                assert!(!board.vertex_is_buildable[n as usize], "{players} players: {next} beside {}", s.fortress);
                assert!(
                    seats.iter().all(|o| o.lone_vertex != next),
                    "{players} players: lone {next} beside a fortress"
                );
            }
        }
    }
}

/// PIR-16 with 5-6 players (X56): the 34 cards with the VP cards as Knights.
#[test]
fn pir_16_the_five_six_player_deck() {
    let deck = *Game::new(pirate_config(5), 7).unwrap().development_deck();
    assert_eq!((deck.total(), deck.get(DevCard::VictoryPoint)), (34, 0));
}

/// Section 4.4: every viewer sees the same: each seat's lane (Appendix A), lone vertex and
/// fortress with its strength, the fleet's path, place and hex.
#[test]
fn the_view_shows_lanes_fortresses_and_the_fleet_to_everyone() {
    let game = Game::new(pirate_config(4), 7).unwrap();
    let seen = view(&game);
    assert_eq!((seen.fleet_path.len(), seen.fleet_index, seen.fleet_hex), (14, 0, Some(h("-3,3"))));
    let lane = [
        "-4,2,SE", "-4,3,NE", "-3,2,SE", "-3,3,NE", "-2,2,SE", "-5,3,E", "-4,3,E", "-3,3,E", "-6,3,SE", "-6,4,NE",
        "-5,3,SE", "-5,4,NE", "-4,3,SE", "-4,4,NE", "-3,3,SE",
    ];
    assert_eq!(seen.seats[0].lane, lane.map(e).to_vec());
    assert_eq!(seen.seats.iter().map(|s| s.fortress_strength).collect::<Vec<_>>(), vec![3; 4]);
    for seat in [P0, P1, P2, P3] {
        assert_eq!(game.view(Viewer::Seat(seat)).pirate_islands, Some(seen.clone()));
    }
}

/// PIR-22 with PIR-9: no ship moves away from a side of the fleet's hex.
#[test]
fn pir_22_no_ship_leaves_the_fleets_hex() {
    let s = with_fleet(p0_ships(fresh(pirate_config(4)), &["-3,3,NE"]), 0).main_phase(P0).start();
    s.rejects(P0, Move::MoveShip { from: e("-3,3,NE"), to: e("-3,2,SE") }, "pirate_blocks_edge");
}
