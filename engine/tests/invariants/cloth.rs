//! Cloth for Catan's part of the checks (RULES-SCENARIOS 3), run on every move of a game of
//! that scenario, with its own count of every seat's cloth:
//! - CLV-5/8/10: cloth is conserved: the villages' stocks, the general supply and the seats'
//!   cloth always add up to what the game began with; it moves only by the cloth events;
//! - CLV-6: a seat's ships that reach a village from its buildings (through no opponent's
//!   building) connect it there, and a connection is made only where they do;
//! - CLV-7/8: cloth goes only to seats connected to its village;
//! - CLV-9: two cloth are a point (the points check adds them);
//! - CLV-11/12: only a connected seat moves the pirate; cloth is stolen by the mover;
//! - CLV-14: while the game goes on at least `clv_end_villages_min` villages have cloth; an
//!   end by exhaustion comes when fewer do, won by a seat with the most points.

use std::collections::HashSet;

use catan_engine::{board::VertexId, view::ClothView, Event, Game, Seat, VictoryCondition, Viewer};

pub struct Cloth {
    total: u32,
    held: Vec<u32>,
    end_min: usize,
}

fn view(game: &Game) -> ClothView {
    game.view(Viewer::Spectator).cloth_for_catan.expect("the cloth view")
}

impl Cloth {
    pub fn new(game: &Game) -> Option<Cloth> {
        if game.config().scenario != Some(catan_engine::ScenarioId::ClothForCatan) {
            return None;
        }
        let cloth = view(game);
        let total = cloth.villages.iter().map(|v| u32::from(v.cloth)).sum::<u32>() + u32::from(cloth.general_supply);
        assert!(cloth.cloth.iter().all(|&c| c == 0), "nobody starts with cloth");
        Some(Cloth {
            total,
            held: vec![0; usize::from(game.player_count())],
            end_min: usize::from(game.config().clv_end_villages_min),
        })
    }

    /// CLV-9: two cloth make a point.
    pub fn points(&self, seat: Seat) -> u32 {
        self.held[seat.index()] / 2
    }

    pub fn after_move(&mut self, prior: &Game, game: &Game, seat: Seat, events: &[Event]) {
        let before = view(prior);
        let after = view(game);
        let connected_before = |s: Seat| before.villages.iter().any(|v| v.connected.contains(&s));
        for event in events {
            match event {
                Event::PirateMoved { seat: by, .. } => {
                    assert!(
                        connected_before(*by),
                        "{event:?}: a seat trading with no village moved the pirate (CLV-11)"
                    );
                }
                Event::ClothReceived { village, recipients, from_village, from_supply } => {
                    let v = after.villages.iter().find(|v| v.vertex == *village).expect("a village");
                    assert_eq!(recipients.len(), usize::from(from_village + from_supply), "{event:?}");
                    for r in recipients {
                        assert!(v.connected.contains(r), "{event:?}: {r} is not connected (CLV-7/8)");
                        self.held[r.index()] += 1;
                    }
                }
                Event::ClothStolen { thief, victim } => {
                    assert_eq!(*thief, seat, "{event:?}: stolen by another seat than the mover");
                    assert!(self.held[victim.index()] > 0, "{event:?}: the victim had no cloth");
                    self.held[victim.index()] -= 1;
                    self.held[thief.index()] += 1;
                }
                Event::VillageConnected { seat: by, village } => {
                    assert!(reached(game, *by).contains(village), "{event:?}: the ships do not reach it (CLV-6)");
                }
                Event::GameWon { seat: winner, condition: VictoryCondition::VillagesExhausted, .. } => {
                    let left = after.villages.iter().filter(|v| v.cloth > 0).count();
                    assert!(left < self.end_min, "{event:?} with {left} villages with cloth (CLV-14)");
                    let points = |s: Seat| game.victory_points(s);
                    assert!(game.seats().all(|s| points(s) <= points(*winner)), "{event:?}: not the most points");
                }
                _ => {}
            }
        }
        self.check_state(game);
    }

    pub fn check_state(&self, game: &Game) {
        let cloth = view(game);
        let held: Vec<u32> = cloth.cloth.iter().map(|&c| u32::from(c)).collect();
        assert_eq!(held, self.held, "the seats' cloth (CLV-7/8/12)");
        let stocks = cloth.villages.iter().map(|v| u32::from(v.cloth)).sum::<u32>();
        assert_eq!(stocks + u32::from(cloth.general_supply) + held.iter().sum::<u32>(), self.total, "cloth conserved");
        if !game.is_over() {
            let left = cloth.villages.iter().filter(|v| v.cloth > 0).count();
            assert!(left >= self.end_min, "the game goes on with {left} villages with cloth (CLV-14)");
        }
        for seat in game.seats() {
            let reached = reached(game, seat);
            for village in &cloth.villages {
                if reached.contains(&village.vertex) {
                    assert!(village.connected.contains(&seat), "{seat} reaches {} unconnected (CLV-6)", village.vertex);
                }
            }
        }
    }
}

/// CLV-6 by its definition: the vertices `seat`'s ships reach from its buildings, through no
/// vertex with an opponent's building.
fn reached(game: &Game, seat: Seat) -> HashSet<VertexId> {
    let view = game.view(Viewer::Spectator);
    let mut seen: HashSet<VertexId> =
        view.board.buildings.iter().filter(|b| b.seat == seat).map(|b| b.vertex).collect();
    let mut stack: Vec<VertexId> = seen.iter().copied().collect();
    while let Some(x) = stack.pop() {
        for edge in x.edges() {
            if game.ship_at(edge) != Some(seat) {
                continue;
            }
            let Some(&y) = edge.endpoints().iter().find(|&&y| y != x) else { continue };
            if seen.insert(y) && game.building_at(y).is_none_or(|b| b.seat == seat) {
                stack.push(y);
            }
        }
    }
    seen
}
