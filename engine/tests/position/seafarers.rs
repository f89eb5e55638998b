//! The Seafarers checks of `Setup::position` (SEA-1..3, SEA-6, SEA-7, SEA-11..13), each
//! refusing what it must with its stable code, on the two islands of `common/sea.rs`.

use catan_engine::{
    board::{layout::beginner_layout, Terrain},
    BuildingKind, FirstPlayer, GameConfig, Phase, ScenarioId, Seat, Setup,
};

use super::sea;
use super::{accepted, e, h, main_phase, refused, v};

const P0: Seat = Seat(0);
const P1: Seat = Seat(1);

fn sea_config() -> GameConfig {
    GameConfig {
        seafarers: true,
        scenario: Some(ScenarioId::FourIslands),
        first_player: FirstPlayer::Seat(0),
        ..GameConfig::for_players(4)
    }
}

/// Islands A and B (see `common/sea.rs`), nothing placed.
fn sea() -> Setup {
    Setup::new(sea_config(), sea::two_islands())
}

/// P0's settlement on island A's east coast (0,-1,S), and its ships along the channel to
/// island B, as many as `ships` (up to 3).
fn p0_at_sea(ships: usize) -> Setup {
    ["0,-1,SE", "0,0,NE", "1,-1,SE"][..ships]
        .iter()
        .fold(settlement(sea(), P0, "0,-1,S"), |setup, edge| setup.with_ship(e(edge), P0))
}

fn settlement(setup: Setup, seat: Seat, vertex: &str) -> Setup {
    setup.with_building(v(vertex), seat, BuildingKind::Settlement)
}

/// SEA-1, SEA-7: ships, the pirate and Seafarers' memory only in a Seafarers game.
#[test]
fn sea_1_ships_and_the_pirate_only_with_seafarers() {
    let base = || Setup::new(GameConfig::for_players(4), beginner_layout());
    let settled = || settlement(base(), P0, "0,-2,N");
    refused(settled().with_ship(e("0,-3,SE"), P0), "not_in_this_game");
    refused(base().with_pirate(h("0,-3")), "not_in_this_game");
    refused(settled().with_setup_settlement(v("0,-2,N"), P0), "not_in_this_game");
    let game = accepted(p0_at_sea(1).with_pirate(h("0,2")));
    assert_eq!(game.ship_at(e("0,-1,SE")), Some(P0));
    assert_eq!(game.pirate_hex(), Some(h("0,2")));
    assert_eq!(game.player(P0).unwrap().pieces_left().ships, 14);
}

/// B-GEO-9, SEA-2, B-BLD-7: ships on edges that touch the sea, on the board, one piece per
/// edge (a coast edge holds a road or a ship).
#[test]
fn sea_2_ships_stand_on_sea_edges_one_piece_per_edge() {
    let at_a = || settlement(sea(), P0, "-1,-1,S");
    // (-2,0,E) lies between forest and hills.
    refused(at_a().with_ship(e("-2,0,E"), P0), "edge_not_navigable");
    refused(at_a().with_ship(e("9,9,E"), P0), "unknown_edge");
    refused(at_a().with_ship(e("-1,-1,SE"), Seat(4)), "unknown_seat");
    // The coast edge (-1,-1,SE): a road and a ship, or two ships.
    refused(at_a().with_road(e("-1,-1,SE"), P0).with_ship(e("-1,-1,SE"), P0), "edge_occupied");
    refused(at_a().with_ship(e("-1,-1,SE"), P0).with_ship(e("-1,-1,SE"), P1), "edge_occupied");
    let game = accepted(at_a().with_ship(e("-1,-1,SE"), P0).with_road(e("-2,0,E"), P0));
    assert_eq!((game.ship_at(e("-1,-1,SE")), game.road_at(e("-2,0,E"))), (Some(P0), Some(P0)));
}

/// B-CMP-7, SEA-1: at most 15 ships on the board per seat.
#[test]
fn sea_1_no_more_ships_than_the_supply() {
    let sixteen = [
        "0,-1,SE", "0,0,NE", "1,-1,SE", "1,0,NE", "1,0,E", "1,1,NE", "2,0,SE", "2,1,NE", "3,0,SE", "3,0,E", "3,0,NE",
        "3,-1,E", "3,-1,NE", "3,-2,SE", "2,-1,NE", "2,-2,SE",
    ];
    let line = |count: usize| {
        sixteen[..count].iter().fold(settlement(sea(), P0, "0,-1,S"), |setup, edge| setup.with_ship(e(edge), P0))
    };
    let message = refused(line(16), "too_many_pieces");
    assert!(message.contains("16 ships"), "{message}");
    let game = accepted(line(15).with_longest_road_as_measured());
    assert_eq!(game.player(P0).unwrap().pieces_left().ships, 0);
}

/// SEA-3: every ship lies in a network of its owner's ships that reaches one of its owner's
/// buildings; a road does not join it, and an opponent's later settlement does not cut it.
#[test]
fn sea_3_ships_connect_to_their_owners_buildings_through_ships() {
    refused(sea().with_ship(e("0,0,NE"), P0), "ship_not_connected");
    refused(p0_at_sea(1).with_ship(e("1,-1,SE"), P0), "ship_not_connected");
    // A road ends at (-1,0,N), where P0 has no building: a ship there is not connected.
    let road = settlement(sea(), P0, "-2,0,N").with_road(e("-2,0,NE"), P0).with_road(e("-1,-1,SE"), P0);
    refused(road.clone().with_ship(e("-1,-1,E"), P0), "ship_not_connected");
    // ... nor a road at the end of a ship chain.
    refused(p0_at_sea(1).with_ship(e("-1,0,E"), P0).with_road(e("-1,0,SE"), P0), "road_not_connected");
    accepted(p0_at_sea(3));
    // P1 settled on island B where P0's ships end: they stay connected.
    accepted(settlement(p0_at_sea(3), P1, "1,0,N"));
}

/// SEA-7: the pirate stands on a sea hex of the board, or off it.
#[test]
fn sea_7_the_pirate_stands_on_sea() {
    refused(sea().with_pirate(h("-1,0")), "pirate_not_on_sea");
    refused(sea().with_pirate(h("9,9")), "unknown_hex");
    assert_eq!(accepted(sea()).pirate_hex(), None);
    // The board's own pirate is the default.
    let mut board = sea::two_islands();
    board.pirate = Some(h("0,0"));
    assert_eq!(accepted(Setup::new(sea_config(), board)).pirate_hex(), Some(h("0,0")));
}

/// SEA-11, B-DEV-5: Road Building's free pieces may be ships, so a seat with every road
/// placed may still have two to place.
#[test]
fn sea_11_free_pieces_count_ships() {
    // All 15 edges of island A hold P0's roads.
    let island_a = [
        "-3,0,E", "-3,1,E", "-3,1,NE", "-3,2,NE", "-2,-1,SE", "-2,0,E", "-2,0,NE", "-2,0,SE", "-2,1,E", "-2,1,NE",
        "-2,1,SE", "-1,-1,SE", "-1,0,E", "-1,0,NE", "-1,0,SE",
    ];
    let roads = island_a.iter().fold(settlement(sea(), P0, "-2,1,N"), |setup, edge| setup.with_road(e(edge), P0));
    let road_building = |roads_left| {
        main_phase(roads.clone(), P0)
            .with_dev_card_played(true)
            .with_phase(Phase::RoadBuilding { roads_left }, vec![Phase::Main])
            .with_longest_road_as_measured()
    };
    let game = accepted(road_building(2));
    assert_eq!(game.player(P0).unwrap().pieces_left().roads, 0);
    refused(road_building(3), "invalid_phase");
}

/// Seafarers' memory: setup settlements on the seat's own buildings, at most two each
/// (B-SET-3, SEA-12); island bonuses on the seat's own buildings (SEA-12); a ship moved only
/// after the roll, ships built this turn on the board (SEA-6); fog turned up as a tile that
/// could lie there (SEA-13).
#[test]
fn seafarers_memory_fits_the_board_and_the_turn() {
    let memory = |setup: Setup, edit: &dyn Fn(&mut catan_engine::SeafarersSetup)| {
        let mut setup = setup;
        edit(&mut setup.seafarers);
        setup
    };
    let placed = || settlement(settlement(settlement(p0_at_sea(2), P0, "-2,0,S"), P0, "-2,2,N"), P1, "1,0,N");
    refused(placed().with_setup_settlement(v("1,0,N"), P0), "seafarers_state_inconsistent");
    refused(placed().with_setup_settlement(v("9,9,N"), P0), "unknown_vertex");
    refused(
        placed()
            .with_setup_settlement(v("0,-1,S"), P0)
            .with_setup_settlement(v("-2,0,S"), P0)
            .with_setup_settlement(v("-2,2,N"), P0),
        "seafarers_state_inconsistent",
    );
    refused(memory(placed(), &|m| m.island_bonuses.push((P0, v("1,0,N"), 2))), "seafarers_state_inconsistent");
    refused(memory(placed(), &|m| m.island_bonuses.push((P1, v("1,0,N"), 0))), "seafarers_state_inconsistent");
    refused(memory(placed().with_turn(1, P0), &|m| m.ship_moved = true), "invalid_turn");
    refused(memory(main_phase(placed(), P0), &|m| m.new_ships.push(e("1,-1,SE"))), "seafarers_state_inconsistent");
    refused(memory(placed(), &|m| m.revealed.push((Terrain::Fog, None))), "seafarers_state_inconsistent");
    refused(memory(placed(), &|m| m.revealed.push((Terrain::Hills, None))), "seafarers_state_inconsistent");
    refused(memory(placed(), &|m| m.revealed.push((Terrain::Sea, Some(6)))), "seafarers_state_inconsistent");

    let setup = memory(main_phase(placed(), P0), &|m| {
        m.island_bonuses.push((P1, v("1,0,N"), 2));
        m.ship_moved = true;
        m.new_ships.push(e("0,0,NE"));
        m.revealed.extend([(Terrain::Hills, Some(4)), (Terrain::Sea, None)]);
    })
    .with_setup_settlement(v("0,-1,S"), P0)
    .with_setup_settlement(v("-2,0,S"), P0);
    let game = accepted(setup.clone());
    assert_eq!(Setup::from(&game).seafarers, setup.seafarers);
    assert_eq!(Setup::from(&game).position().unwrap(), game);
    assert_eq!(game.victory_points(P1), 3, "a settlement and its island bonus");
    // A new turn forgets the ship moved and built.
    let next = Setup::from(&game).with_turn(2, P1);
    assert!(!next.seafarers.ship_moved && next.seafarers.new_ships.is_empty());
}

/// A Seafarers position (ships, the pirate, fog turned up, Seafarers' memory) reads back
/// from its JSON.
#[test]
fn a_seafarers_setup_round_trips_through_json() {
    let config = GameConfig { scenario: Some(ScenarioId::FogIslands), ..sea_config() };
    let record = catan_engine::sim::play_random_game(config, 5).expect("game");
    let setup = Setup::from(&record.game);
    assert!(!setup.ships.is_empty() && !setup.seafarers.revealed.is_empty() && setup.pirate.is_some());
    let parsed: Setup = serde_json::from_str(&serde_json::to_string(&setup).unwrap()).unwrap();
    assert_eq!(parsed, setup);
    assert_eq!(parsed.position().unwrap(), record.game);
}
