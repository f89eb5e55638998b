//! Building roads, settlements and cities (B-BLD-1..9) and the free roads of Road Building.

use crate::{
    board::{EdgeId, VertexId},
    error::RuleError,
    events::Event,
    resources::{cost, Resources},
    state::{BuildingKind, Game, Phase, ResumePhase, Seat},
};

use super::awards::Overlay;

impl Game {
    /// Tests if `seat` may build a settlement on `v` outside setup, ignoring cost and supply
    /// (B-BLD-4, B-BLD-5).
    pub(crate) fn settlement_site_is_legal(&self, seat: Seat, v: u16) -> bool {
        self.buildings[v as usize].is_none()
            && !self.board.neighbours_of(v).any(|n| self.buildings[n as usize].is_some())
            && self.touches_own_road(seat, v)
    }

    /// B-GEO-9, B-BLD-4, B-BLD-7: the vertex is empty and no building is one edge away.
    pub(crate) fn check_settlement_site(&self, v: u16, id: VertexId) -> Result<(), RuleError> {
        if self.buildings[v as usize].is_some() {
            return Err(RuleError::VertexOccupied(id));
        }
        if self.board.neighbours_of(v).any(|n| self.buildings[n as usize].is_some()) {
            return Err(RuleError::SettlementTooClose(id));
        }
        Ok(())
    }

    /// B-GEO-9, B-BLD-7: the edge touches land and is empty.
    pub(crate) fn check_road_site(&self, e: u16, id: EdgeId) -> Result<(), RuleError> {
        if !self.board.edge_is_land[e as usize] {
            return Err(RuleError::EdgeNotBuildable(id));
        }
        if self.roads[e as usize].is_some() {
            return Err(RuleError::EdgeOccupied(id));
        }
        Ok(())
    }

    /// B-BLD-3: an endpoint holds the seat's building, or the seat's road continues there and
    /// no opponent building stands on that endpoint. `extra_road` counts as the seat's own.
    pub(crate) fn road_connects(&self, seat: Seat, e: u16, extra_road: Option<u16>) -> bool {
        self.board.edge_vertices[e as usize].iter().any(|&x| match self.buildings[x as usize] {
            Some(b) if b.seat == seat => true,
            Some(_) => false,
            None => self
                .board
                .edges_of(x)
                .any(|other| other != e && (self.roads[other as usize] == Some(seat) || extra_road == Some(other))),
        })
    }

    /// Tests if `seat` may put a road on edge `e` now, ignoring cost and supply.
    pub(crate) fn road_site_is_legal(&self, seat: Seat, e: u16, extra_road: Option<u16>) -> bool {
        self.board.edge_is_land[e as usize]
            && self.roads[e as usize].is_none()
            && extra_road != Some(e)
            && self.road_connects(seat, e, extra_road)
    }

    /// Tests if `seat` has any legal road edge (with `extra_road` already placed).
    pub(crate) fn has_legal_road_site(&self, seat: Seat, extra_road: Option<u16>) -> bool {
        (0..self.board.edges.len() as u16).any(|e| self.road_site_is_legal(seat, e, extra_road))
    }

    /// B-BLD-5: a vertex touches one of the seat's roads.
    pub(crate) fn touches_own_road(&self, seat: Seat, v: u16) -> bool {
        self.board.edges_of(v).any(|e| self.roads[e as usize] == Some(seat))
    }

    pub(super) fn decide_road(&self, seat: Seat, edge: EdgeId) -> Result<Vec<Event>, RuleError> {
        let e = self.board.edge(edge).ok_or(RuleError::UnknownEdge(edge))?;
        self.check_road_site(e, edge)?;
        if self.players[seat.index()].roads_left == 0 {
            return Err(RuleError::NoPiecesLeft("roads"));
        }
        if !self.road_connects(seat, e, None) {
            return Err(RuleError::RoadNotConnected(edge));
        }
        if !self.players[seat.index()].resources.contains(&cost::ROAD) {
            return Err(RuleError::InsufficientResources);
        }
        let mut events = vec![Event::RoadBuilt { seat, edge, cost: cost::ROAD }];
        events.extend(self.longest_road_update(Overlay { road: Some((e, seat)), building: None }));
        Ok(events)
    }

    /// B-DEV-5: a free road; the second must follow while one can be placed.
    pub(super) fn decide_free_road(
        &self,
        seat: Seat,
        edge: EdgeId,
        roads_left: u8,
        resume: ResumePhase,
    ) -> Result<Vec<Event>, RuleError> {
        let e = self.board.edge(edge).ok_or(RuleError::UnknownEdge(edge))?;
        self.check_road_site(e, edge)?;
        if !self.road_connects(seat, e, None) {
            return Err(RuleError::RoadNotConnected(edge));
        }
        let mut events = vec![Event::RoadBuilt { seat, edge, cost: Resources::ZERO }];
        events.extend(self.longest_road_update(Overlay { road: Some((e, seat)), building: None }));
        let remaining = roads_left.saturating_sub(1);
        let pieces_after = self.players[seat.index()].roads_left.saturating_sub(1);
        let phase = if remaining > 0 && pieces_after > 0 && self.has_legal_road_site(seat, Some(e)) {
            Phase::RoadBuilding { roads_left: remaining, resume }
        } else {
            match resume {
                ResumePhase::PreRoll => Phase::PreRoll,
                ResumePhase::Main => Phase::Main,
            }
        };
        events.push(Event::PhaseChanged { phase });
        Ok(events)
    }

    pub(super) fn decide_settlement(&self, seat: Seat, vertex: VertexId) -> Result<Vec<Event>, RuleError> {
        let v = self.board.vertex(vertex).ok_or(RuleError::UnknownVertex(vertex))?;
        self.check_settlement_site(v, vertex)?;
        if !self.touches_own_road(seat, v) {
            return Err(RuleError::SettlementNotConnected(vertex));
        }
        if self.players[seat.index()].settlements_left == 0 {
            return Err(RuleError::NoPiecesLeft("settlements"));
        }
        if !self.players[seat.index()].resources.contains(&cost::SETTLEMENT) {
            return Err(RuleError::InsufficientResources);
        }
        let mut events = vec![Event::SettlementBuilt { seat, vertex, cost: cost::SETTLEMENT }];
        // B-LR-6: a settlement may break an opponent's road.
        events.extend(self.longest_road_update(Overlay { road: None, building: Some((v, seat)) }));
        Ok(events)
    }

    pub(super) fn decide_city(&self, seat: Seat, vertex: VertexId) -> Result<Vec<Event>, RuleError> {
        let v = self.board.vertex(vertex).ok_or(RuleError::UnknownVertex(vertex))?;
        match self.buildings[v as usize] {
            Some(b) if b.seat == seat && b.kind == BuildingKind::Settlement => {}
            _ => return Err(RuleError::NotYourSettlement(vertex)),
        }
        if self.players[seat.index()].cities_left == 0 {
            return Err(RuleError::NoPiecesLeft("cities"));
        }
        if !self.players[seat.index()].resources.contains(&cost::CITY) {
            return Err(RuleError::InsufficientResources);
        }
        Ok(vec![Event::CityBuilt { seat, vertex, cost: cost::CITY }])
    }
}
