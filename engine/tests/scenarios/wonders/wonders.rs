//! TC-65 .. TC-70 and the Wonders of Catan rules (RULES.md 8.5, 9.11) on the scenario's own
//! map: the 3-4 player variant ("4") of `data/seafarers/scenario-wonders.json`, laid out from
//! seed 7 for 4 players. Only the terrain, the numbers and the harbour kinds of that map are
//! shuffled; the vertex and edge ids used below are fixed by the map's outline:
//!
//! ```text
//!  r=-3         <-2,-3>         0,-3    1,-3            3,-3
//!  r=-2     <-3,-2>         -1,-2   0,-2            2,-2
//!  r=-1 <-4,-1>                 -1,-1                   2,-1    3,-1
//!  r= 0             [-3,0]  -2,0    -1,0    0,0     1,0     2,0
//!  r= 1         [-4,1]  -3,1    -2,1    -1,1    0,1     1,1     2,1
//!  r= 2             [-4,2]          -2,2
//!  r= 3                         -3,3            <-1,3>  <0,3>
//! ```
//!
//! `[..]` are the three deserts (the robber starts on (-4,2)), `<..>` the small islands (land
//! area 2); every other hex shown is the main island's, and the rest is sea. The strait runs
//! between forest (1,-3) and pasture (2,-2). Setup settlements are recorded on the main island
//! wherever a settlement is built in play, as a real game has them (SEA-12's bonus looks back
//! on them).

use catan_engine::{
    board::Terrain, cost, Bandit, BuildingKind, DevCard, Event, FirstPlayer, FixedChance, Game, GameConfig, MarkedSet,
    Move, Phase, Resources, RuleError, ScenarioId, Seat, Setup, VictoryCondition, WonderId,
};

use crate::support::*;

// ---------------------------------------------------------------------------------------
// The map

/// The strait (the data's N2): the Great Bridge's sites, forest (1,-3) and pasture (2,-2)
/// across two sea hexes.
const STRAIT: [&str; 2] = ["1,-2,N", "2,-3,S"];
/// Beside the strait (N3): only a setup ban.
const BESIDE_STRAIT: [&str; 4] = ["2,-4,S", "1,-3,S", "2,-2,N", "1,-1,N"];
/// The wasteland by the deserts (N1): the Great Wall's sites.
const WASTELAND: [&str; 5] = ["-2,-1,S", "-3,1,N", "-3,0,S", "-4,2,N", "-3,1,S"];
/// The small islands (land area 2): fields, forest and gold in the north-west, hills and gold
/// in the south.
const SMALL_ISLANDS: [&str; 5] = ["-4,-1", "-3,-2", "-2,-3", "-1,3", "0,3"];
/// A vertex of the north-western small island (forest (-3,-2) and sea).
const SMALL_NW: &str = "-3,-1,N";
/// A vertex of the southern small island (hills (-1,3) and sea).
const SMALL_S: &str = "-1,2,S";
/// Coastal main-island sites two ship edges from the small islands: `SHORE_NW` (a harbour
/// vertex) reaches `SMALL_NW` over `TO_SMALL_NW`, `SHORE_S` reaches `SMALL_S` over
/// `TO_SMALL_S`.
const SHORE_NW: &str = "-2,-1,N";
const TO_SMALL_NW: [&str; 2] = ["-2,-2,SE", "-3,-1,NE"];
const SHORE_S: &str = "-2,2,S";
const TO_SMALL_S: [&str; 2] = ["-2,2,SE", "-2,3,NE"];

/// Inland main-island vertices, none of them marked, on a harbour, or next to another.
const A: &str = "-1,-1,N";
const B: &str = "0,0,S";
const C: &str = "2,-1,S";
const D: &str = "-2,2,N";
const E: &str = "0,-2,N";

/// A harbour vertex (mountains (2,1), forest (2,0) and sea) and a route of five roads from it,
/// without branches.
const HARBOUR: &str = "2,1,N";
const ROUTE: [&str; 6] = [HARBOUR, "2,0,S", "1,2,N", "2,1,S", "2,2,N", "3,0,S"];
/// A branch off `ROUTE[2]`: with `ROUTE[..5]` five roads whose longest trail is 4.
const BRANCH: [&str; 2] = ["1,2,N", "1,1,S"];
/// Another harbour vertex (hills (-2,1), forest (-2,2) and sea) with a route of five.
const HARBOUR_2: &str = "-2,1,S";
const ROUTE_2: [&str; 6] = [HARBOUR_2, "-2,2,N", "-1,1,S", "-1,2,N", "0,1,S", "0,2,N"];

/// The cost of one stage of each wonder, as printed on its card (WON-10; lumber, brick,
/// wool, grain, ore).
const THEATER_STAGE: Resources = Resources::new(1, 1, 3, 0, 0);
const GREAT_BRIDGE_STAGE: Resources = Resources::new(3, 0, 1, 1, 0);
const COLOSSUS_STAGE: Resources = Resources::new(0, 0, 0, 3, 2);
const GREAT_WALL_STAGE: Resources = Resources::new(1, 3, 0, 1, 0);
const CATHEDRAL_STAGE: Resources = Resources::new(0, 1, 0, 1, 3);

fn wonders_config(players: u8) -> GameConfig {
    GameConfig {
        seafarers: true,
        scenario: Some(ScenarioId::Wonders),
        first_player: FirstPlayer::Seat(0),
        ..GameConfig::for_players(players)
    }
}

/// The Wonders map for 4 players: nothing placed, P0 to place its first settlement.
fn wonders() -> Setup {
    given_with(wonders_config(4))
}

/// The position, validated. Unlike `Given::start`, Longest Road is left unheld: the card is
/// not in play (WON-7; see `the_measured_longest_road_is_never_held_in_wonders`).
fn play(setup: Setup) -> Scenario {
    match setup.position() {
        Ok(game) => Scenario { game },
        Err(error) => panic!("the given position is invalid: {} ({error})", error.code()),
    }
}

fn claim(wonder: WonderId) -> Move {
    Move::ClaimWonder { wonder }
}

fn build_settlement(vertex: &str) -> Move {
    Move::BuildSettlement { vertex: v(vertex) }
}

fn claimed(seat: Seat, wonder: WonderId) -> Event {
    Event::WonderClaimed { seat, wonder }
}

fn stage_built(seat: Seat, wonder: WonderId, stage: u8, cost: Resources) -> Event {
    Event::WonderStageBuilt { seat, wonder, stage, cost }
}

fn won(seat: Seat, victory_points: u32, condition: VictoryCondition) -> Event {
    Event::GameWon { seat, victory_points, victory_point_cards: 0, condition }
}

fn settled(seat: Seat, vertex: &str) -> Event {
    Event::SettlementBuilt { seat, vertex: v(vertex), cost: cost::SETTLEMENT }
}

/// `seat`'s turn `number`, rolled (a 5): the main phase.
fn main_phase_of_turn(setup: Setup, number: u32, seat: Seat) -> Setup {
    setup.with_turn(number, seat).with_dice(2, 3).with_phase(Phase::Main, vec![])
}

/// The claim is refused for the unmet condition, names the part unmet (`part`), is not
/// listed, and changes nothing.
#[track_caller]
fn refuses_claim(s: &Scenario, seat: Seat, wonder: WonderId, part: &str) {
    s.rejects(seat, claim(wonder), "wonder_condition_unmet");
    match s.game.decide(seat, &claim(wonder), &mut FixedChance::default()) {
        Err(RuleError::WonderConditionUnmet { wonder: refused, unmet }) => {
            assert_eq!(refused, wonder);
            assert!(unmet.contains(part), "the {wonder}: \"{unmet}\" does not name \"{part}\"");
        }
        other => panic!("the {wonder}: {other:?}"),
    }
}

/// The claim is listed and accepted: one `wonder_claimed`, a ship of the supply on the card.
#[track_caller]
fn accepts_claim(setup: Setup, seat: Seat, wonder: WonderId) -> Scenario {
    let mut s = play(setup);
    let (ships_left, ships_on_board) = (s.ships_left(seat), s.game.player(seat).unwrap().ships_on_board());
    assert_eq!(s.when(seat, claim(wonder)), vec![claimed(seat, wonder)]);
    assert_eq!(s.game.wonder_of(seat), Some((wonder, 0)));
    assert_eq!(s.ships_left(seat), ships_left - 1);
    assert_eq!(s.game.player(seat).unwrap().ships_on_board(), ships_on_board);
    s
}

fn has_wonder_move(game: &Game, seat: Seat) -> bool {
    game.legal_moves(seat).iter().any(|mv| matches!(mv, Move::ClaimWonder { .. } | Move::BuildWonderStage))
}

// ---------------------------------------------------------------------------------------
// RULES.md 9.11

/// TC-65 [WON-3, SEA-5]: no setup settlement on a small island, on the wasteland or the strait
/// (brown/purple squares) or beside the strait (red exclamation marks); after setup the same
/// vertices are sites like any other.
#[test]
fn tc_65_setup_settlements_avoid_small_islands_and_marked_vertices_which_are_normal_later() {
    let s = play(wonders());
    let small: Vec<_> = SMALL_ISLANDS.iter().map(|hex| h(hex)).collect();
    let on_small_island = |vertex: catan_engine::VertexId| {
        let board = s.game.board();
        let index = board.vertex(vertex).unwrap();
        let land: Vec<_> = board.land_hexes_of(index).map(|hex| board.hexes[usize::from(hex)]).collect();
        !land.is_empty() && land.iter().all(|hex| small.contains(hex))
    };
    let small_sites: Vec<_> =
        s.game.board().vertices.iter().copied().filter(|&vertex| on_small_island(vertex)).collect();
    assert_eq!(small_sites.len(), 24, "the small islands' vertices");
    for site in &small_sites {
        s.rejects(P0, Move::BuildSettlement { vertex: *site }, "setup_site_forbidden");
    }
    for site in STRAIT.iter().chain(&WASTELAND).chain(&BESIDE_STRAIT) {
        s.rejects(P0, build_settlement(site), "setup_site_forbidden");
    }
    // Elsewhere on the main island setup goes on; the bans hold for the second settlement too.
    let mut s = play(wonders());
    s.when(P0, build_settlement(A));
    let last = Phase::Setup { seat: P0, placement: 7, step: catan_engine::SetupStep::PlaceSettlement };
    let s = play(wonders().setup_settlement(P0, A).road(P0, "-1,-1,NE").with_phase(last, vec![]));
    for site in [STRAIT[1], WASTELAND[0], BESIDE_STRAIT[0], SMALL_S] {
        s.rejects(P0, build_settlement(site), "setup_site_forbidden");
    }
    assert!(s.game.legal_moves(P0).contains(&build_settlement(B)));

    // In the main phase: settlements reached by road on the wasteland, the strait and beside
    // it, and by ship on a small island.
    let road_to = |from: &str, via: &str, to: &str| {
        wonders().setup_settlement(P0, from).roads_along(P0, &[from, via, to]).give(P0, cost::SETTLEMENT)
    };
    let cases = [
        (WASTELAND[1], road_to("-2,1,N", "-2,0,S", WASTELAND[1])),
        (STRAIT[0], road_to(E, "1,-3,S", STRAIT[0])),
        (BESIDE_STRAIT[3], road_to("1,0,N", "2,-2,S", BESIDE_STRAIT[3])),
        (SMALL_NW, wonders().setup_settlement(P0, SHORE_NW).ships(P0, &TO_SMALL_NW).give(P0, cost::SETTLEMENT)),
    ];
    for (site, given) in cases {
        let mut s = play(given.setup_settlement(P0, B).main_phase(P0));
        let events = s.when(P0, build_settlement(site));
        assert_eq!(events[0], settled(P0, site));
        assert_eq!(s.game.building_at(v(site)).map(|b| (b.seat, b.kind)), Some((P0, BuildingKind::Settlement)));
    }
}

/// TC-66 [WON-4, SEA-12]: P0 founds settlements on two small islands during play: each earns
/// its point and the chit, so 2 points apiece; a settlement on the main island, where the
/// setup settlements stand, earns none.
#[test]
fn tc_66_every_settlement_on_a_small_island_earns_a_point() {
    let mut s = play(
        wonders()
            .setup_settlement(P0, SHORE_NW)
            .setup_settlement(P0, SHORE_S)
            .ships(P0, &TO_SMALL_NW)
            .ships(P0, &TO_SMALL_S)
            .roads_along(P0, &[SHORE_S, "-3,3,N", "-2,1,S"])
            .give(P0, cost::SETTLEMENT + cost::SETTLEMENT + cost::SETTLEMENT)
            .main_phase(P0),
    );
    assert_eq!(s.game.island_bonus(), Some((catan_engine::IslandBonusMode::PerSettlementOnMarkedIslands, 1)));
    assert_eq!(s.game.victory_points(P0), 2);

    let bonus = |vertex: &str| Event::IslandBonusEarned { seat: P0, vertex: v(vertex), points: 1 };
    assert_eq!(s.when(P0, build_settlement(SMALL_NW)), vec![settled(P0, SMALL_NW), bonus(SMALL_NW)]);
    assert_eq!(s.game.victory_points(P0), 4, "1 for the settlement and 1 for the chit");
    assert_eq!(s.when(P0, build_settlement(SMALL_S)), vec![settled(P0, SMALL_S), bonus(SMALL_S)]);
    assert_eq!(s.game.victory_points(P0), 6);
    assert_eq!(s.game.public_victory_points(P0), 6);

    assert_eq!(s.when(P0, build_settlement("-2,1,S")), vec![settled(P0, "-2,1,S")]);
    assert_eq!(s.game.victory_points(P0), 7);
}

/// WON-4: the chit stays when the settlement becomes a city, and a second settlement on the
/// same small island earns its own.
#[test]
fn the_small_island_point_stays_under_a_city_and_each_settlement_earns_one() {
    // (-2,-2,N) lies on the same island as SMALL_NW (fields), two edges away.
    let mut s = play(
        wonders()
            .setup_settlement(P0, SHORE_NW)
            .setup_settlement(P0, B)
            .ships(P0, &TO_SMALL_NW)
            .ships(P0, &["-3,-2,E", "-2,-3,SE"])
            .give(P0, cost::SETTLEMENT + cost::SETTLEMENT + cost::CITY)
            .main_phase(P0),
    );
    s.when(P0, build_settlement(SMALL_NW));
    let events = s.when(P0, build_settlement("-2,-2,N"));
    assert_eq!(events[1], Event::IslandBonusEarned { seat: P0, vertex: v("-2,-2,N"), points: 1 });
    assert_eq!(s.game.victory_points(P0), 6);
    let events = s.when(P0, Move::BuildCity { vertex: v(SMALL_NW) });
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(s.game.victory_points(P0), 7, "the city and its chit");
}

/// TC-67 [WON-8, WON-9]: P0 has a city on a harbour and a route of 4: the Colossus is refused;
/// with a fifth road it is claimed, and a ship leaves P0's supply for the card (the ships on
/// the board stay). P1 meeting the condition too cannot claim it, and P0 cannot claim a
/// second wonder.
#[test]
fn tc_67_the_colossus_needs_a_harbour_city_and_a_route_of_five_and_is_claimed_once() {
    let given = wonders()
        .city(P0, HARBOUR)
        .roads_along(P0, &ROUTE[..5])
        .city(P0, A)
        .setup_settlement(P0, SHORE_NW)
        .ship(P0, TO_SMALL_NW[0])
        .city(P1, HARBOUR_2)
        .roads_along(P1, &ROUTE_2)
        .give(P0, cost::ROAD);
    let mut s = play(given.clone().main_phase(P0));
    assert_eq!(s.road_length(P0), 4);
    refuses_claim(&s, P0, WonderId::Colossus, "route of at least 5 roads and ships: your longest is 4");

    let events = s.when(P0, Move::BuildRoad { edge: path(&ROUTE[4..])[0] });
    assert_eq!(events.len(), 1, "no Longest Road card (WON-7): {events:?}");
    assert_eq!(s.road_length(P0), 5);
    assert_eq!((s.ships_left(P0), s.game.player(P0).unwrap().ships_on_board()), (14, 1));
    assert_eq!(s.when(P0, claim(WonderId::Colossus)), vec![claimed(P0, WonderId::Colossus)]);
    assert_eq!(s.game.wonder_of(P0), Some((WonderId::Colossus, 0)));
    assert_eq!((s.ships_left(P0), s.game.player(P0).unwrap().ships_on_board()), (13, 1));
    let colossus = s.game.wonders().into_iter().find(|w| w.wonder == WonderId::Colossus).unwrap();
    assert_eq!((colossus.owner, colossus.stages_built), (Some(P0), 0));

    // P0 also has two cities (the Theater's condition) but owns a wonder already.
    s.rejects(P0, claim(WonderId::Theater), "wonder_already_owned");
    assert!(!s.game.legal_moves(P0).iter().any(|mv| matches!(mv, Move::ClaimWonder { .. })));

    let s = play(s.then_given().main_phase(P1));
    assert_eq!(s.road_length(P1), 5);
    s.rejects(P1, claim(WonderId::Colossus), "wonder_taken");
    assert_eq!(
        s.game.decide(P1, &claim(WonderId::Colossus), &mut FixedChance::default()),
        Err(RuleError::WonderTaken { wonder: WonderId::Colossus, owner: P0 })
    );
    // Before P0's claim, P1 could have claimed it.
    let s = play(given.main_phase(P1));
    assert!(s.game.legal_moves(P1).contains(&claim(WonderId::Colossus)));
}

/// TC-68 [WON-10, WON-11]: P0 pays a stage's five cards twice in one turn: its marker is on 2
/// and the bank has the cards. On a later turn the fourth stage wins at once, with 2 points.
#[test]
fn tc_68_stages_are_paid_several_a_turn_and_the_fourth_wins_whatever_the_points() {
    let given = wonders()
        .setup_settlement(P0, D)
        .setup_settlement(P0, E)
        .city(P1, A)
        .city(P1, B)
        .city(P1, C)
        .with_wonder(P0, WonderId::Theater, 0)
        .give(P0, THEATER_STAGE + THEATER_STAGE);
    let mut s = play(given.main_phase(P0));
    let theater = &s.game.wonders()[0];
    assert_eq!((theater.wonder, theater.stage_cost, theater.stages), (WonderId::Theater, THEATER_STAGE, 4));
    let bank = *s.game.bank();
    assert_eq!(s.when(P0, Move::BuildWonderStage), vec![stage_built(P0, WonderId::Theater, 1, THEATER_STAGE)]);
    assert_eq!(s.when(P0, Move::BuildWonderStage), vec![stage_built(P0, WonderId::Theater, 2, THEATER_STAGE)]);
    assert_eq!(s.game.wonder_of(P0), Some((WonderId::Theater, 2)));
    assert_eq!(s.hand(P0), Resources::ZERO);
    assert_eq!(*s.game.bank(), bank + THEATER_STAGE + THEATER_STAGE);
    assert_eq!(s.game.winner(), None);
    assert!(!s.game.legal_moves(P0).contains(&Move::BuildWonderStage), "no cards left");

    // A later turn: stage 3 is no win with 2 points; stage 4 is.
    let mut s = play(main_phase_of_turn(s.then_given(), 9, P0).give(P0, THEATER_STAGE + THEATER_STAGE));
    assert_eq!(s.when(P0, Move::BuildWonderStage), vec![stage_built(P0, WonderId::Theater, 3, THEATER_STAGE)]);
    assert_eq!(s.game.victory_points(P0), 2);
    let events = s.when(P0, Move::BuildWonderStage);
    assert_eq!(
        events,
        vec![stage_built(P0, WonderId::Theater, 4, THEATER_STAGE), won(P0, 2, VictoryCondition::WonderCompleted)]
    );
    assert_eq!(s.game.winner(), Some(P0));
    assert_eq!(*s.game.phase(), Phase::GameOver);
    assert_eq!(s.game.wonder_of(P0), Some((WonderId::Theater, 4)));
}

/// P0 with 9 points (four cities, a setup settlement) and a road to a free site; P1 has
/// claimed the Cathedral.
fn nine_points() -> Setup {
    wonders()
        .setup_settlement(P0, D)
        .with_setup_settlement(v(A), P0)
        .city(P0, A)
        .city(P0, B)
        .city(P0, C)
        .city(P0, E)
        .roads_along(P0, &[D, "-2,1,S", "-3,3,N"])
        .settlement(P1, HARBOUR)
        .give(P0, cost::SETTLEMENT)
}

/// TC-69 [WON-11]: P0 reaches 10 points with 2 stages while P1 has 2: no win; P0's third stage
/// wins (10 points and strictly ahead). 10 points with no stages, nobody having any, do not
/// win either.
#[test]
fn tc_69_ten_points_win_only_strictly_ahead_in_stages() {
    let given = nine_points()
        .with_wonder(P1, WonderId::Cathedral, 2)
        .with_wonder(P0, WonderId::Theater, 2)
        .give(P0, THEATER_STAGE)
        .main_phase(P0);
    let mut s = play(given);
    assert_eq!(s.game.victory_points(P0), 9);
    assert_eq!(s.when(P0, build_settlement("-3,3,N")), vec![settled(P0, "-3,3,N")]);
    assert_eq!(s.game.victory_points(P0), 10);
    assert_eq!((s.game.winner(), s.game.phase()), (None, &Phase::Main));
    let events = s.when(P0, Move::BuildWonderStage);
    assert_eq!(
        events,
        vec![
            stage_built(P0, WonderId::Theater, 3, THEATER_STAGE),
            won(P0, 10, VictoryCondition::VictoryPointsAndWonderLead)
        ]
    );
    assert_eq!(s.game.winner(), Some(P0));

    // No wonders at all: 10 points are not enough, and the turn goes on.
    let mut s = play(nine_points().main_phase(P0));
    assert_eq!(s.when(P0, build_settlement("-3,3,N")), vec![settled(P0, "-3,3,N")]);
    assert_eq!(s.game.victory_points(P0), 10);
    assert_eq!((s.game.winner(), s.game.phase()), (None, &Phase::Main));
    assert!(s.game.legal_moves(P0).contains(&Move::EndTurn));
    let events = s.when(P0, Move::EndTurn);
    assert!(!events.iter().any(|ev| matches!(ev, Event::GameWon { .. })), "{events:?}");
}

/// WON-11 b: one stage ahead of everyone is a lead; the 10th point then wins on its own, and
/// with 10 points the first stage does.
#[test]
fn a_single_stage_ahead_with_ten_points_wins() {
    let mut s = play(
        nine_points().with_wonder(P0, WonderId::Theater, 1).with_wonder(P1, WonderId::Cathedral, 0).main_phase(P0),
    );
    let events = s.when(P0, build_settlement("-3,3,N"));
    assert_eq!(events, vec![settled(P0, "-3,3,N"), won(P0, 10, VictoryCondition::VictoryPointsAndWonderLead)]);

    let mut s = play(nine_points().with_wonder(P0, WonderId::Theater, 0).give(P0, THEATER_STAGE).main_phase(P0));
    s.when(P0, build_settlement("-3,3,N"));
    assert_eq!(s.game.winner(), None, "10 points and no stage");
    let events = s.when(P0, Move::BuildWonderStage);
    assert_eq!(events[1], won(P0, 10, VictoryCondition::VictoryPointsAndWonderLead));
}

/// P1 with four cities and a settlement (10 points) and one stage of the Cathedral.
fn p1_at_ten_points_with_a_stage() -> Setup {
    wonders()
        .setup_settlement(P1, D)
        .with_setup_settlement(v(A), P1)
        .city(P1, A)
        .city(P1, B)
        .city(P1, C)
        .city(P1, E)
        .settlement(P1, HARBOUR)
        .with_wonder(P1, WonderId::Cathedral, 1)
}

/// WON-11, B-WIN-3: a lead reached on another seat's turn wins only on one's own: P1 with 10
/// points and more stages wins when its turn begins.
#[test]
fn a_lead_wins_at_the_start_of_ones_own_turn() {
    let given = p1_at_ten_points_with_a_stage()
        .with_wonder(P0, WonderId::Theater, 1)
        .setup_settlement(P0, SHORE_NW)
        .give(P0, cost::SETTLEMENT);
    // P0's turn: P1 has 10 points, level with P0 in stages.
    let mut s = play(given.main_phase(P0));
    assert_eq!(s.game.victory_points(P1), 10);
    let events = s.when(P0, Move::EndTurn);
    assert!(!events.iter().any(|ev| matches!(ev, Event::GameWon { .. })), "{events:?}");
    // P0's turn again, P0 one stage behind P1: P1 wins as its turn starts.
    let given = p1_at_ten_points_with_a_stage().with_wonder(P0, WonderId::Theater, 0);
    let mut s = play(given.main_phase(P0));
    let events = s.when(P0, Move::EndTurn);
    assert_eq!(
        events,
        vec![Event::TurnStarted { seat: P1, turn: 2 }, won(P1, 10, VictoryCondition::VictoryPointsAndWonderLead)]
    );
}

/// TC-70 [WON-7, WON-6]: a route of 7 roads never takes a Longest Road card; three knights
/// take Largest Army; after a 7 only the robber moves: the pirate is refused and never listed,
/// after a 7 or with a Knight.
#[test]
fn tc_70_no_longest_road_card_largest_army_stays_and_no_pirate() {
    let walk = [B, "0,1,N", "1,0,S", "1,1,N", "2,0,S", HARBOUR, "3,0,S", "2,2,N"];
    let mut s = play(wonders().setup_settlement(P0, B).roads_along(P0, &walk[..7]).give(P0, cost::ROAD).main_phase(P0));
    assert!(!s.game.longest_road_in_play());
    let last = path(&walk[6..])[0];
    assert_eq!(
        s.when(P0, Move::BuildRoad { edge: last }),
        vec![Event::RoadBuilt { seat: P0, edge: last, cost: cost::ROAD }]
    );
    assert_eq!(s.road_length(P0), 7);
    assert_eq!(s.game.longest_road_holder(), None);
    assert_eq!(s.game.victory_points(P0), 1);

    // The third knight takes Largest Army (2 points).
    let knights = || {
        wonders()
            .setup_settlement(P1, C)
            .card(P0, DevCard::Knight)
            .with_knights_played(P0, 2)
            .give(P1, Resources::new(0, 0, 0, 0, 1))
    };
    let mut s = play(knights().turn(P0));
    let events = s.when_with(
        P0,
        Move::PlayKnight { hex: h("2,-1"), steal_from: Some(P1), bandit: Bandit::Robber },
        FixedChance::steal(catan_engine::Resource::Ore),
    );
    assert!(events.contains(&Event::LargestArmyChanged { holder: Some(P0), previous: None }), "{events:?}");
    assert_eq!((s.game.largest_army_holder(), s.game.victory_points(P0)), (Some(P0), 2));

    // No pirate on the board, and none to choose with a Knight, before or after the roll.
    for given in [knights().turn(P0), knights().main_phase(P0)] {
        let s = play(given);
        assert_eq!(s.game.pirate_hex(), None);
        s.rejects(
            P0,
            Move::PlayKnight { hex: h("1,-1"), steal_from: None, bandit: Bandit::Pirate },
            "not_in_this_game",
        );
        let knights: Vec<Move> =
            s.game.legal_moves(P0).into_iter().filter(|mv| matches!(mv, Move::PlayKnight { .. })).collect();
        assert!(!knights.is_empty());
        assert!(knights.iter().all(|mv| matches!(mv, Move::PlayKnight { bandit: Bandit::Robber, .. })), "{knights:?}");
    }

    // A 7: the robber must move; the pirate cannot.
    let mut s = play(knights().turn(P0));
    s.when_with(P0, Move::RollDice, FixedChance::dice(3, 4));
    assert_eq!(*s.game.phase(), Phase::MoveRobber);
    s.rejects(P0, Move::MovePirate { hex: h("1,-1"), steal_from: None }, "not_in_this_game");
    let moves = s.game.legal_moves(P0);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|mv| matches!(mv, Move::MoveRobber { .. })), "{moves:?}");
    s.when_with(
        P0,
        Move::MoveRobber { hex: h("2,-1"), steal_from: Some(P1) },
        FixedChance::steal(catan_engine::Resource::Ore),
    );
    assert_eq!((s.game.robber_hex(), s.game.pirate_hex()), (Some(h("2,-1")), None));
}

// ---------------------------------------------------------------------------------------
// WON-8, WON-9: each wonder's condition, met and unmet by one part

/// Theater: at least 2 cities.
#[test]
fn the_theater_needs_two_cities() {
    let s = accepts_claim(wonders().city(P0, A).city(P0, B).main_phase(P0), P0, WonderId::Theater);
    assert_eq!(s.game.wonders()[0].owner, Some(P0));

    let s = play(wonders().city(P0, A).settlement(P0, B).settlement(P0, C).main_phase(P0));
    refuses_claim(&s, P0, WonderId::Theater, "at least 2 cities: you have 1");
}

/// Great Bridge: a settlement, not a city, on the strait; beside it is not on it.
#[test]
fn the_great_bridge_needs_a_settlement_on_the_strait() {
    for site in STRAIT {
        accepts_claim(wonders().settlement(P0, site).main_phase(P0), P0, WonderId::GreatBridge);
    }
    let part = "a settlement on the strait";
    let s = play(wonders().city(P0, STRAIT[0]).main_phase(P0));
    refuses_claim(&s, P0, WonderId::GreatBridge, part);
    for site in BESIDE_STRAIT {
        let s = play(wonders().settlement(P0, site).main_phase(P0));
        refuses_claim(&s, P0, WonderId::GreatBridge, part);
    }
    // A settlement of P1 on the strait is no help to P0.
    let s = play(wonders().settlement(P1, STRAIT[0]).settlement(P0, A).main_phase(P0));
    refuses_claim(&s, P0, WonderId::GreatBridge, part);

    // The condition is checked only at the claim (WON-8): the settlement may then become a
    // city, and the stages go on.
    let given = wonders().settlement(P0, STRAIT[0]).give(P0, cost::CITY + GREAT_BRIDGE_STAGE).main_phase(P0);
    let mut s = accepts_claim(given, P0, WonderId::GreatBridge);
    s.when(P0, Move::BuildCity { vertex: v(STRAIT[0]) });
    let events = s.when(P0, Move::BuildWonderStage);
    assert_eq!(events, vec![stage_built(P0, WonderId::GreatBridge, 1, GREAT_BRIDGE_STAGE)]);
}

/// Great Wall: a settlement, not a city, on the wasteland by the deserts.
#[test]
fn the_great_wall_needs_a_settlement_on_the_wasteland() {
    for site in WASTELAND {
        accepts_claim(wonders().settlement(P0, site).main_phase(P0), P0, WonderId::GreatWall);
    }
    let part = "a settlement on the wasteland";
    let s = play(wonders().city(P0, WASTELAND[1]).main_phase(P0));
    refuses_claim(&s, P0, WonderId::GreatWall, part);
    let s = play(wonders().settlement(P0, STRAIT[0]).main_phase(P0));
    refuses_claim(&s, P0, WonderId::GreatWall, part);
}

/// Colossus: a city on a harbour and a route of 5 without branches.
#[test]
fn the_colossus_needs_a_harbour_city_and_a_route_of_five() {
    let route = || wonders().roads_along(P0, &ROUTE);
    accepts_claim(route().city(P0, HARBOUR).main_phase(P0), P0, WonderId::Colossus);

    // A settlement on the harbour, a city elsewhere.
    let s = play(route().settlement(P0, HARBOUR).city(P0, A).main_phase(P0));
    assert_eq!(s.road_length(P0), 5);
    refuses_claim(&s, P0, WonderId::Colossus, "a city on a harbour");
    // A city on the harbour and a route of 4.
    let s = play(wonders().city(P0, HARBOUR).roads_along(P0, &ROUTE[..5]).main_phase(P0));
    refuses_claim(&s, P0, WonderId::Colossus, "your longest is 4");
    // Five roads, but the fifth is a branch: the longest route is 4.
    let s = play(wonders().city(P0, HARBOUR).roads_along(P0, &ROUTE[..5]).roads_along(P0, &BRANCH).main_phase(P0));
    assert_eq!(s.game.player(P0).unwrap().pieces_left().roads, 10);
    refuses_claim(&s, P0, WonderId::Colossus, "your longest is 4");
}

/// Cathedral: a city and 6 points everyone can see.
#[test]
fn the_cathedral_needs_a_city_and_six_public_points() {
    let sites = |setup: Setup, sites: &[&str]| sites.iter().fold(setup, |setup, site| setup.settlement(P0, site));
    accepts_claim(sites(wonders().city(P0, A), &[B, C, D, E]).main_phase(P0), P0, WonderId::Cathedral);

    // 6 points without a city: four settlements and Largest Army.
    let s = play(sites(wonders(), &[A, B, C, D]).with_knights_played(P0, 3).with_largest_army(Some(P0)).main_phase(P0));
    assert_eq!(s.game.public_victory_points(P0), 6);
    refuses_claim(&s, P0, WonderId::Cathedral, "at least 1 cities: you have 0");
    // A city and 5 points.
    let five = || sites(wonders().city(P0, A), &[B, C, D]);
    let s = play(five().main_phase(P0));
    refuses_claim(&s, P0, WonderId::Cathedral, "at least 6 victory points: you have 5");
    // A hidden victory point card makes 6, but not 6 anyone can see.
    let s = play(five().card(P0, DevCard::VictoryPoint).main_phase(P0));
    assert_eq!((s.game.victory_points(P0), s.game.public_victory_points(P0)), (6, 5));
    refuses_claim(&s, P0, WonderId::Cathedral, "at least 6 victory points: you have 5");
}

/// WON-8: the first claimant picks freely among the wonders whose condition it meets; a later
/// one among those still free.
#[test]
fn claims_are_listed_for_every_free_wonder_whose_condition_holds() {
    let given = wonders()
        .city(P0, HARBOUR)
        .roads_along(P0, &ROUTE)
        .city(P0, A)
        .settlement(P0, STRAIT[0])
        .settlement(P0, WASTELAND[0])
        .settlement(P0, B);
    let claims = |s: &Scenario| -> Vec<Move> {
        s.game.legal_moves(P0).into_iter().filter(|mv| matches!(mv, Move::ClaimWonder { .. })).collect()
    };
    let s = play(given.clone().main_phase(P0));
    assert_eq!(s.game.public_victory_points(P0), 7);
    let all = [WonderId::Theater, WonderId::GreatBridge, WonderId::Colossus, WonderId::GreatWall, WonderId::Cathedral];
    assert_eq!(claims(&s), all.map(claim).to_vec());
    let s = play(given.with_wonder(P1, WonderId::Theater, 0).with_wonder(P2, WonderId::GreatWall, 3).main_phase(P0));
    assert_eq!(claims(&s), [WonderId::GreatBridge, WonderId::Colossus, WonderId::Cathedral].map(claim).to_vec());
    s.rejects(P0, claim(WonderId::GreatWall), "wonder_taken");
}

// ---------------------------------------------------------------------------------------
// WON-8, WON-10: when claims and stages are made, and what they need

/// WON-8, WON-10: claims and stages only in the main phase of one's own turn; a stage needs a
/// wonder and its five cards.
#[test]
fn claims_and_stages_only_in_ones_own_main_phase_with_a_wonder_and_its_cards() {
    let theater = || wonders().city(P0, A).city(P0, B);
    let s = play(theater().turn(P0));
    s.rejects(P0, claim(WonderId::Theater), "must_roll_first");
    let s = play(theater().main_phase(P1));
    s.rejects(P0, claim(WonderId::Theater), "not_your_turn");
    let mut s = play(theater().main_phase(P0));
    s.when(P0, claim(WonderId::Theater));

    // A stage: not before the roll, not on another's turn, not without a wonder or the cards.
    let staged = || theater().with_wonder(P0, WonderId::Theater, 1).give(P0, THEATER_STAGE);
    play(staged().turn(P0)).rejects(P0, Move::BuildWonderStage, "must_roll_first");
    play(staged().main_phase(P1)).rejects(P0, Move::BuildWonderStage, "not_your_turn");
    let s = play(wonders().city(P0, A).city(P0, B).give(P0, THEATER_STAGE).main_phase(P0));
    s.rejects(P0, Move::BuildWonderStage, "no_wonder");
    // One wool short.
    let short = Resources::new(1, 1, 2, 0, 0);
    let s = play(theater().with_wonder(P0, WonderId::Theater, 1).give(P0, short + CATHEDRAL_STAGE).main_phase(P0));
    s.rejects(P0, Move::BuildWonderStage, "insufficient_resources");
    let mut s = play(staged().main_phase(P0));
    s.when(P0, Move::BuildWonderStage);
    assert_eq!(s.game.wonder_of(P0), Some((WonderId::Theater, 2)));

    // A claim and its first stage in the same turn.
    let mut s = play(theater().give(P0, THEATER_STAGE).main_phase(P0));
    assert!(!s.game.legal_moves(P0).contains(&Move::BuildWonderStage));
    s.when(P0, claim(WonderId::Theater));
    s.when(P0, Move::BuildWonderStage);
    assert_eq!(s.game.wonder_of(P0), Some((WonderId::Theater, 1)));

    // Not while the robber waits to move.
    let s = play(theater().turn(P0).with_dice(3, 4).with_phase(Phase::MoveRobber, vec![Phase::Main]));
    s.rejects(P0, claim(WonderId::Theater), "wrong_phase");
    assert!(!has_wonder_move(&s.game, P0));
}

/// Each wonder's stage costs the five cards on its card (WON-10).
#[test]
fn each_wonder_stage_costs_its_cards_five() {
    let s = play(wonders());
    let costs: Vec<(WonderId, Resources)> = s.game.wonders().iter().map(|w| (w.wonder, w.stage_cost)).collect();
    assert_eq!(
        costs,
        vec![
            (WonderId::Theater, THEATER_STAGE),
            (WonderId::GreatBridge, GREAT_BRIDGE_STAGE),
            (WonderId::Colossus, COLOSSUS_STAGE),
            (WonderId::GreatWall, GREAT_WALL_STAGE),
            (WonderId::Cathedral, CATHEDRAL_STAGE),
        ]
    );
    for (wonder, cost) in costs {
        assert_eq!(cost.total(), 5);
        let mut s = play(wonders().with_wonder(P0, wonder, 0).give(P0, cost).main_phase(P0));
        assert_eq!(s.when(P0, Move::BuildWonderStage), vec![stage_built(P0, wonder, 1, cost)]);
        assert_eq!(s.hand(P0), Resources::ZERO);
    }
}

/// The 14 ships from `SHIP_HOME` (a harbour vertex on mountains) round the southern small
/// island, and the edge a 15th would take.
const SHIP_HOME: &str = "1,2,N";
const FOURTEEN_SHIPS: [&str; 14] = [
    "1,2,NE", "2,1,SE", "2,2,NE", "2,2,E", "2,2,SE", "1,3,NE", "1,2,SE", "0,3,NE", "0,2,SE", "-1,3,NE", "-1,2,SE",
    "-2,3,NE", "-2,2,SE", "-3,3,E",
];
const FIFTEENTH: &str = "-3,4,NE";

/// WON-8 (engine decision): a seat without a wonder keeps its last ship for the claim; it may
/// claim with it, and once it owns a wonder, or with `wonder_ship_reserved: false`, the last
/// ship may be built.
#[test]
fn the_last_ship_is_kept_for_a_wonder() {
    let fleet = |config: GameConfig| {
        given_with(config)
            .setup_settlement(P0, SHIP_HOME)
            .setup_settlement(P0, STRAIT[0])
            .ships(P0, &FOURTEEN_SHIPS)
            .give(P0, cost::SHIP)
            .main_phase(P0)
    };
    let ship = Move::BuildShip { edge: e(FIFTEENTH) };
    let s = play(fleet(wonders_config(4)));
    assert_eq!(s.ships_left(P0), 1);
    s.rejects(P0, ship.clone(), "ship_kept_for_wonder");
    assert!(!s.game.legal_moves(P0).iter().any(|mv| matches!(mv, Move::BuildShip { .. })));
    let s = accepts_claim(fleet(wonders_config(4)), P0, WonderId::GreatBridge);
    assert_eq!(s.ships_left(P0), 0);
    s.rejects(P0, ship.clone(), "no_pieces_left");

    // With a wonder claimed, the last ship sails: 13 ships on the board, one on the card.
    let mut thirteen = fleet(wonders_config(4)).with_wonder(P0, WonderId::GreatBridge, 0);
    thirteen.ships.pop();
    let mut s = play(thirteen);
    assert_eq!(s.ships_left(P0), 1);
    s.when(P0, Move::BuildShip { edge: e(FOURTEEN_SHIPS[13]) });
    assert_eq!(s.ships_left(P0), 0);

    // Road Building's free ships keep it too.
    let mut s = play(fleet(wonders_config(4)).card(P0, DevCard::RoadBuilding));
    s.when(P0, Move::PlayRoadBuilding);
    s.rejects(P0, ship.clone(), "ship_kept_for_wonder");
    let moves = s.game.legal_moves(P0);
    assert!(!moves.is_empty() && moves.iter().all(|mv| matches!(mv, Move::BuildRoad { .. })), "{moves:?}");

    // Without the reserve, the last ship may be built, and then no wonder can be claimed.
    let free = GameConfig { wonder_ship_reserved: false, ..wonders_config(4) };
    let mut s = play(fleet(free));
    assert!(s.game.legal_moves(P0).contains(&ship));
    s.when(P0, ship.clone());
    assert_eq!(s.ships_left(P0), 0);
    s.rejects(P0, claim(WonderId::GreatBridge), "no_pieces_left");
}

// ---------------------------------------------------------------------------------------
// WON-1, WON-2, WON-6: the board

/// WON-2, WON-6, WON-1: over 50 seeds and both player counts, no land hex beside a desert
/// carries a 6 or an 8 (nor two red numbers meet, B-GEO-11), the robber starts on a desert, there is no pirate, and five wonders
/// are on offer; the map's islands are the main island and the small ones. Wonders of Catan is
/// for 3 or 4 players only.
#[test]
fn the_wonders_board_keeps_red_numbers_off_the_deserts_and_has_no_pirate() {
    let small: Vec<_> = SMALL_ISLANDS.iter().map(|hex| h(hex)).collect();
    for players in [3, 4] {
        for seed in 0..50 {
            let game = Game::new(wonders_config(players), seed).expect("a Wonders game");
            let tiles = &game.board().layout().hexes;
            let terrain = |hex| tiles.iter().find(|t| t.hex == hex).map(|t| t.terrain);
            let mut deserts: Vec<_> = tiles.iter().filter(|t| t.terrain == Terrain::Desert).map(|t| t.hex).collect();
            deserts.sort_by_key(|hex| (hex.r, hex.q));
            assert_eq!(deserts, vec![h("-3,0"), h("-4,1"), h("-4,2")], "seed {seed}");
            let red = |number: Option<u8>| matches!(number, Some(6 | 8));
            let number = |hex| tiles.iter().find(|t| t.hex == hex).and_then(|t| t.number);
            for tile in tiles.iter().filter(|t| t.terrain.is_land()) {
                if tile.hex.neighbours().iter().any(|&n| terrain(n) == Some(Terrain::Desert)) {
                    assert!(!red(tile.number), "seed {seed}: {} carries {:?} beside a desert", tile.hex, tile.number);
                }
                // B-GEO-11 holds as well.
                if red(tile.number) {
                    assert!(
                        !tile.hex.neighbours().iter().any(|&n| red(number(n))),
                        "seed {seed}: reds at {}",
                        tile.hex
                    );
                }
            }
            assert_eq!(tiles.iter().filter(|t| red(t.number)).count(), 6, "seed {seed}: three 6s and three 8s");
            // On the desert the data names (JSettlers' last desert).
            assert_eq!(game.robber_hex(), Some(h("-4,2")), "seed {seed}");
            assert_eq!(game.pirate_hex(), None);
            assert_eq!(game.board().layout().pirate, None);
            assert_eq!(game.wonders().len(), 5);
            assert!(game.wonders().iter().all(|w| w.owner.is_none() && w.stages_built == 0));
            assert_eq!(game.board().layout().harbours.len(), 9);
            let mut islands: Vec<Vec<_>> = game.islands();
            islands.sort_by_key(Vec::len);
            assert_eq!(islands.iter().map(Vec::len).collect::<Vec<_>>(), vec![2, 3, 25], "seed {seed}");
            assert!(islands[..2].iter().flatten().all(|hex| small.contains(hex)));
            assert!(!game.longest_road_in_play());
        }
    }
    let marked = Game::new(wonders_config(4), 0).unwrap().marked_vertices();
    let ids = |set: MarkedSet| -> Vec<String> {
        marked.iter().find(|(s, _)| *s == set).map(|(_, v)| v.iter().map(ToString::to_string).collect()).unwrap()
    };
    assert_eq!(ids(MarkedSet::Wasteland), WASTELAND);
    assert_eq!(ids(MarkedSet::Strait), STRAIT);
    assert_eq!(ids(MarkedSet::BesideStrait), BESIDE_STRAIT);

    for players in [2, 5] {
        let config = GameConfig { five_six_extension: players == 5, ..wonders_config(players) };
        let error = Game::new(config, 1).expect_err("Wonders of Catan is for 3 or 4 players");
        assert_eq!(error.code(), "invalid_player_count", "{players} players: {error}");
    }
}

/// `Setup::with_longest_road_as_measured` (which `Given::start` calls) gives Longest Road to a
/// route of 5 "as play would have left it"; in Wonders play never awards it (WON-7), so the
/// measured holder must stay none and the position must build. (Today it names P0, and
/// `Setup::position` then refuses the position: `longest_road_inconsistent`.)
#[test]

fn the_measured_longest_road_is_never_held_in_wonders() {
    let setup = wonders().city(P0, HARBOUR).roads_along(P0, &ROUTE).main_phase(P0).with_longest_road_as_measured();
    assert_eq!(setup.longest_road, None);
    let s = setup.start();
    assert_eq!(s.game.longest_road_holder(), None);
}
