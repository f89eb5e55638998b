//! The New World (RULES-SCENARIOS section 5; TC-130, TC-131) on a board the generator made
//! for seed 7: a game starts on it with robber and pirate off the board, the island bonus pays
//! a player's first settlement on each island where it did not start.

use std::collections::HashMap;

use catan_engine::{
    board::{BoardLayout, EdgeId, HarbourKind, HexCoord, Terrain, VertexId},
    config::NewWorldHarbours,
    cost, new_world, Draw, Event, FirstPlayer, FixedChance, Game, GameConfig, Move, Phase, ScenarioId, Setup, Viewer,
};

use crate::support::*;

fn new_world_config(players: u8) -> GameConfig {
    GameConfig { seafarers: true, scenario: Some(ScenarioId::NewWorld), ..config(players) }
}

/// The fresh 4-player game of seed 7 and its board.
fn fresh() -> (Setup, BoardLayout) {
    let setup = given_with(new_world_config(4));
    let board = setup.board.clone();
    (setup, board)
}

/// NEW-GEN-2: the margin ring around the cells of the 4-player board.
fn is_margin(hex: HexCoord) -> bool {
    new_world::margin(4).contains(&hex)
}

/// Each land hex's island as the game shows it (`board.islands` of the view), numbered from 1
/// by the canonical order (row, then column) of each island's first hex, as the generator
/// numbers them (NEW-GEN-10).
fn islands(game: &Game) -> HashMap<HexCoord, u8> {
    let canonical = |h: &HexCoord| (h.r, h.q);
    let mut islands = game.view(Viewer::Spectator).board.islands;
    for island in &mut islands {
        island.sort_by_key(canonical);
    }
    islands.sort_by_key(|island| canonical(&island[0]));
    (1..).zip(islands).flat_map(|(number, hexes)| hexes.into_iter().map(move |h| (h, number))).collect()
}

/// Corners touching island `number` only (not the sea between two islands' hexes: islands
/// are apart), canonical order.
fn corners_of(island: &HashMap<HexCoord, u8>, number: u8) -> Vec<VertexId> {
    let mut corners: Vec<VertexId> =
        island.iter().filter(|(_, &i)| i == number).flat_map(|(h, _)| h.corners()).collect();
    corners.sort_by_key(|v| (v.hex.r, v.hex.q, v.corner));
    corners.dedup();
    corners
}

/// Two corners of island `number` at least two edges apart (the distance rule).
fn two_sites(island: &HashMap<HexCoord, u8>, number: u8) -> (VertexId, VertexId) {
    let corners = corners_of(island, number);
    let first = corners[0];
    let second = corners
        .iter()
        .copied()
        .find(|v| *v != first && !first.adjacent().contains(v))
        .expect("an island of two hexes has corners apart");
    (first, second)
}

#[test]
fn a_new_world_game_starts_on_a_legal_generated_board_with_robber_and_pirate_off_it() {
    // NEW-5, NEW-8, NEW-10, NEW-2.
    for players in [3, 4, 5, 6] {
        let game = Game::new(new_world_config(players), 7).expect("a New World game");
        let layout = game.board().layout();
        assert_eq!(layout.generator.as_ref().map(|g| g.version.as_str()), Some(new_world::GENERATOR_VERSION));
        let mode = new_world::NewWorldLayout::GrownIslands;
        assert_eq!(new_world::illegal_checks(layout, players, mode), vec![]);
        assert_eq!((game.robber_hex(), game.pirate_hex()), (None, None));
        assert!(layout.hexes.iter().all(|t| !matches!(t.terrain, Terrain::Desert | Terrain::Gold)));
        assert_eq!(ScenarioId::NewWorld.vp_target(players), Some(12));
    }
    // NEW-8: the same seed, the same board.
    let again = |seed| Game::new(new_world_config(4), seed).expect("game").board().layout().clone();
    assert_eq!(again(7), again(7));
    assert_ne!(again(7), again(8));
}

/// TC-131 [NEW-5]: robber and pirate start off the board; the first 7 places the robber on
/// any land hex, or the pirate on any sea hex in bounds, never on the margin.
#[test]
fn tc_131_the_first_seven_places_the_robber_or_the_pirate() {
    let (setup, board) = fresh();
    let (home, _) = two_sites(&islands(&setup.clone().start().game), 1);
    let given = || setup.clone().settlement(P1, &home.to_string()).turn(P0);
    let mut s = given().start();
    assert_eq!((s.game.robber_hex(), s.game.pirate_hex()), (None, None));
    s.when_with(P0, Move::RollDice, FixedChance::dice(3, 4));
    let land = board.hexes.iter().find(|t| t.terrain.is_land()).expect("land").hex;
    let margin = new_world::margin(4)[0];
    let in_bounds_sea =
        board.hexes.iter().find(|t| t.terrain == Terrain::Sea && !is_margin(t.hex)).expect("sea in bounds").hex;
    s.rejects(P0, Move::MovePirate { hex: margin, steal_from: None }, "pirate_not_on_sea");
    let robber = s.game.clone();
    let events = s.when(P0, Move::MovePirate { hex: in_bounds_sea, steal_from: None });
    assert_eq!(events[0], Event::PirateMoved { seat: P0, hex: in_bounds_sea });
    assert_eq!(s.game.pirate_hex(), Some(in_bounds_sea));

    // Or the robber, onto any land hex (no desert here).
    let mut s = Scenario { game: robber };
    let steal_from = s.game.legal_moves(P0).iter().find_map(|mv| match mv {
        Move::MoveRobber { hex, steal_from } if *hex == land => Some(*steal_from),
        _ => None,
    });
    let events = s.when(P0, Move::MoveRobber { hex: land, steal_from: steal_from.expect("the land hex is a target") });
    assert_eq!(events[0], Event::RobberMoved { seat: P0, hex: land });
    assert_eq!(s.game.robber_hex(), Some(land));
}

/// Whether `v` touches island `number` and the sea: where a ship can land.
fn coastal(board: &BoardLayout, island: &HashMap<HexCoord, u8>, number: u8, v: VertexId) -> bool {
    let hexes = v.hexes();
    hexes.iter().any(|h| island.get(h) == Some(&number)) && hexes.iter().any(|h| is_sea(board, *h))
}

fn is_sea(board: &BoardLayout, hex: HexCoord) -> bool {
    board.hexes.iter().any(|t| t.hex == hex && t.terrain == Terrain::Sea)
}

/// The shortest chain of sea edges from `from` to a coastal corner of island `to` that
/// `allowed` accepts: the ships of a route between two islands.
fn sea_route(
    board: &BoardLayout,
    island: &HashMap<HexCoord, u8>,
    from: VertexId,
    to: u8,
    allowed: impl Fn(VertexId) -> bool,
) -> (Vec<catan_engine::board::EdgeId>, VertexId) {
    let on_board = |h: &HexCoord| board.hexes.iter().any(|t| t.hex == *h);
    let mut came_from: HashMap<VertexId, (VertexId, catan_engine::board::EdgeId)> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        if at != from && coastal(board, island, to, at) && allowed(at) {
            let mut edges = Vec::new();
            let mut back = at;
            while back != from {
                let (prev, edge) = came_from[&back];
                edges.push(edge);
                back = prev;
            }
            return (edges, at);
        }
        for edge in at.edges() {
            let [a, b] = edge.hexes();
            if !(on_board(&a) && on_board(&b)) || !(is_sea(board, a) || is_sea(board, b)) {
                continue;
            }
            let [x, y] = edge.endpoints();
            let next = if x == at { y } else { x };
            if next != from && !came_from.contains_key(&next) {
                came_from.insert(next, (at, edge));
                queue.push_back(next);
            }
        }
    }
    panic!("no sea route to island {to}");
}

/// Two land edges from `from` to a corner whose neighbours hold none of `taken`.
fn two_roads(board: &BoardLayout, from: VertexId, taken: &[VertexId]) -> ([catan_engine::board::EdgeId; 2], VertexId) {
    for first in from.edges().into_iter().filter(|e| edge_on_land(board, *e)) {
        let [x, y] = first.endpoints();
        let middle = if x == from { y } else { x };
        for second in middle.edges().into_iter().filter(|e| *e != first && edge_on_land(board, *e)) {
            let [x, y] = second.endpoints();
            let end = if x == middle { y } else { x };
            let apart = taken.iter().all(|t| *t != end && !t.adjacent().contains(&end));
            let buildable = end.hexes().iter().any(|h| board.hexes.iter().any(|t| t.hex == *h && t.terrain.is_land()));
            if apart && buildable {
                return ([first, second], end);
            }
        }
    }
    panic!("no site two roads from {from}");
}

/// TC-130 [NEW-4, NEW-3]: P0's setup settlements on islands 1 and 2; its first settlement on
/// island 3 earns 2 points, its second there none; P1, whose home is island 3, earns nothing
/// there. With `island_bonus_vp` 1, the first earns 1.
#[test]
fn tc_130_the_first_settlement_on_each_foreign_island_earns_the_bonus() {
    for points in [2u32, 1] {
        let config = GameConfig { island_bonus_vp: (points == 1).then_some(1), ..new_world_config(4) };
        let game = Game::new(config, 7).expect("game");
        let setup = Setup::from(&game);
        let board = setup.board.clone();
        let island = islands(&game);
        let corner_on = |number: u8| {
            corners_of(&island, number).into_iter().find(|v| coastal(&board, &island, number, *v)).expect("a coast")
        };
        let (home_a, home_b, p1_home) = (corner_on(1), corner_on(2), corner_on(3));
        let p1_other =
            corners_of(&island, 1).into_iter().rev().find(|v| !home_a.adjacent().contains(v) && *v != home_a);
        let (p1_roads, p1_site) = two_roads(&board, p1_home, &[p1_home, home_a, home_b]);
        // P0's ships from its island-1 settlement to a coast of island 3 clear of P1's sites.
        let (ships, first) = sea_route(&board, &island, home_a, 3, |v| {
            [p1_home, p1_site].iter().all(|t| *t != v && !t.adjacent().contains(&v))
        });
        let (p0_roads, second) = two_roads(&board, first, &[p1_home, p1_site, first]);
        let mut given = setup
            .setup_settlement(P0, &home_a.to_string())
            .setup_settlement(P0, &home_b.to_string())
            .setup_settlement(P1, &p1_home.to_string())
            .setup_settlement(P1, &p1_other.expect("a second corner of island 1").to_string())
            .with_road(p1_roads[0], P1)
            .with_road(p1_roads[1], P1)
            .give(P0, cost::SETTLEMENT + cost::SETTLEMENT + cost::ROAD + cost::ROAD)
            .give(P1, cost::SETTLEMENT);
        for ship in &ships {
            given = given.with_ship(*ship, P0);
        }
        let mut s = given.main_phase(P0).start();
        let earned = s.when(P0, Move::BuildSettlement { vertex: first });
        assert!(earned.contains(&Event::IslandBonusEarned { seat: P0, vertex: first, points }), "{earned:?}");
        s.when(P0, Move::BuildRoad { edge: p0_roads[0] });
        s.when(P0, Move::BuildRoad { edge: p0_roads[1] });
        let none = s.when(P0, Move::BuildSettlement { vertex: second });
        assert!(none.iter().all(|e| !matches!(e, Event::IslandBonusEarned { .. })), "{none:?}");
        s.when(P0, Move::EndTurn);
        s.when_with(P1, Move::RollDice, FixedChance::dice(1, 2));
        let home = s.when(P1, Move::BuildSettlement { vertex: p1_site });
        assert!(home.iter().all(|e| !matches!(e, Event::IslandBonusEarned { .. })), "{home:?}");
        assert!(matches!(s.game.phase(), Phase::Main));
    }
}

/// Whether an edge has land on a side (a road may stand there).
fn edge_on_land(board: &BoardLayout, edge: catan_engine::board::EdgeId) -> bool {
    edge.hexes().iter().any(|h| board.hexes.iter().any(|t| t.hex == *h && t.terrain.is_land()))
}

fn players_place(players: u8) -> GameConfig {
    GameConfig { new_world_harbours: NewWorldHarbours::PlayersPlace, ..new_world_config(players) }
}

/// The kinds left face down, in the order the generator lists the kinds, when
/// `gone` have been drawn: the index a `harbour` draw picks.
fn stack_index(kind: HarbourKind, gone: &[HarbourKind]) -> usize {
    let column = [
        (HarbourKind::Generic3, 4),
        (HarbourKind::Lumber2, 1),
        (HarbourKind::Brick2, 1),
        (HarbourKind::Wool2, 1),
        (HarbourKind::Grain2, 1),
        (HarbourKind::Ore2, 1),
    ];
    let left: Vec<HarbourKind> =
        column.iter().filter(|(k, n)| gone.iter().filter(|g| *g == k).count() < *n).map(|(k, _)| *k).collect();
    left.iter().position(|k| *k == kind).expect("the kind is still in the stack")
}

/// A land edge between two land hexes: no coast, so never a harbour's.
fn inland_edge(board: &BoardLayout) -> EdgeId {
    let land = |h: &HexCoord| board.hexes.iter().any(|t| t.hex == *h && t.terrain.is_land());
    board
        .hexes
        .iter()
        .filter(|t| t.terrain.is_land())
        .flat_map(|t| t.hex.sides())
        .find(|e| e.hexes().iter().all(land))
        .expect("an island of two hexes has an inland edge")
}

fn harbour_sites(s: &Scenario, seat: catan_engine::Seat) -> Vec<EdgeId> {
    s.game
        .legal_moves(seat)
        .into_iter()
        .map(|mv| match mv {
            Move::PlaceHarbour { edge } => edge,
            other => panic!("only harbours are placed before setup, not {other:?}"),
        })
        .collect()
}

/// NEW-11: with `players_place` the board starts without harbours and the first player has
/// drawn one, which everyone sees; the game waits for that player to place it.
#[test]
fn new_11_the_first_player_draws_a_harbour_everyone_sees_before_setup() {
    let (game, events) = Game::start(players_place(4), 7).expect("a New World game");
    assert!(game.board().layout().harbours.is_empty());
    let Event::HarbourDrawn { seat, kind } = events[1] else { panic!("{:?}", events[1]) };
    assert_eq!(seat, P0);
    assert_eq!(game.phase(), &Phase::PlaceHarbour { seat: P0, kind });
    assert_eq!(game.waiting_for(), vec![P0]);
    for viewer in [Viewer::Spectator, Viewer::Seat(P1)] {
        let view = game.view(viewer);
        assert_eq!(view.turn.phase, Phase::PlaceHarbour { seat: P0, kind });
        assert_eq!(view.turn.waiting_for, vec![P0]);
        // `game_started` hides the seed; what follows hides nothing.
        assert!(events[1..].iter().all(|e| e.redacted_for(viewer) == *e), "the drawn kind is public");
    }
    // The same board as with random harbours, less its harbours (NEW-8).
    let random = Game::new(new_world_config(4), 7).expect("game");
    let mut without = random.board().layout().clone();
    without.harbours.clear();
    assert_eq!(game.board().layout(), &without);
    // The option is the New World's only (NEW-11).
    let elsewhere = GameConfig { scenario: Some(ScenarioId::NewShores), ..players_place(4) };
    assert_eq!(Game::new(elsewhere, 7).map(drop).expect_err("refused").code(), "invalid_config");
}

/// TC-133 [NEW-11, NEW-LEGAL-5]: a harbour touching another, or off the coast, is refused and
/// changes nothing; on a free coast edge it is placed, and the next player clockwise draws.
#[test]
fn tc_133_a_harbour_goes_on_a_free_coast_edge_and_the_next_player_draws() {
    let mut s = Scenario::with(players_place(4));
    let Phase::PlaceHarbour { kind: first, .. } = *s.game.phase() else { panic!("{:?}", s.game.phase()) };
    assert!(harbour_sites(&s, P1).is_empty(), "only the player holding the harbour places");
    let site = harbour_sites(&s, P0)[0];
    s.rejects(P1, Move::PlaceHarbour { edge: site }, "not_your_turn");
    let inland = inland_edge(s.game.board().layout());
    s.rejects(P0, Move::PlaceHarbour { edge: inland }, "harbour_site_not_allowed");

    let wool = FixedChance::default().then(Draw::HARBOUR, stack_index(HarbourKind::Wool2, &[first]));
    let events = s.when_with(P0, Move::PlaceHarbour { edge: site }, wool);
    assert_eq!(events[0], Event::HarbourPlaced { seat: P0, edge: site, kind: first });
    assert_eq!(events[1], Event::HarbourDrawn { seat: P1, kind: HarbourKind::Wool2 });
    assert_eq!(s.game.phase(), &Phase::PlaceHarbour { seat: P1, kind: HarbourKind::Wool2 });
    assert!(s.game.board().layout().harbours.iter().any(|h| h.edge == site && h.kind == first));

    // Touching P0's harbour: refused; on a free coast edge: placed, and P2 draws.
    let board = s.game.board().layout().clone();
    let island: HashMap<HexCoord, u8> = islands(&s.game);
    let touching = site
        .endpoints()
        .iter()
        .flat_map(|v| v.edges())
        .find(|e| {
            *e != site
                && e.hexes().iter().any(|h| island.contains_key(h))
                && e.hexes().iter().any(|h| is_sea(&board, *h))
        })
        .expect("a coast edge beside the harbour");
    s.rejects(P1, Move::PlaceHarbour { edge: touching }, "harbour_site_not_allowed");
    let free = harbour_sites(&s, P1)[0];
    assert!(free.endpoints().iter().all(|v| !site.endpoints().contains(v)));
    let events = s.when(P1, Move::PlaceHarbour { edge: free });
    assert_eq!(events[0], Event::HarbourPlaced { seat: P1, edge: free, kind: HarbourKind::Wool2 });
    assert!(matches!(events[1], Event::HarbourDrawn { seat: P2, .. }), "{events:?}");
}

/// NEW-11: the players place in turn from the first player clockwise until the stack is
/// empty; then setup begins with the first player, on a board that passes NEW-LEGAL; a
/// replay of the log is the game played live.
#[test]
fn new_11_harbours_go_round_clockwise_then_setup_begins_and_the_log_replays() {
    for (players, first) in [(4, 2), (3, 0), (6, 5)] {
        let config = GameConfig { first_player: FirstPlayer::Seat(first), ..players_place(players) };
        let (mut game, mut log) = Game::start(config.clone(), 11).expect("a New World game");
        let harbours = if players >= 5 { 11 } else { 9 };
        for placed in 0..harbours {
            let seat = catan_engine::Seat(((usize::from(first) + placed) % usize::from(players)) as u8);
            let Phase::PlaceHarbour { seat: placing, kind } = *game.phase() else {
                panic!("harbour {placed}: {:?}", game.phase())
            };
            assert_eq!(placing, seat, "harbour {placed} of {players} players, first seat {first}");
            let edge = match game.legal_moves(seat).last() {
                Some(Move::PlaceHarbour { edge }) => *edge,
                other => panic!("{other:?}"),
            };
            let events = game.decide(seat, &Move::PlaceHarbour { edge }, &mut game.chance()).expect("placed");
            assert_eq!(events[0], Event::HarbourPlaced { seat, edge, kind });
            for event in &events {
                game.apply(event);
            }
            log.extend(events);
        }
        let setup = catan_engine::SetupStep::PlaceSettlement;
        assert_eq!(game.phase(), &Phase::Setup { seat: catan_engine::Seat(first), placement: 0, step: setup });
        assert!(log.iter().filter(|e| matches!(e, Event::HarbourDrawn { .. })).count() == harbours);
        let layout = game.board().layout();
        assert_eq!(layout.harbours.len(), harbours);
        assert_eq!(new_world::illegal_checks(layout, players, new_world::NewWorldLayout::GrownIslands), vec![]);
        let replayed = Game::replay(config, &log).expect("the log replays");
        assert!(replayed == game, "replay equals the game played live");
        assert!(!game.legal_moves(catan_engine::Seat(first)).is_empty());
    }
}

/// NEW-11 (engine decision): players can leave no edge NEW-LEGAL-5 allows for the harbours
/// still face down (a board of one large island takes at most three); those stay out of the
/// game and setup begins, so a drawn harbour always has an edge.
#[test]
fn new_11_with_no_edge_left_the_rest_of_the_stack_stays_out_and_setup_begins() {
    let config = |seed: u64| GameConfig {
        new_world_layout: new_world::NewWorldLayout::PublishedRandom,
        first_player: FirstPlayer::Seat((seed % 3) as u8),
        ..players_place(3)
    };
    let short = (0..200).find_map(|seed| {
        let mut game = Game::new(config(seed), seed).expect("game");
        let mut rng = catan_engine::rng::Rng::new(seed);
        while let Phase::PlaceHarbour { seat, .. } = *game.phase() {
            let moves = game.legal_moves(seat);
            assert!(!moves.is_empty(), "a drawn harbour has an edge");
            let mv = &moves[rng.below(moves.len() as u32) as usize];
            let events = game.decide(seat, mv, &mut game.chance()).expect("listed");
            for event in &events {
                game.apply(event);
            }
        }
        (game.board().layout().harbours.len() < 9).then_some(game)
    });
    let game = short.expect("some seed leaves no edge before the ninth harbour");
    assert!(matches!(game.phase(), Phase::Setup { placement: 0, .. }), "{:?}", game.phase());
}

/// NEW-11: a position taken while a harbour waits to be placed starts the same game; one that
/// gives the harbour to the wrong seat, or a kind no longer in the stack, is refused.
#[test]
fn new_11_a_position_during_harbour_placement_round_trips() {
    let mut s = Scenario::with(players_place(4));
    let site = harbour_sites(&s, P0)[0];
    s.when(P0, Move::PlaceHarbour { edge: site });
    let Phase::PlaceHarbour { kind, .. } = *s.game.phase() else { panic!("{:?}", s.game.phase()) };
    let position = s.then_given();
    let again = position.clone().position().expect("the position is valid");
    assert_eq!(again.phase(), s.game.phase());
    assert_eq!(again.legal_moves(P1), s.game.legal_moves(P1));

    let wrong_seat = position.clone().with_phase(Phase::PlaceHarbour { seat: P2, kind }, vec![]);
    assert_eq!(wrong_seat.position().map(drop).expect_err("refused").code(), "invalid_phase");
    // Seed 7's first harbour is the only one of its kind.
    let placed = s.game.board().layout().harbours[0].kind;
    assert_ne!(placed, HarbourKind::Generic3);
    let gone = position.with_phase(Phase::PlaceHarbour { seat: P1, kind: placed }, vec![]);
    assert_eq!(gone.position().map(drop).expect_err("refused").code(), "invalid_phase");
}

/// TC-132 [NEW-7]: the seed makes the board, the dice and the decks, so until the game is
/// over no viewer's view and no event as any viewer receives it carries the seed; the final
/// view does.
#[test]
fn tc_132_the_seed_is_hidden_until_the_game_is_over() {
    use catan_engine::bots::{new_bot, BotKind};
    let (seed, config) = (11, new_world_config(3));
    let (mut game, started) = Game::start(config, seed).expect("a New World game");
    let viewers = [Viewer::Seat(P0), Viewer::Seat(P1), Viewer::Seat(P2), Viewer::Spectator];
    let hides_seed = |events: &[Event]| {
        viewers.iter().all(|&viewer| {
            events.iter().all(|e| match e.redacted_for(viewer) {
                Event::GameStarted { seed, .. } => seed.is_none(),
                _ => true,
            })
        })
    };
    assert!(hides_seed(&started));
    let mut bots: Vec<_> = (0..3).map(|i| new_bot(BotKind::Heuristic, seed + i)).collect();
    while !game.is_over() {
        assert!(game.turn_number() < 1_000, "the bots finish a game");
        for viewer in viewers {
            assert_eq!(game.view(viewer).seed, None, "turn {}", game.turn_number());
        }
        let seat = game.next_to_act().expect("someone acts");
        let moves = game.legal_moves(seat);
        let choice = bots[seat.index()].choose(&game, seat, &moves);
        let events = game.decide(seat, &moves[choice], &mut game.chance()).expect("a listed move");
        assert!(hides_seed(&events));
        for event in &events {
            game.apply(event);
        }
    }
    for viewer in viewers {
        assert_eq!(game.view(viewer).seed, Some(seed), "published at the end");
    }
}
