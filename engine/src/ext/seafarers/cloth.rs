//! Cloth for Catan (CLV-5..14): villages on the small islands trade cloth with every player
//! whose ships reach them (first contact, then a roll of the village's number); two cloth
//! make a victory point; the pirate may take cloth; the game ends when fewer than
//! `clv_end_villages_min` villages have cloth left.

use serde::{Deserialize, Serialize};

use super::{scenario::ScenarioLayout, Seafarers};
use crate::{
    game::Game,
    model::Seat,
    protocol::{
        views::{ClothView, VillageView},
        Event, VictoryCondition,
    },
};

/// What Cloth for Catan keeps: counters from the start, so that an unused state is empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClothState {
    /// The cloth each village has given so far, by village (the scenario's order); a
    /// missing entry has given none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub given: Vec<u8>,
    /// The cloth taken from the general supply so far (CLV-8).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub from_supply: u8,
    /// The cloth each seat holds, by seat; a missing entry holds none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<u8>,
    /// Every connection made, in order: the village (its index) and the seat (CLV-6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connections: Vec<(u8, Seat)>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl ClothState {
    /// Whether nothing of Cloth for Catan happened (every other game's state).
    pub(crate) fn is_unused(&self) -> bool {
        *self == ClothState::default()
    }

    pub(crate) fn held_by(&self, seat: Seat) -> u8 {
        self.held.get(seat.index()).copied().unwrap_or(0)
    }

    fn given_by(&self, village: usize) -> u8 {
        self.given.get(village).copied().unwrap_or(0)
    }

    /// The cloth village `village` still has.
    pub(crate) fn stock(&self, layout: &ScenarioLayout, village: usize) -> u8 {
        layout.cloth_per_village.saturating_sub(self.given_by(village))
    }

    pub(crate) fn supply(&self, layout: &ScenarioLayout) -> u8 {
        layout.cloth_supply.saturating_sub(self.from_supply)
    }

    /// Whether `seat` trades with any village (CLV-11).
    pub(crate) fn trades(&self, seat: Seat) -> bool {
        self.connections.iter().any(|&(_, s)| s == seat)
    }

    fn add_held(&mut self, seat: Seat, n: i16) {
        if self.held.len() <= seat.index() {
            self.held.resize(seat.index() + 1, 0);
        }
        let held = &mut self.held[seat.index()];
        *held = u8::try_from((i16::from(*held) + n).max(0)).unwrap_or(u8::MAX);
    }
}

impl Seafarers {
    /// SCN-9, after the pieces: the villages the move's ships and settlements connect, with
    /// their first-contact cloth (CLV-6/7); the cloth of a roll (CLV-8); then the end of the
    /// game if fewer than `clv_end_villages_min` villages have cloth left (CLV-14 b).
    pub(super) fn trade_cloth(&self, game: &Game, layout: &ScenarioLayout, events: &mut Vec<Event>) {
        if layout.villages.is_empty() {
            return;
        }
        let mut placers: Vec<Seat> = Vec::new();
        let mut roll = None;
        for event in events.iter() {
            match *event {
                Event::ShipBuilt { seat, .. } | Event::ShipMoved { seat, .. } | Event::SettlementBuilt { seat, .. }
                    if !placers.contains(&seat) =>
                {
                    placers.push(seat)
                }
                Event::DiceRolled { red, white, .. } => roll = Some(red + white),
                _ => {}
            }
        }
        if placers.is_empty() && roll.is_none_or(|n| n == 7) {
            return;
        }
        let state = &game.ext.seafarers.cloth;
        let before: Vec<u8> = (0..layout.villages.len()).map(|v| state.stock(layout, v)).collect();
        let mut stock = before.clone();
        let mut supply = state.supply(layout);
        let mut connections = state.connections.clone();
        if !placers.is_empty() {
            for seat in placers {
                let reached = reachable_villages(&Placed { game, events }, layout, seat);
                for (v, village) in layout.villages.iter().enumerate() {
                    if reached & (1 << v) == 0 || connections.iter().any(|&(c, s)| usize::from(c) == v && s == seat) {
                        continue;
                    }
                    connections.push((v as u8, seat));
                    events.push(Event::VillageConnected { seat, village: village.vertex });
                    // CLV-7: one cloth from the village, none from the supply.
                    if stock[v] > 0 {
                        stock[v] -= 1;
                        events.push(Event::ClothReceived {
                            village: village.vertex,
                            recipients: vec![seat],
                            from_village: 1,
                            from_supply: 0,
                        });
                    }
                }
            }
        }
        if let Some(n) = roll.filter(|&n| n != 7) {
            let active = game.turn_active();
            for (v, village) in layout.villages.iter().enumerate().filter(|(_, village)| village.number == n) {
                if stock[v] == 0 {
                    continue;
                }
                // CLV-8: the active seat first, then the others in the order they connected.
                let connected = connections.iter().filter(|&&(c, _)| usize::from(c) == v).map(|&(_, s)| s);
                let mut recipients: Vec<Seat> = connected.clone().filter(|&s| s == active).collect();
                recipients.extend(connected.filter(|&s| s != active));
                if recipients.is_empty() {
                    continue;
                }
                let wanted = recipients.len() as u8;
                let from_village = stock[v].min(wanted);
                let from_supply = supply.min(wanted - from_village);
                recipients.truncate(usize::from(from_village + from_supply));
                stock[v] -= from_village;
                supply -= from_supply;
                events.push(Event::ClothReceived { village: village.vertex, recipients, from_village, from_supply });
            }
        }
        if stock == before {
            return;
        }
        for (v, village) in layout.villages.iter().enumerate() {
            if before[v] > 0 && stock[v] == 0 {
                events.push(Event::VillageExhausted { village: village.vertex });
            }
        }
        let with_cloth = stock.iter().filter(|&&s| s > 0).count();
        if with_cloth < usize::from(self.end_villages_min) && !events.iter().any(|e| matches!(e, Event::GameWon { .. }))
        {
            self.end_by_exhaustion(game, events);
        }
    }

    /// CLV-14 b: the most victory points win (VP cards included); on a tie, the most cloth;
    /// then the active seat, then the first tied seat clockwise from it.
    fn end_by_exhaustion(&self, game: &Game, events: &mut Vec<Event>) {
        let mut after = game.clone();
        for event in events.iter() {
            after.apply(event);
        }
        let players = after.players.len() as u8;
        let active = game.turn_active();
        let order = (0..players).map(|i| Seat((active.0 + i) % players));
        let score = |seat: Seat| (after.victory_points(seat), after.ext.seafarers.cloth.held_by(seat));
        let Some(winner) = order.fold(None, |best: Option<Seat>, seat| match best {
            Some(b) if score(b) >= score(seat) => Some(b),
            _ => Some(seat),
        }) else {
            return;
        };
        if !after.offers.is_empty() {
            events.push(Event::TradesExpired { offer_ids: after.offers.iter().map(|o| o.id).collect() });
        }
        events.push(Event::GameWon {
            seat: winner,
            victory_points: after.victory_points(winner),
            victory_point_cards: after.players[winner.index()].victory_point_cards(),
            condition: VictoryCondition::VillagesExhausted,
        });
    }

    pub(super) fn apply_cloth(&self, game: &mut Game, event: &Event) {
        let Some(layout) = self.layout() else { return };
        let index = |vertex| layout.villages.iter().position(|v| v.vertex == vertex);
        let state = &mut game.ext.seafarers.cloth;
        match event {
            Event::VillageConnected { seat, village } => {
                if let Some(v) = index(*village) {
                    state.connections.push((v as u8, *seat));
                }
            }
            Event::ClothReceived { village, recipients, from_village, from_supply } => {
                if let Some(v) = index(*village) {
                    if state.given.len() <= v {
                        state.given.resize(layout.villages.len(), 0);
                    }
                    state.given[v] = state.given[v].saturating_add(*from_village);
                }
                state.from_supply = state.from_supply.saturating_add(*from_supply);
                for &seat in recipients {
                    state.add_held(seat, 1);
                }
            }
            Event::ClothStolen { thief, victim } if state.held_by(*victim) > 0 => {
                state.add_held(*victim, -1);
                state.add_held(*thief, 1);
            }
            _ => {}
        }
    }
}

/// The pieces on the board once a move's events are applied, read from the game before them
/// and the events (SCN-5: ships built or moved, settlements built), so that checking the
/// villages a move connects copies no game.
struct Placed<'a> {
    game: &'a Game,
    events: &'a [Event],
}

impl Placed<'_> {
    fn ship(&self, e: u16) -> Option<Seat> {
        let id = self.game.board().edges[e as usize];
        let mut owner = self.game.ship_index(e);
        for event in self.events {
            match *event {
                Event::ShipBuilt { seat, edge, .. } if edge == id => owner = Some(seat),
                Event::ShipMoved { seat, from, to } if from == id || to == id => {
                    owner = (to == id).then_some(seat);
                }
                _ => {}
            }
        }
        owner
    }

    fn building(&self, v: u16) -> Option<Seat> {
        let id = self.game.board().vertices[v as usize];
        let built = self.events.iter().rev().find_map(|event| match *event {
            Event::SettlementBuilt { seat, vertex, .. } if vertex == id => Some(seat),
            _ => None,
        });
        built.or_else(|| self.game.building_index(v).map(|b| b.seat))
    }
}

/// CLV-6: the villages (a bit per index) that `seat`'s ships reach from its settlements and
/// cities, along its ships only, through no vertex with an opponent's building (a village's
/// vertex may be passed through).
fn reachable_villages(pieces: &Placed, layout: &ScenarioLayout, seat: Seat) -> u32 {
    let board = pieces.game.board();
    let mut seen = vec![false; board.vertices.len()];
    let mut stack: Vec<u16> = (0..board.vertices.len() as u16).filter(|&v| pieces.building(v) == Some(seat)).collect();
    for &v in &stack {
        seen[v as usize] = true;
    }
    while let Some(x) = stack.pop() {
        for e in board.edges_of(x) {
            if pieces.ship(e) != Some(seat) {
                continue;
            }
            let y = board.other_end(e, x);
            if seen[y as usize] {
                continue;
            }
            seen[y as usize] = true;
            if pieces.building(y).is_none_or(|b| b == seat) {
                stack.push(y);
            }
        }
    }
    let mut reached = 0;
    for (i, village) in layout.villages.iter().enumerate() {
        if board.vertex(village.vertex).is_some_and(|v| seen[v as usize]) {
            reached |= 1 << i;
        }
    }
    reached
}

impl Game {
    /// Cloth for Catan's villages that still have cloth and that `seat` does not trade with
    /// yet (CLV-6/7), with their numbers; empty in other games. Bots plan their ships by it.
    pub fn villages_to_reach(&self, seat: Seat) -> Vec<(crate::VertexId, u8)> {
        let layout = self.scenario_layout();
        let Some(layout) = layout.filter(|l| self.config().seafarers && !l.villages.is_empty()) else {
            return Vec::new();
        };
        let state = &self.ext.seafarers.cloth;
        let trades = |v: usize| state.connections.iter().any(|&(c, s)| usize::from(c) == v && s == seat);
        (0..layout.villages.len())
            .filter(|&v| state.stock(layout, v) > 0 && !trades(v))
            .map(|v| (layout.villages[v].vertex, layout.villages[v].number))
            .collect()
    }
}

/// The villages as everyone sees them; `None` in a scenario without them.
pub(super) fn cloth_view(game: &Game, layout: &ScenarioLayout) -> Option<ClothView> {
    if layout.villages.is_empty() {
        return None;
    }
    let state = &game.ext.seafarers.cloth;
    let villages = layout
        .villages
        .iter()
        .enumerate()
        .map(|(v, village)| VillageView {
            vertex: village.vertex,
            number: village.number,
            cloth: state.stock(layout, v),
            connected: state.connections.iter().filter(|&&(c, _)| usize::from(c) == v).map(|&(_, s)| s).collect(),
        })
        .collect();
    let cloth = (0..game.players.len() as u8).map(|s| state.held_by(Seat(s))).collect();
    Some(ClothView { villages, general_supply: state.supply(layout), cloth })
}
