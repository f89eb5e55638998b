//! Building roads, settlements and cities (B-BLD-1..9), and what may be built or bought in
//! the main phase (and, with the 5-6 extension, a special building phase).

use crate::game::routes::Overlay;
use crate::{
    board::{EdgeId, VertexId},
    chance::Chance,
    game::pieces::Bits,
    game::Game,
    model::{cost, Building, BuildingKind, PushInPlace, Resources, Seat},
    protocol::{Event, Move, RuleError},
};

impl Game {
    /// Tests if `seat` may build a settlement on `v` outside setup, ignoring cost and supply
    /// (B-BLD-4, B-BLD-5).
    pub(crate) fn settlement_site_is_legal(&self, seat: Seat, v: u16) -> bool {
        (self.board.vertex_is_buildable[v as usize] || self.is_lone_site(seat, v))
            && self.buildings[v as usize].is_none()
            && self.knight_owner(v).is_none()
            && !self.board.neighbours_of(v).any(|n| self.buildings[n as usize].is_some())
            && self.touches_own_road(seat, v)
    }

    /// B-GEO-9, B-BLD-4, B-BLD-7: the vertex touches land, is empty and no building is one
    /// edge away.
    pub(crate) fn check_settlement_site(&self, v: u16, id: VertexId) -> Result<(), RuleError> {
        self.check_site(v, id, self.board.vertex_is_buildable[v as usize])
    }

    /// Tests if `v` is a vertex where `seat` alone may settle although no land there is
    /// buildable (PIR-6); never outside The Pirate Islands.
    pub(crate) fn is_lone_site(&self, seat: Seat, v: u16) -> bool {
        let sites = &self.rules().components.lone_sites;
        !sites.is_empty() && sites.iter().any(|&(s, x)| s == seat && Some(v) == self.board.vertex(x))
    }

    /// [`Game::check_settlement_site`] with the vertex's buildability given.
    fn check_site(&self, v: u16, id: VertexId, buildable: bool) -> Result<(), RuleError> {
        if !buildable {
            return Err(RuleError::VertexNotBuildable(id));
        }
        // CK-KNT-9: a knight occupies its vertex too.
        if self.buildings[v as usize].is_some() || self.knight_owner(v).is_some() {
            return Err(RuleError::VertexOccupied(id));
        }
        if self.board.neighbours_of(v).any(|n| self.buildings[n as usize].is_some()) {
            return Err(RuleError::SettlementTooClose(id));
        }
        Ok(())
    }

    /// B-GEO-9, B-BLD-7: the edge touches land and is empty (a coast edge holds a road or a
    /// ship, SEA-2).
    pub(crate) fn check_road_site(&self, e: u16, id: EdgeId) -> Result<(), RuleError> {
        if !self.board.edge_is_land[e as usize] {
            return Err(RuleError::EdgeNotBuildable(id));
        }
        if self.roads[e as usize].is_some() || self.ship_index(e).is_some() {
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
            // CK-KNT-9: an opponent's knight blocks like an opponent's building.
            None if self.knight_owner(x).is_some_and(|k| k != seat) => false,
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
            && self.ship_index(e).is_none()
            && extra_road != Some(e)
            && self.road_connects(seat, e, extra_road)
    }

    /// Lists a road on every edge where `seat` may build one now, ignoring cost and supply,
    /// in board order: the edges next to a vertex the seat builds from (B-BLD-3).
    pub(crate) fn road_site_moves(&self, seat: Seat, moves: &mut Vec<Move>) {
        const MAX_VERTICES: usize = 256;
        let vertex_count = self.board.vertices.len();
        if vertex_count > MAX_VERTICES {
            for e in 0..self.board.edges.len() as u16 {
                if self.road_site_is_legal(seat, e, None) {
                    moves.push_in_place(|| Move::BuildRoad { edge: self.board.edges[e as usize] });
                }
            }
            return;
        }
        // The vertices the seat builds from: its own buildings, and its roads' ends where no
        // opponent's building stands — each looked at once instead of once per edge.
        if let Some((roads, buildings)) = self.roads_of(seat).zip(self.buildings_of(seat)) {
            return self.road_sites_from(seat, &roads, &buildings, moves);
        }
        let mut from = [0u64; MAX_VERTICES / 64];
        let mut mark = |v: usize| from[v / 64] |= 1 << (v % 64);
        for (e, owner) in self.roads.iter().enumerate() {
            if *owner == Some(seat) {
                for v in self.board.edge_vertices[e] {
                    let builds_from = match self.buildings[v as usize] {
                        Some(building) => building.seat == seat,
                        None => self.knight_owner(v).is_none_or(|k| k == seat),
                    };
                    if builds_from {
                        mark(v as usize);
                    }
                }
            }
        }
        for (v, building) in self.buildings.iter().enumerate() {
            if building.is_some_and(|b| b.seat == seat) {
                mark(v);
            }
        }
        let reaches = |v: u16| from[v as usize / 64] & (1 << (v % 64)) != 0;
        for (e, ends) in self.board.edge_vertices.iter().enumerate() {
            let empty = self.roads[e].is_none() && self.ship_index(e as u16).is_none();
            if self.board.edge_is_land[e] && empty && ends.iter().any(|&v| reaches(v)) {
                moves.push_in_place(|| Move::BuildRoad { edge: self.board.edges[e] });
            }
        }
    }

    /// [`Game::road_site_moves`] from the seat's pieces as the game keeps them: only the edges
    /// at a vertex it builds from are looked at, still in board order.
    fn road_sites_from(&self, seat: Seat, roads: &Bits, buildings: &Bits, moves: &mut Vec<Move>) {
        let mut sites = Bits::default();
        let mut add_edges_of = |v: u16| {
            for e in self.board.edges_of(v) {
                let empty = self.roads[e as usize].is_none() && self.ship_index(e).is_none();
                if self.board.edge_is_land[e as usize] && empty {
                    sites.insert(e);
                }
            }
        };
        for e in roads.iter() {
            for v in self.board.edge_vertices[e as usize] {
                let builds_from = match self.buildings[v as usize] {
                    Some(building) => building.seat == seat,
                    None => self.knight_owner(v).is_none_or(|k| k == seat),
                };
                if builds_from {
                    add_edges_of(v);
                }
            }
        }
        for v in buildings.iter() {
            add_edges_of(v);
        }
        for e in sites.iter() {
            moves.push_in_place(|| Move::BuildRoad { edge: self.board.edges[e as usize] });
        }
    }

    /// Tests if `seat` has any legal road edge (with `extra_road` already placed, and edge
    /// `taken` holding a piece just placed).
    pub(crate) fn has_legal_road_site(&self, seat: Seat, extra_road: Option<u16>, taken: Option<u16>) -> bool {
        (0..self.board.edges.len() as u16).any(|e| Some(e) != taken && self.road_site_is_legal(seat, e, extra_road))
    }

    /// B-BLD-5: a vertex touches one of the seat's roads, or (SEA-4) one of its ships.
    pub(crate) fn touches_own_road(&self, seat: Seat, v: u16) -> bool {
        self.board.edges_of(v).any(|e| self.roads[e as usize] == Some(seat) || self.ship_index(e) == Some(seat))
    }

    /// Building and buying, the same in the main phase and a special building phase; `None`
    /// for any other move.
    pub(crate) fn decide_build_or_buy(
        &self,
        seat: Seat,
        mv: &Move,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Option<Result<(), RuleError>> {
        Some(match mv {
            Move::BuildRoad { edge } => self.decide_road(seat, *edge, events),
            Move::BuildSettlement { vertex } => self.decide_settlement(seat, *vertex, events),
            Move::BuildCity { vertex } => self.decide_city(seat, *vertex).map(|built| events.push(built)),
            Move::BuyDevelopmentCard => {
                self.decide_buy_card(seat, cost::DEVELOPMENT_CARD, 0, chance).map(|bought| events.push(bought))
            }
            _ => {
                let start = events.len();
                match self.rules().extensions.iter().find_map(|e| e.decide_purchase(self, seat, mv, chance, events)) {
                    Some(Ok(())) => Ok(()),
                    // Nothing of a refused purchase stays.
                    Some(Err(error)) => {
                        events.truncate(start);
                        Err(error)
                    }
                    None if mv.is_build_or_purchase() => Err(RuleError::NotInThisGame(mv.kind())),
                    None => return None,
                }
            }
        })
    }

    /// Roads, settlements, cities and development cards the seat can afford and place.
    pub(crate) fn build_and_buy_moves(&self, seat: Seat, moves: &mut Vec<Move>) {
        let player = &self.players[seat.index()];
        let hand = player.resources;
        if player.pieces_left.roads > 0 && hand.contains(&cost::ROAD) {
            self.road_site_moves(seat, moves);
        }
        if player.pieces_left.settlements > 0 && hand.contains(&cost::SETTLEMENT) {
            for v in 0..self.board.vertices.len() as u16 {
                if self.settlement_site_is_legal(seat, v) {
                    moves.push_in_place(|| Move::BuildSettlement { vertex: self.board.vertices[v as usize] });
                }
            }
        }
        if player.pieces_left.cities > 0 && hand.contains(&cost::CITY) {
            let upgrade =
                |v: usize| self.buildings[v].is_some_and(|b| b.seat == seat && b.kind == BuildingKind::Settlement);
            let mut city_at = |v: usize| moves.push_in_place(|| Move::BuildCity { vertex: self.board.vertices[v] });
            // The seat's own few buildings when they are kept, else every vertex.
            match self.buildings_of(seat) {
                Some(own) => own.iter().map(usize::from).filter(|&v| upgrade(v)).for_each(&mut city_at),
                None => (0..self.buildings.len()).filter(|&v| upgrade(v)).for_each(&mut city_at),
            }
        }
        if self.cards_for_sale() > 0 && hand.contains(&cost::DEVELOPMENT_CARD) {
            moves.push_in_place(|| Move::BuyDevelopmentCard);
        }
        for extension in &self.rules().extensions {
            extension.purchase_moves(self, seat, moves);
        }
    }

    fn decide_road(&self, seat: Seat, edge: EdgeId, events: &mut Vec<Event>) -> Result<(), RuleError> {
        let e = self.board.edge(edge).ok_or(RuleError::UnknownEdge(edge))?;
        self.check_road_site(e, edge)?;
        if self.players[seat.index()].pieces_left.roads == 0 {
            return Err(RuleError::NoPiecesLeft("roads"));
        }
        if !self.road_connects(seat, e, None) {
            return Err(RuleError::RoadNotConnected(edge));
        }
        if !self.players[seat.index()].resources.contains(&cost::ROAD) {
            return Err(RuleError::InsufficientResources);
        }
        events.push_in_place(|| Event::RoadBuilt { seat, edge, cost: cost::ROAD });
        events.extend(self.longest_road_update(Overlay::road(e, seat)));
        Ok(())
    }

    fn decide_settlement(&self, seat: Seat, vertex: VertexId, events: &mut Vec<Event>) -> Result<(), RuleError> {
        let v = self.board.vertex(vertex).ok_or(RuleError::UnknownVertex(vertex))?;
        self.check_site(v, vertex, self.board.vertex_is_buildable[v as usize] || self.is_lone_site(seat, v))?;
        if !self.touches_own_road(seat, v) {
            return Err(RuleError::SettlementNotConnected(vertex));
        }
        if self.players[seat.index()].pieces_left.settlements == 0 {
            return Err(RuleError::NoPiecesLeft("settlements"));
        }
        if !self.players[seat.index()].resources.contains(&cost::SETTLEMENT) {
            return Err(RuleError::InsufficientResources);
        }
        events.push_in_place(|| Event::SettlementBuilt { seat, vertex, cost: cost::SETTLEMENT });
        // B-LR-6: a settlement may break an opponent's road.
        events.extend(self.longest_road_update(Overlay::building(v, seat)));
        Ok(())
    }

    fn decide_city(&self, seat: Seat, vertex: VertexId) -> Result<Event, RuleError> {
        let v = self.board.vertex(vertex).ok_or(RuleError::UnknownVertex(vertex))?;
        match self.buildings[v as usize] {
            Some(b) if b.seat == seat && b.kind == BuildingKind::Settlement => {}
            _ => return Err(RuleError::NotYourSettlement(vertex)),
        }
        if self.players[seat.index()].pieces_left.cities == 0 {
            return Err(RuleError::NoPiecesLeft("cities"));
        }
        if !self.players[seat.index()].resources.contains(&cost::CITY) {
            return Err(RuleError::InsufficientResources);
        }
        Ok(Event::CityBuilt { seat, vertex, cost: cost::CITY })
    }

    pub(crate) fn apply_settlement(&mut self, seat: Seat, vertex: VertexId, cost: &Resources) {
        self.mark_built_or_bought();
        if let (Some(v), Some(player)) = (self.board.vertex(vertex), self.players.get_mut(seat.index())) {
            self.buildings[v as usize] = Some(Building { seat, kind: BuildingKind::Settlement });
            player.pieces_left.settlements = player.pieces_left.settlements.saturating_sub(1);
        }
        self.pay(seat, cost);
    }

    pub(super) fn apply_city(&mut self, seat: Seat, vertex: VertexId, cost: &Resources) {
        self.mark_built_or_bought();
        if let (Some(v), true) = (self.board.vertex(vertex), seat.index() < self.players.len()) {
            let replaced = self.buildings[v as usize].replace(Building { seat, kind: BuildingKind::City });
            // The settlement a city replaces goes back to the supply (B-BLD-6) unless a variant
            // says it took no piece (CK-BAR-8); a city placed on an empty site (CK-SET-1)
            // replaces none.
            let returns = replaced.is_some() && {
                let rules = self.shared_rules();
                rules.extensions.iter().all(|e| e.settlement_returns_to_supply(self, vertex))
            };
            let player = &mut self.players[seat.index()];
            if returns {
                player.pieces_left.settlements = (player.pieces_left.settlements + 1).min(player.supply.settlements);
            }
            player.pieces_left.cities = player.pieces_left.cities.saturating_sub(1);
        }
        self.pay(seat, cost);
    }

    pub(super) fn apply_road(&mut self, seat: Seat, edge: EdgeId, cost: &Resources) {
        self.mark_built_or_bought();
        if let (Some(e), Some(player)) = (self.board.edge(edge), self.players.get_mut(seat.index())) {
            if self.ships.get(e as usize).is_some_and(Option::is_some) {
                return; // a coast edge holds one piece (SEA-2)
            }
            self.roads[e as usize] = Some(seat);
            player.pieces_left.roads = player.pieces_left.roads.saturating_sub(1);
        }
        self.pay(seat, cost);
    }

    /// B-TURN-6's flag needs to know whether the turn has seen a build or a purchase.
    pub(crate) fn mark_built_or_bought(&mut self) {
        if self.turn.number > 0 {
            self.turn.built_or_bought = true;
        }
    }
}
