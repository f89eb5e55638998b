//! Longest Road (B-LR), Largest Army (B-LA) and victory (B-WIN).

use crate::{
    events::Event,
    state::{DevCard, Game, Phase, Seat},
};

/// Pieces a pending move adds, so awards can be computed before `apply` runs.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Overlay {
    pub road: Option<(u16, Seat)>,
    pub building: Option<(u16, Seat)>,
}

/// Minimum length for Longest Road (B-LR-3).
const LONGEST_ROAD_MINIMUM: u32 = 5;
/// Minimum played knights for Largest Army (B-LA-1).
const LARGEST_ARMY_MINIMUM: u32 = 3;

/// Returns the length of `seat`'s longest trail (B-LR-1), not passing through opponent
/// buildings (B-LR-2), with the pieces of `overlay` in place.
pub(crate) fn road_length(game: &Game, seat: Seat, overlay: Overlay) -> u32 {
    let mut own: [u16; 32] = [0; 32];
    let mut count = 0;
    for (e, owner) in game.roads.iter().enumerate() {
        if *owner == Some(seat) && count < own.len() {
            own[count] = e as u16;
            count += 1;
        }
    }
    if let Some((e, s)) = overlay.road {
        if s == seat && count < own.len() {
            own[count] = e;
            count += 1;
        }
    }
    let own = &own[..count];
    let blocked = |v: u16| {
        let owner = match overlay.building {
            Some((bv, s)) if bv == v => Some(s),
            _ => game.buildings[v as usize].map(|b| b.seat),
        };
        owner.is_some_and(|o| o != seat)
    };
    let mut best = 0;
    for (i, &e) in own.iter().enumerate() {
        for &start in &game.board.edge_vertices[e as usize] {
            // Every trail has a first edge; start from each edge in each direction.
            let next = game.board.other_end(e, start);
            let rest = if blocked(next) {
                0
            } else {
                extend(game, own, &blocked, next, 1 << i)
            };
            best = best.max(1 + rest);
        }
    }
    best
}

fn extend(game: &Game, own: &[u16], blocked: &impl Fn(u16) -> bool, at: u16, used: u32) -> u32 {
    let mut best = 0;
    for e in game.board.edges_of(at) {
        let Some(i) = own.iter().position(|&o| o == e) else {
            continue;
        };
        if used & (1 << i) != 0 {
            continue;
        }
        let next = game.board.other_end(e, at);
        let rest = if blocked(next) {
            0
        } else {
            extend(game, own, blocked, next, used | (1 << i))
        };
        best = best.max(1 + rest);
    }
    best
}

impl Game {
    /// B-LR-5: recomputes the holder of Longest Road after a change; returns the event when
    /// the holder changes.
    pub(super) fn longest_road_update(&self, overlay: Overlay) -> Option<Event> {
        let lengths: Vec<u32> = self
            .seats()
            .map(|s| road_length(self, s, overlay))
            .collect();
        let longest = lengths.iter().copied().max().unwrap_or(0);
        let holder = self.longest_road;
        let new_holder = if longest < LONGEST_ROAD_MINIMUM {
            None
        } else if holder.is_some_and(|h| lengths[h.index()] == longest) {
            holder
        } else {
            let mut at_max = self.seats().filter(|s| lengths[s.index()] == longest);
            match (at_max.next(), at_max.next()) {
                (Some(only), None) => Some(only),
                _ => None,
            }
        };
        (new_holder != holder).then_some(Event::LongestRoadChanged {
            holder: new_holder,
            previous: holder,
            length: longest,
        })
    }

    /// B-LA-1/2: returns the event when `seat`'s next knight takes Largest Army.
    pub(super) fn largest_army_update(&self, seat: Seat) -> Option<Event> {
        let knights = self.players[seat.index()].knights_played + 1;
        let holder = self.largest_army;
        if holder == Some(seat) || knights < LARGEST_ARMY_MINIMUM {
            return None;
        }
        let beats_holder = holder.is_none_or(|h| knights > self.players[h.index()].knights_played);
        beats_holder.then_some(Event::LargestArmyChanged {
            holder: Some(seat),
            previous: holder,
        })
    }

    /// B-WIN-3: after an action, the player whose turn it now is wins with enough points —
    /// the active player after their own action, or the next player at the start of their
    /// turn. Appends `game_won` to `events` when so.
    pub(super) fn check_victory(&self, events: &mut Vec<Event>) {
        if matches!(self.phase, Phase::Setup { .. })
            && !events
                .iter()
                .any(|e| matches!(e, Event::TurnStarted { .. }))
        {
            return;
        }
        let seat = events
            .iter()
            .rev()
            .find_map(|e| match e {
                Event::TurnStarted { seat, .. } => Some(*seat),
                _ => None,
            })
            .unwrap_or(self.turn.active);
        let (delta, new_cards) = points_delta(seat, events);
        let total = self.victory_points(seat) as i64 + delta;
        if total >= i64::from(self.config.vp_target) {
            events.push(Event::GameWon {
                seat,
                victory_points: total as u32,
                victory_point_cards: self.players[seat.index()].victory_point_cards() + new_cards,
            });
        }
    }
}

/// Returns the change in `seat`'s victory points caused by `events`, and the VP cards drawn.
fn points_delta(seat: Seat, events: &[Event]) -> (i64, u32) {
    let mut delta = 0;
    let mut cards = 0;
    for event in events {
        match event {
            Event::SettlementBuilt { seat: s, .. } | Event::CityBuilt { seat: s, .. }
                if *s == seat =>
            {
                delta += 1
            }
            Event::DevelopmentCardBought {
                seat: s,
                card: Some(DevCard::VictoryPoint),
                ..
            } if *s == seat => {
                delta += 1;
                cards += 1;
            }
            Event::LongestRoadChanged {
                holder, previous, ..
            }
            | Event::LargestArmyChanged { holder, previous } => {
                if *holder == Some(seat) {
                    delta += 2;
                }
                if *previous == Some(seat) {
                    delta -= 2;
                }
            }
            _ => {}
        }
    }
    (delta, cards)
}
