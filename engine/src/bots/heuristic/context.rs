//! The facts of one decision, read once from what the bot's seat may see.

use std::{borrow::Borrow, cell::OnceCell};

use crate::{board::Board, Game, Phase, Resources, Seat};

use super::{
    building::Goal,
    estimate::{production_by_seat, resource_weights},
    trading::bank_rates,
    Building, SetupStep,
};

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
    pub(super) robber: Option<u8>,
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
    pub(super) has_generic_harbour: bool,
    /// Per edge: the best free settlement site that a road there leads to (its score).
    pub(super) road_lead: Vec<f64>,
    /// A settlement could be built now (a free site touches the bot's road).
    pub(super) site_now: bool,
    /// What the bot saves for, most wanted first.
    pub(super) goals: Vec<Goal>,
    /// Longest trail of every seat, computed on first use.
    pub(super) road_lengths: OnceCell<Vec<u32>>,
}

impl<'a> Ctx<'a> {
    /// Reads the game as `me` may see it; `None` when `me` has no seat in the game.
    pub(super) fn new(game: &'a Game, me: Seat) -> Option<Ctx<'a>> {
        let board = game.board();
        let player = game.player(me)?;
        let players = usize::from(game.player_count());
        let buildings: Vec<Option<Building>> = board.vertices.iter().map(|&id| game.building_at(id)).collect();
        let roads: Vec<Option<Seat>> = board.edges.iter().map(|&id| game.road_at(id)).collect();
        let robber = game.robber_hex().and_then(|hex| board.hex(hex));

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
            robber,
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
            has_generic_harbour,
            road_lead: Vec::new(),
            site_now: false,
            goals: Vec::new(),
            road_lengths: OnceCell::new(),
        };
        if setup.is_none() {
            ctx.plan_roads();
            ctx.plan_goals();
        }
        Some(ctx)
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
