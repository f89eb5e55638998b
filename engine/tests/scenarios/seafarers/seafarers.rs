//! TC-58 .. TC-64 and the Seafarers rules (RULES.md 8.4, 9.10) on the small sea boards of
//! `common/sea.rs`: islands A and B with a channel between them, and island A facing fog.
//! Positions are played under the Four Islands scenario's rules (setup settlements anywhere)
//! with its island bonus off unless a test is about it, and under the Fog Islands scenario's
//! hidden stacks for fog.

use catan_engine::{
    board::Terrain, cost, model::GoldSource, Bandit, DevCard, Draw, Event, FirstPlayer, FixedChance, GameConfig,
    IslandBonusMode, Move, PendingGold, Phase, Resource, Resources, ScenarioId, SeatResources, Setup, SetupStep,
};

use crate::{sea, support::*};

/// Island A's east coast: hills (-1,0) and the channel's sea hexes (0,-1) and (0,0).
const A_EAST: &str = "0,-1,S";
/// Island A's north corner: forest (-2,0) and open sea.
const A_NORTH: &str = "-2,0,N";
/// Island A's inland vertex: forest, hills and pasture.
const A_INLAND: &str = "-2,1,N";
/// Island B's west coast: fields (2,-1) and the channel.
const B_WEST: &str = "1,0,N";
/// The channel from A_EAST to B_WEST: three edges between sea hexes.
const CHANNEL: [&str; 3] = ["0,-1,SE", "0,0,NE", "1,-1,SE"];
/// From the channel's vertex (1,-1,S) into open sea, to (0,1,N).
const OPEN_SEA: &str = "0,0,E";
/// Three roads along island A's north coast, from A_NORTH to A_EAST.
const NORTH_ROADS: [&str; 3] = ["-2,0,NE", "-1,-1,SE", "-1,0,NE"];
/// The two coast edges at A_EAST: hills beside sea (0,-1), and hills beside sea (0,0).
const COAST_NE: &str = "-1,0,NE";
const COAST_E: &str = "-1,0,E";

/// The Fog Islands stacks for 4 players, in the data's order: fields 2, forest 1, gold 2,
/// hills 2, mountains 2, pasture 1, sea 2 (`Draw("fog_terrain")` indexes this list).
const FOG_GOLD: usize = 2;
const FOG_HILLS: usize = 3;
const FOG_PASTURE: usize = 5;
const FOG_SEA: usize = 6;
/// `Draw("fog_token")` indexes the tokens left, ascending: 3 4 5 6 8 9 10 11 11 12.
const TOKEN_8: usize = 4;
const TOKEN_9: usize = 5;
const FOG_TERRAIN: Draw = Draw("fog_terrain");
const FOG_TOKEN: Draw = Draw("fog_token");

/// 4 players, P0 first, Seafarers on a scenario's rules.
fn sea_config(scenario: ScenarioId) -> GameConfig {
    GameConfig {
        seafarers: true,
        scenario: Some(scenario),
        first_player: FirstPlayer::Seat(0),
        ..GameConfig::for_players(4)
    }
}

/// Islands A and B under the Four Islands rules with the island bonus off: nothing placed,
/// P0 to place its first settlement.
fn sea() -> Setup {
    let config = GameConfig { island_bonus_vp: Some(0), ..sea_config(ScenarioId::FourIslands) };
    Setup::new(config, sea::two_islands())
}

/// Island A with fog on `fog`, under the Fog Islands rules.
fn fog(fog: &[&str]) -> Setup {
    let fog: Vec<_> = fog.iter().map(|hex| h(hex)).collect();
    Setup::new(sea_config(ScenarioId::FogIslands), sea::island_and_fog(&fog))
}

fn build_ship(edge: &str) -> Move {
    Move::BuildShip { edge: e(edge) }
}

fn build_road(edge: &str) -> Move {
    Move::BuildRoad { edge: e(edge) }
}

fn build_settlement(vertex: &str) -> Move {
    Move::BuildSettlement { vertex: v(vertex) }
}

fn move_ship(from: &str, to: &str) -> Move {
    Move::MoveShip { from: e(from), to: e(to) }
}

fn ship_built(seat: catan_engine::Seat, edge: &str, cost: Resources) -> Event {
    Event::ShipBuilt { seat, edge: e(edge), cost }
}

fn to_phase(phase: Phase, then: Vec<Phase>) -> Event {
    Event::PhaseChanged { phase, then: then.into() }
}

fn one(resource: Resource) -> Resources {
    Resources::of(resource, 1)
}

// ---------------------------------------------------------------------------------------
// RULES.md 9.10

/// TC-58 [SEA-1, SEA-3]: a ship for 1 lumber + 1 wool on a coast edge at P0's coastal
/// settlement is accepted; a ship touching only the end of P0's road, at a vertex without a P0
/// building, is rejected; so is a road continuing P0's ship chain.
#[test]
fn tc_58_a_ship_costs_lumber_and_wool_and_meets_roads_only_at_a_building() {
    let mut s = sea().settlement(P0, A_EAST).give(P0, cost::SHIP).main_phase(P0).start();
    let bank = *s.game.bank();
    let events = s.when(P0, build_ship(COAST_E));
    assert_eq!(events, vec![ship_built(P0, COAST_E, cost::SHIP)]);
    assert_eq!(s.game.ship_at(e(COAST_E)), Some(P0));
    assert_eq!(s.hand(P0), Resources::ZERO);
    assert_eq!(*s.game.bank(), bank + Resources::new(1, 0, 1, 0, 0));
    assert_eq!(s.ships_left(P0), 14);

    // P0's roads end at (-1,0,N), where P0 has no building; (-1,-1,E) leaves it over sea.
    let s = sea()
        .settlement(P0, A_NORTH)
        .roads_along(P0, &[A_NORTH, "-1,-1,S", "-1,0,N"])
        .give(P0, cost::SHIP)
        .main_phase(P0)
        .start();
    s.rejects(P0, build_ship("-1,-1,E"), "ship_not_connected");

    // P0's ship chain from A_EAST ends at (-1,1,N); a road cannot continue it.
    let s = sea().settlement(P0, A_EAST).ship(P0, COAST_E).give(P0, cost::ROAD).main_phase(P0).start();
    s.rejects(P0, build_road("-1,0,SE"), "road_not_connected");
}

/// TC-59 [SEA-6]: on a chain settlement–ship–ship–ship ending in open sea, the last ship
/// moves and the middle one does not; a second move in the turn and moving a ship built this
/// turn are rejected; no ship of a chain joining two P0 settlements may move.
#[test]
fn tc_59_only_a_ship_at_an_open_end_moves_once_a_turn_and_not_the_turn_it_was_built() {
    let chain = || sea().settlement(P0, A_EAST).ships(P0, &[CHANNEL[0], CHANNEL[1], OPEN_SEA]).main_phase(P0);
    let mut s = chain().start();
    s.rejects(P0, move_ship(CHANNEL[1], CHANNEL[2]), "ship_not_at_open_end");
    let events = s.when(P0, move_ship(OPEN_SEA, CHANNEL[2]));
    assert_eq!(events, vec![Event::ShipMoved { seat: P0, from: e(OPEN_SEA), to: e(CHANNEL[2]) }]);
    assert_eq!((s.game.ship_at(e(OPEN_SEA)), s.game.ship_at(e(CHANNEL[2]))), (None, Some(P0)));
    assert_eq!(s.ships_left(P0), 12, "a move takes no ship from the supply");
    s.rejects(P0, move_ship(CHANNEL[2], OPEN_SEA), "ship_already_moved");
    // The position remembers the move (SEA-6 is once per turn).
    s.then_given().start().rejects(P0, move_ship(CHANNEL[2], OPEN_SEA), "ship_already_moved");

    // A ship built this turn stays; an older one at an open end may still move.
    let mut s = chain().give(P0, cost::SHIP).start();
    s.when(P0, build_ship(CHANNEL[2]));
    s.rejects(P0, move_ship(CHANNEL[2], COAST_NE), "ship_built_this_turn");
    s.then_given().start().rejects(P0, move_ship(CHANNEL[2], COAST_NE), "ship_built_this_turn");
    s.when(P0, move_ship(OPEN_SEA, COAST_NE));

    // A chain between A_EAST and B_WEST has no open end.
    let s = sea().settlement(P0, A_EAST).settlement(P0, B_WEST).ships(P0, &CHANNEL).main_phase(P0).start();
    for ship in CHANNEL {
        s.rejects(P0, move_ship(ship, OPEN_SEA), "ship_not_at_open_end");
    }
    assert!(!s.game.legal_moves(P0).iter().any(|mv| matches!(mv, Move::MoveShip { .. })));
}

/// TC-60 [SEA-7, SEA-8]: after a 7, P0 moves the pirate to sea hex X beside P2's ship and
/// steals from P2; then P1 cannot build a ship on a side of X, P2 cannot move its ship there,
/// and the robber cannot go to sea.
#[test]
fn tc_60_the_pirate_steals_from_a_ship_beside_it_and_blocks_its_sides() {
    const X: &str = "0,0";
    // P2's ship on COAST_E, a side of X; P1's ship ends at (1,-1,S), a corner of X.
    let given = || {
        sea()
            .settlement(P2, "-1,1,N")
            .ship(P2, COAST_E)
            .settlement(P1, B_WEST)
            .ship(P1, CHANNEL[2])
            .settlement(P0, A_NORTH)
            .give(P2, one(Resource::Brick))
            .give(P1, cost::SHIP)
    };
    // Without the pirate, P1 may build on X's side (0,0,NE), and P2 move its ship.
    assert!(given().main_phase(P1).start().game.legal_moves(P1).contains(&build_ship(CHANNEL[1])));
    assert!(given().main_phase(P2).start().game.legal_moves(P2).contains(&move_ship(COAST_E, "-1,0,SE")));

    let mut s = given().turn(P0).start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(3, 4));
    assert_eq!(*s.game.phase(), Phase::MoveRobber);
    s.rejects(P0, Move::MoveRobber { hex: h(X), steal_from: None }, "robber_not_on_land");
    let events =
        s.when_with(P0, Move::MovePirate { hex: h(X), steal_from: Some(P2) }, FixedChance::steal(Resource::Brick));
    assert_eq!(
        events,
        vec![
            Event::PirateMoved { seat: P0, hex: h(X) },
            Event::ResourceStolen { thief: P0, victim: P2, resource: Some(Resource::Brick) },
            to_phase(Phase::Main, vec![]),
        ]
    );
    assert_eq!(s.game.pirate_hex(), Some(h(X)));
    assert_eq!((s.hand(P0), s.hand(P2)), (one(Resource::Brick), Resources::ZERO));

    let p1 = s.then_given().main_phase(P1).start();
    p1.rejects(P1, build_ship(CHANNEL[1]), "pirate_blocks_edge");
    let p2 = s.then_given().main_phase(P2).start();
    p2.rejects(P2, move_ship(COAST_E, "-1,0,SE"), "pirate_blocks_edge");
}

/// TC-61 [SEA-9]: the gold hex's number is rolled and P1's city beside it lets P1 choose two
/// cards (ore and grain); in setup, a second settlement beside gold takes one card of choice
/// for it.
#[test]
fn tc_61_gold_pays_cards_of_free_choice_on_a_roll_and_in_setup() {
    // (3,-1,S): gold 8, mountains 10 and sea.
    let mut s = sea().city(P1, "3,-1,S").turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(4, 4));
    let choice = Phase::GoldChoice {
        roll: 8,
        pending: vec![PendingGold { seat: P1, count: 2 }].into(),
        chosen: vec![],
        source: GoldSource::Production,
    };
    assert_eq!(events, vec![Event::DiceRolled { seat: P0, red: 4, white: 4 }, to_phase(choice, vec![Phase::Main])]);
    s.rejects(P1, Move::ChooseGoldResources { resources: one(Resource::Ore) }, "wrong_gold_count");
    let ore_and_grain = one(Resource::Ore) + one(Resource::Grain);
    let events = s.when(P1, Move::ChooseGoldResources { resources: ore_and_grain });
    assert_eq!(
        events,
        vec![
            Event::ResourcesProduced {
                roll: 8,
                gains: vec![SeatResources { seat: P1, resources: ore_and_grain }].into(),
                shortages: vec![].into(),
                discoveries: vec![].into(),
            },
            to_phase(Phase::Main, vec![]),
        ]
    );
    assert_eq!(s.hand(P1), ore_and_grain);

    // Setup: P0's second settlement (the last placement) on (3,-1,S) takes 1 ore for the
    // mountains and 1 card of its choice for the gold.
    let last = Phase::Setup { seat: P0, placement: 7, step: SetupStep::PlaceSettlement };
    let mut s = sea().settlement(P0, A_NORTH).road(P0, NORTH_ROADS[0]).with_phase(last, vec![]).start();
    let events = s.when(P0, build_settlement("3,-1,S"));
    let road_step = Phase::Setup { seat: P0, placement: 7, step: SetupStep::PlaceRoad { settlement: v("3,-1,S") } };
    let setup_gold = Phase::GoldChoice {
        roll: 0,
        pending: vec![PendingGold { seat: P0, count: 1 }].into(),
        chosen: vec![],
        source: GoldSource::Setup,
    };
    assert_eq!(
        events,
        vec![
            Event::SettlementBuilt { seat: P0, vertex: v("3,-1,S"), cost: Resources::ZERO },
            Event::StartingResourcesReceived { seat: P0, resources: one(Resource::Ore) },
            to_phase(setup_gold, vec![road_step.clone()]),
        ]
    );
    let events = s.when(P0, Move::ChooseGoldResources { resources: one(Resource::Wool) });
    assert_eq!(
        events,
        vec![Event::GoldResourcesTaken { seat: P0, resources: one(Resource::Wool) }, to_phase(road_step, vec![])]
    );
    assert_eq!(s.hand(P0), one(Resource::Ore) + one(Resource::Wool));
    // The setup road follows, then the first turn.
    let events = s.when(P0, build_road("2,0,NE"));
    assert_eq!(events.last(), Some(&Event::TurnStarted { seat: P0, turn: 1 }));
}

/// TC-62 [SEA-10]: three roads and three ships meeting at a vertex without a P0 building are
/// two routes of 3; P0's settlement there joins them into a route of 6, which takes Longest
/// Trade Route.
#[test]
fn tc_62_a_road_and_a_ship_route_join_only_at_an_own_building() {
    let mut s = sea()
        .settlement(P0, A_NORTH)
        .roads_along(P0, &[A_NORTH, "-1,-1,S", "-1,0,N", A_EAST])
        .settlement(P0, B_WEST)
        .ships(P0, &CHANNEL)
        .give(P0, cost::SETTLEMENT)
        .main_phase(P0)
        .start();
    assert_eq!(s.road_length(P0), 3);
    assert_eq!(s.game.longest_road_holder(), None);
    let events = s.when(P0, build_settlement(A_EAST));
    assert_eq!(
        events,
        vec![
            Event::SettlementBuilt { seat: P0, vertex: v(A_EAST), cost: cost::SETTLEMENT },
            Event::LongestRoadChanged { holder: Some(P0), previous: None, length: 6 },
        ]
    );
    assert_eq!(s.road_length(P0), 6);
}

/// P1's and P2's setup settlements on island A; P1's ships reach island B at B_WEST and
/// (2,-1,N), P2's at (1,1,N); P1's main phase, each with cards for settlements.
fn colonists(mode: IslandBonusMode) -> Setup {
    let config =
        GameConfig { island_bonus_mode: Some(mode), island_bonus_vp: Some(2), ..sea_config(ScenarioId::FourIslands) };
    Setup::new(config, sea::two_islands())
        .setup_settlement(P1, A_EAST)
        .setup_settlement(P1, "-2,0,S")
        .setup_settlement(P2, "-1,0,S")
        .setup_settlement(P2, A_NORTH)
        .ships(P1, &CHANNEL)
        .ships(P1, &["1,-1,E", "2,-2,SE"])
        .ships(P2, &["-1,0,SE", "-1,1,NE", "0,0,SE", "0,1,NE", "1,0,SE"])
        .give(P1, cost::SETTLEMENT + cost::SETTLEMENT)
        .give(P2, cost::SETTLEMENT)
        .main_phase(P1)
}

/// P1 settles B twice, then P2 (on its own turn) once; returns each settlement's events.
fn settle_island_b(mode: IslandBonusMode) -> (Scenario, [Vec<Event>; 3]) {
    let mut s = colonists(mode).start();
    let first = s.when(P1, build_settlement(B_WEST));
    let second = s.when(P1, build_settlement("2,-1,N"));
    s.when(P1, Move::EndTurn);
    s.when_with(P2, Move::RollDice, FixedChance::dice(1, 2));
    let third = s.when(P2, build_settlement("1,1,N"));
    (s, [first, second, third])
}

fn settled(seat: catan_engine::Seat, vertex: &str) -> Event {
    Event::SettlementBuilt { seat, vertex: v(vertex), cost: cost::SETTLEMENT }
}

fn bonus(seat: catan_engine::Seat, vertex: &str) -> Event {
    Event::IslandBonusEarned { seat, vertex: v(vertex), points: 2 }
}

/// TC-63 [SEA-12]: with `per_player_foreign_island` and a bonus of 2, P1's first settlement
/// on island B earns +2, its second +0, and P2's first +2; with `first_on_island` P2 gets 0.
#[test]
fn tc_63_the_island_bonus_per_player_and_for_the_first_on_an_island() {
    let (s, [first, second, third]) = settle_island_b(IslandBonusMode::PerPlayerForeignIsland);
    assert_eq!(first, vec![settled(P1, B_WEST), bonus(P1, B_WEST)]);
    assert_eq!(second, vec![settled(P1, "2,-1,N")]);
    assert_eq!(third, vec![settled(P2, "1,1,N"), bonus(P2, "1,1,N")]);
    // 2 setup settlements + 2 on B + the bonus.
    assert_eq!((s.game.victory_points(P1), s.game.victory_points(P2)), (6, 5));

    let (s, [first, second, third]) = settle_island_b(IslandBonusMode::FirstOnIsland);
    assert_eq!(first, vec![settled(P1, B_WEST), bonus(P1, B_WEST)]);
    assert_eq!(second, vec![settled(P1, "2,-1,N")]);
    assert_eq!(third, vec![settled(P2, "1,1,N")]);
    assert_eq!((s.game.victory_points(P1), s.game.victory_points(P2)), (6, 3));
}

/// TC-64 [SEA-13]: P0's ship reaches a fog hex whose top terrain is pasture and top token 9:
/// the hex turns up pasture 9 and P0 takes 1 wool. A hex turned up as sea gives nothing.
#[test]
fn tc_64_a_ship_turns_up_fog_and_its_discoverer_takes_a_card() {
    // CHANNEL[0]'s far end (0,0,N) touches the fog on (1,-1); its near end, none.
    let given = || fog(&["1,-1"]).settlement(P0, A_EAST).give(P0, cost::SHIP).main_phase(P0);
    let mut s = given().start();
    let chance = FixedChance::default().then(FOG_TERRAIN, FOG_PASTURE).then(FOG_TOKEN, TOKEN_9);
    let events = s.when_with(P0, build_ship(CHANNEL[0]), chance);
    assert_eq!(
        events,
        vec![
            ship_built(P0, CHANNEL[0], cost::SHIP),
            Event::FogRevealed {
                seat: P0,
                hex: h("1,-1"),
                terrain: Terrain::Pasture,
                number: Some(9),
                resource: Some(Resource::Wool),
            },
        ]
    );
    let tile = s.game.board().layout().hexes.iter().find(|t| t.hex == h("1,-1")).copied();
    assert_eq!(tile.map(|t| (t.terrain, t.number)), Some((Terrain::Pasture, Some(9))));
    assert_eq!(s.hand(P0), one(Resource::Wool));

    let mut s = given().start();
    let events = s.when_with(P0, build_ship(CHANNEL[0]), FixedChance::default().then(FOG_TERRAIN, FOG_SEA));
    assert_eq!(
        events[1],
        Event::FogRevealed { seat: P0, hex: h("1,-1"), terrain: Terrain::Sea, number: None, resource: None }
    );
    assert_eq!(events.len(), 2);
    assert_eq!(s.hand(P0), Resources::ZERO);
    assert!(s.game.board().is_sea_hex(s.game.board().hex(h("1,-1")).unwrap()));
}

// ---------------------------------------------------------------------------------------
// SEA-1, SEA-2: the ship piece and where it sails

/// SEA-1: a ship costs 1 lumber + 1 wool, and each seat has 15.
#[test]
fn a_ship_needs_its_cost_and_a_piece_in_the_supply() {
    let s = sea().settlement(P0, A_EAST).give(P0, one(Resource::Lumber)).main_phase(P0).start();
    s.rejects(P0, build_ship(CHANNEL[0]), "insufficient_resources");

    // 15 ships in a line from A_EAST around island B: the supply is empty.
    let line = [
        "0,-1,SE", "0,0,NE", "1,-1,SE", "1,0,NE", "1,0,E", "1,1,NE", "2,0,SE", "2,1,NE", "3,0,SE", "3,0,E", "3,0,NE",
        "3,-1,E", "3,-1,NE", "3,-2,SE", "2,-1,NE",
    ];
    let s = sea().settlement(P0, A_EAST).ships(P0, &line).give(P0, cost::SHIP).main_phase(P0).start();
    assert_eq!(s.ships_left(P0), 0);
    s.rejects(P0, build_ship("2,-2,SE"), "no_pieces_left");
    assert!(!s.game.legal_moves(P0).iter().any(|mv| matches!(mv, Move::BuildShip { .. })));

    // Ships are no piece of the base game.
    given().main_phase(P0).give(P0, cost::SHIP).start().rejects(P0, build_ship("0,-3,SE"), "not_in_this_game");
}

/// SEA-2: ships sail on edges between two sea hexes and on coast edges; a coast edge holds a
/// road or a ship, never both; roads never take an edge between two sea hexes, nor ships one
/// between two land hexes.
#[test]
fn ships_take_sea_and_coast_edges_and_a_coast_edge_holds_one_piece() {
    let given = || sea().settlement(P0, A_EAST).give(P0, cost::SHIP + cost::ROAD).main_phase(P0);
    let s = given().start();
    s.rejects(P0, build_road(CHANNEL[0]), "edge_not_buildable");
    let mut s = given().start();
    s.when(P0, build_ship(CHANNEL[0]));
    assert!(s.game.legal_moves(P0).contains(&build_road(COAST_E)));

    let mut s = given().start();
    s.when(P0, build_road(COAST_E));
    s.rejects(P0, build_ship(COAST_E), "edge_occupied");
    s.when(P0, build_ship(COAST_NE));
    s.rejects(P0, build_road(COAST_NE), "edge_occupied");

    // (-2,0,E) lies between forest and hills.
    let s = sea().settlement(P0, "-1,-1,S").give(P0, cost::SHIP).main_phase(P0).start();
    s.rejects(P0, build_ship("-2,0,E"), "edge_not_navigable");
}

/// SEA-4: a settlement may stand where one of the builder's ships ends.
#[test]
fn a_ship_reaches_a_settlement_site_on_another_island() {
    let given = || sea().settlement(P0, A_EAST).ships(P0, &CHANNEL).give(P0, cost::SETTLEMENT).main_phase(P0);
    let mut s = given().start();
    let events = s.when(P0, build_settlement(B_WEST));
    assert_eq!(events, vec![settled(P0, B_WEST)]);
    // (2,-1,N) is on island B's coast, but no ship or road of P0 touches it.
    given().start().rejects(P0, build_settlement("2,-1,N"), "settlement_not_connected");
}

/// SEA-5: beside a coastal setup settlement the free piece may be a ship, on an edge of that
/// settlement; beside an inland one it cannot.
#[test]
fn a_ship_may_be_the_free_setup_piece_at_a_coastal_settlement_only() {
    let mut s = sea().start();
    s.when(P0, build_settlement(A_EAST));
    s.rejects(P0, build_ship("-1,-1,E"), "setup_ship_not_at_settlement");
    let events = s.when(P0, build_ship(CHANNEL[0]));
    let next = Phase::Setup { seat: P1, placement: 1, step: SetupStep::PlaceSettlement };
    assert_eq!(events, vec![ship_built(P0, CHANNEL[0], Resources::ZERO), to_phase(next, vec![])]);
    assert_eq!((s.ships_left(P0), s.hand(P0)), (14, Resources::ZERO));

    let mut s = sea().start();
    s.when(P0, build_settlement(A_INLAND));
    s.rejects(P0, build_ship("-2,0,E"), "edge_not_navigable");
    assert!(!s.game.legal_moves(P0).iter().any(|mv| matches!(mv, Move::BuildShip { .. })));
    s.when(P0, build_road("-2,0,E"));
}

// ---------------------------------------------------------------------------------------
// SEA-6: moving a ship

/// SEA-6: the ship may not lie beside the pirate nor move onto one of its sides; it must move
/// to another edge, one connected without it; only one's own ship moves.
#[test]
fn a_ship_move_keeps_clear_of_the_pirate_changes_its_edge_and_stays_connected() {
    let chain = || sea().settlement(P0, A_EAST).ships(P0, &[CHANNEL[0], CHANNEL[1], OPEN_SEA]).main_phase(P0);
    // OPEN_SEA lies between (0,0) and (1,0).
    chain().pirate("1,0").start().rejects(P0, move_ship(OPEN_SEA, COAST_NE), "pirate_blocks_edge");
    // CHANNEL[2] is a side of (1,-1).
    chain().pirate("1,-1").start().rejects(P0, move_ship(OPEN_SEA, CHANNEL[2]), "pirate_blocks_edge");

    let s = chain().start();
    s.rejects(P0, move_ship(OPEN_SEA, OPEN_SEA), "ship_must_move");
    // (0,1,NE) touches only the vertex the moving ship leaves.
    s.rejects(P0, move_ship(OPEN_SEA, "0,1,NE"), "ship_not_connected");
    s.rejects(P0, move_ship(CHANNEL[2], COAST_NE), "not_your_ship");
    s.rejects(P1, move_ship(OPEN_SEA, COAST_NE), "not_your_turn");
    assert!(s.game.legal_moves(P0).contains(&move_ship(OPEN_SEA, COAST_NE)));
}

/// SEA-6: ships move only in the main phase: not before the roll, not while placing Road
/// Building's pieces.
#[test]
fn a_ship_moves_only_in_the_main_phase() {
    let chain = || sea().settlement(P0, A_EAST).ships(P0, &[CHANNEL[0], CHANNEL[1], OPEN_SEA]);
    chain().turn(P0).start().rejects(P0, move_ship(OPEN_SEA, COAST_NE), "must_roll_first");
    let road_building = chain()
        .main_phase(P0)
        .with_dev_card_played(true)
        .with_phase(Phase::RoadBuilding { roads_left: 2 }, vec![Phase::Main])
        .start();
    road_building.rejects(P0, move_ship(OPEN_SEA, COAST_NE), "wrong_phase");
}

/// SEA-6, SEA-10: Longest Trade Route is measured again after a ship move; moving the end ship
/// of P0's route of 5 to the settlement's other side leaves 4, and the card is set aside.
#[test]
fn moving_the_end_ship_of_a_route_can_cost_longest_trade_route() {
    let mut s = sea()
        .settlement(P0, A_NORTH)
        .roads_along(P0, &[A_NORTH, "-1,-1,S", "-1,0,N", A_EAST])
        .settlement(P0, A_EAST)
        .ships(P0, &CHANNEL[..2])
        .main_phase(P0)
        .start();
    assert_eq!((s.road_length(P0), s.game.longest_road_holder()), (5, Some(P0)));
    let events = s.when(P0, move_ship(CHANNEL[1], COAST_E));
    assert_eq!(
        events,
        vec![
            Event::ShipMoved { seat: P0, from: e(CHANNEL[1]), to: e(COAST_E) },
            Event::LongestRoadChanged { holder: None, previous: Some(P0), length: 4 },
        ]
    );
    assert_eq!(s.road_length(P0), 4);
}

// ---------------------------------------------------------------------------------------
// SEA-7, SEA-8: the pirate

/// SEA-7: after a 7 the mover may move the pirate instead of the robber, to another sea hex,
/// and a Knight may too, before the roll or after it.
#[test]
fn a_seven_or_a_knight_moves_the_pirate_to_another_sea_hex() {
    // P1's ship CHANNEL[0] is a side of (0,0).
    let given = || {
        sea()
            .settlement(P1, A_EAST)
            .ship(P1, CHANNEL[0])
            .give(P1, one(Resource::Wool))
            .card(P0, DevCard::Knight)
            .pirate("0,2")
    };
    let mut s = given().turn(P0).start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(5, 2));
    s.rejects(P0, Move::MovePirate { hex: h("0,2"), steal_from: None }, "pirate_must_move");
    s.rejects(P0, Move::MovePirate { hex: h("-1,0"), steal_from: None }, "pirate_not_on_sea");
    s.rejects(P0, Move::MovePirate { hex: h("0,0"), steal_from: None }, "victim_required");
    let events = s.when(P0, Move::MovePirate { hex: h("0,-2"), steal_from: None });
    assert_eq!(events, vec![Event::PirateMoved { seat: P0, hex: h("0,-2") }, to_phase(Phase::Main, vec![])]);
    assert_eq!((s.game.pirate_hex(), s.game.robber_hex()), (Some(h("0,-2")), None));

    let knight = |hex: &str, steal_from, bandit| Move::PlayKnight { hex: h(hex), steal_from, bandit };
    for position in [given().turn(P0), given().main_phase(P0)] {
        let mut s = position.start();
        s.rejects(P0, knight("0,0", Some(P1), Bandit::Robber), "robber_not_on_land");
        s.rejects(P0, knight("-1,0", None, Bandit::Pirate), "pirate_not_on_sea");
        let events = s.when_with(P0, knight("0,0", Some(P1), Bandit::Pirate), FixedChance::steal(Resource::Wool));
        assert_eq!(
            events,
            vec![
                Event::KnightPlayed { seat: P0 },
                Event::PirateMoved { seat: P0, hex: h("0,0") },
                Event::ResourceStolen { thief: P0, victim: P1, resource: Some(Resource::Wool) },
            ]
        );
        assert_eq!(s.game.player(P0).unwrap().knights_played_count(), 1);
        assert_eq!(s.hand(P0), one(Resource::Wool));
    }
}

/// SEA-8 a, B-ROB-3: the pirate steals only from an opponent with a ship beside it and a card
/// in hand, never from its mover.
#[test]
fn the_pirate_steals_only_from_an_opponent_with_cards() {
    // P0's and P2's ships lie on sides of (0,0); P2 holds nothing.
    let given = || {
        sea()
            .settlement(P0, A_EAST)
            .ship(P0, CHANNEL[0])
            .settlement(P2, B_WEST)
            .ships(P2, &[CHANNEL[2], OPEN_SEA])
            .with_turn(1, P0)
            .with_dice(3, 4)
            .with_phase(Phase::MoveRobber, vec![Phase::Main])
    };
    let mut s = given().start();
    s.rejects(P0, Move::MovePirate { hex: h("0,0"), steal_from: Some(P2) }, "invalid_victim");
    s.rejects(P0, Move::MovePirate { hex: h("0,0"), steal_from: Some(P0) }, "invalid_victim");
    let events = s.when(P0, Move::MovePirate { hex: h("0,0"), steal_from: None });
    assert_eq!(events, vec![Event::PirateMoved { seat: P0, hex: h("0,0") }, to_phase(Phase::Main, vec![])]);
    // With a card, P2 is the one victim.
    let s = given().give(P2, one(Resource::Ore)).start();
    s.rejects(P0, Move::MovePirate { hex: h("0,0"), steal_from: None }, "victim_required");
    let pirate_moves: Vec<Move> = s
        .game
        .legal_moves(P0)
        .into_iter()
        .filter(|mv| matches!(mv, Move::MovePirate { hex, .. } if *hex == h("0,0")))
        .collect();
    assert_eq!(pirate_moves, vec![Move::MovePirate { hex: h("0,0"), steal_from: Some(P2) }]);
}

/// SEA-8: no ship is built on a side of the pirate's hex; the pirate does not stop the land
/// beside it from producing.
#[test]
fn the_pirate_blocks_ships_on_its_sides_but_not_production() {
    let given = || sea().settlement(P0, A_EAST).pirate("0,0").give(P0, cost::SHIP);
    let mut s = given().main_phase(P0).start();
    s.rejects(P0, build_ship(CHANNEL[0]), "pirate_blocks_edge");
    s.rejects(P0, build_ship(COAST_E), "pirate_blocks_edge");
    s.when(P0, build_ship(COAST_NE));

    // Hills 9 lies beside the pirate's hex.
    let mut s = given().turn(P0).start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(4, 5));
    assert_eq!(s.hand(P0), cost::SHIP + one(Resource::Brick));
}

// ---------------------------------------------------------------------------------------
// SEA-9, SEA-11

/// SEA-9: cards chosen for gold are paid with the rest of the roll, and the bank-shortage rule
/// applies per chosen type: two seats choosing ore with one left in the bank get none, while
/// the grain is paid.
#[test]
fn gold_choices_share_the_bank_shortage_rule_per_chosen_type() {
    // P3 holds 18 of the 19 ore.
    let mut s =
        sea().city(P1, "3,-1,S").settlement(P2, "3,-2,S").give(P3, Resources::of(Resource::Ore, 18)).turn(P0).start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(6, 2));
    s.when(P1, Move::ChooseGoldResources { resources: one(Resource::Ore) + one(Resource::Grain) });
    let events = s.when(P2, Move::ChooseGoldResources { resources: one(Resource::Ore) });
    assert_eq!(
        events[0],
        Event::ResourcesProduced {
            roll: 8,
            gains: vec![SeatResources { seat: P1, resources: one(Resource::Grain) }].into(),
            shortages: vec![Resource::Ore].into(),
            discoveries: vec![].into(),
        }
    );
    assert_eq!((s.hand(P1), s.hand(P2), s.game.bank().get(Resource::Ore)), (one(Resource::Grain), Resources::ZERO, 1));

    // A seat's own gold in setup comes straight from the bank: a type it lacks is refused.
    let last = Phase::Setup { seat: P0, placement: 7, step: SetupStep::PlaceSettlement };
    let mut s = sea().give(P3, Resources::of(Resource::Wool, 19)).with_phase(last, vec![]).start();
    s.when(P0, build_settlement("3,-1,N"));
    s.rejects(P0, Move::ChooseGoldResources { resources: one(Resource::Wool) }, "bank_shortage");
    s.when(P0, Move::ChooseGoldResources { resources: one(Resource::Brick) });
}

/// SEA-9: the robber on a gold hex stops it paying.
#[test]
fn the_robber_on_a_gold_hex_blocks_it() {
    let mut s = sea().city(P1, "3,-1,S").robber("3,-1").turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(4, 4));
    assert_eq!(
        events[1..],
        [
            Event::ResourcesProduced {
                roll: 8,
                gains: vec![].into(),
                shortages: vec![].into(),
                discoveries: vec![].into()
            },
            to_phase(Phase::Main, vec![])
        ]
    );
}

/// SEA-11: Road Building's two free pieces may be two ships, or a road and a ship.
#[test]
fn road_building_places_ships_as_well_as_roads() {
    let given = || sea().settlement(P0, A_EAST).card(P0, DevCard::RoadBuilding).main_phase(P0);
    let second = Phase::RoadBuilding { roads_left: 1 };
    let mut s = given().start();
    let events = s.when(P0, Move::PlayRoadBuilding);
    assert_eq!(
        events,
        vec![
            Event::RoadBuildingPlayed { seat: P0 },
            to_phase(Phase::RoadBuilding { roads_left: 2 }, vec![Phase::Main])
        ]
    );
    let events = s.when(P0, build_ship(CHANNEL[0]));
    assert_eq!(events, vec![ship_built(P0, CHANNEL[0], Resources::ZERO), to_phase(second.clone(), vec![Phase::Main])]);
    let events = s.when(P0, build_ship(CHANNEL[1]));
    assert_eq!(events, vec![ship_built(P0, CHANNEL[1], Resources::ZERO), to_phase(Phase::Main, vec![])]);
    assert_eq!((s.ships_left(P0), s.hand(P0)), (13, Resources::ZERO));

    let mut s = given().start();
    s.when(P0, Move::PlayRoadBuilding);
    let events = s.when(P0, build_road(COAST_NE));
    assert_eq!(
        events,
        vec![
            Event::RoadBuilt { seat: P0, edge: e(COAST_NE), cost: Resources::ZERO },
            to_phase(second, vec![Phase::Main]),
        ]
    );
    let events = s.when(P0, build_ship(COAST_E));
    assert_eq!(events, vec![ship_built(P0, COAST_E, Resources::ZERO), to_phase(Phase::Main, vec![])]);
}

// ---------------------------------------------------------------------------------------
// SEA-12: the island bonus

/// SEA-12, `per_settlement_on_marked_islands`: every settlement on an island where nobody
/// began earns the bonus, and a bonus stays when its settlement becomes a city.
#[test]
fn every_settlement_on_an_unsettled_island_earns_the_marked_island_bonus() {
    let (mut s, [first, second, third]) = settle_island_b(IslandBonusMode::PerSettlementOnMarkedIslands);
    assert_eq!(first, vec![settled(P1, B_WEST), bonus(P1, B_WEST)]);
    assert_eq!(second, vec![settled(P1, "2,-1,N"), bonus(P1, "2,-1,N")]);
    assert_eq!(third, vec![settled(P2, "1,1,N"), bonus(P2, "1,1,N")]);
    assert_eq!(s.game.victory_points(P2), 5);
    let city = s.then_given().give(P2, cost::CITY).start();
    s = city;
    s.when(P2, Move::BuildCity { vertex: v("1,1,N") });
    assert_eq!(s.game.victory_points(P2), 6, "2 setup settlements, a city and its bonus");

    // Island A, where the seats began, earns nothing.
    let mut s = colonists(IslandBonusMode::PerSettlementOnMarkedIslands)
        .roads_along(P1, &["-2,0,S", "-3,2,N", "-2,1,S"])
        .start();
    assert_eq!(s.when(P1, build_settlement("-2,1,S")), vec![settled(P1, "-2,1,S")]);
}

// ---------------------------------------------------------------------------------------
// SEA-13: fog

/// SEA-13: a ship reaching two fog hexes turns them up in order — the ship's endpoints in
/// turn, the hexes around each clockwise — each with the next terrain and token drawn, and the
/// discoverer takes a card of each.
#[test]
fn fog_turns_up_in_order_around_each_endpoint() {
    // The board lists (1,-1) before (0,0); CHANNEL[0]'s first endpoint (0,0,N) has (0,0)
    // first clockwise, then (0,-1) (sea), then (1,-1).
    let mut s = fog(&["1,-1", "0,0"]).settlement(P0, A_EAST).give(P0, cost::SHIP).main_phase(P0).start();
    let chance = FixedChance::default()
        .then(FOG_TERRAIN, FOG_PASTURE)
        .then(FOG_TOKEN, TOKEN_9)
        .then(FOG_TERRAIN, FOG_HILLS)
        // 9 is gone: 3 4 5 6 8 10 11 11 12.
        .then(FOG_TOKEN, 1);
    let events = s.when_with(P0, build_ship(CHANNEL[0]), chance);
    let revealed = |hex: &str, terrain, number, resource| Event::FogRevealed {
        seat: P0,
        hex: h(hex),
        terrain,
        number: Some(number),
        resource: Some(resource),
    };
    assert_eq!(
        events,
        vec![
            ship_built(P0, CHANNEL[0], cost::SHIP),
            revealed("0,0", Terrain::Pasture, 9, Resource::Wool),
            revealed("1,-1", Terrain::Hills, 4, Resource::Brick),
        ]
    );
    assert_eq!(s.hand(P0), one(Resource::Wool) + one(Resource::Brick));
}

/// SEA-13: a gold hex turned up gives its discoverer one card of choice before play goes on.
#[test]
fn fog_turned_up_as_gold_gives_a_card_of_choice() {
    let mut s = fog(&["1,-1"]).settlement(P0, A_EAST).give(P0, cost::SHIP).main_phase(P0).start();
    let chance = FixedChance::default().then(FOG_TERRAIN, FOG_GOLD).then(FOG_TOKEN, TOKEN_8);
    let events = s.when_with(P0, build_ship(CHANNEL[0]), chance);
    let discovery = Phase::GoldChoice {
        roll: 0,
        pending: vec![PendingGold { seat: P0, count: 1 }].into(),
        chosen: vec![],
        source: GoldSource::Discovery,
    };
    assert_eq!(
        events,
        vec![
            ship_built(P0, CHANNEL[0], cost::SHIP),
            Event::FogRevealed { seat: P0, hex: h("1,-1"), terrain: Terrain::Gold, number: Some(8), resource: None },
            to_phase(discovery, vec![Phase::Main]),
        ]
    );
    s.rejects(P0, Move::EndTurn, "wrong_phase");
    let events = s.when(P0, Move::ChooseGoldResources { resources: one(Resource::Ore) });
    assert_eq!(
        events,
        vec![Event::GoldResourcesTaken { seat: P0, resources: one(Resource::Ore) }, to_phase(Phase::Main, vec![])]
    );
    assert_eq!(s.hand(P0), one(Resource::Ore));
}

/// SEA-13: a road reaching fog turns it up too, and so does a ship moved next to it.
#[test]
fn roads_and_moved_ships_turn_up_fog_too() {
    // COAST_NE's end (-1,0,N) touches the fog on (-1,-1).
    let mut s = fog(&["-1,-1"]).settlement(P0, A_EAST).give(P0, cost::ROAD).main_phase(P0).start();
    let chance = FixedChance::default().then(FOG_TERRAIN, FOG_HILLS).then(FOG_TOKEN, 0);
    let events = s.when_with(P0, build_road(COAST_NE), chance);
    assert_eq!(
        events[1..],
        [Event::FogRevealed {
            seat: P0,
            hex: h("-1,-1"),
            terrain: Terrain::Hills,
            number: Some(3),
            resource: Some(Resource::Brick)
        }]
    );
    assert_eq!(s.hand(P0), one(Resource::Brick));

    // COAST_E's end (-1,1,N) touches the fog on (-1,1); CHANNEL[0] touches none.
    let mut s = fog(&["-1,1"]).settlement(P0, A_EAST).ship(P0, CHANNEL[0]).main_phase(P0).start();
    let events = s.when_with(P0, move_ship(CHANNEL[0], COAST_E), FixedChance::default().then(FOG_TERRAIN, FOG_SEA));
    assert_eq!(
        events,
        vec![
            Event::ShipMoved { seat: P0, from: e(CHANNEL[0]), to: e(COAST_E) },
            Event::FogRevealed { seat: P0, hex: h("-1,1"), terrain: Terrain::Sea, number: None, resource: None },
        ]
    );
}
