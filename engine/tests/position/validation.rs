//! Each check of `Setup::position`, named after the rule it stands for: a position that
//! breaks it is refused with its stable code, and the nearest valid position is accepted.

use catan_engine::{
    board::{layout::beginner_layout, BoardLayout, HexTile, Terrain},
    events::SeatResources,
    state::{PendingDiscard, PendingGold, TradeOffer},
    BoardSpec, BuildingKind, DevCard, DevCards, EdgeId, FirstPlayer, Game, GameConfig, Move, Phase, Resource,
    Resources, Seat, SeededChance, Setup, SetupStep, VertexId, Viewer,
};

use super::{accepted, e, h, main_phase, refused, v};

const P0: Seat = Seat(0);
const P1: Seat = Seat(1);
const P2: Seat = Seat(2);

fn config() -> GameConfig {
    GameConfig { first_player: FirstPlayer::Seat(0), ..GameConfig::for_players(4) }
}

/// The empty start-of-setup position on the beginner board.
fn base() -> Setup {
    Setup::new(config(), beginner_layout())
}

fn settlement(setup: Setup, seat: Seat, vertex: &str) -> Setup {
    setup.with_building(v(vertex), seat, BuildingKind::Settlement)
}

fn roads(mut setup: Setup, seat: Seat, edges: &[&str]) -> Setup {
    for edge in edges {
        setup = setup.with_road(e(edge), seat);
    }
    setup
}

/// Pairwise non-adjacent vertices of the board, in its order (for many buildings at once).
fn spread_vertices(game: &Game, count: usize) -> Vec<VertexId> {
    let mut chosen: Vec<VertexId> = Vec::new();
    for &vertex in &game.board().vertices {
        if chosen.iter().all(|c| *c != vertex && !c.adjacent().contains(&vertex)) {
            chosen.push(vertex);
        }
    }
    chosen.truncate(count);
    assert_eq!(chosen.len(), count);
    chosen
}

/// The 7-hex island of `common/islands.rs` (its robber on the desert).
fn small_island() -> BoardLayout {
    super::islands::seven_hex_island()
}

#[test]
fn the_empty_setup_is_the_start_of_a_new_game() {
    let game = accepted(base());
    let new = Game::new(config(), 0).unwrap();
    assert_eq!(game.view(Viewer::Spectator), new.view(Viewer::Spectator));
    assert_eq!(game.legal_moves(P0), new.legal_moves(P0));
    assert_eq!(*game.bank(), Resources::each(19));
    assert_eq!(game.development_deck().total(), 25);
}

/// Config and board: the ruleset's own checks and the board's topology (B-CMP-11, B-GEO-9);
/// a small custom board is fine (no B-CMP-1..4 component count on a position).
#[test]
fn config_and_board_are_checked_as_a_new_game_checks_them() {
    refused(Setup::new(GameConfig { players: 7, ..config() }, beginner_layout()), "invalid_player_count");
    refused(Setup::new(GameConfig { vp_target: Some(2), ..config() }, beginner_layout()), "invalid_config");
    refused(Setup::new(GameConfig { jungle: true, ..config() }, beginner_layout()), "invalid_config");
    // B-GEO-9: a land hex needs its neighbours on the map (here: no sea frame).
    let mut no_frame = small_island();
    no_frame.hexes.retain(|t| t.terrain != Terrain::Sea);
    refused(Setup::new(config(), no_frame), "invalid_board");
    // A number token on the desert is refused by the board's topology check.
    let mut bad_token = small_island();
    bad_token.hexes.iter_mut().filter(|t| t.terrain == Terrain::Desert).for_each(|t| t.number = Some(3));
    refused(Setup::new(config(), bad_token), "invalid_board");
    // RIV-1: a Big River board lists its river (an extension's own board check).
    let river = GameConfig { big_river: true, river_gold_number: Some(4), board: BoardSpec::Random, ..config() };
    refused(Setup::new(river, small_island()), "invalid_board");
    // The 7-hex island is a whole game's board.
    let game = accepted(Setup::new(config(), small_island()));
    assert_eq!(game.board().land_hex_count(), 7);
    assert_eq!(game.board().vertices.len(), 24);
}

#[test]
fn every_seat_named_must_be_in_the_game() {
    let seat4 = Seat(4);
    refused(settlement(base(), seat4, "0,-1,N"), "unknown_seat");
    refused(base().with_hand(seat4, Resources::of(Resource::Ore, 1)), "unknown_seat");
    refused(base().with_road(e("0,-1,NE"), seat4), "unknown_seat");
    refused(base().with_turn(1, seat4), "unknown_seat");
    refused(Setup { first_seat: Seat(9), ..base() }, "unknown_seat");
    let discard = Phase::Discard { pending: vec![PendingDiscard { seat: Seat(9), count: 4 }].into() };
    refused(
        base().with_turn(1, P0).with_dice(3, 4).with_phase(discard, vec![Phase::MoveRobber, Phase::Main]),
        "unknown_seat",
    );
    refused(main_phase(base(), P0).with_largest_army(Some(seat4)), "unknown_seat");
    // A seat outside the game that holds nothing is no seat.
    let mut setup = base();
    setup.seat_mut(Seat(5));
    accepted(setup);
}

#[test]
fn every_vertex_edge_and_hex_must_be_on_the_board() {
    refused(settlement(base(), P0, "5,5,N"), "unknown_vertex");
    // A vertex whose hexes are all sea does not exist (B-GEO-9).
    refused(settlement(base(), P0, "0,-3,N"), "unknown_vertex");
    refused(base().with_road(e("5,5,E"), P0), "unknown_edge");
    refused(base().with_robber(h("5,5")), "unknown_hex");
}

/// B-BLD-7, B-BLD-4, B-GEO-9: one building per vertex, never one edge apart.
#[test]
fn b_bld_4_and_b_bld_7_buildings_keep_their_distance() {
    refused(settlement(settlement(base(), P0, "0,-1,N"), P1, "0,-1,N"), "vertex_occupied");
    let message = refused(settlement(settlement(base(), P0, "0,-1,N"), P1, "1,-2,S"), "buildings_too_close");
    assert!(message.contains("B-BLD-4"), "{message}");
    // Own buildings too.
    refused(settlement(settlement(base(), P0, "0,-1,N"), P0, "1,-2,S"), "buildings_too_close");
    // Two edges apart is fine.
    accepted(settlement(settlement(base(), P0, "0,-1,N"), P1, "0,0,N"));
}

/// B-BLD-7, B-GEO-9: one road per edge, only on edges that touch land.
#[test]
fn b_geo_9_roads_stand_on_land_edges_once() {
    let own = settlement(base(), P0, "0,-1,N");
    refused(roads(own.clone(), P0, &["0,-1,NE", "0,-1,NE"]), "edge_occupied");
    // A lake of two sea hexes inside the island: the edge between them touches no land.
    let mut lake = beginner_layout();
    for tile in lake.hexes.iter_mut().filter(|t| t.hex == h("0,0") || t.hex == h("1,0")) {
        *tile = HexTile::sea(tile.hex);
    }
    lake.robber = Some(h("0,-1"));
    let lake_game = accepted(Setup::new(config(), lake.clone()));
    let board = lake_game.board();
    let sea_edge = (0..board.edges.len()).find(|&i| !board.edge_is_land[i]).map(|i| board.edges[i]).unwrap();
    let [end, _] = sea_edge.endpoints();
    let setup = Setup::new(config(), lake).with_building(end, P0, BuildingKind::Settlement).with_road(sea_edge, P0);
    refused(setup, "edge_not_buildable");
}

/// B-CMP-7, B-BLD-2, B-BLD-6: at most 5 settlements, 4 cities, 15 roads on the board; a city
/// uses a city piece only (its settlement went back to the supply).
#[test]
fn b_cmp_7_no_more_pieces_than_the_supply() {
    let probe = accepted(base());
    let sites = spread_vertices(&probe, 10);
    let mut nine = base();
    for (i, &site) in sites[..9].iter().enumerate() {
        let kind = if i < 4 { BuildingKind::City } else { BuildingKind::Settlement };
        nine = nine.with_building(site, P0, kind);
    }
    let game = accepted(nine.clone());
    let pieces = game.player(P0).unwrap().pieces_left();
    assert_eq!((pieces.settlements, pieces.cities), (0, 0));
    let message = refused(nine.clone().with_building(sites[9], P0, BuildingKind::Settlement), "too_many_pieces");
    assert!(message.contains("6 settlements") && message.contains("B-CMP-7"), "{message}");
    let mut five_cities = base();
    for &site in &sites[..5] {
        five_cities = five_cities.with_building(site, P0, BuildingKind::City);
    }
    refused(five_cities, "too_many_pieces");

    // 15 roads reaching out from one settlement, then a 16th.
    let mut setup = settlement(base(), P0, "0,0,N");
    let board = probe.board();
    let mut frontier = vec![board.vertex(v("0,0,N")).unwrap()];
    let mut edges: Vec<u16> = Vec::new();
    while edges.len() < 16 {
        let at = frontier.remove(0);
        for edge in board.edges_of(at) {
            if !edges.contains(&edge) && edges.len() < 16 {
                edges.push(edge);
                frontier.push(board.other_end(edge, at));
            }
        }
    }
    for &edge in &edges[..15] {
        setup = setup.with_road(board.edges[edge as usize], P0);
    }
    let setup = setup.with_longest_road(Some(P0));
    assert_eq!(accepted(setup.clone()).player(P0).unwrap().pieces_left().roads, 0);
    refused(setup.with_road(board.edges[edges[15] as usize], P0), "too_many_pieces");
}

/// B-BLD-3: every road connects to its owner's buildings through its owner's roads. A road
/// cut off by an opponent's later settlement stays connected (that is how play leaves it).
#[test]
fn b_bld_3_roads_connect_to_their_owners_network() {
    refused(roads(base(), P0, &["0,-1,NE"]), "road_not_connected");
    let own = settlement(base(), P0, "0,-1,N");
    accepted(roads(own.clone(), P0, &["0,-1,NE", "0,-1,E"]));
    // Through an own road only: an opponent's road does not connect.
    let message = refused(
        roads(roads(settlement(base(), P1, "0,-1,N"), P1, &["0,-1,NE"]), P0, &["0,-1,E"]),
        "road_not_connected",
    );
    assert!(message.contains("B-BLD-3"), "{message}");
    // A road touching only an opponent's building is not connected.
    refused(roads(settlement(base(), P1, "0,-1,N"), P0, &["0,-1,NE"]), "road_not_connected");
    // P0's roads v0 .. v4; P1 settles on v3 from its own road: P0's last road is cut off
    // from P0's settlement, as play can leave it, and the position stays valid.
    let p0 = roads_along(settlement(base(), P0, ROW0_TOP[0]), P0, &ROW0_TOP[..5]);
    let p1 = roads_along(settlement(p0, P1, "0,-1,N"), P1, &["0,-1,N", "0,-2,S", ROW0_TOP[3]]);
    let game = accepted(settlement(p1, P1, ROW0_TOP[3]));
    assert_eq!(game.road_length(P0), 3);
}

/// B-CMP-5: bank plus hands is 19 of each resource; a derived bank is what the hands leave.
#[test]
fn b_cmp_5_resources_are_conserved() {
    let game = accepted(base().with_hand(P0, Resources::new(3, 0, 0, 0, 19)));
    assert_eq!(*game.bank(), Resources::new(16, 19, 19, 19, 0));
    let message = refused(
        base().with_hand(P0, Resources::of(Resource::Ore, 12)).with_hand(P1, Resources::of(Resource::Ore, 8)),
        "resources_not_conserved",
    );
    assert!(message.contains("20 ore") && message.contains("B-CMP-5"), "{message}");
    refused(base().with_bank(Resources::each(18)), "resources_not_conserved");
    let game = accepted(base().with_hand(P2, Resources::each(1)).with_bank(Resources::each(18)));
    assert_eq!(*game.bank(), Resources::each(18));
    // The 5-6 extension has 24 of each.
    let six = GameConfig { first_player: FirstPlayer::Seat(0), ..GameConfig::for_players(6) };
    let board = Game::new(six.clone(), 1).unwrap().board().layout().clone();
    accepted(Setup::new(six, board).with_hand(Seat(5), Resources::of(Resource::Wool, 24)));
}

/// B-CMP-6: deck plus cards held plus knights played never exceeds the deck of 25.
#[test]
fn b_cmp_6_development_cards_are_conserved() {
    let knights = |n| DevCards::of(DevCard::Knight, n);
    let game = accepted(
        main_phase(base(), P0)
            .with_dev_cards(P0, knights(2), DevCards::of(DevCard::Monopoly, 1))
            .with_knights_played(P1, 2),
    );
    assert_eq!(*game.development_deck(), DevCards::new(10, 2, 2, 1, 5));
    let message = refused(
        base().with_dev_cards(P0, knights(10), knights(2)).with_knights_played(P1, 3),
        "dev_cards_not_conserved",
    );
    assert!(message.contains("15 knight") && message.contains("B-CMP-6"), "{message}");
    refused(
        base().with_dev_cards(P0, DevCards::of(DevCard::VictoryPoint, 6), DevCards::default()),
        "dev_cards_not_conserved",
    );
    // An explicit deck may be short (progress cards were played), never over.
    accepted(base().with_deck(DevCards::new(14, 0, 2, 2, 5)));
    refused(
        base().with_dev_cards(P1, knights(1), DevCards::default()).with_deck(DevCards::new(14, 2, 2, 2, 5)),
        "dev_cards_not_conserved",
    );
}

/// The edges joining consecutive vertices of a walk.
fn path(walk: &[&str]) -> Vec<EdgeId> {
    walk.windows(2)
        .map(|pair| {
            let (a, b) = (v(pair[0]), v(pair[1]));
            *a.edges().iter().find(|edge| edge.endpoints().contains(&b)).expect("adjacent vertices")
        })
        .collect()
}

fn roads_along(mut setup: Setup, seat: Seat, walk: &[&str]) -> Setup {
    for edge in path(walk) {
        setup = setup.with_road(edge, seat);
    }
    setup
}

/// Along the top of row 0, west to east (v0 .. v6), and along the top of row 2.
const ROW0_TOP: [&str; 7] = ["-2,-1,S", "-2,0,N", "-1,-1,S", "-1,0,N", "0,-1,S", "0,0,N", "1,-1,S"];
const ROW2_TOP: [&str; 7] = ["-2,1,S", "-2,2,N", "-1,1,S", "-1,2,N", "0,1,S", "0,2,N", "1,1,S"];

/// `seat`'s settlement on v0 and six roads to v6.
fn six_roads(setup: Setup, seat: Seat) -> Setup {
    roads_along(settlement(setup, seat, ROW0_TOP[0]), seat, &ROW0_TOP)
}

/// B-LR-3, B-LR-4: the holder's road is 5 or more and nobody's is longer; the card is set
/// aside only on a tie (B-LR-5), never while one road of 5 or more is the longest.
#[test]
fn b_lr_3_and_b_lr_4_longest_road_goes_with_the_longest_road() {
    let game = accepted(six_roads(base(), P0).with_longest_road(Some(P0)));
    assert_eq!(game.victory_points(P0), 3);
    let message = refused(settlement(base(), P1, "0,2,N").with_longest_road(Some(P1)), "longest_road_inconsistent");
    assert!(message.contains("B-LR-3"), "{message}");
    // P1 holds with 5 while P0 has 6.
    let p1_five = roads_along(settlement(six_roads(base(), P0), P1, ROW2_TOP[0]), P1, &ROW2_TOP[..6]);
    assert_eq!(accepted(p1_five.clone().with_longest_road(Some(P0))).road_length(P1), 5);
    let message = refused(p1_five.clone().with_longest_road(Some(P1)), "longest_road_inconsistent");
    assert!(message.contains("B-LR-4"), "{message}");
    accepted(p1_five.with_longest_road(Some(P0)));
    // Set aside on a tie: P0 and P1 both at 6. Not while P0's 6 is the only longest.
    let message = refused(six_roads(base(), P0), "longest_road_inconsistent");
    assert!(message.contains("B-LR-5"), "{message}");
    let tie = roads_along(settlement(six_roads(base(), P0), P1, ROW2_TOP[0]), P1, &ROW2_TOP);
    assert_eq!(accepted(tie.clone().with_longest_road(Some(P0))).road_length(P1), 6);
    accepted(tie);
}

/// B-LA-1, B-LA-2, B-LA-3: the holder played 3 knights or more and nobody more; nobody with 3
/// goes without it.
#[test]
fn b_la_1_and_b_la_2_largest_army_goes_with_the_most_knights() {
    let game = accepted(base().with_knights_played(P1, 3).with_knights_played(P2, 3).with_largest_army(Some(P2)));
    assert_eq!(game.largest_army_holder(), Some(P2));
    let message = refused(base().with_knights_played(P1, 2).with_largest_army(Some(P1)), "largest_army_inconsistent");
    assert!(message.contains("B-LA-1"), "{message}");
    let message = refused(
        base().with_knights_played(P1, 3).with_knights_played(P2, 4).with_largest_army(Some(P1)),
        "largest_army_inconsistent",
    );
    assert!(message.contains("B-LA-2"), "{message}");
    refused(base().with_knights_played(P1, 3), "largest_army_inconsistent");
}

/// B-ROB-2, RIV-7: the robber stands on land, or waits off the board.
#[test]
fn b_rob_2_the_robber_stands_on_land() {
    let message = refused(base().with_robber(h("0,-3")), "robber_not_on_land");
    assert!(message.contains("B-ROB-2"), "{message}");
    assert_eq!(accepted(base().with_robber(h("1,-1"))).robber_hex(), Some(h("1,-1")));
    assert_eq!(accepted(Setup { robber: None, ..base() }).robber_hex(), None);
}

/// B-SET-3, B-SET-4, B-SET-7: setup is turn 0, in snake order; its road step follows the
/// placing seat's settlement.
#[test]
fn b_set_3_setup_follows_the_snake() {
    let step = SetupStep::PlaceSettlement;
    accepted(base().with_phase(Phase::Setup { seat: P0, placement: 7, step }, vec![]));
    accepted(base().with_phase(Phase::Setup { seat: P2, placement: 5, step }, vec![]));
    let message = refused(base().with_phase(Phase::Setup { seat: P1, placement: 5, step }, vec![]), "invalid_phase");
    assert!(message.contains("B-SET-3"), "{message}");
    refused(base().with_phase(Phase::Setup { seat: P0, placement: 8, step }, vec![]), "invalid_phase");
    let road_step = Phase::Setup { seat: P0, placement: 0, step: SetupStep::PlaceRoad { settlement: v("0,-1,N") } };
    refused(base().with_phase(road_step.clone(), vec![]), "invalid_phase");
    let game = accepted(settlement(base(), P0, "0,-1,N").with_phase(road_step, vec![]));
    assert!(game.legal_moves(P0).contains(&Move::BuildRoad { edge: e("0,-1,NE") }));
    // Setup is turn 0, and turn 0 is setup.
    refused(base().with_turn(0, P0), "invalid_turn");
    refused(Setup { turn: catan_engine::TurnSetup::new(2, P0), ..base() }, "invalid_turn");
    refused(base().with_dice(2, 3), "invalid_turn");
}

/// B-TURN-1/2/4: no dice before the roll, dice after it.
#[test]
fn b_turn_2_the_dice_fit_the_phase() {
    refused(base().with_turn(1, P0).with_dice(2, 3), "invalid_turn");
    refused(base().with_turn(1, P0).with_phase(Phase::Main, vec![]), "invalid_turn");
    refused(base().with_turn(1, P0).with_dice(0, 7).with_phase(Phase::Main, vec![]), "invalid_turn");
    refused(main_phase(base(), P0).with_phase(Phase::Main, vec![Phase::PreRoll]), "invalid_phase");
    refused(main_phase(base(), P0).with_phase(Phase::Main, vec![Phase::GameOver]), "invalid_phase");
    accepted(main_phase(base(), P0));
}

/// B-ROB-1: a discard phase follows a 7, is owed by somebody, and each seat owes half of a
/// hand above 7; the robber waits only after a 7 (B-ROB-2).
#[test]
fn b_rob_1_discards_are_owed_by_big_hands_after_a_seven() {
    let seven = |setup: Setup, phase: Phase| {
        setup.with_turn(1, P0).with_dice(3, 4).with_phase(phase, vec![Phase::MoveRobber, Phase::Main])
    };
    let big = base().with_hand(P1, Resources::new(3, 3, 3, 0, 0));
    let owed = |count| Phase::Discard { pending: vec![PendingDiscard { seat: P1, count }].into() };
    let game = accepted(seven(big.clone(), owed(4)));
    assert_eq!(game.waiting_for(), [P1]);
    let message = refused(seven(big.clone(), Phase::Discard { pending: vec![].into() }), "invalid_phase");
    assert!(message.contains("nobody"), "{message}");
    refused(seven(big.clone(), owed(3)), "invalid_phase");
    refused(
        seven(
            base().with_hand(P1, Resources::each(1)),
            Phase::Discard { pending: vec![PendingDiscard { seat: P1, count: 2 }].into() },
        ),
        "invalid_phase",
    );
    refused(seven(big.clone(), owed(4)).with_dice(3, 3), "invalid_phase");
    refused(base().with_turn(1, P0).with_dice(2, 2).with_phase(Phase::MoveRobber, vec![Phase::Main]), "invalid_phase");
    accepted(base().with_turn(1, P0).with_dice(2, 5).with_phase(Phase::MoveRobber, vec![Phase::Main]));
}

/// RIV-5: gold choices only where gold produces, for the roll on the dice, owed by somebody.
#[test]
fn riv_5_gold_choices_are_owed_by_somebody() {
    let river = GameConfig { big_river: true, river_gold_number: Some(4), board: BoardSpec::Random, ..config() };
    let layout = Game::new(river.clone(), 3).unwrap().board().layout().clone();
    let gold_roll = |pending: Vec<PendingGold>, chosen: Vec<SeatResources>| {
        Setup::new(river.clone(), layout.clone()).with_turn(2, P0).with_dice(1, 3).with_phase(
            Phase::GoldChoice { roll: 4, pending: pending.into(), chosen, source: Default::default() },
            vec![Phase::Main],
        )
    };
    let owed = vec![PendingGold { seat: P1, count: 1 }];
    let game = accepted(gold_roll(owed.clone(), vec![]));
    assert_eq!(game.legal_moves(P1).len(), 5);
    let message = refused(gold_roll(vec![], vec![]), "invalid_phase");
    assert!(message.contains("nobody"), "{message}");
    let chose = vec![SeatResources { seat: P1, resources: Resources::of(Resource::Ore, 1) }];
    refused(gold_roll(owed.clone(), chose), "invalid_phase");
    refused(gold_roll(owed.clone(), vec![]).with_dice(2, 3), "invalid_phase");
    // No gold without a gold mine that produces.
    let phase = Phase::GoldChoice { roll: 5, pending: owed.into(), chosen: vec![], source: Default::default() };
    refused(base().with_turn(1, P0).with_dice(2, 3).with_phase(phase, vec![Phase::Main]), "not_in_this_game");
}

/// B-DEV-5: free roads follow a Road Building card played this turn, at most 2 and no more
/// than the supply holds.
#[test]
fn b_dev_5_free_roads_follow_road_building() {
    let building = |setup: Setup, roads_left| {
        main_phase(setup, P0).with_phase(Phase::RoadBuilding { roads_left }, vec![Phase::Main])
    };
    let own = settlement(base(), P0, "0,-1,N");
    refused(building(own.clone(), 2), "invalid_phase");
    accepted(building(own.clone(), 2).with_dev_card_played(true));
    refused(building(own.clone(), 3).with_dev_card_played(true), "invalid_phase");
    refused(building(own, 0).with_dev_card_played(true), "invalid_phase");
}

/// X56-8, JUN-4: extension phases and counters only with their extension.
#[test]
fn extension_state_needs_its_extension() {
    let special = main_phase(base(), P0).with_phase(Phase::SpecialBuilding { seat: P1 }, vec![]);
    refused(special, "not_in_this_game");
    refused(base().with_discoveries(P1, 2), "not_in_this_game");
    let six = GameConfig { first_player: FirstPlayer::Seat(0), ..GameConfig::for_players(6) };
    let board = Game::new(six.clone(), 1).unwrap().board().layout().clone();
    let special = |seat| {
        main_phase(Setup::new(six.clone(), board.clone()), P0).with_phase(Phase::SpecialBuilding { seat }, vec![])
    };
    assert_eq!(accepted(special(P2)).waiting_for(), [P2]);
    refused(special(P0), "invalid_phase");
    let jungle = GameConfig { jungle: true, jungle_number: Some(5), ..config() };
    let board = Game::new(jungle.clone(), 1).unwrap().board().layout().clone();
    assert_eq!(accepted(Setup::new(jungle, board).with_discoveries(P1, 2)).discoveries(P1), 2);
}

/// B-WIN-4: a winner exactly when the game is over; B-WIN-3: nobody has won unnoticed.
#[test]
fn b_win_3_and_b_win_4_the_winner_and_the_end_go_together() {
    let probe = accepted(base());
    let mut nine = main_phase(base(), P0);
    for (i, site) in spread_vertices(&probe, 5).into_iter().enumerate() {
        nine = nine.with_building(site, P0, if i < 4 { BuildingKind::City } else { BuildingKind::Settlement });
    }
    assert_eq!(accepted(nine.clone()).victory_points(P0), 9);
    let ten = nine.clone().with_dev_cards(P0, DevCards::of(DevCard::VictoryPoint, 1), DevCards::default());
    let message = refused(ten.clone(), "already_won");
    assert!(message.contains("B-WIN-3"), "{message}");
    // Points on another seat's turn wait for that seat's turn.
    accepted(ten.clone().with_turn(4, P1).with_dice(1, 1).with_phase(Phase::Main, vec![]));
    let over = accepted(ten.clone().with_winner(P0));
    assert!(over.is_over() && over.legal_moves(P0).is_empty());
    refused(nine.clone().with_phase(Phase::GameOver, vec![]), "invalid_phase");
    refused(Setup { winner: Some(P0), ..nine }, "invalid_phase");
}

/// B-TRD-5, B-TRD-7, B-TRD-8: open offers are well formed, have the active player on one
/// side, and are open only where trading is.
#[test]
fn b_trd_5_open_offers_fit_the_turn() {
    let offer = |from: Seat, to: Vec<Seat>, give: Resources, get: Resources| TradeOffer {
        id: 3,
        from,
        to,
        give,
        get,
        give_commodities: catan_engine::Commodities::NONE,
        get_commodities: catan_engine::Commodities::NONE,
        counter_to: None,
        accepted_by: vec![],
        declined_by: vec![],
    };
    let (ore, wool) = (Resources::of(Resource::Ore, 1), Resources::of(Resource::Wool, 1));
    let trading = main_phase(base(), P0).with_hand(P0, ore);
    let game = accepted(trading.clone().with_offers([offer(P0, vec![P1, P2], ore, wool)]));
    assert_eq!(game.open_offers().len(), 1);
    assert!(game.legal_moves(P0).contains(&Move::WithdrawTrade { offer_id: 3 }));
    // The next offer gets a fresh id.
    let events = game
        .decide(
            P0,
            &Move::OfferTrade {
                give: ore,
                get: wool,
                give_commodities: catan_engine::Commodities::NONE,
                get_commodities: catan_engine::Commodities::NONE,
                to: None,
                counter_to: None,
            },
            &mut game.chance(),
        )
        .unwrap();
    assert!(matches!(&events[0], catan_engine::Event::TradeOffered { offer } if offer.id == 4));

    let message = refused(trading.clone().with_offers([offer(P1, vec![P2], wool, ore)]), "invalid_offer");
    assert!(message.contains("B-TRD-5"), "{message}");
    let message = refused(trading.clone().with_offers([offer(P0, vec![P1], ore, Resources::ZERO)]), "invalid_offer");
    assert!(message.contains("B-TRD-7"), "{message}");
    refused(trading.clone().with_offers([offer(P0, vec![P1], ore, ore)]), "invalid_offer");
    refused(trading.clone().with_offers([offer(P0, vec![P0], ore, wool)]), "invalid_offer");
    refused(
        trading.clone().with_offers([offer(P0, vec![P1], ore, wool), offer(P0, vec![P2], ore, wool)]),
        "invalid_offer",
    );
    let mut answered = offer(P0, vec![P1], ore, wool);
    answered.accepted_by = vec![P2];
    refused(trading.clone().with_offers([answered]), "invalid_offer");
    refused(trading.with_offers([offer(P0, vec![Seat(6)], ore, wool)]), "unknown_seat");
    // Before the roll nothing is open.
    refused(base().with_turn(1, P0).with_offers([offer(P0, vec![P1], ore, wool)]), "invalid_offer");
}

/// A built position is a normal game: decide, apply, view and a serde snapshot work, and the
/// seed with the event count keys its chance stream.
#[test]
fn a_built_position_plays_like_any_game() {
    let setup = main_phase(settlement(base(), P0, "0,-1,N"), P0)
        .with_road(e("0,-1,NE"), P0)
        .with_hand(P0, Resources::new(1, 1, 1, 1, 1));
    let mut game = accepted(setup.clone());
    assert!(!game.legal_moves(P0).contains(&Move::BuildSettlement { vertex: v("0,0,N") }));
    let road = Move::BuildRoad { edge: e("0,-1,E") };
    for event in game.decide(P0, &road, &mut game.chance()).unwrap() {
        game.apply(&event);
    }
    assert_eq!(game.view(Viewer::Seat(P0)).hand.unwrap().resources, Resources::new(0, 0, 1, 1, 1));
    let snapshot: Game = serde_json::from_str(&serde_json::to_string(&game).unwrap()).unwrap();
    assert_eq!(snapshot, game);
    // Equal setups give equal games.
    assert_eq!(accepted(setup.clone()), accepted(setup));

    // The seed (default 0) and the events applied (default 1) key the chance stream.
    let pre_roll = settlement(base(), P1, "0,-1,N").with_turn(1, P0);
    let roll = |game: &Game| game.decide(P0, &Move::RollDice, &mut game.chance()).unwrap();
    let game = accepted(pre_roll.clone().with_chance(42, 100));
    assert_eq!(game.events_applied(), 100);
    assert_eq!(roll(&game), game.decide(P0, &Move::RollDice, &mut SeededChance::new(42, 100)).unwrap());
    let game = accepted(pre_roll);
    assert_eq!(roll(&game), game.decide(P0, &Move::RollDice, &mut SeededChance::new(0, 1)).unwrap());
}
