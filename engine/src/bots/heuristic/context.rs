//! The facts of one decision, read once from what the bot's seat may see.

use std::{borrow::Borrow, cell::OnceCell};

use crate::{board::Board, Game, IslandBonusMode, Phase, Resources, Seat};

use super::{
    building::Goal,
    estimate::{production_by_seat, resource_weights},
    trading::bank_rates,
    wonders::WonderFacts,
    Building, SetupStep,
};

/// Marks a hex or vertex that lies on no island.
pub(super) const NO_ISLAND: u16 = u16::MAX;

/// Everything one decision needs, computed once from what the seat may see.
pub(super) struct Ctx<'a> {
    pub(super) game: &'a Game,
    pub(super) board: &'a Board,
    pub(super) me: Seat,
    pub(super) players: usize,
    /// The step of the setup placement in progress; `None` once play has begun.
    pub(super) setup: Option<SetupStep>,
    pub(super) hand: Resources,
    pub(super) buildings: Vec<Option<Building>>,
    pub(super) roads: Vec<Option<Seat>>,
    /// Per edge: the owner of the ship there (Seafarers; empty otherwise).
    pub(super) ships: Vec<Option<Seat>>,
    pub(super) robber: Option<u8>,
    /// The pirate's hex (Seafarers, once it is on the board).
    pub(super) pirate: Option<u8>,
    /// Per seat: pips produced per resource (robber ignored); public from the board.
    pub(super) production: Vec<[f64; 5]>,
    /// What a pip of each resource is worth to the bot.
    pub(super) weight: [f64; 5],
    /// Own bank rate per resource.
    pub(super) rates: [u32; 5],
    /// Points as others see them; the bot's own entry counts its hidden VP cards too.
    pub(super) points: Vec<u32>,
    pub(super) hand_sizes: Vec<u32>,
    pub(super) knights: Vec<u32>,
    pub(super) vp_target: u32,
    pub(super) settlements_left: u32,
    pub(super) cities_left: u32,
    pub(super) roads_left: u32,
    /// Ships the bot may still build (in Wonders of Catan less the one kept for its claim).
    pub(super) ships_left: u32,
    pub(super) has_generic_harbour: bool,
    /// Whether ships are in play (Seafarers).
    pub(super) seafaring: bool,
    /// The islands: per vertex the island it lies on (the lowest-numbered of its land hexes,
    /// as the island bonus reads it), `NO_ISLAND` off land. Empty without Seafarers.
    pub(super) vertex_island: Vec<u16>,
    /// Per island: whether the bot, and whether anyone, has a building there.
    pub(super) island_mine: Vec<bool>,
    pub(super) island_settled: Vec<bool>,
    /// The island bonus in play (SEA-12): its mode and points, if any.
    pub(super) island_bonus: Option<(IslandBonusMode, u32)>,
    /// Per vertex: how many face-down fog hexes it touches (SEA-13). Empty without fog.
    pub(super) fog_touch: Vec<u8>,
    /// Per vertex: what reaching it is worth beyond a site: the tribe's gifts on its edges
    /// (FTR-7), a village still to trade with (CLV-6..9). Empty without either.
    pub(super) goal_touch: Vec<f64>,
    /// Per edge: the best target (free settlement site, fog to explore) that a road there
    /// leads to (its score).
    pub(super) road_lead: Vec<f64>,
    /// Per edge: the same for a ship there.
    pub(super) ship_lead: Vec<f64>,
    /// Per vertex the shipping network continues from: the best target its ship routes lead
    /// to (what a ship ending there serves).
    pub(super) ship_root_best: Vec<f64>,
    /// A settlement could be built now (a free site touches the bot's road or ship).
    pub(super) site_now: bool,
    /// What the bot saves for, most wanted first.
    pub(super) goals: Vec<Goal>,
    /// The wonders (Wonders of Catan; `None` in other games and in setup).
    pub(super) wonders: Option<WonderFacts>,
    /// Cities & Knights facts (`None` in other games and in setup).
    pub(super) ck: Option<super::cities_knights::CkFacts>,
    /// Longest trail (roads and ships) of every seat, computed on first use.
    pub(super) road_lengths: OnceCell<Vec<u32>>,
    /// The Pirate Islands' fleet, lanes and fortresses (`None` in other games), read on
    /// first use.
    pub(super) pirate_islands: OnceCell<Option<crate::PirateIslandsView>>,
}

impl<'a> Ctx<'a> {
    /// Reads the game as `me` may see it; `None` when `me` has no seat in the game.
    pub(super) fn new(game: &'a Game, me: Seat) -> Option<Ctx<'a>> {
        let board = game.board();
        let player = game.player(me)?;
        let players = usize::from(game.player_count());
        let buildings: Vec<Option<Building>> = board.vertices.iter().map(|&id| game.building_at(id)).collect();
        let roads: Vec<Option<Seat>> = board.edges.iter().map(|&id| game.road_at(id)).collect();
        let seafaring = game.config().seafarers;
        let ships: Vec<Option<Seat>> =
            if seafaring { (0..board.edges.len() as u16).map(|e| game.ship_index(e)).collect() } else { Vec::new() };
        let robber = game.robber_hex().and_then(|hex| board.hex(hex));
        let pirate = game.pirate_hex().and_then(|hex| board.hex(hex));

        let production = production_by_seat(board, &buildings, players);
        let own = production.get(me.index()).copied().unwrap_or([0.0; 5]);
        let weight = resource_weights(board, &own);
        let (rates, has_generic_harbour) = bank_rates(board, &buildings, me);

        let seats: Vec<Seat> = game.seats().collect();
        let points = seats
            .iter()
            .map(|&s| if s == me { game.victory_points(s) } else { game.public_victory_points(s) })
            .collect();
        let hand_sizes = seats.iter().map(|&s| game.player(s).map_or(0, |p| p.resources().total())).collect();
        let knights = seats.iter().map(|&s| game.player(s).map_or(0, |p| p.knights_played_count())).collect();
        // The pieces still in the bot's supply.
        let pieces = player.pieces_left();
        let setup = setup_step(game.phase());

        let mut ctx = Ctx {
            game,
            board,
            me,
            players,
            setup,
            hand: *player.resources(),
            buildings,
            roads,
            ships,
            robber,
            pirate,
            production,
            weight,
            rates,
            points,
            hand_sizes,
            knights,
            vp_target: u32::from(game.vp_target()),
            settlements_left: u32::from(pieces.settlements),
            cities_left: u32::from(pieces.cities),
            roads_left: u32::from(pieces.roads),
            ships_left: if seafaring { u32::from(pieces.ships) } else { 0 },
            has_generic_harbour,
            seafaring,
            vertex_island: Vec::new(),
            island_mine: Vec::new(),
            island_settled: Vec::new(),
            island_bonus: None,
            fog_touch: Vec::new(),
            goal_touch: Vec::new(),
            road_lead: Vec::new(),
            ship_lead: Vec::new(),
            ship_root_best: Vec::new(),
            site_now: false,
            goals: Vec::new(),
            wonders: None,
            ck: None,
            road_lengths: OnceCell::new(),
            pirate_islands: OnceCell::new(),
        };
        if seafaring {
            ctx.read_seas();
        }
        if setup.is_none() {
            ctx.read_wonders();
            ctx.read_cities_knights();
            ctx.plan_routes();
            ctx.plan_goals();
        }
        Some(ctx)
    }

    /// Seafarers: the islands and who has settled them, the island bonus, the fog.
    fn read_seas(&mut self) {
        let board = self.board;
        let mut hex_island = vec![NO_ISLAND; board.hexes.len()];
        let islands = self.game.islands();
        for (id, hexes) in islands.iter().enumerate() {
            for &hex in hexes {
                if let Some(h) = board.hex(hex) {
                    hex_island[h as usize] = id as u16;
                }
            }
        }
        self.vertex_island = (0..board.vertices.len() as u16)
            .map(|v| board.land_hexes_of(v).map(|h| hex_island[h as usize]).min().unwrap_or(NO_ISLAND))
            .collect();
        self.island_mine = vec![false; islands.len()];
        self.island_settled = vec![false; islands.len()];
        for (v, building) in self.buildings.iter().enumerate() {
            let (Some(b), Some(&island)) = (building, self.vertex_island.get(v)) else { continue };
            if let Some(settled) = self.island_settled.get_mut(island as usize) {
                *settled = true;
            }
            if b.seat == self.me {
                if let Some(mine) = self.island_mine.get_mut(island as usize) {
                    *mine = true;
                }
            }
        }
        self.island_bonus = self.game.island_bonus();
        if (0..board.hexes.len() as u8).any(|h| board.is_fog_hex(h)) {
            let mut touch = vec![0u8; board.vertices.len()];
            for h in (0..board.hexes.len() as u8).filter(|&h| board.is_fog_hex(h)) {
                for &v in &board.hex_vertices[h as usize] {
                    if let Some(t) = touch.get_mut(v as usize) {
                        *t += 1;
                    }
                }
            }
            self.fog_touch = touch;
        }
        // FTR-7..10: a point is worth most, a card next, a harbour least.
        let gifts = self.game.gifts_on_edges();
        if !gifts.is_empty() {
            let mut touch = vec![0.0; board.vertices.len()];
            for (edge, gift) in gifts {
                let worth = match gift {
                    crate::Gift::VictoryPoint => 14.0,
                    crate::Gift::DevelopmentCard => 8.0,
                    crate::Gift::Harbour => 5.0,
                };
                for end in edge.endpoints() {
                    if let Some(t) = board.vertex(end).and_then(|v| touch.get_mut(v as usize)) {
                        *t += worth;
                    }
                }
            }
            self.goal_touch = touch;
        }
        // CLV-6..9: a village to reach is a cloth now and one on each roll of its number.
        let villages = self.game.villages_to_reach(self.me);
        if !villages.is_empty() {
            let mut touch = std::mem::take(&mut self.goal_touch);
            touch.resize(board.vertices.len(), 0.0);
            for (vertex, number) in villages {
                let pips = f64::from(6 - (i32::from(number) - 7).unsigned_abs().min(5) as u8);
                if let Some(t) = board.vertex(vertex).and_then(|v| touch.get_mut(v as usize)) {
                    *t += 8.0 + 2.0 * pips;
                }
            }
            self.goal_touch = touch;
        }
    }
}

/// The step of the setup placement in progress, if the game is in setup. Takes the phase by
/// reference or by value, however [`Game::phase`] returns it.
fn setup_step(phase: impl Borrow<Phase>) -> Option<SetupStep> {
    match phase.borrow() {
        Phase::Setup { step, .. } => Some(*step),
        _ => None,
    }
}
