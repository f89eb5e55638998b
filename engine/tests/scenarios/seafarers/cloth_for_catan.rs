//! Cloth for Catan (RULES-SCENARIOS section 3; TC-106..TC-113) on the 4-player map of seed 7:
//! three setup rounds, villages reached by ship trade cloth, two cloth make a point, the
//! pirate may take cloth, and the game ends when fewer than four villages have cloth.

use catan_engine::{
    cost, ClothState, DevCard, Event, FixedChance, Game, GameConfig, Move, Phase, Resource, Resources, ScenarioId,
    Seat, Setup, StealKind, VictoryCondition, Viewer,
};

use crate::support::*;

fn cloth_config(players: u8) -> GameConfig {
    GameConfig { seafarers: true, scenario: Some(ScenarioId::ClothForCatan), ..config(players) }
}

/// The village of TC-107 (number 10) and the settlement and ships that reach it.
const VILLAGE_10: &str = "-1,0,N";
const HOME: &str = "0,-1,N";
const ROUTE: [&str; 2] = ["0,-2,SE", "-1,-1,E"];

fn cloth_view(game: &Game) -> catan_engine::view::ClothView {
    game.view(Viewer::Spectator).cloth_for_catan.expect("the cloth view")
}

fn village(game: &Game, vertex: &str) -> catan_engine::view::VillageView {
    cloth_view(game).villages.into_iter().find(|x| x.vertex == v(vertex)).expect("a village")
}

/// A position of the map with `cloth` as Cloth for Catan's state.
fn with_cloth(setup: Setup, cloth: ClothState) -> Setup {
    let mut setup = setup;
    setup.seafarers.cloth = cloth;
    setup
}

/// The index of a village in the scenario's order (as the view lists them).
fn index(game: &Game, vertex: &str) -> u8 {
    cloth_view(game).villages.iter().position(|x| x.vertex == v(vertex)).expect("a village") as u8
}

/// TC-106 [CLV-3, SCN-6]: three rounds, P0 P1 P2 P3 P3 P2 P1 P0 P0 P1 P2 P3; nobody has a card
/// after the second round; after the third each has exactly the cards of its third settlement.
#[test]
fn tc_106_three_setup_rounds_with_resources_from_the_third() {
    let mut s = Scenario::with(cloth_config(4));
    let mut order = Vec::new();
    let mut third: Vec<(Seat, catan_engine::board::VertexId)> = Vec::new();
    while let Phase::Setup { seat, placement, .. } = *s.game.phase() {
        let settlement = s.game.legal_moves(seat)[0].clone();
        let Move::BuildSettlement { vertex } = settlement else { panic!("a settlement first: {settlement:?}") };
        order.push(seat.0);
        let events = s.when(seat, settlement);
        let received = events.iter().any(|e| matches!(e, Event::StartingResourcesReceived { .. }));
        if placement < 8 {
            assert!(!received, "no cards before the third round (placement {placement})");
        } else {
            third.push((seat, vertex));
        }
        if let Phase::Setup { seat, .. } = *s.game.phase() {
            let piece = s.game.legal_moves(seat)[0].clone();
            s.when(seat, piece);
        } else if matches!(s.game.phase(), Phase::GoldChoice { .. }) {
            panic!("the main islands hold no gold");
        }
        if placement == 7 {
            for seat in 0..4 {
                assert_eq!(s.hand(Seat(seat)), Resources::ZERO, "after the second round, seat {seat} has nothing");
            }
        }
    }
    assert_eq!(order, [0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3]);
    let board = s.game.board();
    for (seat, vertex) in third {
        let mut expected = Resources::ZERO;
        for hex in board.land_hexes_of(board.vertex(vertex).unwrap()) {
            if let Some(resource) = board.terrain[hex as usize].resource() {
                *expected.get_mut(resource) += 1;
            }
        }
        assert_eq!(s.hand(seat), expected, "seat {seat}: the cards of its third settlement only");
    }
    assert!(matches!(s.game.phase(), Phase::PreRoll));
}

/// SCN-6 as an option: two rounds in Cloth for Catan, resources from the second.
#[test]
fn setup_rounds_and_the_resource_round_are_options() {
    let two = GameConfig { setup_rounds: Some(2), ..cloth_config(3) };
    let mut s = Scenario::with(two);
    let mut placements = 0;
    while let Phase::Setup { seat, .. } = *s.game.phase() {
        let mv = s.game.legal_moves(seat)[0].clone();
        if matches!(mv, Move::BuildSettlement { .. }) {
            placements += 1;
        }
        s.when(seat, mv);
    }
    assert_eq!(placements, 6);
    let bad = GameConfig { starting_resources_round: Some(3), setup_rounds: Some(2), ..cloth_config(4) };
    assert_eq!(Game::new(bad, 7).unwrap_err().code(), "invalid_config");
    let ck = GameConfig { setup_rounds: Some(3), cities_and_knights: true, ..config(4) };
    assert_eq!(Game::new(ck, 7).unwrap_err().code(), "invalid_config", "CK-SET-1 sets up in two rounds");
    // The base game with a third round (SCN-6 is generic): 3 x 4 placements.
    let base = GameConfig { setup_rounds: Some(3), ..config(4) };
    let mut s = Scenario::with(base);
    let mut placements = 0;
    while let Phase::Setup { seat, .. } = *s.game.phase() {
        let mv = s.game.legal_moves(seat)[0].clone();
        placements += usize::from(matches!(mv, Move::BuildSettlement { .. }));
        s.when(seat, mv);
    }
    assert_eq!(placements, 12);
}

fn connecting(config: GameConfig) -> Scenario {
    given_with(config)
        .settlement(P0, HOME)
        .settlement(P1, "2,-3,S")
        .ship(P0, ROUTE[0])
        .main_phase(P0)
        .give(P0, cost::SHIP + cost::SHIP)
        .start()
}

/// TC-107 [CLV-6, CLV-7, SCN-7]: the second ship reaches village (-1,0,N): P0 is connected,
/// takes one cloth (stock 4), and both ships are closed: moving the last one is refused.
#[test]
fn tc_107_a_ship_route_to_a_village_connects_and_closes() {
    let mut s = connecting(cloth_config(4));
    assert_eq!(village(&s.game, VILLAGE_10).number, 10);
    let events = s.when(P0, Move::BuildShip { edge: e(ROUTE[1]) });
    let connected = Event::VillageConnected { seat: P0, village: v(VILLAGE_10) };
    let cloth = Event::ClothReceived { village: v(VILLAGE_10), recipients: vec![P0], from_village: 1, from_supply: 0 };
    let at = events.iter().position(|e| *e == connected).expect("connected");
    assert_eq!(events.get(at + 1), Some(&cloth), "SCN-9: the first-contact cloth follows the connection");
    let view = village(&s.game, VILLAGE_10);
    assert_eq!((view.cloth, view.connected), (4, vec![P0]));
    assert_eq!(cloth_view(&s.game).cloth[0], 1);
    // SCN-7: next turn, neither ship may move (the village anchors the route).
    let mut next = s.then_given().main_phase(P0);
    next.seafarers.new_ships.clear();
    let next = next.start();
    for ship in ROUTE {
        next.rejects(P0, Move::MoveShip { from: e(ship), to: e("0,-1,NE") }, "ship_not_at_open_end");
    }
    // A second connection to the same village gives nothing more.
    let stock = village(&s.game, VILLAGE_10).cloth;
    s.when(P0, Move::BuildShip { edge: e("-1,0,NE") });
    assert_eq!(village(&s.game, VILLAGE_10).cloth, stock);
}

fn rolling(cloth: ClothState, active: Seat) -> Scenario {
    let setup = given_with(cloth_config(4)).settlement(P0, HOME).settlement(P1, "2,-3,S").turn(active);
    with_cloth(setup, cloth).start()
}

/// TC-108 [CLV-8]: a roll of the village's number gives each connected player a cloth; a
/// village nobody reached gives nothing on its number.
#[test]
fn tc_108_a_roll_gives_each_connected_player_a_cloth() {
    let fresh = Game::new(cloth_config(4), 7).unwrap();
    let ten = index(&fresh, VILLAGE_10);
    let mut given = vec![0; 8];
    given[usize::from(ten)] = 1;
    let cloth = ClothState { given, from_supply: 0, held: vec![1], connections: vec![(ten, P1), (ten, P0)] };
    let mut s = rolling(cloth.clone(), P0);
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(4, 6));
    let expected =
        Event::ClothReceived { village: v(VILLAGE_10), recipients: vec![P0, P1], from_village: 2, from_supply: 0 };
    assert!(events.contains(&expected), "{events:?}");
    assert_eq!(village(&s.game, VILLAGE_10).cloth, 2);
    assert_eq!(cloth_view(&s.game).cloth, vec![2, 1, 0, 0]);
    // Village (-1,0,S), number 9, has nobody connected.
    let mut s = rolling(cloth, P0);
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(4, 5));
    assert!(!events.iter().any(|e| matches!(e, Event::ClothReceived { .. })), "{events:?}");
    assert_eq!(village(&s.game, "-1,0,S").cloth, 5);
}

/// TC-109 [CLV-8]: stock 1 for three connected players (P1, P2, P0, P0 active): the active
/// seat first, the shortfall from the supply; without supply only P0; with stock 0 nobody.
#[test]
fn tc_109_a_short_village_draws_on_the_supply_active_seat_first() {
    let fresh = Game::new(cloth_config(4), 7).unwrap();
    let ten = usize::from(index(&fresh, VILLAGE_10));
    let state = |given: u8, from_supply: u8| {
        let mut given_list = vec![0; 8];
        given_list[ten] = given;
        // The cloth that left is held by P3, connected nowhere.
        ClothState {
            given: given_list,
            from_supply,
            held: vec![0, 0, 0, given + from_supply],
            connections: vec![(ten as u8, P1), (ten as u8, P2), (ten as u8, P0)],
        }
    };
    let roll = |cloth: ClothState| {
        let mut s = rolling(cloth, P0);
        let events = s.when_with(P0, Move::RollDice, FixedChance::dice(4, 6));
        (events, cloth_view(&s.game))
    };
    let (events, view) = roll(state(4, 0));
    let all =
        Event::ClothReceived { village: v(VILLAGE_10), recipients: vec![P0, P1, P2], from_village: 1, from_supply: 2 };
    assert!(events.contains(&all), "{events:?}");
    assert_eq!((view.general_supply, &view.cloth[..3]), (8, &[1, 1, 1][..]));
    let (events, view) = roll(state(4, 10));
    let only_p0 =
        Event::ClothReceived { village: v(VILLAGE_10), recipients: vec![P0], from_village: 1, from_supply: 0 };
    assert!(events.contains(&only_p0), "{events:?}");
    assert_eq!(&view.cloth[..3], &[1, 0, 0]);
    let (events, _) = roll(state(5, 0));
    assert!(!events.iter().any(|e| matches!(e, Event::ClothReceived { .. })), "stock 0: nothing, even from the supply");
}

/// TC-110 [CLV-9, CLV-10]: 3 cloth are 1 point, 4 are 2; a 7 with 8 cards and 5 cloth
/// discards 4 cards; Monopoly takes no cloth.
#[test]
fn tc_110_cloth_scores_but_is_no_resource() {
    let points = |cloth: u8| {
        let setup = given_with(cloth_config(4)).settlement(P0, HOME).turn(P0);
        let s =
            with_cloth(setup, ClothState { given: vec![cloth], held: vec![cloth], ..ClothState::default() }).start();
        s.game.view(Viewer::Spectator).players[0].victory_points
    };
    assert_eq!(points(3), 2, "a settlement and 3 cloth");
    assert_eq!(points(4), 3, "a settlement and 4 cloth");
    let setup = given_with(cloth_config(4))
        .settlement(P0, HOME)
        .settlement(P1, "2,-3,S")
        .turn(P0)
        .give(P0, Resources::new(2, 2, 2, 2, 0))
        .give(P1, Resources::new(1, 0, 0, 0, 0))
        .card(P1, DevCard::Monopoly);
    let mut s = with_cloth(setup, ClothState { given: vec![5], held: vec![5], ..ClothState::default() }).start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(3, 4));
    let Phase::Discard { pending } = s.game.phase().clone() else { panic!("discards: {:?}", s.game.phase()) };
    assert_eq!(pending.iter().map(|p| (p.seat, p.count)).collect::<Vec<_>>(), vec![(P0, 4)], "cloth is not counted");
    let mut m = with_cloth(
        given_with(cloth_config(4))
            .settlement(P0, HOME)
            .settlement(P1, "2,-3,S")
            .main_phase(P1)
            .give(P0, Resources::new(1, 0, 0, 0, 0))
            .card(P1, DevCard::Monopoly),
        ClothState { given: vec![5], held: vec![5], ..ClothState::default() },
    )
    .start();
    m.when(P1, Move::PlayMonopoly { resource: Resource::Lumber });
    assert_eq!(cloth_view(&m.game).cloth[..2], [5, 0], "Monopoly takes no cloth");
}

/// TC-111 [CLV-11, CLV-12]: a seat connected to no village may not move the pirate on a 7;
/// the robber it may. A connected seat's Knight moves the pirate next to P2's ship: P2 with
/// only cloth loses one cloth at once; holding cards too, the mover chooses.
#[test]
fn tc_111_only_a_connected_seat_moves_the_pirate_and_it_takes_cloth() {
    let pirate_hex = h("2,-2");
    let locked = given_with(cloth_config(4))
        .settlement(P0, HOME)
        .settlement(P2, "2,-3,S")
        .ship(P2, "2,-3,SE")
        .turn(P0)
        .with_dice(3, 4)
        .with_phase(Phase::MoveRobber, vec![])
        .start();
    locked.rejects(P0, Move::MovePirate { hex: pirate_hex, steal_from: Some(P2) }, "pirate_needs_village");
    let moves = locked.game.legal_moves(P0);
    assert!(moves.iter().any(|m| matches!(m, Move::MoveRobber { .. })));
    assert!(!moves.iter().any(|m| matches!(m, Move::MovePirate { .. })), "CLV-11: no pirate move is listed");

    let fresh = Game::new(cloth_config(4), 7).unwrap();
    let ten = index(&fresh, VILLAGE_10);
    let knight = |p2_cards: Resources| {
        let setup = given_with(cloth_config(4))
            .settlement(P1, HOME)
            .settlement(P2, "2,-3,S")
            .ship(P2, "2,-3,SE")
            .main_phase(P1)
            .card(P1, DevCard::Knight)
            .give(P2, p2_cards);
        let mut given = vec![0; 8];
        given[usize::from(ten)] = 2;
        let cloth = ClothState { given, held: vec![0, 0, 2], connections: vec![(ten, P1)], ..ClothState::default() };
        with_cloth(setup, cloth).start()
    };
    let play = Move::PlayKnight { hex: pirate_hex, steal_from: Some(P2), bandit: catan_engine::Bandit::Pirate };
    let mut s = knight(Resources::ZERO);
    let events = s.when(P1, play.clone());
    assert!(events.contains(&Event::ClothStolen { thief: P1, victim: P2 }), "{events:?}");
    assert_eq!(cloth_view(&s.game).cloth, vec![0, 1, 1, 0]);
    assert_eq!(*s.game.phase(), Phase::Main);

    let mut s = knight(Resources::new(0, 0, 1, 0, 0));
    s.when(P1, play);
    assert_eq!(*s.game.phase(), Phase::ChooseStealKind { victim: P2 });
    s.rejects(P2, Move::ChooseStealKind { kind: StealKind::Cloth }, "not_your_turn");
    let mut resource = Scenario { game: s.game.clone() };
    let events = s.when(P1, Move::ChooseStealKind { kind: StealKind::Cloth });
    assert!(events.contains(&Event::ClothStolen { thief: P1, victim: P2 }));
    assert_eq!(*s.game.phase(), Phase::Main, "the phase the Knight was played in resumes");
    let events = resource.when(P1, Move::ChooseStealKind { kind: StealKind::Resource });
    assert!(events.iter().any(|e| matches!(e, Event::ResourceStolen { thief: P1, victim: P2, .. })));
    assert_eq!(resource.hand(P1), Resources::new(0, 0, 1, 0, 0));
    // The position waiting for the choice round-trips.
    let mut waiting = knight(Resources::new(0, 0, 1, 0, 0));
    waiting.when(P1, Move::PlayKnight { hex: pirate_hex, steal_from: Some(P2), bandit: catan_engine::Bandit::Pirate });
    let again = Setup::from(&waiting.game).position().expect("the waiting position loads");
    assert_eq!(Setup::from(&again), Setup::from(&waiting.game));
    assert_eq!(again.legal_moves(P1), waiting.game.legal_moves(P1));
}

/// P0 (settlement on HOME, connected to the 10) rolls a 10 that empties the 10's village;
/// `given` and `held` are the cloth state before. Returns the winner.
fn exhausting_roll(config: GameConfig, given: Vec<u8>, held: Vec<u8>) -> Seat {
    let fresh = Game::new(config.clone(), 7).unwrap();
    let ten = index(&fresh, VILLAGE_10);
    let cloth = ClothState { given, held, connections: vec![(ten, P0)], ..ClothState::default() };
    let setup = given_with(config).settlement(P0, HOME).settlement(P2, "2,-3,S").turn(P0);
    let mut s = with_cloth(setup, cloth).start();
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(4, 6));
    assert!(events.contains(&Event::VillageExhausted { village: v(VILLAGE_10) }), "{events:?}");
    assert!(s.game.is_over(), "the game ends at once");
    match events.last() {
        Some(Event::GameWon { seat, condition: VictoryCondition::VillagesExhausted, .. }) => *seat,
        other => panic!("the game ends by exhaustion: {other:?}"),
    }
}

/// TC-112 [CLV-14]: four villages have cloth; a roll empties one: the game ends at once, won
/// by the most points; on a tie by the most cloth; then by the active seat, then the first
/// tied seat clockwise from it.
#[test]
fn tc_112_the_game_ends_when_villages_run_out_of_cloth() {
    let fresh = Game::new(cloth_config(4), 7).unwrap();
    let ten = usize::from(index(&fresh, VILLAGE_10));
    // Four villages empty, three full, the 10 with one cloth: 24 cloth given, held by P1 and
    // P3 alike (6 points each): tied in points and cloth, P1 comes first after P0.
    let mut given = vec![0; 8];
    let others: Vec<usize> = (0..8).filter(|&i| i != ten).collect();
    for &i in &others[..4] {
        given[i] = 5;
    }
    given[ten] = 4;
    assert_eq!(exhausting_roll(cloth_config(4), given.clone(), vec![0, 12, 0, 12]), P1);
    let mut lopsided = vec![0, 11, 0, 13];
    assert_eq!(exhausting_roll(cloth_config(4), given, std::mem::take(&mut lopsided)), P3, "the most points");
    // With `clv_end_villages_min` 8 the first village to run out ends the game: 4 cloth
    // given by the 10's village, P0 gets the roll's one.
    let all = GameConfig { clv_end_villages_min: 8, ..cloth_config(4) };
    let mut given = vec![0; 8];
    given[ten] = 4;
    // P0 1 + 0, P2 1 + 2 points: P2.
    assert_eq!(exhausting_roll(all.clone(), given.clone(), vec![0, 0, 4, 0]), P2, "more points");
    // P0 1 + 1 (2 cloth), P2 1 + 1 (3 cloth): P2 on cloth.
    assert_eq!(exhausting_roll(all.clone(), given.clone(), vec![1, 0, 3, 0]), P2, "more cloth");
    // P0 1 + 1 (2 cloth), P2 1 + 1 (2 cloth): the active seat.
    assert_eq!(exhausting_roll(all, given, vec![1, 1, 2, 0]), P0, "the active seat");
}

/// TC-113 [CLV-13, SCN-8, CLV-4, SCN-3, SCN-4]: no settlement on a village's vertex; the robber
/// starts on the first desert village (CLV-15) and never goes onto a village island; random
/// games never award the route card.
#[test]
fn tc_113_no_route_card_no_settling_villages_no_robber_there() {
    let s = given_with(cloth_config(4)).settlement(P0, HOME).main_phase(P0).give(P0, cost::SETTLEMENT).start();
    s.rejects(P0, Move::BuildSettlement { vertex: v("1,-1,N") }, "vertex_not_buildable");
    let fresh = Game::new(cloth_config(4), 7).unwrap();
    assert_eq!(fresh.board().layout().robber, Some(h("1,-1")), "CLV-15: on the first desert village");
    let from_data = GameConfig { clv_robber_start: catan_engine::ClothRobberStart::Data, ..cloth_config(4) };
    assert_eq!(Game::new(from_data, 7).unwrap().board().layout().robber, Some(h("-2,-1")), "the data's hex");
    let robber = given_with(cloth_config(4))
        .settlement(P0, HOME)
        .robber("-2,-1")
        .turn(P0)
        .with_dice(3, 4)
        .with_phase(Phase::MoveRobber, vec![])
        .start();
    for village_hex in ["1,-1", "0,1", "-1,0", "2,0"] {
        robber.rejects(P0, Move::MoveRobber { hex: h(village_hex), steal_from: None }, "robber_hex_excluded");
    }
    let mut cloth_traded = 0;
    for seed in 0..20 {
        let record = catan_engine::sim::play_random_game(cloth_config(4), seed).unwrap();
        assert!(record.finished, "seed {seed} ends");
        let awarded = record.events.iter().any(|e| matches!(e, Event::LongestRoadChanged { holder: Some(_), .. }));
        assert!(!awarded, "seed {seed}: CLV-13, no route card");
        cloth_traded += record.events.iter().filter(|e| matches!(e, Event::ClothReceived { .. })).count();
    }
    assert!(cloth_traded > 0, "random games reach villages");
}

/// SCN-5, CLV-6: a ship moved onto the last edge of a route connects as a built one does.
#[test]
fn a_moved_ship_connects_a_village_too() {
    let mut s = given_with(cloth_config(4))
        .settlement(P0, HOME)
        .settlement(P1, "2,-3,S")
        .ships(P0, &[ROUTE[0], "0,-1,NE"])
        .main_phase(P0)
        .start();
    let events = s.when(P0, Move::MoveShip { from: e("0,-1,NE"), to: e(ROUTE[1]) });
    assert!(events.contains(&Event::VillageConnected { seat: P0, village: v(VILLAGE_10) }), "{events:?}");
    assert_eq!(cloth_view(&s.game).cloth[0], 1, "CLV-7: first contact");
}

/// SCN-1, CLV-1, CLV-2, CLV-16, CLV-17: 2-4 players on the "4" map (8 villages), 5-6 on the
/// "6" map (12 villages, the special building phase of X56); 14 points; the pirate starts on
/// the data's hex; three setup rounds of every seat.
#[test]
fn the_maps_by_player_count() {
    for (players, villages) in [(2, 8), (3, 8), (4, 8), (5, 12), (6, 12)] {
        let game = Game::new(cloth_config(players), 7).unwrap();
        assert_eq!(cloth_view(&game).villages.len(), villages, "{players} players");
        assert_eq!(game.vp_target(), 14, "CLV-2");
        assert_eq!(game.pirate_hex(), Some(h("4,0")), "CLV-16");
        assert_eq!(cloth_view(&game).general_supply, 10);
        let mut s = Scenario { game };
        let mut placements = 0;
        while let Phase::Setup { seat, .. } = *s.game.phase() {
            let mv = s.game.legal_moves(seat)[0].clone();
            placements += usize::from(matches!(mv, Move::BuildSettlement { .. }));
            s.when(seat, mv);
        }
        assert_eq!(placements, 3 * usize::from(players), "SCN-6 with {players} players");
    }
    // CLV-17: a connection made in a special building phase gives its cloth at once. On the
    // "6" map: a coastal vertex of the main islands two sea edges from a village.
    let game = Game::new(cloth_config(5), 7).unwrap();
    let board = game.board();
    let sea = |edge: catan_engine::board::EdgeId| board.edge(edge).is_some_and(|e| board.edge_is_sea[e as usize]);
    let other = |edge: catan_engine::board::EdgeId, x| edge.endpoints().into_iter().find(|y| *y != x).unwrap();
    let main_land = |x: catan_engine::board::VertexId| {
        board
            .vertex(x)
            .is_some_and(|i| board.land_hexes_of(i).any(|h| !board.layout().neutral.contains(&board.hexes[h as usize])))
    };
    let village = cloth_view(&game).villages[0].vertex;
    let (home, first, last) = village
        .edges()
        .into_iter()
        .filter(|&e1| sea(e1))
        .flat_map(|e1| {
            let x1 = other(e1, village);
            x1.edges().into_iter().filter(move |&e2| e2 != e1 && sea(e2)).map(move |e2| (other(e2, x1), e2, e1))
        })
        .find(|&(x2, _, _)| main_land(x2))
        .expect("a main-island coast two ship edges from a village");
    let mut s = given_with(cloth_config(5))
        .with_building(home, P0, catan_engine::BuildingKind::Settlement)
        .with_ship(first, P0)
        .turn(P1)
        .with_dice(2, 3)
        .with_phase(Phase::SpecialBuilding { seat: P0 }, vec![])
        .give(P0, cost::SHIP)
        .start();
    let events = s.when(P0, Move::BuildShip { edge: last });
    assert!(events.contains(&Event::VillageConnected { seat: P0, village }), "{events:?}");
    assert!(events.iter().any(|e| matches!(e, Event::ClothReceived { .. })), "{events:?}");
}
