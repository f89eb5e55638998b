//! Roads: toward the best free settlement sites within reach, and for Longest Road.

use std::collections::VecDeque;

use crate::{board::NONE, EdgeId, Phase, Resource, Seat};

use super::{tier, Ctx, SHED_ABOVE};

/// Most roads the bot plans ahead to reach a free settlement site.
const MAX_ROAD_DEPTH: u8 = 3;

/// What one more road means for Longest Road.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RoadStake {
    None,
    /// Brings the bot within a road of the card, or keeps it ahead of a challenger.
    Contends,
    /// Wins the card.
    Takes,
}

impl Ctx<'_> {
    /// Whether one of the bot's roads ends at `v`.
    fn touches_own_road(&self, v: u16) -> bool {
        self.board.edges_of(v).any(|e| self.roads.get(e as usize).copied().flatten() == Some(self.me))
    }

    /// Breadth-first search from the bot's network over free edges: for each edge the bot
    /// could build on now, the best free site it leads to within [`MAX_ROAD_DEPTH`] roads.
    pub(super) fn plan_roads(&mut self) {
        let vertex_count = self.board.vertices.len();
        let mut dist = vec![u8::MAX; vertex_count];
        let mut first_edge = vec![NONE; vertex_count];
        let mut queue = VecDeque::new();
        for v in 0..vertex_count as u16 {
            let here = self.buildings[v as usize];
            let own_building = here.is_some_and(|b| b.seat == self.me);
            let blocked = here.is_some_and(|b| b.seat != self.me);
            if own_building || (!blocked && self.touches_own_road(v)) {
                dist[v as usize] = 0;
                queue.push_back(v);
            }
        }
        self.site_now = self.settlements_left > 0
            && (0..vertex_count as u16)
                .any(|v| dist[v as usize] == 0 && self.is_free_site(v) && self.touches_own_road(v));
        while let Some(u) = queue.pop_front() {
            let d = dist[u as usize];
            if d >= MAX_ROAD_DEPTH {
                continue;
            }
            // Roads cannot continue through an opponent's building (B-BLD-3).
            if d > 0 && self.buildings[u as usize].is_some() {
                continue;
            }
            for e in self.board.edges_of(u) {
                if !self.board.edge_is_land[e as usize] || self.roads[e as usize].is_some() {
                    continue;
                }
                let x = self.board.other_end(e, u);
                if dist[x as usize] != u8::MAX {
                    continue;
                }
                dist[x as usize] = d + 1;
                first_edge[x as usize] = if d == 0 { e } else { first_edge[u as usize] };
                queue.push_back(x);
            }
        }
        self.road_lead = vec![f64::NEG_INFINITY; self.board.edges.len()];
        if self.settlements_left == 0 || self.roads_left == 0 {
            return;
        }
        for v in 0..vertex_count as u16 {
            let d = dist[v as usize];
            if d == 0 || d == u8::MAX || !self.is_free_site(v) {
                continue;
            }
            let e = first_edge[v as usize];
            let score = self.site_value(v) - 2.5 * f64::from(d - 1);
            if let Some(lead) = self.road_lead.get_mut(e as usize) {
                *lead = lead.max(score);
            }
        }
    }

    pub(super) fn has_road_plan(&self) -> bool {
        self.road_lead.iter().any(|s| s.is_finite())
    }

    /// A road: toward a free site, for Longest Road, free from Road Building, or to spend
    /// cards before a 7 can halve the hand.
    pub(super) fn score_road(&self, edge: EdgeId) -> f64 {
        let Some(e) = self.board.edge(edge) else {
            return tier::UNKNOWN;
        };
        let free = matches!(self.game.phase(), Phase::RoadBuilding { .. });
        let lead = self.road_lead.get(e as usize).copied().unwrap_or(f64::NEG_INFINITY);
        // Extending outward (the far end has none of the bot's roads) helps Longest Road.
        let [a, b] = self.board.edge_vertices[e as usize];
        let outward = !(self.touches_own_road(a) && self.touches_own_road(b));
        let extension = if outward { 1.0 } else { 0.0 };
        match self.longest_road_stake(e) {
            RoadStake::Takes => return tier::CITY + 20.0 + extension,
            RoadStake::Contends if lead.is_finite() => {}
            RoadStake::Contends => return tier::DEV_CARD + 20.0 + extension,
            RoadStake::None => {}
        }
        if lead.is_finite() {
            // With a site already in reach, a paid road may not eat the settlement's cards.
            let spare = self.hand.get(Resource::Lumber) >= 2 && self.hand.get(Resource::Brick) >= 2;
            if free || !self.site_now || spare {
                return tier::ROAD_TO_SITE + lead + extension;
            }
        }
        if free {
            return extension;
        }
        if self.hand.total() > SHED_ABOVE && self.settlements_left + self.roads_left > 0 {
            return tier::SPARE_CARD + 5.0 + extension;
        }
        tier::POINTLESS
    }

    /// Longest Road (B-LR): the bot's longest trail, with `extra` counted as its own road.
    /// Trails may end at, not pass through, an opponent's building.
    fn trail_length(&self, seat: Seat, extra: Option<u16>) -> u32 {
        let owns = |e: u16| extra == Some(e) || self.roads.get(e as usize).copied().flatten() == Some(seat);
        let mut used = vec![false; self.board.edges.len()];
        let mut best = 0;
        for e in 0..self.board.edges.len() as u16 {
            if !owns(e) {
                continue;
            }
            for start in self.board.edge_vertices[e as usize] {
                used[e as usize] = true;
                let end = self.board.other_end(e, start);
                best = best.max(1 + self.walk(seat, extra, end, &mut used));
                used[e as usize] = false;
            }
        }
        best
    }

    fn walk(&self, seat: Seat, extra: Option<u16>, v: u16, used: &mut [bool]) -> u32 {
        if self.buildings.get(v as usize).copied().flatten().is_some_and(|b| b.seat != seat) {
            return 0;
        }
        let mut best = 0;
        for e in self.board.edges_of(v) {
            let own = extra == Some(e) || self.roads.get(e as usize).copied().flatten() == Some(seat);
            if !own || used[e as usize] {
                continue;
            }
            used[e as usize] = true;
            best = best.max(1 + self.walk(seat, extra, self.board.other_end(e, v), used));
            used[e as usize] = false;
        }
        best
    }

    /// Road lengths of every seat, computed on first use (public: the roads are on the board).
    fn road_lengths(&self) -> &[u32] {
        self.road_lengths.get_or_init(|| (0..self.players as u8).map(|s| self.trail_length(Seat(s), None)).collect())
    }

    /// What a road on `e` does for Longest Road.
    fn longest_road_stake(&self, e: u16) -> RoadStake {
        let lengths = self.road_lengths();
        let mine = lengths.get(self.me.index()).copied().unwrap_or(0);
        let longer = self.trail_length(self.me, Some(e));
        if longer <= mine {
            return RoadStake::None;
        }
        let best_other =
            lengths.iter().enumerate().filter(|(i, _)| *i != self.me.index()).map(|(_, l)| *l).max().unwrap_or(0);
        match self.game.longest_road_holder() {
            Some(holder) if holder == self.me => {
                if best_other + 1 >= mine {
                    RoadStake::Contends
                } else {
                    RoadStake::None
                }
            }
            holder => {
                let to_beat = holder.and_then(|h| lengths.get(h.index()).copied()).unwrap_or(0).max(4);
                if longer > to_beat {
                    RoadStake::Takes
                } else if longer + 1 > to_beat {
                    RoadStake::Contends
                } else {
                    RoadStake::None
                }
            }
        }
    }
}
