//! Fog (SEA-13): face-down hexes turned up when a road or ship reaches them. The hidden
//! stacks are a count per kind, never an order: each reveal draws from what is left, so
//! nothing can show the order before a hex is turned, and the draw is recorded in the event.

use super::scenario::ScenarioLayout;
use crate::{
    board::Terrain,
    chance::{Chance, Draw},
    game::Game,
    model::{GoldSource, Phase, Phases, Seat},
    protocol::Event,
};

const FOG_TERRAIN: Draw = Draw::FOG_TERRAIN;
const FOG_TOKEN: Draw = Draw::FOG_TOKEN;

/// Appends a `fog_revealed` event for every fog hex the move's roads and ships reach, in
/// order: each piece's endpoints in turn, the hexes around a vertex clockwise. A discovered
/// gold hex's card is then chosen before play goes on.
pub(super) fn reveal_reached(game: &Game, layout: &ScenarioLayout, events: &mut Vec<Event>, chance: &mut dyn Chance) {
    // The move's own events, read by index: reveals are appended behind them, and no list of
    // the pieces placed is built for the many moves that place none (issue 28).
    let placed = |event: &Event| match event {
        Event::RoadBuilt { seat, edge, .. } | Event::ShipBuilt { seat, edge, .. } => Some((*seat, *edge)),
        Event::ShipMoved { seat, to, .. } => Some((*seat, *to)),
        _ => None,
    };
    let move_events = events.len();
    if !events.iter().any(|e| placed(e).is_some()) {
        return;
    }
    let board = game.board();
    let mut terrain_left = remaining_terrain(game, layout);
    let mut tokens_left = remaining_tokens(game, layout);
    let mut bank = *game.bank();
    let mut turned: Vec<u8> = Vec::new();
    let mut gold: Vec<(Seat, u32)> = Vec::new();
    for index in 0..move_events {
        let Some((seat, edge)) = placed(&events[index]) else { continue };
        for vertex in edge.endpoints() {
            for hex in vertex.hexes() {
                let Some(h) = board.hex(hex).filter(|&h| board.is_fog_hex(h) && !turned.contains(&h)) else {
                    continue;
                };
                let Some(terrain) = draw_terrain(&mut terrain_left, chance) else { continue };
                let number = if terrain.takes_number() { draw_token(&mut tokens_left, chance) } else { None };
                if terrain.takes_number() && number.is_none() {
                    continue; // the stacks ran out of tokens: the data is wrong; keep the fog
                }
                turned.push(h);
                let resource = terrain.resource().filter(|r| bank.get(*r) > 0);
                if let Some(r) = resource {
                    *bank.get_mut(r) -= 1;
                }
                if terrain == Terrain::Gold {
                    match gold.iter_mut().find(|(s, _)| *s == seat) {
                        Some((_, n)) => *n += 1,
                        None => gold.push((seat, 1)),
                    }
                }
                events.push(Event::FogRevealed { seat, hex, terrain, number, resource });
            }
        }
    }
    for (seat, count) in gold {
        let (next, then) = phase_after(game, events);
        let count = count.min(bank.total());
        if let Some(choice) = game.own_gold_choice(seat, count, GoldSource::Discovery, next, &then) {
            events.push(choice);
        }
    }
}

/// The phase the move's events lead to, and what follows it.
fn phase_after(game: &Game, events: &[Event]) -> (Phase, Phases) {
    for event in events.iter().rev() {
        match event {
            Event::PhaseChanged { phase, then } => return (phase.clone(), then.clone()),
            Event::TurnStarted { .. } => return (Phase::PreRoll, Phases::new()),
            _ => {}
        }
    }
    (game.phase().clone(), game.then().into())
}

/// The terrain stack: the scenario's hidden tiles less those turned up.
fn remaining_terrain(game: &Game, layout: &ScenarioLayout) -> Vec<(Terrain, u32)> {
    let mut left = layout.fog_terrain.clone();
    for (terrain, _) in &game.ext.seafarers.revealed {
        if let Some(entry) = left.iter_mut().find(|(t, n)| t == terrain && *n > 0) {
            entry.1 -= 1;
        }
    }
    left
}

/// The token stack: the scenario's hidden tokens less those laid.
fn remaining_tokens(game: &Game, layout: &ScenarioLayout) -> Vec<u8> {
    let mut left = layout.fog_tokens.clone();
    for number in game.ext.seafarers.revealed.iter().filter_map(|(_, n)| *n) {
        if let Some(i) = left.iter().position(|&t| t == number) {
            left.swap_remove(i);
        }
    }
    left.sort_unstable();
    left
}

fn draw_terrain(left: &mut [(Terrain, u32)], chance: &mut dyn Chance) -> Option<Terrain> {
    let weights: Vec<u32> = left.iter().map(|(_, n)| *n).collect();
    if weights.iter().all(|&w| w == 0) {
        return None;
    }
    let i = chance.pick(FOG_TERRAIN, &weights);
    let entry = left.get_mut(i).filter(|(_, n)| *n > 0)?;
    entry.1 -= 1;
    Some(entry.0)
}

fn draw_token(left: &mut Vec<u8>, chance: &mut dyn Chance) -> Option<u8> {
    if left.is_empty() {
        return None;
    }
    let i = chance.pick(FOG_TOKEN, &vec![1; left.len()]);
    (i < left.len()).then(|| left.remove(i))
}

impl Game {
    /// SEA-13: the hex turns face up; the discoverer takes its card.
    pub(crate) fn apply_reveal(
        &mut self,
        seat: Seat,
        hex: crate::board::HexCoord,
        terrain: Terrain,
        number: Option<u8>,
        resource: Option<crate::model::Resource>,
    ) {
        let Some(h) = self.board.hex(hex) else { return };
        let Some(board) = self.board.revealed(h, terrain, number) else { return };
        self.board = std::sync::Arc::new(board);
        if let Some(resource) = resource {
            self.receive(seat, &crate::model::Resources::of(resource, 1));
        }
    }
}
