//! Routes: roads and ships toward the best free settlement sites within reach (and, with
//! fog, toward land still to discover), and Longest Road (Longest Trade Route with ships).

use std::collections::VecDeque;

use crate::{board::NONE, EdgeId, Phase, Resource, Seat};

use super::{tier, Ctx, SHED_ABOVE};

/// Most roads the bot plans ahead to reach a free settlement site.
const MAX_ROAD_DEPTH: u8 = 3;
/// Most ships the bot plans ahead: islands lie farther than the next land site.
const MAX_SHIP_DEPTH: u8 = 6;
/// What each piece beyond the first takes off the value of the target it leads to.
pub(super) const STEP_COST: f64 = 2.5;

/// The two kinds of route piece (SEA-3: a road never continues a ship, nor a ship a road,
/// except at the seat's own building).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Piece {
    Road,
    Ship,
}

impl Piece {
    const BOTH: [Piece; 2] = [Piece::Road, Piece::Ship];

    const fn index(self) -> usize {
        match self {
            Piece::Road => 0,
            Piece::Ship => 1,
        }
    }
}

/// What one more road (or ship) means for Longest Road.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RoadStake {
    None,
    /// Brings the bot within a road of the card, or keeps it ahead of a challenger.
    Contends,
    /// Wins the card.
    Takes,
}

/// A change to the bot's routes to measure: a piece put down, a ship taken away.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct RouteChange {
    pub(super) added: Option<(u16, Piece)>,
    pub(super) removed: Option<u16>,
}

impl Ctx<'_> {
    /// Whether one of the bot's roads ends at `v`.
    pub(super) fn touches_own_road(&self, v: u16) -> bool {
        self.board.edges_of(v).any(|e| self.roads.get(e as usize).copied().flatten() == Some(self.me))
    }

    /// Whether one of the bot's ships ends at `v` (other than the one on `except`).
    pub(super) fn touches_own_ship(&self, v: u16, except: Option<u16>) -> bool {
        self.board
            .edges_of(v)
            .any(|e| Some(e) != except && self.ships.get(e as usize).copied().flatten() == Some(self.me))
    }

    /// Whether edge `e` holds a road or a ship.
    pub(super) fn edge_taken(&self, e: u16) -> bool {
        self.roads.get(e as usize).copied().flatten().is_some()
            || self.ships.get(e as usize).copied().flatten().is_some()
    }

    /// Whether `e` is a side of the pirate's hex, where no ship may be built (SEA-8 b).
    pub(super) fn pirate_guards(&self, e: u16) -> bool {
        let Some(p) = self.pirate else { return false };
        self.board.edges[e as usize].hexes().contains(&self.board.hexes[p as usize])
    }

    /// What reaching `v` with a road or ship turns up: a card and a look at each fog hex it
    /// touches (SEA-13).
    pub(super) fn explore_value(&self, v: u16) -> f64 {
        const PER_FOG_HEX: f64 = 6.0;
        let fog = self.fog_touch.get(v as usize).map_or(0.0, |&n| PER_FOG_HEX * f64::from(n));
        fog + self.goal_touch.get(v as usize).copied().unwrap_or(0.0)
    }

    /// Breadth-first search from the bot's network over free edges, roads over land and
    /// ships over sea, each continuing only its own kind except at the bot's buildings
    /// (B-BLD-3, SEA-3): for each edge the bot could build on now, the best target it leads
    /// to within [`MAX_ROAD_DEPTH`] roads or [`MAX_SHIP_DEPTH`] ships. Targets are free
    /// settlement sites (with their island bonus) and fog to explore.
    pub(super) fn plan_routes(&mut self) {
        let vertex_count = self.board.vertices.len();
        let mut dist = [vec![u8::MAX; vertex_count], vec![u8::MAX; vertex_count]];
        let mut first_edge = [vec![NONE; vertex_count], vec![NONE; vertex_count]];
        let mut root = [vec![NONE; vertex_count], vec![NONE; vertex_count]];
        let mut queue = VecDeque::new();
        let pieces: &[Piece] = if self.seafaring { &Piece::BOTH } else { &Piece::BOTH[..1] };
        for v in 0..vertex_count as u16 {
            for &piece in pieces {
                let source = match self.buildings[v as usize] {
                    Some(b) => b.seat == self.me,
                    None => match piece {
                        Piece::Road => self.touches_own_road(v),
                        Piece::Ship => self.touches_own_ship(v, None),
                    },
                };
                if source {
                    dist[piece.index()][v as usize] = 0;
                    root[piece.index()][v as usize] = v;
                    queue.push_back((v, piece));
                }
            }
        }
        self.site_now = self.settlements_left > 0
            && (0..vertex_count as u16)
                .any(|v| self.is_free_site(v) && (self.touches_own_road(v) || self.touches_own_ship(v, None)));
        let ship_depth = MAX_SHIP_DEPTH.min(self.ships_left.max(1).try_into().unwrap_or(u8::MAX));
        while let Some((u, piece)) = queue.pop_front() {
            let k = piece.index();
            let d = dist[k][u as usize];
            let max_depth = match piece {
                Piece::Road => MAX_ROAD_DEPTH,
                Piece::Ship => ship_depth,
            };
            if d >= max_depth {
                continue;
            }
            // Routes cannot continue through an opponent's building (B-BLD-3, SEA-3).
            if d > 0 && self.buildings[u as usize].is_some() {
                continue;
            }
            for e in self.board.edges_of(u) {
                let open = match piece {
                    Piece::Road => self.board.edge_is_land[e as usize],
                    // The pirate's sides take no ship now; it may have sailed on later.
                    Piece::Ship => self.board.edge_is_sea[e as usize] && !(d == 0 && self.pirate_guards(e)),
                };
                if !open || self.edge_taken(e) {
                    continue;
                }
                let x = self.board.other_end(e, u);
                if dist[k][x as usize] != u8::MAX {
                    continue;
                }
                dist[k][x as usize] = d + 1;
                first_edge[k][x as usize] = if d == 0 { e } else { first_edge[k][u as usize] };
                root[k][x as usize] = root[k][u as usize];
                queue.push_back((x, piece));
            }
        }
        let edge_count = self.board.edges.len();
        self.road_lead = vec![f64::NEG_INFINITY; edge_count];
        self.ship_lead = vec![f64::NEG_INFINITY; if self.seafaring { edge_count } else { 0 }];
        self.ship_root_best = vec![f64::NEG_INFINITY; if self.seafaring { vertex_count } else { 0 }];
        for v in 0..vertex_count as u16 {
            let site = self.settlements_left > 0 && self.is_free_site(v);
            let explore = self.explore_value(v);
            if !site && explore <= 0.0 {
                continue;
            }
            let value = explore + if site { self.site_value(v) } else { 0.0 };
            for &piece in pieces {
                let k = piece.index();
                let d = dist[k][v as usize];
                if d == 0 || d == u8::MAX {
                    continue;
                }
                let score = value - STEP_COST * f64::from(d - 1);
                let e = first_edge[k][v as usize] as usize;
                match piece {
                    Piece::Road if self.roads_left > 0 => self.road_lead[e] = self.road_lead[e].max(score),
                    Piece::Road => {}
                    Piece::Ship => {
                        self.ship_lead[e] = self.ship_lead[e].max(score);
                        let r = root[k][v as usize] as usize;
                        self.ship_root_best[r] = self.ship_root_best[r].max(score);
                    }
                }
            }
        }
    }

    /// Whether a road or ship leads to a target.
    pub(super) fn has_route_plan(&self) -> bool {
        self.best_lead(Piece::Road).is_finite() || (self.ships_left > 0 && self.best_lead(Piece::Ship).is_finite())
    }

    /// The best target a piece of this kind leads to.
    pub(super) fn best_lead(&self, piece: Piece) -> f64 {
        let leads = match piece {
            Piece::Road => &self.road_lead,
            Piece::Ship => &self.ship_lead,
        };
        leads.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }

    /// A road: toward a free site, for Longest Road, free from Road Building, or to spend
    /// cards before a 7 can halve the hand.
    pub(super) fn score_road(&self, edge: EdgeId) -> f64 {
        let Some(e) = self.board.edge(edge) else {
            return tier::UNKNOWN;
        };
        let lead = self.road_lead.get(e as usize).copied().unwrap_or(f64::NEG_INFINITY);
        // With a site already in reach, a paid road may not eat the settlement's cards.
        let spare = self.hand.get(Resource::Lumber) >= 2 && self.hand.get(Resource::Brick) >= 2;
        self.score_route_piece(e, Piece::Road, lead, spare)
    }

    /// A road or a ship on `e` leading to a target worth `lead`: the score tiers they share.
    pub(super) fn score_route_piece(&self, e: u16, piece: Piece, lead: f64, spare: bool) -> f64 {
        let free = matches!(self.game.phase(), Phase::RoadBuilding { .. });
        // Extending outward (the far end has none of the bot's pieces) helps Longest Road.
        let [a, b] = self.board.edge_vertices[e as usize];
        let outward = match piece {
            Piece::Road => !(self.touches_own_road(a) && self.touches_own_road(b)),
            Piece::Ship => !(self.touches_own_ship(a, None) && self.touches_own_ship(b, None)),
        };
        let extension = if outward { 1.0 } else { 0.0 };
        match self.longest_road_stake(RouteChange { added: Some((e, piece)), removed: None }) {
            RoadStake::Takes => return tier::CITY + 20.0 + extension,
            RoadStake::Contends if lead.is_finite() => {}
            RoadStake::Contends => return tier::DEV_CARD + 20.0 + extension,
            RoadStake::None => {}
        }
        if lead.is_finite() && (free || !self.site_now || spare) {
            return tier::ROAD_TO_SITE + lead + extension;
        }
        if free {
            return extension;
        }
        let pieces_left = match piece {
            Piece::Road => self.roads_left,
            Piece::Ship => self.ships_left,
        };
        if self.hand.total() > SHED_ABOVE && self.settlements_left + pieces_left > 0 {
            return tier::SPARE_CARD + 5.0 + extension;
        }
        tier::POINTLESS
    }

    /// The piece of `seat` on edge `e` after `change`, if any.
    fn piece_at(&self, seat: Seat, e: u16, change: RouteChange) -> Option<Piece> {
        if change.removed == Some(e) {
            return None;
        }
        match change.added {
            Some((added, piece)) if added == e && seat == self.me => return Some(piece),
            _ => {}
        }
        if self.roads.get(e as usize).copied().flatten() == Some(seat) {
            Some(Piece::Road)
        } else if self.ships.get(e as usize).copied().flatten() == Some(seat) {
            Some(Piece::Ship)
        } else {
            None
        }
    }

    /// Longest Road (B-LR), with ships Longest Trade Route (SEA-10): the longest trail of
    /// `seat` after `change` (the bot's own). Trails may end at, not pass through, an
    /// opponent's building; a road and a ship follow each other only at the seat's building.
    pub(super) fn trail_length(&self, seat: Seat, change: RouteChange) -> u32 {
        let mut used = vec![false; self.board.edges.len()];
        let mut best = 0;
        for e in 0..self.board.edges.len() as u16 {
            let Some(piece) = self.piece_at(seat, e, change) else {
                continue;
            };
            for start in self.board.edge_vertices[e as usize] {
                used[e as usize] = true;
                let end = self.board.other_end(e, start);
                best = best.max(1 + self.walk(seat, change, end, piece, &mut used));
                used[e as usize] = false;
            }
        }
        best
    }

    fn walk(&self, seat: Seat, change: RouteChange, v: u16, came_by: Piece, used: &mut [bool]) -> u32 {
        let building = self.buildings.get(v as usize).copied().flatten();
        if building.is_some_and(|b| b.seat != seat) {
            return 0;
        }
        let junction = building.is_some();
        let mut best = 0;
        for e in self.board.edges_of(v) {
            let Some(piece) = self.piece_at(seat, e, change) else {
                continue;
            };
            if used[e as usize] || (piece != came_by && !junction) {
                continue;
            }
            used[e as usize] = true;
            best = best.max(1 + self.walk(seat, change, self.board.other_end(e, v), piece, used));
            used[e as usize] = false;
        }
        best
    }

    /// Road lengths of every seat, computed on first use (public: the roads are on the board).
    pub(super) fn road_lengths(&self) -> &[u32] {
        self.road_lengths.get_or_init(|| {
            (0..self.players as u8).map(|s| self.trail_length(Seat(s), RouteChange::default())).collect()
        })
    }

    /// What `change` to the bot's routes does for Longest Road.
    fn longest_road_stake(&self, change: RouteChange) -> RoadStake {
        // No card to win (Wonders of Catan, WON-7).
        if !self.game.longest_road_in_play() {
            return RoadStake::None;
        }
        let lengths = self.road_lengths();
        let mine = lengths.get(self.me.index()).copied().unwrap_or(0);
        let best_other =
            lengths.iter().enumerate().filter(|(i, _)| *i != self.me.index()).map(|(_, l)| *l).max().unwrap_or(0);
        // The bot's trail after the change, walked in full only when a cheap bound on it
        // (the longest trail through the new piece) leaves the stake open: scoring every
        // road and ship edge is otherwise the costliest part of a decision.
        let longer = |threshold: u32| {
            if self.through_bound(change) <= threshold {
                mine
            } else {
                self.trail_length(self.me, change)
            }
        };
        match self.game.longest_road_holder() {
            Some(holder) if holder == self.me => {
                if best_other + 1 >= mine && longer(mine) > mine {
                    RoadStake::Contends
                } else {
                    RoadStake::None
                }
            }
            holder => {
                let to_beat = holder.and_then(|h| lengths.get(h.index()).copied()).unwrap_or(0).max(4);
                let longer = longer(mine.max(to_beat.saturating_sub(1)));
                if longer <= mine {
                    RoadStake::None
                } else if longer > to_beat {
                    RoadStake::Takes
                } else if longer + 1 > to_beat {
                    RoadStake::Contends
                } else {
                    RoadStake::None
                }
            }
        }
    }

    /// An upper bound on the longest trail through the piece `change` adds: the piece and
    /// the longest trails leaving each of its ends (which may share edges). Without an added
    /// piece, no bound (`u32::MAX`).
    fn through_bound(&self, change: RouteChange) -> u32 {
        let Some((e, piece)) = change.added else { return u32::MAX };
        let mut used = vec![false; self.board.edges.len()];
        used[e as usize] = true;
        let [a, b] = self.board.edge_vertices[e as usize];
        1 + self.walk(self.me, change, a, piece, &mut used) + self.walk(self.me, change, b, piece, &mut used)
    }
}
