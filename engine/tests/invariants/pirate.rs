//! The Pirate Islands' part of the checks (RULES-SCENARIOS 4), run on every move of a game of
//! that scenario, with the lanes, lone vertices, fortresses and the fleet's path read from
//! the data file:
//! - PIR-7/8: every ship stands on its seat's lane, and no point holds three ships of a seat;
//! - PIR-6, SCN-3: on the pirate islands a building stands only on its seat's lone vertex or
//!   its conquered fortress;
//! - PIR-4, PIR-19: an unconquered fortress is empty and never gains strength; a conquered one
//!   holds its seat's building; the settlements on the board, in the supply and waiting under
//!   the fortresses make five;
//! - PIR-11/12/21: the fleet sails by the lower die along its path, from where it stood, until
//!   every fortress is conquered, and then never again;
//! - PIR-13/14: it attacks only the one seat whose buildings alone touch its hex, as the
//!   warships decide, taking 1 + cities cards at most;
//! - PIR-15: warships are ships of their seats; PIR-17: nobody holds either award; PIR-2: no
//!   robber; PIR-20: the winner conquered its fortress.

use std::collections::HashSet;

use catan_engine::{board::EdgeId, BattleOutcome, Event, Game, HexCoord, Seat, VertexId};
use serde_json::Value;

pub struct Pirate {
    lanes: Vec<HashSet<EdgeId>>,
    lone: Vec<VertexId>,
    fortresses: Vec<VertexId>,
    path: Vec<HexCoord>,
    neutral: HashSet<HexCoord>,
    strengths: Vec<u8>,
    reserve: bool,
    /// The active seat attacked its fortress this turn (PIR-18).
    attacked: bool,
    /// SCN-8: the configuration puts the route card in play, over PIR-17.
    route_card: bool,
}

impl Pirate {
    pub fn new(game: &Game) -> Option<Pirate> {
        let config = game.config();
        if config.scenario != Some(catan_engine::ScenarioId::PirateIslands) {
            return None;
        }
        let file = super::seafarers::scenario_file(catan_engine::ScenarioId::PirateIslands);
        let variant = super::seafarers::variant_of(&file, config.players);
        let players = usize::from(config.players);
        let starts = &variant["per_player_start"].as_array().unwrap()[..players];
        let vertex = |v: &Value| -> VertexId { serde_json::from_value(v.clone()).expect("a vertex") };
        let hex = |h: &Value| HexCoord::new(h[0].as_i64().unwrap() as i32, h[1].as_i64().unwrap() as i32);
        let lanes = starts
            .iter()
            .map(|s| {
                s["lane_edges"].as_array().unwrap().iter().map(|e| serde_json::from_value(e.clone()).unwrap()).collect()
            })
            .collect();
        let pirate = Pirate {
            lanes,
            lone: starts.iter().map(|s| vertex(&s["lone_settlement_vertex"])).collect(),
            fortresses: starts.iter().map(|s| vertex(&s["fortress"])).collect(),
            path: variant["pirate_fleet_path"].as_array().unwrap().iter().map(hex).collect(),
            neutral: variant["land_areas"]["0"].as_array().unwrap().iter().map(hex).collect(),
            strengths: vec![3; players],
            reserve: config.pir_fortress_reserves_settlement,
            attacked: false,
            route_card: config.longest_route_card == Some(true),
        };
        pirate.check_state(game);
        Some(pirate)
    }

    /// `seat`'s lone vertex or fortress (PIR-6, PIR-19).
    pub fn own_site(&self, seat: Seat, vertex: VertexId) -> bool {
        self.lone.get(seat.index()) == Some(&vertex) || self.fortresses.get(seat.index()) == Some(&vertex)
    }

    pub fn after_move(&mut self, prior: &Game, game: &Game, events: &[Event]) {
        let view = game.pirate_islands().expect("the pirate islands' view");
        let before = prior.pirate_islands().expect("the pirate islands' view");
        for event in events {
            match *event {
                Event::DiceRolled { red, white, .. } => {
                    let moved = events.iter().find_map(|e| match e {
                        Event::PirateFleetMoved { from, to, steps, strength } => Some((*from, *to, *steps, *strength)),
                        _ => None,
                    });
                    if before.fleet_defeated {
                        assert!(moved.is_none(), "the defeated fleet sailed (PIR-21)");
                        continue;
                    }
                    let (from, to, steps, strength) = moved.expect("every roll sails the fleet (PIR-11)");
                    let at = usize::from(before.fleet_index);
                    let len = self.path.len();
                    assert_eq!((steps, strength), (red.min(white), red.min(white)), "PIR-11/12: the lower die");
                    assert_eq!((from, to), (self.path[at], self.path[(at + usize::from(steps)) % len]));
                    // PIR-13: the one seat whose buildings alone touch the hex.
                    let owners: HashSet<Seat> =
                        to.corners().iter().filter_map(|&c| prior.building_at(c)).map(|b| b.seat).collect();
                    let lone_touched = self.lone.iter().filter(|v| to.corners().contains(v)).count();
                    let shared = lone_touched >= 2 && game.config().pir_shared_lone_hex_no_attack;
                    let target = (owners.len() == 1 && !shared).then(|| *owners.iter().next().unwrap());
                    let attack = events.iter().find_map(|e| match e {
                        Event::FleetAttack { seat, strength, warships, outcome, cards_lost, .. } => {
                            Some((*seat, *strength, *warships, *outcome, *cards_lost))
                        }
                        _ => None,
                    });
                    match (target, attack) {
                        (None, None) => {}
                        (Some(t), Some((seat, s, w, outcome, lost))) => {
                            assert_eq!((seat, s), (t, steps), "PIR-13: the attacked seat and the strength");
                            let warships = before.seats[t.index()].warships.len() as u8;
                            assert_eq!(w, warships, "PIR-14: the seat's warships");
                            assert_eq!(outcome, BattleOutcome::of(w.into(), s.into()));
                            let victim = prior.player(t).unwrap();
                            let most = (1 + victim.cities_on_board()).min(victim.resources().total());
                            let expected = if outcome == BattleOutcome::Lost { most } else { 0 };
                            assert_eq!(lost, expected, "PIR-14: 1 + cities cards, at most the hand");
                        }
                        other => panic!("PIR-13: the fleet on {to} attacked {other:?}, not {target:?}"),
                    }
                }
                Event::FortressAttacked { seat, .. } => {
                    assert_eq!(prior.phase(), &catan_engine::Phase::Main, "PIR-18: in the main phase");
                    assert!(!self.attacked, "PIR-18: once a turn");
                    self.attacked = true;
                    let strength = before.seats[seat.index()].fortress_strength;
                    assert!(strength > 0, "PIR-18: the fortress stood");
                }
                Event::PirateFleetMoved { .. } => assert!(events.iter().any(|e| matches!(e, Event::DiceRolled { .. }))),
                Event::TurnStarted { .. } => self.attacked = false,
                _ => {}
            }
        }
        for (i, s) in view.seats.iter().enumerate() {
            assert!(s.fortress_strength <= self.strengths[i], "PIR-19: a fortress gained strength");
            self.strengths[i] = s.fortress_strength;
        }
        self.check_state(game);
    }

    pub fn check_state(&self, game: &Game) {
        let view = game.pirate_islands().expect("the pirate islands' view");
        let board = game.board();
        assert_eq!(game.robber_hex(), None, "PIR-2: no robber");
        if !self.route_card {
            assert_eq!(game.longest_road_holder(), None, "PIR-17: no route card");
        }
        assert_eq!(game.view(catan_engine::Viewer::Spectator).largest_army, None, "PIR-17: no Largest Army");
        // PIR-7/8: lanes, no branching.
        for &edge in &board.edges {
            if let Some(seat) = game.ship_at(edge) {
                assert!(self.lanes[seat.index()].contains(&edge), "PIR-7: {seat}'s ship on {edge}, off its lane");
            }
        }
        for &vertex in &board.vertices {
            for seat in game.seats() {
                let own = vertex.edges().iter().filter(|&&e| game.ship_at(e) == Some(seat)).count();
                assert!(own <= 2, "PIR-8: {own} ships of {seat} meet at {vertex}");
            }
            // PIR-6: on the pirate islands, the lone vertex or a conquered fortress only.
            if let Some(b) = game.building_at(vertex) {
                let land: Vec<HexCoord> = vertex
                    .hexes()
                    .into_iter()
                    .filter(|h| board.hex(*h).is_some_and(|i| board.is_land_hex(i) || self.neutral.contains(h)))
                    .collect();
                if !land.is_empty() && land.iter().all(|h| self.neutral.contains(h)) {
                    let i = b.seat.index();
                    let own_site = vertex == self.lone[i]
                        || (vertex == self.fortresses[i] && view.seats[i].fortress_strength == 0);
                    assert!(own_site, "PIR-6: {b:?} on the pirate islands' {vertex}");
                }
            }
        }
        let mut all_conquered = true;
        for (i, s) in view.seats.iter().enumerate() {
            let seat = Seat(i as u8);
            assert_eq!(s.fortress, self.fortresses[i]);
            let held = game.building_at(s.fortress);
            if s.fortress_strength == 0 {
                assert_eq!(held.map(|b| b.seat), Some(seat), "PIR-19: the conquered fortress is its seat's");
            } else {
                all_conquered = false;
                assert_eq!(held, None, "PIR-4: nobody builds on a fortress");
            }
            // PIR-15: warships are the seat's ships.
            for &w in &s.warships {
                assert_eq!(game.ship_at(w), Some(seat), "PIR-15: warship {w}");
            }
            // PIR-4: five settlements: on the board (as settlements or under cities, which
            // gave theirs back), in the supply, and one under a standing fortress.
            let player = game.player(seat).unwrap();
            let waiting = u32::from(self.reserve && s.fortress_strength > 0);
            let total = player.settlements_on_board() + u32::from(player.pieces_left().settlements) + waiting;
            assert_eq!(total, 5, "PIR-4: {seat}'s settlements");
        }
        assert_eq!(view.fleet_defeated, all_conquered, "PIR-21: the fleet leaves with the last fortress");
        if view.fleet_defeated {
            assert_eq!(game.pirate_hex(), None);
        } else {
            assert_eq!(game.pirate_hex(), Some(self.path[usize::from(view.fleet_index)]), "PIR-11: the fleet's hex");
        }
        // PIR-20: only a conquered fortress wins (the turn limit aside).
        if let Some(winner) = game.winner() {
            if game.config().turn_limit.is_none() {
                assert_eq!(
                    view.seats[winner.index()].fortress_strength,
                    0,
                    "PIR-20: {winner} won without its fortress"
                );
            }
        }
    }
}
