//! Invariants over thousands of random self-played games, one test per ruleset (cargo runs
//! them in parallel): the base game with 2, 3 and 4 players, the 5-6 player extension with
//! 5 and 6, Jungle and Big River, on random and beginner boards, every Seafarers scenario
//! with every player count it has a map for, Cities & Knights with 3 to 6 players, and Cities
//! & Knights on the Seafarers scenarios with a pirate (SEA-15), each varying the rule flags.
//! Every move of every game is checked (see `checks`): listed moves are accepted, and in a
//! sample `decide` accepts exactly the listed moves; rejected moves change nothing; cards
//! are conserved; piece limits, the distance rule and victory points hold; every piece was
//! placed where the rules allowed it, and road lengths and Longest Road are as defined; views
//! and redaction hide what they must (with Seafarers, also the fog: see `seafarers`; with
//! Cities & Knights, commodities and progress cards, which are conserved too, and knights,
//! walls, improvements and barbarians: see `cities_knights`); the log
//! replays to the live state; the serde snapshot round-trips; and every game ends with a
//! winner within the turn cap. A few positions built from events pin down bugs these checks
//! found.
//!
//! A new ruleset is one more `#[test]` that calls `play_ruleset` with its
//! name, its number of games and a config generator; a new Seafarers scenario is one more
//! `#[test]` calling `play_scenario` (and its line in `seafarers_games`).

mod checks;
mod cities_knights;
mod cloth;
mod pirate;
mod seafarers;
mod tribe;

use catan_engine::{
    board::{EdgeId, HexCoord, Terrain, VertexId},
    new_world::{NewWorldHarbours, NewWorldLayout},
    BoardSpec, Event, FirstPlayer, Game, GameConfig, IslandBonusMode, IslandDefinition, Move, PendingHarbour, Phase,
    Resources, ScenarioId, Seat,
};
use checks::{any_board, one_in, pick, play_ruleset};

/// The base game for `players` seats (5 or 6 with the extension), on either board.
fn base_rules(players: u8) -> impl Fn(u64) -> GameConfig {
    move |index| GameConfig { board: any_board(index), ..GameConfig::for_players(players) }
}

/// JUN: the desert is a jungle, with each of its possible numbers.
fn jungle_rules(index: u64) -> GameConfig {
    GameConfig {
        jungle: true,
        jungle_number: Some(pick(index, "jungle_number", &[2, 3, 4, 5, 9, 10, 11, 12])),
        board: any_board(index),
        ..GameConfig::for_players(pick(index, "players", &[3, 4]))
    }
}

/// RIV: the river with each gold number, the setup ban and gold production on and off. Big
/// River needs a random (or custom) board.
fn big_river_rules(index: u64) -> GameConfig {
    GameConfig {
        big_river: true,
        river_gold_number: Some(pick(index, "river_gold_number", &[3, 4, 5, 9, 10, 11])),
        river_bank_setup_ban: !one_in(index, "river_bank_setup_ban", 3),
        river_gold_produces: !one_in(index, "river_gold_produces", 5),
        board: BoardSpec::Random,
        ..GameConfig::for_players(pick(index, "players", &[3, 4]))
    }
}

/// CK: Cities & Knights for `players` (5-6 with the extension), on either board, with the
/// barbarians' track at its default length and shorter or longer, and the robber waiting for
/// the first attack or not (CK-BAR-1, CK-BAR-10).
fn cities_knights_rules(players: u8) -> impl Fn(u64) -> GameConfig {
    move |index| GameConfig {
        cities_and_knights: true,
        barbarian_steps: pick(index, "barbarian_steps", &[7, 7, 7, 4, 10]),
        robber_waits_for_first_attack: !one_in(index, "robber_waits_for_first_attack", 3),
        progress_hand_limit: pick(index, "progress_hand_limit", &[None, None, None, Some(3), Some(5)]),
        progress_overflow_play_option: !one_in(index, "progress_overflow_play_option", 3),
        board: any_board(index),
        ..GameConfig::for_players(players)
    }
}

/// SEA: the scenario's map for `players`, varying the island bonus (mode, points including 0,
/// what an island is) and the red-number rule of the map's generator; each map draws its own
/// combinations.
fn seafarers_rules(scenario: ScenarioId, players: u8) -> impl Fn(u64) -> GameConfig {
    let map = format!("{}_{players}", scenario.name());
    move |index| {
        let choice = |option: &str| format!("{map}/{option}");
        let config = GameConfig {
            seafarers: true,
            scenario: Some(scenario),
            island_bonus_mode: pick(
                index,
                &choice("island_bonus_mode"),
                &[
                    None,
                    Some(IslandBonusMode::PerPlayerForeignIsland),
                    Some(IslandBonusMode::FirstOnIsland),
                    Some(IslandBonusMode::PerSettlementOnMarkedIslands),
                ],
            ),
            island_bonus_vp: pick(index, &choice("island_bonus_vp"), &[None, Some(0), Some(1), None, Some(0), Some(3)]),
            islands: if one_in(index, &choice("islands"), 3) {
                IslandDefinition::ScenarioLandAreas
            } else {
                IslandDefinition::ConnectedLand
            },
            forbid_adjacent_red_numbers: !one_in(index, &choice("forbid_adjacent_red_numbers"), 3),
            // The New World's generator (NEW-GEN-7, NEW-GEN-11); other maps ignore them.
            new_world_layout: if one_in(index, &choice("new_world_layout"), 3) {
                NewWorldLayout::PublishedRandom
            } else {
                NewWorldLayout::GrownIslands
            },
            forbid_adjacent_equal_numbers: one_in(index, &choice("forbid_adjacent_equal_numbers"), 3),
            // The Forgotten Tribe's claims and kept harbours (FTR-7, FTR-12); others ignore them.
            ftr_gift_on_move: !one_in(index, &choice("ftr_gift_on_move"), 3),
            ftr_pending_harbour: if one_in(index, &choice("ftr_pending_harbour"), 3) {
                PendingHarbour::Voluntary
            } else {
                PendingHarbour::OnNextSpot
            },
            // CLV-14: an earlier end by exhaustion; others ignore it.
            clv_end_villages_min: if one_in(index, &choice("clv_end_villages_min"), 3) { 6 } else { 4 },
            // The Pirate Islands' options (PIR-4, PIR-13, PIR-15, PIR-16, PIR-18); others
            // ignore them.
            pir_warship_choice: if one_in(index, &choice("pir_warship_choice"), 3) {
                catan_engine::WarshipChoice::PlayerChoice
            } else {
                catan_engine::WarshipChoice::Oldest
            },
            pir_vp_cards: if one_in(index, &choice("pir_vp_cards"), 3) {
                catan_engine::PirateVpCards::Keep
            } else {
                catan_engine::PirateVpCards::AsKnights
            },
            pir_fortress_reserves_settlement: !one_in(index, &choice("pir_fortress_reserves_settlement"), 3),
            pir_attack_ends_turn: !one_in(index, &choice("pir_attack_ends_turn"), 3),
            pir_shared_lone_hex_no_attack: !one_in(index, &choice("pir_shared_lone_hex_no_attack"), 3),
            // PIR-8 can wall a route in for good (a route grows only at its ends, and its last
            // ship may have nowhere else to go): random seats do that often enough that games
            // of The Pirate Islands end by the engine's turn limit when nobody wins first.
            turn_limit: (scenario == ScenarioId::PirateIslands).then_some(PIRATE_TURN_LIMIT),
            // SCN-6, SCN-8, SCN-4, CLV-15: the setup rounds and the round that pays, the route
            // card, the robber's areas and Cloth for Catan's robber start, over the scenario's.
            starting_resources_round: one_in(index, &choice("starting_resources_round"), 5).then_some(1),
            longest_route_card: pick(index, &choice("longest_route_card"), &[None, None, Some(false), Some(true)]),
            robber_excluded_land_areas: one_in(index, &choice("robber_excluded_land_areas"), 4).then(Vec::new),
            clv_robber_start: if one_in(index, &choice("clv_robber_start"), 3) {
                catan_engine::ClothRobberStart::Data
            } else {
                catan_engine::ClothRobberStart::VillageDesert
            },
            // NEW-11: harbours placed by the players, the New World's only.
            new_world_harbours: if scenario == ScenarioId::NewWorld && one_in(index, &choice("new_world_harbours"), 2) {
                NewWorldHarbours::PlayersPlace
            } else {
                NewWorldHarbours::Random
            },
            ..GameConfig::for_players(players)
        };
        // SCN-6: a third setup round where the map has room for it whatever the seats
        // choose (the engine refuses it elsewhere).
        let three_rounds = GameConfig { setup_rounds: Some(3), ..config.clone() };
        if one_in(index, &choice("setup_rounds"), 4) && catan_engine::Game::new(three_rounds.clone(), index).is_ok() {
            three_rounds
        } else {
            config
        }
    }
}

/// The turn limit of random games of The Pirate Islands (see `seafarers_rules`).
const PIRATE_TURN_LIMIT: u32 = 1_500;

/// Games of each player count of a scenario (an exhaustive one among them).
fn seafarers_games(scenario: ScenarioId) -> u64 {
    // A new scenario needs its line here (and its test below).
    match scenario {
        ScenarioId::NewShores => 20,
        ScenarioId::FourIslands => 20,
        ScenarioId::FogIslands => 20,
        ScenarioId::ThroughTheDesert => 20,
        ScenarioId::Wonders => 20,
        ScenarioId::NewWorld => 20,
        ScenarioId::ForgottenTribe => 20,
        ScenarioId::ClothForCatan => 20,
        ScenarioId::PirateIslands => 20,
    }
}

/// Every player count the scenario has a map for (2 players use the 3-player map).
fn play_scenario(scenario: ScenarioId) {
    let counts = scenario.player_counts();
    assert!(counts.contains(&3) && counts.contains(&4), "{}: {counts:?}", scenario.name());
    for players in counts {
        let name = format!("seafarers_{}_{players}p", scenario.name());
        play_ruleset(&name, seafarers_games(scenario), seafarers_rules(scenario, players));
    }
}

#[test]
fn seafarers_new_world() {
    play_scenario(ScenarioId::NewWorld);
}

/// FTR: gifts claimed by ships, set-aside cards, gift harbours placed or kept, the robber
/// kept off the tribe's islands, under every invariant.
#[test]
fn seafarers_forgotten_tribe() {
    play_scenario(ScenarioId::ForgottenTribe);
}

/// CLV: three setup rounds, villages connected by ships, cloth on first contact and on
/// rolls, the pirate's cloth theft and the end by exhaustion, under every invariant.
#[test]
fn seafarers_cloth_for_catan() {
    play_scenario(ScenarioId::ClothForCatan);
}

/// PIR: lanes, the fleet and its attacks, the 7's steal from anyone, warships, fortress
/// attacks and conquests, and the victory rule, under every invariant.
#[test]
fn seafarers_pirate_islands() {
    play_scenario(ScenarioId::PirateIslands);
}

#[test]
fn seafarers_new_shores() {
    play_scenario(ScenarioId::NewShores);
}

#[test]
fn seafarers_four_islands() {
    play_scenario(ScenarioId::FourIslands);
}

#[test]
fn seafarers_fog_islands() {
    play_scenario(ScenarioId::FogIslands);
}

#[test]
fn seafarers_through_the_desert() {
    play_scenario(ScenarioId::ThroughTheDesert);
}

/// WON: claims, stages and the victory rule of Wonders of Catan under every invariant.
#[test]
fn seafarers_wonders() {
    play_scenario(ScenarioId::Wonders);
}

/// SEA: a scenario takes exactly the player counts it lists, 2 players on the 3-player map.
#[test]
fn seafarers_player_counts() {
    for scenario in ScenarioId::ALL {
        let counts = scenario.player_counts();
        for players in 1..=7 {
            let config = GameConfig { seafarers: true, scenario: Some(scenario), ..GameConfig::for_players(players) };
            let game = Game::new(config, 7);
            assert_eq!(game.is_ok(), counts.contains(&players), "{} for {players}: {game:?}", scenario.name());
        }
        let hexes = |players| {
            let config = GameConfig { seafarers: true, scenario: Some(scenario), ..GameConfig::for_players(players) };
            let game = Game::new(config, 7).unwrap();
            let mut hexes = game.board().hexes.clone();
            hexes.sort();
            (hexes, game.vp_target())
        };
        if counts.contains(&2) {
            assert_eq!(hexes(2), hexes(3), "{}: 2 players play the 3-player map", scenario.name());
        }
    }
}

#[test]
fn base_two_players() {
    play_ruleset("base_two_players", 263, base_rules(2));
}

#[test]
fn base_three_players() {
    play_ruleset("base_three_players", 263, base_rules(3));
}

#[test]
fn base_four_players() {
    play_ruleset("base_four_players", 526, base_rules(4));
}

#[test]
fn five_six_five_players() {
    play_ruleset("five_six_five_players", 263, base_rules(5));
}

#[test]
fn five_six_six_players() {
    play_ruleset("five_six_six_players", 263, base_rules(6));
}

#[test]
fn jungle() {
    play_ruleset("jungle", 263, jungle_rules);
}

#[test]
fn big_river() {
    play_ruleset("big_river", 263, big_river_rules);
}

/// Games of Cities & Knights per player count: its games run 3-5 times as many turns as the
/// base game's, so fewer of them take about as long as a base game ruleset.
const CITIES_KNIGHTS_GAMES: u64 = 100;

#[test]
fn cities_knights_three_players() {
    play_ruleset("cities_knights_three_players", CITIES_KNIGHTS_GAMES, cities_knights_rules(3));
}

#[test]
fn cities_knights_four_players() {
    play_ruleset("cities_knights_four_players", CITIES_KNIGHTS_GAMES, cities_knights_rules(4));
}

#[test]
fn cities_knights_five_players() {
    play_ruleset("cities_knights_five_players", CITIES_KNIGHTS_GAMES, cities_knights_rules(5));
}

#[test]
fn cities_knights_six_players() {
    play_ruleset("cities_knights_six_players", CITIES_KNIGHTS_GAMES, cities_knights_rules(6));
}

/// SEA-15: the Seafarers scenarios with a pirate (not Wonders, which refuses C&K) under Cities &
/// Knights, each with 3 and 4 players and 5-6 with the extension, varying the C&K flags as
/// `cities_knights_rules` does and the Seafarers options as `seafarers_rules` does.
fn cities_knights_seafarers_rules(index: u64) -> GameConfig {
    const SCENARIOS: [ScenarioId; 4] =
        [ScenarioId::NewShores, ScenarioId::FourIslands, ScenarioId::FogIslands, ScenarioId::ThroughTheDesert];
    let scenario = SCENARIOS[(index % 4) as usize];
    // Per scenario: 3 and 4 players in turn, one game in four with 5 or 6.
    let round = index / 4;
    let players = match round % 4 {
        0 | 2 => 3 + (round / 4 % 2) as u8,
        1 => 4 - (round / 4 % 2) as u8,
        _ => 5 + (round / 4 % 2) as u8,
    };
    let ck = cities_knights_rules(players)(index);
    GameConfig {
        cities_and_knights: true,
        barbarian_steps: ck.barbarian_steps,
        robber_waits_for_first_attack: ck.robber_waits_for_first_attack,
        progress_hand_limit: ck.progress_hand_limit,
        progress_overflow_play_option: ck.progress_overflow_play_option,
        // CK-SET-1: two setup rounds, the city's paying.
        setup_rounds: None,
        starting_resources_round: None,
        ..seafarers_rules(scenario, players)(index)
    }
}

/// Games of C&K with Seafarers, over the 4 scenarios: 40 with 3 players, 36 with 4, 12 each
/// with 5 and 6; two of them exhaustive.
const CITIES_KNIGHTS_SEAFARERS_GAMES: u64 = 100;

#[test]
fn cities_knights_seafarers() {
    play_ruleset("cities_knights_seafarers", CITIES_KNIGHTS_SEAFARERS_GAMES, cities_knights_seafarers_rules);
}

#[test]
fn rejected_moves_name_their_rule() {
    let mut game =
        Game::new(GameConfig { first_player: FirstPlayer::Seat(0), ..GameConfig::for_players(3) }, 3).unwrap();
    let before = game.clone();
    let error = game.decide(Seat(1), &Move::BuildSettlement { vertex: "0,0,N".parse().unwrap() }, &mut game.chance());
    assert_eq!(error.unwrap_err().code(), "not_your_turn");
    let error = game.decide(
        Seat(0),
        &Move::BuildRoad { edge: EdgeId::new(0, 0, catan_engine::board::Side::E) },
        &mut game.chance(),
    );
    assert_eq!(error.unwrap_err().code(), "wrong_phase");
    let error =
        game.decide(Seat(0), &Move::MoveRobber { hex: HexCoord::new(0, 0), steal_from: None }, &mut game.chance());
    assert_eq!(error.unwrap_err().code(), "wrong_phase");
    assert_eq!(before, game);
    // Playing the first placement still works after the rejections.
    let mv = game.legal_moves(Seat(0))[0].clone();
    for event in game.decide(Seat(0), &mv, &mut game.chance()).unwrap() {
        game.apply(&event);
    }
    assert!(matches!(game.phase(), Phase::Setup { .. }));
}

/// B-DEV-5, SEA-11: a free ship on a coast edge takes that edge from the roads as well; when
/// it was the last site for either piece, Road Building ends instead of waiting for a second
/// piece nobody can place. (The position is built from events: `Setup` places no ships.)
#[test]
fn road_building_ends_when_a_free_ship_took_the_last_site() {
    let config = GameConfig {
        seafarers: true,
        scenario: Some(ScenarioId::NewShores),
        first_player: FirstPlayer::Seat(0),
        ..GameConfig::for_players(3)
    };
    let mut game = Game::new(config, 1).unwrap();
    let board = game.board().clone();
    let terrain = |hex: HexCoord| board.hex(hex).map(|h| board.terrain[h as usize]);
    let land = |hex: HexCoord| terrain(hex).is_some_and(Terrain::is_land);
    // A coastal vertex between two land hexes and the sea: one land edge, two coast edges.
    let vertex = *board
        .vertices
        .iter()
        .find(|v| {
            v.hexes().iter().filter(|h| land(**h)).count() == 2 && v.hexes().iter().all(|h| terrain(*h).is_some())
        })
        .unwrap();
    let inland = *vertex.edges().iter().find(|e| e.hexes().iter().all(|h| land(*h))).unwrap();
    let coast: Vec<EdgeId> = vertex.edges().into_iter().filter(|e| *e != inland).collect();
    let mut events = vec![
        Event::SettlementBuilt { seat: Seat(0), vertex, cost: Resources::ZERO },
        Event::RoadBuilt { seat: Seat(1), edge: inland, cost: Resources::ZERO },
        Event::ShipBuilt { seat: Seat(1), edge: coast[1], cost: Resources::ZERO },
    ];
    // Seat 0's other 14 ships on open sea, far from land: one ship is left.
    let open_sea = board
        .edges
        .iter()
        .filter(|e| e.endpoints().iter().all(|v| v.hexes().iter().all(|h| terrain(*h) == Some(Terrain::Sea))));
    events.extend(open_sea.take(14).map(|&edge| Event::ShipBuilt { seat: Seat(0), edge, cost: Resources::ZERO }));
    events.push(Event::TurnStarted { seat: Seat(0), turn: 5 });
    events.push(Event::PhaseChanged { phase: Phase::RoadBuilding { roads_left: 2 }, then: vec![Phase::Main].into() });
    for event in &events {
        game.apply(event);
    }
    assert_eq!(game.player(Seat(0)).unwrap().pieces_left().ships, 1);
    let free_ship = Move::BuildShip { edge: coast[0] };
    assert!(game.legal_moves(Seat(0)).contains(&free_ship));
    for event in game.decide(Seat(0), &free_ship, &mut game.chance()).unwrap() {
        game.apply(&event);
    }
    assert_eq!(game.phase(), &Phase::Main, "no site is left for a second piece");
    assert!(!game.legal_moves(Seat(0)).is_empty());
}

/// A trail of `length` edges from vertex `start` on edges `fits` accepts, through vertices
/// not in `avoid`; its vertices are added to `avoid`.
fn trail(
    board: &catan_engine::board::Board,
    start: VertexId,
    length: usize,
    fits: &dyn Fn(u16) -> bool,
    avoid: &mut Vec<VertexId>,
) -> Option<Vec<EdgeId>> {
    if length == 0 {
        return Some(Vec::new());
    }
    let v = board.vertex(start)?;
    for e in board.edges_of(v) {
        let next = board.vertices[board.other_end(e, v) as usize];
        if !fits(e) || avoid.contains(&next) {
            continue;
        }
        avoid.push(next);
        if let Some(mut rest) = trail(board, next, length - 1, fits, avoid) {
            rest.insert(0, board.edges[e as usize]);
            return Some(rest);
        }
        avoid.pop();
    }
    None
}

/// SEA-10, B-LR-5: a settlement where the builder's own road meets its own ship joins them
/// into one trade route; when that route is the longest, the builder takes Longest Road.
#[test]
fn a_settlement_joining_own_road_and_ship_takes_longest_road() {
    let config = GameConfig {
        seafarers: true,
        scenario: Some(ScenarioId::NewShores),
        first_player: FirstPlayer::Seat(0),
        ..GameConfig::for_players(3)
    };
    let mut game = Game::new(config, 1).unwrap();
    let board = game.board().clone();
    let land_edge = |e: u16| board.edge_is_land[e as usize];
    let sea_edge = |e: u16| board.edge_is_sea[e as usize] && !board.edge_is_land[e as usize];
    // A coastal vertex with 3 roads inland and 3 ships out to sea, and 5 roads of seat 1.
    let (junction, roads, ships, others) = board
        .vertices
        .iter()
        .find_map(|&v| {
            let mut avoid = vec![v];
            let roads = trail(&board, v, 3, &land_edge, &mut avoid)?;
            let ships = trail(&board, v, 3, &sea_edge, &mut avoid)?;
            // Seat 1's road, well away from seat 0's pieces.
            avoid.extend(avoid.clone().iter().flat_map(|a| a.adjacent()));
            let others = board.vertices.iter().find_map(|&far| {
                let near = avoid.iter().any(|a| *a == far || a.adjacent().contains(&far));
                (!near).then(|| trail(&board, far, 5, &land_edge, &mut avoid.clone())).flatten()
            })?;
            Some((v, roads, ships, others))
        })
        .expect("a coastal vertex with room for the routes");
    let free = Resources::ZERO;
    let mut events: Vec<Event> =
        roads.iter().map(|&edge| Event::RoadBuilt { seat: Seat(0), edge, cost: free }).collect();
    events.extend(ships.iter().map(|&edge| Event::ShipBuilt { seat: Seat(0), edge, cost: free }));
    events.extend(others.iter().map(|&edge| Event::RoadBuilt { seat: Seat(1), edge, cost: free }));
    events.extend([
        Event::LongestRoadChanged { holder: Some(Seat(1)), previous: None, length: 5 },
        Event::TurnStarted { seat: Seat(0), turn: 5 },
        Event::PhaseChanged { phase: Phase::Main, then: vec![].into() },
        Event::StartingResourcesReceived { seat: Seat(0), resources: catan_engine::cost::SETTLEMENT },
    ]);
    for event in &events {
        game.apply(event);
    }
    assert_eq!((game.road_length(Seat(0)), game.road_length(Seat(1))), (3, 5));
    let settle = Move::BuildSettlement { vertex: junction };
    let events = game.decide(Seat(0), &settle, &mut game.chance()).unwrap();
    assert!(
        events.contains(&Event::LongestRoadChanged { holder: Some(Seat(0)), previous: Some(Seat(1)), length: 6 }),
        "{events:?}"
    );
}
