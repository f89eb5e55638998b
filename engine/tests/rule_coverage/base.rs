//! The base game's rules of RULES.md sections 1-7 that no other test cited.

use std::collections::{BTreeSet, HashSet};

use catan_engine::{
    board::{
        coords::DIRECTIONS,
        layout::{standard_land_positions, HarbourKind},
        Terrain,
    },
    cost, BoardSpec, Chance, DevCard, DevCards, Draw, Event, FirstPlayer, FixedChance, Game, GameConfig, HexCoord,
    Move, Phase, Resource, Resources, Seat,
};

use crate::support::*;

/// Records every draw the engine asks of chance, and answers from a `FixedChance`.
pub struct Recorded {
    pub chance: FixedChance,
    pub draws: Vec<(Draw, Vec<u32>)>,
}

impl Chance for Recorded {
    fn pick(&mut self, draw: Draw, weights: &[u32]) -> usize {
        self.draws.push((draw, weights.to_vec()));
        self.chance.pick(draw, weights)
    }
}

fn rolled(events: &[Event]) -> Option<u8> {
    events.iter().find_map(|event| match event {
        Event::ResourcesProduced { roll, .. } => Some(*roll),
        _ => None,
    })
}

/// B-CMP-9: a roll throws two six-sided dice, and the production roll is their sum, 2 to 12;
/// every sum comes as often as its pairs of faces (B-GEO-15: 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1
/// ways of 36).
#[test]
fn b_cmp_9_b_geo_15_two_six_sided_dice_and_their_sum() {
    let s = given().turn(P0).start();
    let mut ways = [0u32; 13];
    for red in 1..=6u8 {
        for white in 1..=6u8 {
            let mut chance = Recorded { chance: FixedChance::dice(red, white), draws: vec![] };
            let events = s.game.decide(P0, &Move::RollDice, &mut chance).expect("the roll");
            assert_eq!(chance.draws, vec![(Draw::RED_DIE, vec![1; 6]), (Draw::WHITE_DIE, vec![1; 6])]);
            assert_eq!(events[0], Event::DiceRolled { seat: P0, red, white });
            let sum = red + white;
            if sum != 7 {
                assert_eq!(rolled(&events), Some(sum), "the production roll is the sum");
            }
            ways[usize::from(sum)] += 1;
        }
    }
    assert_eq!(ways[2..], [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
}

/// B-CMP-8, B-SET-1: Longest Road and Largest Army lie beside the board unowned at the start;
/// each is worth 2 VP while held.
#[test]
fn b_cmp_8_b_set_1_special_cards_start_unowned_and_are_worth_two_points() {
    let fresh = Scenario::new();
    assert_eq!((fresh.game.longest_road_holder(), fresh.game.largest_army_holder()), (None, None));

    let row = ["-2,-1,S", "-2,0,N", "-1,-1,S", "-1,0,N", "0,-1,S", "0,0,N"];
    let roads = given().settlement(P0, row[0]).roads_along(P0, &row).main_phase(P0);
    let plain = given().settlement(P0, row[0]).roads_along(P0, &row[..5]).main_phase(P0).start();
    assert_eq!((plain.game.victory_points(P0), plain.game.longest_road_holder()), (1, None), "4 roads: no card");
    let road = roads.with_longest_road(Some(P0));
    let s = road.clone().start();
    assert_eq!(s.game.victory_points(P0), 3, "Longest Road: 2 VP");
    let s = road.with_knights_played(P0, 3).with_largest_army(Some(P0)).start();
    assert_eq!(s.game.victory_points(P0), 5, "and Largest Army: 2 more");
    assert_eq!(s.game.victory_points(P1), 0);
}

/// B-SET-1: each player has the full supply of pieces (B-CMP-7), the bank all 95 cards and the
/// deck all 25 development cards; no hand holds anything.
#[test]
fn b_set_1_supplies_at_the_start() {
    let s = Scenario::new();
    for seat in s.game.seats() {
        let player = s.game.player(seat).unwrap();
        let left = player.pieces_left();
        assert_eq!((left.settlements, left.cities, left.roads), (5, 4, 15));
        assert!(player.resources().is_empty());
        assert_eq!(player.dev_card_count(), 0);
    }
    assert_eq!(*s.game.bank(), Resources::each(19));
    assert_eq!(*s.game.development_deck(), DevCards::new(14, 2, 2, 2, 5));
}

/// B-CMP-10, B-GEO-13: on a random layout the robber starts on the desert, and there is one
/// robber: moving it leaves the desert free.
#[test]
fn b_cmp_10_one_robber_starting_on_the_desert() {
    for seed in 1..=5 {
        let game = Game::new(GameConfig { board: BoardSpec::Random, ..config(4) }, seed).unwrap();
        let layout = game.board().layout();
        let desert = layout.hexes.iter().find(|tile| tile.terrain == Terrain::Desert).unwrap().hex;
        assert_eq!(game.robber_hex(), Some(desert));
        assert_eq!(game.view(catan_engine::Viewer::Spectator).board.robber, Some(desert));
    }
    let mut s = given().card(P0, DevCard::Knight).turn(P0).start();
    let desert = s.game.robber_hex().unwrap();
    s.when(P0, Move::PlayKnight { hex: h("1,-1"), steal_from: None, bandit: catan_engine::Bandit::Robber });
    assert_eq!(s.game.robber_hex(), Some(h("1,-1")));
    assert_ne!(s.game.robber_hex(), Some(desert));
}

/// B-GEO-1, B-GEO-2: axial coordinates; the six neighbours are the direction vectors E, NE,
/// NW, W, SW, SE; the distance is (|dq| + |dr| + |dq + dr|) / 2.
#[test]
fn b_geo_1_b_geo_2_axial_coordinates_neighbours_and_distance() {
    assert_eq!(DIRECTIONS, [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]);
    let hexes: Vec<HexCoord> = Scenario::new().game.board().hexes.clone();
    for &a in &hexes {
        let neighbours: HashSet<HexCoord> = a.neighbours().into_iter().collect();
        let expected: HashSet<HexCoord> =
            DIRECTIONS.iter().map(|&(dq, dr)| HexCoord::new(a.q + dq, a.r + dr)).collect();
        assert_eq!(neighbours, expected, "{a}");
        for &b in &hexes {
            let (dq, dr) = (b.q - a.q, b.r - a.r);
            assert_eq!(a.distance(b), (dq.abs() + dr.abs() + (dq + dr).abs()) / 2, "{a} to {b}");
            assert_eq!(a.is_adjacent(b), neighbours.contains(&b));
        }
    }
    // The island is the 19 hexes within distance 2 of the centre; the sea frame is ring 3.
    let centre = HexCoord::new(0, 0);
    assert!(standard_land_positions().iter().all(|hex| centre.distance(*hex) <= 2));
    assert_eq!(standard_land_positions().len(), 19);
    assert_eq!(h("1,-2"), HexCoord::new(1, -2), "the string form is \"q,r\"");
}

/// B-GEO-3: every vertex is the N or the S corner of exactly one hex: the 54 vertices of the
/// standard board have 54 distinct canonical ids, each hex's six corners are among them, and
/// the string form `"q,r,N"` reads back.
#[test]
fn b_geo_3_vertices_are_the_n_or_s_corner_of_one_hex() {
    let s = Scenario::new();
    let board = s.game.board();
    let ids: BTreeSet<String> = board.vertices.iter().map(|vertex| vertex.to_string()).collect();
    assert_eq!(ids.len(), 54);
    for id in &ids {
        assert!(id.ends_with(",N") || id.ends_with(",S"), "{id}");
        assert_eq!(v(id).to_string(), *id);
    }
    for &hex in standard_land_positions().iter() {
        let corners = hex.corners();
        assert!(corners.iter().all(|corner| board.vertex(*corner).is_some()), "{hex}");
        assert_eq!(corners.iter().collect::<HashSet<_>>().len(), 6);
        // Two of the six corners are the hex's own N and S; the others belong to neighbours.
        let own = corners.iter().filter(|corner| corner.hex == hex).count();
        assert_eq!(own, 2, "{hex}");
    }
}

/// B-GEO-13: a random layout shuffles the 19 terrains over the land (the desert anywhere)
/// and the 9 harbour kinds over the harbour places.
#[test]
fn b_geo_13_random_layouts_shuffle_terrain_and_harbours() {
    let mut deserts = HashSet::new();
    let mut harbour_orders = HashSet::new();
    for seed in 1..=20 {
        let game = Game::new(GameConfig { board: BoardSpec::Random, ..config(4) }, seed).unwrap();
        let layout = game.board().layout();
        let count = |terrain: Terrain| layout.hexes.iter().filter(|tile| tile.terrain == terrain).count();
        let terrains =
            [Terrain::Forest, Terrain::Pasture, Terrain::Fields, Terrain::Hills, Terrain::Mountains, Terrain::Desert];
        assert_eq!(terrains.map(count), [4, 4, 4, 3, 3, 1]);
        deserts.insert(layout.hexes.iter().find(|tile| tile.terrain == Terrain::Desert).unwrap().hex);
        let kinds: Vec<HarbourKind> = layout.harbours.iter().map(|harbour| harbour.kind).collect();
        assert_eq!(kinds.iter().filter(|kind| **kind == HarbourKind::Generic3).count(), 4);
        assert_eq!(kinds.iter().filter_map(|kind| kind.special_resource()).collect::<HashSet<_>>().len(), 5);
        harbour_orders.insert(format!("{kinds:?}"));
    }
    assert!(deserts.len() > 3, "the desert lands in several places: {deserts:?}");
    assert!(harbour_orders.len() > 3, "harbour kinds are shuffled");
}

/// B-SET-2: with `first_player = roll` every seat rolls, tied highest seats roll again among
/// themselves, and the highest starts.
#[test]
fn b_set_2_the_highest_roll_starts_ties_roll_again() {
    let mut rerolled = false;
    let mut first_seats = HashSet::new();
    for seed in 0..40 {
        let config = GameConfig { first_player: FirstPlayer::Roll, ..GameConfig::for_players(4) };
        let (game, events) = Game::start(config, seed).unwrap();
        let Event::GameStarted { first_seat, starting_rolls, .. } = &events[0] else { panic!("{:?}", events[0]) };
        let mut contenders: BTreeSet<Seat> = game.seats().collect();
        let mut rolls = starting_rolls.as_slice();
        while contenders.len() > 1 {
            let (round, rest) = rolls.split_at(contenders.len());
            assert_eq!(round.iter().map(|roll| roll.seat).collect::<BTreeSet<_>>(), contenders);
            assert!(round.iter().all(|roll| (2..=12).contains(&roll.total)));
            let best = round.iter().map(|roll| roll.total).max().unwrap();
            contenders = round.iter().filter(|roll| roll.total == best).map(|roll| roll.seat).collect();
            rerolled |= !rest.is_empty();
            rolls = rest;
        }
        assert!(rolls.is_empty(), "no roll after the winner is known");
        assert_eq!(contenders.into_iter().next(), Some(*first_seat));
        assert_eq!(game.active_seat(), *first_seat);
        first_seats.insert(*first_seat);
    }
    assert!(rerolled, "some seed had a tie");
    assert_eq!(first_seats.len(), 4);
}

/// B-SET-5: setup pieces cost nothing and come from the player's supply.
#[test]
fn b_set_5_setup_pieces_are_free_from_the_supply() {
    let mut s = Scenario::new();
    let bank = *s.game.bank();
    s.when(P0, Move::BuildSettlement { vertex: v("0,-1,N") });
    s.when(P0, Move::BuildRoad { edge: e("0,-1,NE") });
    assert_eq!(*s.game.bank(), bank);
    assert!(s.hand(P0).is_empty());
    let left = s.game.player(P0).unwrap().pieces_left();
    assert_eq!((left.settlements, left.roads), (4, 14));
}

/// B-TURN-5, B-TURN-6: in the main phase trading, building, buying and playing a card go in
/// any order, any number of times; with `allow_trade_build_interleaving` off, trading ends
/// with the first build or buy.
#[test]
fn b_turn_5_b_turn_6_the_main_phase_in_any_order() {
    let given = |interleave: bool| {
        given_with(GameConfig { allow_trade_build_interleaving: interleave, ..config(4) })
            .settlement(P0, "0,-1,N")
            .road(P0, "0,-1,NE")
            .give(P0, cost::ROAD + Resources::of(Resource::Ore, 8) + cost::DEVELOPMENT_CARD)
            .card(P0, DevCard::Knight)
            .main_phase(P0)
            .start()
    };
    let four_ore_for_brick =
        Move::TradeWithBank { give: Resources::of(Resource::Ore, 4), get: Resources::of(Resource::Brick, 1) };
    let four_ore_for_lumber =
        Move::TradeWithBank { give: Resources::of(Resource::Ore, 4), get: Resources::of(Resource::Lumber, 1) };
    let mut s = given(true);
    s.when(P0, Move::BuildRoad { edge: e("0,-1,E") });
    s.when(P0, four_ore_for_brick.clone());
    s.when(P0, Move::BuyDevelopmentCard);
    s.when(P0, four_ore_for_lumber);
    s.when(P0, Move::PlayKnight { hex: h("1,-1"), steal_from: None, bandit: catan_engine::Bandit::Robber });
    assert_eq!(*s.game.phase(), Phase::Main);
    let road = s.game.legal_moves(P0).into_iter().find(|mv| matches!(mv, Move::BuildRoad { .. })).expect("a road");
    s.when(P0, road);
    assert_eq!(s.game.player(P0).unwrap().roads_on_board(), 3);
    s.when(P0, Move::EndTurn);
    assert_eq!(s.game.active_seat(), P1);

    let mut s = given(false);
    s.when(P0, four_ore_for_brick.clone());
    s.when(P0, Move::BuildRoad { edge: e("0,-1,E") });
    s.rejects(P0, four_ore_for_brick, "trading_closed");
}

/// B-TURN-7: the turn passes clockwise, from the last seat back to the first.
#[test]
fn b_turn_7_the_turn_passes_clockwise() {
    let mut s = given().main_phase(P0).start();
    for next in [P1, P2, P3, P0] {
        let seat = s.game.active_seat();
        if *s.game.phase() == Phase::PreRoll {
            s.when_with(seat, Move::RollDice, FixedChance::dice(1, 2));
        }
        s.when(seat, Move::EndTurn);
        assert_eq!(s.game.active_seat(), next);
        assert_eq!(*s.game.phase(), Phase::PreRoll);
    }
}

/// B-PROD-3: the desert has no token and never produces: a settlement on a desert corner gets,
/// for every roll, exactly what its other hexes produce.
#[test]
fn b_prod_3_the_desert_never_produces() {
    let s = Scenario::new();
    let board = s.game.board();
    let desert = board.terrain.iter().position(|terrain| *terrain == Terrain::Desert).unwrap();
    assert_eq!(board.numbers[desert], None);
    assert!(board.hexes_by_number.iter().all(|hexes| !hexes.contains(&(desert as u8))));
    let corner = board.hexes[desert].corners()[0];
    let others: Vec<usize> =
        board.land_hexes_of(board.vertex(corner).unwrap()).map(usize::from).filter(|&hex| hex != desert).collect();
    for (red, white) in [(1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (4, 4), (4, 5), (5, 5), (5, 6), (6, 6)] {
        let mut s = given().settlement(P0, &corner.to_string()).robber("-2,2").turn(P0).start();
        s.when_with(P0, Move::RollDice, FixedChance::dice(red, white));
        let expected = others.iter().filter(|&&hex| board.numbers[hex] == Some(red + white)).count() as u32;
        assert_eq!(s.hand(P0).total(), expected, "roll {}", red + white);
    }
}

/// B-PROD-5: no hand limit outside a rolled 7: a seat holding 20 cards rolls an 8 and ends its
/// turn without discarding.
#[test]
fn b_prod_5_no_hand_limit_without_a_seven() {
    let mut s = given().give(P0, Resources::each(4)).give(P1, Resources::each(5)).turn(P0).start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(4, 4));
    assert_eq!(*s.game.phase(), Phase::Main);
    s.when(P0, Move::EndTurn);
    assert_eq!((s.hand(P0).total(), s.hand(P1).total()), (20, 25));
    assert_eq!(*s.game.phase(), Phase::PreRoll);
}

/// B-TURN-8, B-TURN-10: one development card a turn, a Knight before the roll or any card in
/// the main phase; Victory Point cards are not played and count anyway.
#[test]
fn b_turn_8_b_turn_10_one_development_card_a_turn() {
    let mut s = given()
        .card(P0, DevCard::Knight)
        .card(P0, DevCard::Monopoly)
        .card(P0, DevCard::VictoryPoint)
        .give(P1, Resources::of(Resource::Wool, 2))
        .turn(P0)
        .start();
    assert_eq!(s.game.victory_points(P0), 1, "the VP card counts without being played");
    s.when(P0, Move::PlayKnight { hex: h("1,-1"), steal_from: None, bandit: catan_engine::Bandit::Robber });
    s.when_with(P0, Move::RollDice, FixedChance::dice(1, 2));
    s.rejects(P0, Move::PlayMonopoly { resource: Resource::Wool }, "development_card_already_played");

    // Another turn: any card in the main phase.
    let mut s = given().card(P0, DevCard::Monopoly).give(P1, Resources::of(Resource::Wool, 2)).main_phase(P0).start();
    s.when(P0, Move::PlayMonopoly { resource: Resource::Wool });
    assert_eq!(s.hand(P0), Resources::of(Resource::Wool, 2));
}

/// B-TURN-9, B-DEV-1: a card costs 1 wool, 1 grain and 1 ore, goes into the hidden hand and
/// cannot be played the turn it was bought; any number may be bought; a VP card counts at once;
/// an empty deck refuses the purchase.
#[test]
fn b_turn_9_b_dev_1_buying_development_cards() {
    let mut s = given().give(P0, cost::DEVELOPMENT_CARD + cost::DEVELOPMENT_CARD).main_phase(P0).start();
    let bank = *s.game.bank();
    let events = s.when_with(P0, Move::BuyDevelopmentCard, FixedChance::card(DevCard::Knight));
    assert!(
        matches!(&events[0], Event::DevelopmentCardBought { seat: P0, cost, .. } if *cost == cost::DEVELOPMENT_CARD)
    );
    assert_eq!(*s.game.bank(), bank + cost::DEVELOPMENT_CARD);
    let player = s.game.player(P0).unwrap();
    assert_eq!((player.new_dev_cards().get(DevCard::Knight), player.playable_dev_cards().total()), (1, 0));
    s.rejects(
        P0,
        Move::PlayKnight { hex: h("1,-1"), steal_from: None, bandit: catan_engine::Bandit::Robber },
        "development_card_too_new",
    );
    let hidden = s.game.view(catan_engine::Viewer::Seat(P1));
    assert_eq!(hidden.players[0].development_card_count, 1);
    assert_eq!(hidden.players[0].development_cards, None, "others see only the count");

    s.when_with(P0, Move::BuyDevelopmentCard, FixedChance::card(DevCard::VictoryPoint));
    assert_eq!(s.game.victory_points(P0), 1, "a VP card counts from the moment it is drawn");
    assert_eq!(s.game.development_deck().total(), 23);

    let s = given().give(P0, cost::DEVELOPMENT_CARD).with_deck(DevCards::default()).main_phase(P0).start();
    s.rejects(P0, Move::BuyDevelopmentCard, "deck_empty");
}

/// B-BLD-8: a settlement is worth 1 VP, a city 2.
#[test]
fn b_bld_8_settlements_one_point_cities_two() {
    let mut s = given()
        .settlement(P0, "0,-1,N")
        .roads_along(P0, &["0,-1,N", "0,-2,S", "-1,0,N"])
        .give(P0, cost::CITY + cost::SETTLEMENT)
        .main_phase(P0)
        .start();
    assert_eq!(s.game.victory_points(P0), 1);
    s.when(P0, Move::BuildSettlement { vertex: v("-1,0,N") });
    assert_eq!(s.game.victory_points(P0), 2);
    s.when(P0, Move::BuildCity { vertex: v("0,-1,N") });
    assert_eq!(s.game.victory_points(P0), 3);
    assert_eq!(s.game.view(catan_engine::Viewer::Spectator).players[0].victory_points, 3);
}

fn longest_road_changes(events: &[Event]) -> Vec<&Event> {
    events.iter().filter(|event| matches!(event, Event::LongestRoadChanged { .. })).collect()
}

/// B-BLD-9, B-LR-6: Longest Road is measured again after every road and every settlement,
/// anyone's: P0's fifth road takes the card; P2's settlement in the middle of it sets it aside.
#[test]
fn b_bld_9_b_lr_6_longest_road_is_recomputed_after_roads_and_settlements() {
    let row = ["-2,-1,S", "-2,0,N", "-1,-1,S", "-1,0,N", "0,-1,S", "0,0,N"];
    let mut s = given()
        .settlement(P0, row[0])
        .roads_along(P0, &row[..5])
        .settlement(P2, "0,-1,N")
        .roads_along(P2, &["0,-1,N", "0,-2,S", "-1,0,N"])
        .give(P0, cost::ROAD)
        .give(P2, cost::SETTLEMENT)
        .main_phase(P0)
        .start();
    assert_eq!((s.road_length(P0), s.game.longest_road_holder()), (4, None));
    let events = s.when(P0, Move::BuildRoad { edge: path(&row)[4] });
    assert_eq!(
        longest_road_changes(&events),
        [&Event::LongestRoadChanged { holder: Some(P0), previous: None, length: 5 }]
    );
    let mut s = s.then_given().main_phase(P2).start();
    let events = s.when(P2, Move::BuildSettlement { vertex: v(row[3]) });
    assert_eq!(
        longest_road_changes(&events),
        [&Event::LongestRoadChanged { holder: None, previous: Some(P0), length: 3 }]
    );
    assert_eq!(s.road_length(P0), 3);
}
