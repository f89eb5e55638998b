//! The Forgotten Tribe (RULES-SCENARIOS section 2; TC-98..TC-105) on the 4-player map of
//! seed 7: the tribe's islands are neutral, the robber keeps off them, and the first ship on a
//! gift's edge claims it.

use std::collections::{HashMap, VecDeque};

use catan_engine::{
    board::{EdgeId, HexCoord, VertexId},
    cost, DevCard, Event, FixedChance, Game, GameConfig, Gift, Move, PendingHarbour, Phase, ScenarioId, Setup, Viewer,
};

use crate::support::*;

fn tribe_config(players: u8) -> GameConfig {
    GameConfig { seafarers: true, scenario: Some(ScenarioId::ForgottenTribe), ..config(players) }
}

/// The main island's coastal settlement of TC-100 and the tribe's hexes of the 4-player map.
const HOME: &str = "-2,-1,N";
const TRIBE: [(i32, i32); 12] =
    [(0, -3), (1, -3), (3, -3), (4, -3), (5, -3), (5, -1), (4, 1), (2, 3), (1, 3), (0, 3), (-2, 3), (-3, 3)];

/// The shortest chain of free sea edges from `from` to an end of `target` (not `target`
/// itself), for a ship route to lie on.
fn sea_route(game: &Game, from: VertexId, target: EdgeId) -> Vec<EdgeId> {
    shortest_sea_route(game, from, target).unwrap_or_else(|| panic!("no sea route from {from} to {target}"))
}

/// [`sea_route`], if there is one.
fn shortest_sea_route(game: &Game, from: VertexId, target: EdgeId) -> Option<Vec<EdgeId>> {
    let board = game.board();
    let ends = target.endpoints();
    let mut came: HashMap<VertexId, EdgeId> = HashMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        if ends.contains(&at) {
            let mut route = Vec::new();
            let mut v = at;
            while v != from {
                let edge = came[&v];
                route.push(edge);
                v = edge.endpoints().into_iter().find(|x| *x != v).unwrap();
            }
            route.reverse();
            return Some(route);
        }
        for edge in at.edges() {
            let sea = board.edge(edge).is_some_and(|e| board.edge_is_sea[e as usize]);
            let next = edge.endpoints().into_iter().find(|x| *x != at).unwrap();
            if sea && edge != target && next != from && !came.contains_key(&next) && board.vertex(next).is_some() {
                came.insert(next, edge);
                queue.push_back(next);
            }
        }
    }
    None
}

/// P0 with a settlement on HOME and ships from it to an end of `gift`, in its main phase with
/// the cards of one ship.
fn sailing_to(gift: &str, config: GameConfig) -> Scenario {
    let fresh = Game::new(config.clone(), 7).expect("game");
    let route = sea_route(&fresh, v(HOME), e(gift));
    let route: Vec<String> = route.iter().map(|e| e.to_string()).collect();
    let route: Vec<&str> = route.iter().map(String::as_str).collect();
    given_with(config)
        .settlement(P0, HOME)
        .settlement(P1, "1,1,S")
        .ships(P0, &route)
        .main_phase(P0)
        .give(P0, cost::SHIP)
        .start()
}

fn gift_view(game: &Game) -> catan_engine::view::TribeView {
    game.view(Viewer::Spectator).forgotten_tribe.expect("the tribe's view")
}

/// TC-98 [FTR-4, SCN-3]: no setup settlement on the tribe's land; the main island takes one.
#[test]
fn tc_98_nobody_settles_on_the_tribes_islands() {
    let mut s = Scenario::with(tribe_config(4));
    s.rejects(P0, Move::BuildSettlement { vertex: v("0,-3,N") }, "vertex_not_buildable");
    s.when(P0, Move::BuildSettlement { vertex: v(HOME) });
    // SCN-3: the tribe's hexes carry no token, are listed neutral, and never produce.
    let layout = s.game.board().layout();
    for (q, r) in TRIBE {
        let hex = HexCoord::new(q, r);
        assert!(layout.neutral.contains(&hex), "{hex} is neutral");
        assert_eq!(layout.hexes.iter().find(|t| t.hex == hex).unwrap().number, None, "{hex} has no token");
    }
    assert_eq!(layout.neutral.len(), TRIBE.len());
}

/// TC-99 [FTR-8, FTR-7]: a ship on a development-card edge takes the top set-aside card, as if
/// bought: not playable this turn, playable the next; the edge's gift is gone.
#[test]
fn tc_99_a_ship_on_a_card_edge_takes_a_set_aside_card() {
    let mut s = sailing_to("-1,-3,E", tribe_config(4));
    assert_eq!(gift_view(&s.game).development_cards_set_aside, 4);
    assert_eq!(s.game.view(Viewer::Spectator).development_cards_left, 21, "FTR-8: 25 - 4 for sale");
    let events = s.when_with(P0, Move::BuildShip { edge: e("-1,-3,E") }, FixedChance::card(DevCard::Knight));
    assert!(events.contains(&Event::GiftClaimed { seat: P0, edge: e("-1,-3,E"), gift: Gift::DevelopmentCard }));
    let gifted = Event::DevelopmentCardGifted { seat: P0, card: Some(DevCard::Knight) };
    assert!(events.contains(&gifted), "{events:?}");
    // Hidden from everyone else (FTR-8).
    assert_eq!(gifted.redacted_for(Viewer::Seat(P1)), Event::DevelopmentCardGifted { seat: P0, card: None });
    let tribe = gift_view(&s.game);
    assert_eq!(tribe.development_cards_set_aside, 3);
    assert!(tribe.gifts.iter().all(|g| g.edge != e("-1,-3,E")), "the edge's gift is gone");
    assert_eq!(s.game.view(Viewer::Spectator).development_cards_left, 21, "the sale stack is untouched");
    let hex = HexCoord::new(0, 0);
    s.rejects(P0, Move::PlayKnight { hex, steal_from: None, bandit: Default::default() }, "development_card_too_new");
}

/// TC-100 [FTR-10, FTR-11, SCN-9]: a harbour gift taken with a spot at hand is placed before
/// anything else, at the claimant's own coast, and serves at once.
#[test]
fn tc_100_a_gift_harbour_is_placed_at_once_at_an_own_coast() {
    let mut s = sailing_to("0,-4,SE", tribe_config(4));
    let kind = gift_view(&s.game).gifts.iter().find(|g| g.edge == e("0,-4,SE")).and_then(|g| g.kind).unwrap();
    let events = s.when(P0, Move::BuildShip { edge: e("0,-4,SE") });
    assert!(events.contains(&Event::HarbourTaken { seat: P0, from_edge: e("0,-4,SE"), kind }));
    assert!(s.game.board().layout().harbours.iter().all(|h| h.edge != e("0,-4,SE")), "taken off its edge");
    assert_eq!(*s.game.phase(), Phase::PlaceGiftHarbour { seat: P0, kind });
    s.rejects(P0, Move::EndTurn, "wrong_phase");
    s.rejects(P0, Move::PlaceGiftHarbour { edge: e("0,-1,NE") }, "harbour_spot_illegal");
    let placed = s.when(P0, Move::PlaceGiftHarbour { edge: e("-2,-1,NE") });
    assert_eq!(placed[0], Event::HarbourPlaced { seat: P0, edge: e("-2,-1,NE"), kind });
    assert_eq!(*s.game.phase(), Phase::Main);
    assert!(s.game.board().layout().harbours.iter().any(|h| h.edge == e("-2,-1,NE") && h.kind == kind));
}

/// A vertex two land edges from `from` that touches the sea, with the two edges.
fn coastal_site_two_away(game: &Game, from: VertexId, taken: &[EdgeId]) -> (VertexId, [EdgeId; 2]) {
    let board = game.board();
    let land =
        |edge: EdgeId| !taken.contains(&edge) && board.edge(edge).is_some_and(|e| board.edge_is_land[e as usize]);
    let sea = |v: VertexId| v.hexes().iter().any(|h| board.hex(*h).is_some_and(|i| board.is_sea_hex(i)));
    for first in from.edges().into_iter().filter(|e| land(*e)) {
        let middle = first.endpoints().into_iter().find(|x| *x != from).unwrap();
        for second in middle.edges().into_iter().filter(|e| land(*e) && *e != first) {
            let end = second.endpoints().into_iter().find(|x| *x != middle).unwrap();
            let buildable = board.vertex(end).is_some_and(|i| board.vertex_is_buildable[i as usize]);
            if buildable && sea(end) && !from.adjacent().contains(&end) && end != from {
                return (end, [first, second]);
            }
        }
    }
    panic!("no coastal site two edges from {from}");
}

/// TC-101 [FTR-11, FTR-10], TC-102 [FTR-12]: once HOME is a harbour vertex, a second harbour
/// gift finds no spot and is kept (public); the holder's next coastal settlement makes it
/// placed before anything else (`on_next_spot`), or placeable when they choose (`voluntary`).
#[test]
fn tc_101_102_a_harbour_without_a_spot_is_kept_until_one_opens() {
    for mode in [PendingHarbour::OnNextSpot, PendingHarbour::Voluntary] {
        let config = GameConfig { ftr_pending_harbour: mode, ..tribe_config(4) };
        let fresh = Game::new(config.clone(), 7).expect("game");
        let mut given = given_with(config).settlement(P0, HOME).settlement(P1, "1,1,S");
        for gift in ["0,-4,SE", "3,-4,SE"] {
            for edge in sea_route(&fresh, v(HOME), e(gift)) {
                if !given.ships.iter().any(|s| s.edge == edge) {
                    given = given.with_ship(edge, P0);
                }
            }
        }
        let ships: Vec<EdgeId> = given.ships.iter().map(|s| s.edge).collect();
        let (site, [a, b]) = coastal_site_two_away(&fresh, v(HOME), &ships);
        let mut s = given
            .with_road(a, P0)
            .with_road(b, P0)
            .main_phase(P0)
            .give(P0, cost::SHIP + cost::SHIP + cost::SETTLEMENT)
            .start();
        s.when(P0, Move::BuildShip { edge: e("0,-4,SE") });
        let spot = s.game.legal_moves(P0).into_iter().find(|m| matches!(m, Move::PlaceGiftHarbour { .. }));
        s.when(P0, spot.expect("a spot at HOME"));
        let kind = gift_view(&s.game).gifts.iter().find(|g| g.edge == e("3,-4,SE")).and_then(|g| g.kind).unwrap();
        s.when(P0, Move::BuildShip { edge: e("3,-4,SE") });
        assert_eq!(*s.game.phase(), Phase::Main, "TC-101: no spot, the harbour is kept");
        let pending = gift_view(&s.game).pending_harbours;
        assert_eq!(pending.len(), 1);
        assert_eq!((pending[0].seat, pending[0].kind), (P0, kind));
        // The position keeps the claims and the kept harbour (FTR-7, FTR-12).
        let again = s.then_given().position().expect("the position of a tribe game loads");
        assert_eq!(gift_view(&again), gift_view(&s.game));
        assert_eq!(again.public_victory_points(P0), s.game.public_victory_points(P0));
        let mut twice = s.then_given();
        let first = twice.seafarers.gifts_claimed[0];
        twice.seafarers.gifts_claimed.push(first);
        assert_eq!(twice.position().unwrap_err().code(), "seafarers_state_inconsistent", "a gift claimed twice");
        let mut lost = s.then_given();
        lost.seafarers.pending_harbours.clear();
        assert!(lost.position().is_err(), "a harbour neither on the board nor held");
        s.rejects(
            P0,
            Move::PlaceGiftHarbour { edge: e("-2,-2,SE") },
            if mode == PendingHarbour::Voluntary { "harbour_spot_illegal" } else { "wrong_phase" },
        );
        // A settlement at the coast opens a spot.
        s.when(P0, Move::BuildSettlement { vertex: site });
        match mode {
            PendingHarbour::OnNextSpot => {
                assert_eq!(*s.game.phase(), Phase::PlaceGiftHarbour { seat: P0, kind }, "TC-102: placed first");
                s.rejects(P0, Move::EndTurn, "wrong_phase");
            }
            PendingHarbour::Voluntary => {
                assert_eq!(*s.game.phase(), Phase::Main);
                let places = s.game.legal_moves(P0).iter().any(|m| matches!(m, Move::PlaceGiftHarbour { .. }));
                assert!(places, "TC-102 voluntary: the kept harbour may be placed now");
                assert!(s.game.legal_moves(P0).contains(&Move::EndTurn), "or later");
            }
        }
    }
}

/// TC-103 [FTR-9, FTR-7]: a ship on a point edge brings 1 public point; the edge gives nothing
/// to the next ship. With `ftr_gift_on_move = false` a ship moved there claims nothing.
#[test]
fn tc_103_a_point_gift_is_claimed_once() {
    let mut s = sailing_to("0,-3,NE", tribe_config(4));
    let before = s.game.public_victory_points(P0);
    let events = s.when(P0, Move::BuildShip { edge: e("0,-3,NE") });
    assert!(events.contains(&Event::VictoryPointGifted { seat: P0 }));
    // The long route may also bring the Longest Trade Route (SEA-10).
    let route_card = if s.game.longest_road_holder() == Some(P0) { 2 } else { 0 };
    assert_eq!(s.game.public_victory_points(P0), before + 1 + route_card);
    assert!(gift_view(&s.game).gifts.iter().all(|g| g.edge != e("0,-3,NE")));
    assert_eq!(gift_view(&s.game).claimed.len(), 1);

    // Moved onto the edge: claims by default, not with the option off. The route reaches an
    // end of the gift's edge; a spare ship at HOME's other coast edge, an open end, sails there.
    for on_move in [true, false] {
        let config = GameConfig { ftr_gift_on_move: on_move, ..tribe_config(4) };
        let fresh = Game::new(config.clone(), 7).expect("game");
        let route = sea_route(&fresh, v(HOME), e("0,-3,NE"));
        let board = fresh.board();
        let spare = v(HOME)
            .edges()
            .into_iter()
            .find(|edge| board.edge(*edge).is_some_and(|i| board.edge_is_sea[i as usize]) && !route.contains(edge))
            .expect("a second sea edge at HOME");
        let mut given = given_with(config).settlement(P0, HOME).settlement(P1, "1,1,S").with_ship(spare, P0);
        for edge in &route {
            given = given.with_ship(*edge, P0);
        }
        let mut s = given.main_phase(P0).start();
        let events = s.when(P0, Move::MoveShip { from: spare, to: e("0,-3,NE") });
        let claimed = events.iter().any(|e| matches!(e, Event::GiftClaimed { .. }));
        assert_eq!(claimed, on_move, "ftr_gift_on_move {on_move}");
        assert_eq!(gift_view(&s.game).claimed.len(), usize::from(on_move));
    }
}

/// TC-104 [FTR-6, SCN-4]: the robber starts on a tribe desert and, once moved, never returns
/// to the tribe's land.
#[test]
fn tc_104_the_robber_keeps_off_the_tribes_islands() {
    let mut s = given_with(tribe_config(4)).settlement(P0, HOME).settlement(P1, "1,1,S").turn(P0).start();
    assert_eq!(s.game.robber_hex(), Some(HexCoord::new(-3, 3)));
    s.when_with(P0, Move::RollDice, FixedChance::dice(3, 4));
    s.rejects(P0, Move::MoveRobber { hex: h("0,3"), steal_from: None }, "robber_hex_excluded");
    s.when(P0, Move::MoveRobber { hex: h("0,0"), steal_from: None });
    assert_eq!(s.game.robber_hex(), Some(h("0,0")));
    let listed = s.game.view(Viewer::Spectator).board.robber_excluded;
    assert_eq!(listed.len(), TRIBE.len(), "SCN-3: the excluded hexes are in the view");
}

/// TC-105 [FTR-3]: 200 seeds: no neighbouring 6 and 8, no 5, 6, 8 or 9 on the far coast, the
/// tribe's hexes as fixed and without tokens.
#[test]
fn tc_105_every_board_keeps_the_far_coast_poor() {
    let far_coast = [h("3,-1"), h("3,0"), h("2,1")];
    let fixed = catan_engine::Game::new(tribe_config(4), 0).unwrap().board().layout().clone();
    for seed in 0..200 {
        let game = Game::new(tribe_config(4), seed).unwrap();
        let layout = game.board().layout();
        for tile in &layout.hexes {
            if far_coast.contains(&tile.hex) {
                assert!(!matches!(tile.number, Some(5 | 6 | 8 | 9)), "seed {seed}: {tile:?} on the far coast");
            }
            if matches!(tile.number, Some(6 | 8)) {
                for n in tile.hex.neighbours() {
                    let other = layout.hexes.iter().find(|t| t.hex == n).and_then(|t| t.number);
                    assert!(!matches!(other, Some(6 | 8)), "seed {seed}: 6/8 at {} and {n} (B-GEO-11)", tile.hex);
                }
            }
            if layout.neutral.contains(&tile.hex) {
                let same = fixed.hexes.iter().find(|t| t.hex == tile.hex).unwrap();
                assert_eq!(
                    (tile.terrain, tile.number),
                    (same.terrain, None),
                    "seed {seed}: the tribe's hexes are fixed"
                );
            }
        }
    }
}

/// FTR-1, FTR-2: 2-6 players, 13 points; SCN-10: not with Cities & Knights.
#[test]
fn the_forgotten_tribe_takes_two_to_six_players_to_thirteen_points() {
    assert_eq!(ScenarioId::ForgottenTribe.player_counts(), vec![2, 3, 4, 5, 6]);
    assert_eq!(ScenarioId::ForgottenTribe.vp_target(4), Some(13));
    let ck = GameConfig { cities_and_knights: true, ..tribe_config(4) };
    assert_eq!(Game::new(ck, 7).unwrap_err().code(), "invalid_config");
    let six = Game::new(GameConfig { five_six_extension: true, ..tribe_config(6) }, 7).expect("6 players");
    assert_eq!(gift_view(&six).development_cards_set_aside, 6);
    assert_eq!(six.view(Viewer::Spectator).development_cards_left, 34 - 6);
    let _ = Setup::from(&six);
}

/// FTR-13 [SEA-10]: the Longest Trade Route is in play (a fifth ship of a route from
/// HOME, on the far point gift's edge, takes the card), and so is Largest Army (a third
/// Knight).
#[test]
fn ftr_13_longest_trade_route_and_largest_army_are_in_play() {
    let fresh = Game::new(tribe_config(4), 7).expect("game");
    let route = sea_route(&fresh, v(HOME), e("0,-3,NE"));
    assert_eq!(route.len(), 4, "{route:?}");
    let mut given = given_with(tribe_config(4)).settlement(P0, HOME).settlement(P1, "1,1,S");
    for edge in &route {
        given = given.with_ship(*edge, P0);
    }
    let mut s = given.with_knights_played(P0, 2).main_phase(P0).give(P0, cost::SHIP).card(P0, DevCard::Knight).start();
    assert_eq!(s.game.longest_road_holder(), None, "four ships are not yet a trade route");
    let events = s.when(P0, Move::BuildShip { edge: e("0,-3,NE") });
    assert!(events.iter().any(|x| matches!(x, Event::LongestRoadChanged { .. })), "{events:?}");
    assert_eq!(s.game.longest_road_holder(), Some(P0));
    let knight = Move::PlayKnight { hex: h("0,0"), steal_from: None, bandit: Default::default() };
    let events = s.when(P0, knight);
    assert!(events.iter().any(|x| matches!(x, Event::LargestArmyChanged { .. })), "{events:?}");
    assert_eq!(s.game.view(Viewer::Spectator).largest_army, Some(P0));
}

/// A buildable coastal vertex of the main island and the shortest free sea route from it to
/// an end of `gift`, over every such vertex of `game`'s board.
fn nearest_home(game: &Game, gift: EdgeId) -> (VertexId, Vec<EdgeId>) {
    let board = game.board();
    let layout = board.layout();
    let sea = |x: &HexCoord| board.hex(*x).is_some_and(|i| board.is_sea_hex(i));
    let main_land = |x: &HexCoord| board.hex(*x).is_some_and(|i| !board.is_sea_hex(i)) && !layout.neutral.contains(x);
    let mut best: Option<(VertexId, Vec<EdgeId>)> = None;
    for tile in layout.hexes.iter().filter(|t| main_land(&t.hex)) {
        for vertex in tile.hex.corners() {
            let buildable = board.vertex(vertex).is_some_and(|i| board.vertex_is_buildable[i as usize]);
            if !buildable || !vertex.hexes().iter().any(sea) || gift.endpoints().contains(&vertex) {
                continue;
            }
            if let Some(route) = shortest_sea_route(game, vertex, gift) {
                if best.as_ref().is_none_or(|(_, r)| route.len() < r.len()) {
                    best = Some((vertex, route));
                }
            }
        }
    }
    best.expect("a main-island coast with a sea route to the gift")
}

/// FTR-14 [X56]: with six players (variant "6") gifts are claimed in the special building
/// phase: a ship built there on a harbour gift's edge takes the harbour, which is placed
/// there, and the special building phase goes on.
#[test]
fn ftr_14_a_harbour_gift_is_claimed_and_placed_in_the_special_building_phase() {
    let config = GameConfig { five_six_extension: true, ..tribe_config(6) };
    let fresh = Game::new(config.clone(), 7).expect("a 6-player tribe game");
    let harbour = gift_view(&fresh).gifts.into_iter().find(|g| g.gift == Gift::Harbour).expect("a harbour gift");
    let (home, route) = nearest_home(&fresh, harbour.edge);
    let mut given = given_with(config).with_building(home, P0, catan_engine::BuildingKind::Settlement);
    for edge in &route {
        given = given.with_ship(*edge, P0);
    }
    let mut s = given
        .turn(P1)
        .with_dice(2, 3)
        .with_phase(Phase::SpecialBuilding { seat: P0 }, vec![])
        .give(P0, cost::SHIP)
        .start();
    let kind = harbour.kind.expect("a harbour gift has its kind");
    let events = s.when(P0, Move::BuildShip { edge: harbour.edge });
    assert!(events.contains(&Event::GiftClaimed { seat: P0, edge: harbour.edge, gift: Gift::Harbour }), "{events:?}");
    assert_eq!(*s.game.phase(), Phase::PlaceGiftHarbour { seat: P0, kind });
    let spot = s.game.legal_moves(P0).into_iter().find(|m| matches!(m, Move::PlaceGiftHarbour { .. }));
    let placed = s.when(P0, spot.expect("a spot at P0's coastal settlement"));
    assert!(matches!(placed[0], Event::HarbourPlaced { seat: P0, .. }), "{placed:?}");
    assert_eq!(*s.game.phase(), Phase::SpecialBuilding { seat: P0 }, "back to P0's special building");
}

/// SCN-4: `robber_excluded_land_areas` overrides the scenario's `[0]`: with none excluded the
/// robber may go to the tribe's land; with the main island (area 1) excluded it may not go
/// there but may to the tribe's. An area the map lacks, or the option outside Seafarers, is
/// refused before the game starts.
#[test]
fn scn_4_the_robber_excluded_land_areas_are_an_option() {
    let rolled = |areas: Vec<u8>| {
        let config = GameConfig { robber_excluded_land_areas: Some(areas), ..tribe_config(4) };
        let mut s = given_with(config).settlement(P0, HOME).settlement(P1, "1,1,S").turn(P0).start();
        s.when_with(P0, Move::RollDice, FixedChance::dice(3, 4));
        s
    };
    // SCN-3: the view lists the map's areas, the tribe's (area 0) and the main island (1).
    let areas = Scenario::with(tribe_config(4)).game.view(Viewer::Spectator).board.land_areas;
    assert_eq!(areas.iter().map(|a| a.area).collect::<Vec<_>>(), vec![0, 1]);
    let mut tribe = areas[0].hexes.clone();
    tribe.sort_by_key(|x| (x.q, x.r));
    let mut expected: Vec<HexCoord> = TRIBE.iter().map(|&(q, r)| HexCoord::new(q, r)).collect();
    expected.sort_by_key(|x| (x.q, x.r));
    assert_eq!(tribe, expected);

    let mut s = rolled(vec![]);
    assert_eq!(s.game.view(Viewer::Spectator).board.robber_excluded, vec![]);
    s.when(P0, Move::MoveRobber { hex: h("0,3"), steal_from: None });
    assert_eq!(s.game.robber_hex(), Some(h("0,3")));

    let mut s = rolled(vec![1]);
    s.rejects(P0, Move::MoveRobber { hex: h("0,0"), steal_from: None }, "robber_hex_excluded");
    s.when(P0, Move::MoveRobber { hex: h("0,3"), steal_from: None });

    let unknown = GameConfig { robber_excluded_land_areas: Some(vec![9]), ..tribe_config(4) };
    assert_eq!(Game::new(unknown, 7).unwrap_err().code(), "invalid_config");
    let base = GameConfig { robber_excluded_land_areas: Some(vec![0]), ..config(4) };
    assert_eq!(Game::new(base, 7).unwrap_err().code(), "invalid_config");
}
