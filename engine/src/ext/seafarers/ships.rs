//! Ships (SEA-1..6, SEA-11): where one may stand, how a shipping route connects, building a
//! ship (bought, free in setup or with Road Building), and moving one a turn.

use crate::{
    board::EdgeId,
    game::routes::{FreePiece, Overlay},
    game::Game,
    model::{cost, IndexSet, Phase, PushInPlace, Resources, Seat},
    protocol::{Event, Move, RuleError},
};

impl Game {
    /// SEA-2, SEA-8 b: the edge touches the sea, holds no road or ship, and is not a side of
    /// the pirate's hex.
    /// PIR-7, PIR-8: and with ship lanes, the edge is on `seat`'s lane and no end of it would
    /// hold a third of its ships (`left`: a ship of the seat leaving).
    pub(crate) fn check_ship_site(&self, seat: Seat, e: u16, id: EdgeId, left: Option<u16>) -> Result<(), RuleError> {
        if !self.board.edge_is_sea[e as usize] {
            return Err(RuleError::EdgeNotNavigable(id));
        }
        if self.roads[e as usize].is_some() || self.ship_index(e).is_some() {
            return Err(RuleError::EdgeOccupied(id));
        }
        if self.pirate_guards(e) {
            return Err(RuleError::PirateBlocksEdge(id));
        }
        self.check_lane(seat, e, id, FreePiece::None, left)
    }

    /// `seat`'s ship lane, when ships may stand only on lanes (PIR-7).
    fn ship_lane(&self, seat: Seat) -> Option<&[EdgeId]> {
        let lanes = &self.rules().components.ship_lanes;
        (!lanes.is_empty()).then(|| lanes.get(seat.index()).map_or(&[][..], Vec::as_slice))
    }

    /// PIR-7: on the seat's lane; PIR-8: no end of `e` holds two of the seat's ships already
    /// (`placed` counts as one of them, `left` does not).
    fn check_lane(
        &self,
        seat: Seat,
        e: u16,
        id: EdgeId,
        placed: FreePiece,
        left: Option<u16>,
    ) -> Result<(), RuleError> {
        let Some(lane) = self.ship_lane(seat) else { return Ok(()) };
        if !lane.contains(&id) {
            return Err(RuleError::NotOnShipLane(id));
        }
        let placed_ship = match placed {
            FreePiece::Ship(p) => Some(p),
            _ => None,
        };
        for x in self.board.edge_vertices[e as usize] {
            let own = self
                .board
                .edges_of(x)
                .filter(|&o| o != e && Some(o) != left && (self.ship_index(o) == Some(seat) || placed_ship == Some(o)))
                .count();
            if own >= 2 {
                return Err(RuleError::ShipRouteBranches(id));
            }
        }
        Ok(())
    }

    /// With ship lanes (PIR-7), every lane edge where `seat` may put a ship now, `placed`
    /// already on the board: the lane is short, so each of its edges is tried.
    fn lane_sites<'a>(
        &'a self,
        seat: Seat,
        lane: &'a [EdgeId],
        placed: FreePiece,
    ) -> impl Iterator<Item = EdgeId> + 'a {
        lane.iter().copied().filter(move |&id| {
            self.board.edge(id).is_some_and(|e| {
                self.ship_site_open(e, placed)
                    && self.ship_connects(seat, e, placed, None)
                    && self.check_lane(seat, e, id, placed, None).is_ok()
            })
        })
    }

    /// Tests if edge `e` is a side of the pirate's hex (SEA-8 b).
    pub(crate) fn pirate_guards(&self, e: u16) -> bool {
        self.pirate.is_some_and(|p| self.board.edge_hexes[e as usize].contains(&p))
    }

    /// SEA-3: an endpoint holds the seat's building, or the seat's ship continues there and
    /// no opponent's building stands on it. A road never continues a ship. `placed` is a
    /// piece the move puts down first; `left` an edge the seat's ship is leaving.
    pub(crate) fn ship_connects(&self, seat: Seat, e: u16, placed: FreePiece, left: Option<u16>) -> bool {
        self.board.edge_vertices[e as usize].iter().any(|&x| match self.buildings[x as usize] {
            Some(b) => b.seat == seat,
            // CK-KNT-9, SEA-15: an opponent's knight blocks ships as it blocks roads.
            None if self.knight_owner(x).is_some_and(|k| k != seat) => false,
            None => self.board.edges_of(x).any(|other| {
                other != e
                    && Some(other) != left
                    && (self.ship_index(other) == Some(seat) || placed == FreePiece::Ship(other))
            }),
        })
    }

    /// `seat`'s ships, from the sets the game keeps when the board fits them.
    fn own_ships(&self, seat: Seat) -> BoardSet {
        match self.ships_of(seat) {
            Some(ships) => ships.widen(),
            None => BoardSet::of(&self.ships, |&ship| ship == Some(seat)),
        }
    }

    /// Tests if `seat` has a legal ship edge, with `placed` already on the board.
    pub(crate) fn has_legal_ship_site(&self, seat: Seat, placed: FreePiece) -> bool {
        if let Some(lane) = self.ship_lane(seat) {
            return self.lane_sites(seat, lane, placed).next().is_some();
        }
        let anchors = ShipAnchors::of(self, seat, &self.own_ships(seat), placed);
        self.ship_frontier(&anchors, placed).iter_sparse().next().is_some()
    }

    /// Lists a ship on every edge where `seat` may build one now, ignoring cost and supply.
    pub(crate) fn ship_site_moves(&self, seat: Seat, placed: FreePiece, moves: &mut Vec<Move>) {
        if let Some(lane) = self.ship_lane(seat) {
            moves.extend(self.lane_sites(seat, lane, placed).map(|edge| Move::BuildShip { edge }));
            return;
        }
        let anchors = ShipAnchors::of(self, seat, &self.own_ships(seat), placed);
        for e in self.ship_frontier(&anchors, placed).iter_sparse() {
            moves.push_in_place(|| Move::BuildShip { edge: self.board.edges[e as usize] });
        }
    }

    /// The open ship sites that connect to `anchors` (SEA-2, SEA-3): only edges at an anchor
    /// can, so those are all that is looked at, instead of every edge of the board.
    fn ship_frontier(&self, anchors: &ShipAnchors, placed: FreePiece) -> BoardSet {
        let mut frontier = BoardSet::default();
        for x in anchors.vertices() {
            for e in self.board.edges_of(x) {
                if self.ship_site_open(e, placed) {
                    frontier.insert(e);
                }
            }
        }
        frontier
    }

    /// Tests if a ship may stand on `e` as far as the edge goes (SEA-2, SEA-8 b), with
    /// `placed` on the board.
    fn ship_site_open(&self, e: u16, placed: FreePiece) -> bool {
        let taken = matches!(placed, FreePiece::Road(p) | FreePiece::Ship(p) if p == e);
        self.board.edge_is_sea[e as usize]
            && !taken
            && self.roads[e as usize].is_none()
            && self.ship_index(e).is_none()
            && !self.pirate_guards(e)
    }

    /// The checks every ship placement shares: the edge, the supply and the connection.
    fn check_ship_placement(&self, seat: Seat, edge: EdgeId) -> Result<u16, RuleError> {
        let e = self.board.edge(edge).ok_or(RuleError::UnknownEdge(edge))?;
        self.check_ship_site(seat, e, edge, None)?;
        if self.ships_to_build(seat) == 0 {
            return Err(if self.players[seat.index()].pieces_left.ships == 0 {
                RuleError::NoPiecesLeft("ships")
            } else {
                RuleError::ShipKeptForWonder
            });
        }
        if !self.ship_connects(seat, e, FreePiece::None, None) {
            return Err(RuleError::ShipNotConnected(edge));
        }
        Ok(e)
    }

    /// SEA-1: a ship for 1 lumber + 1 wool.
    pub(crate) fn decide_build_ship(&self, seat: Seat, edge: EdgeId, events: &mut Vec<Event>) -> Result<(), RuleError> {
        let e = self.check_ship_placement(seat, edge)?;
        if !self.players[seat.index()].resources.contains(&cost::SHIP) {
            return Err(RuleError::InsufficientResources);
        }
        events.push(Event::ShipBuilt { seat, edge, cost: cost::SHIP });
        events.extend(self.longest_road_update(Overlay::ship(e, seat)));
        Ok(())
    }

    /// SEA-11: a free ship of Road Building.
    pub(crate) fn decide_free_ship(
        &self,
        seat: Seat,
        edge: EdgeId,
        pieces_left: u8,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let e = self.check_ship_placement(seat, edge)?;
        events.push(Event::ShipBuilt { seat, edge, cost: Resources::ZERO });
        events.extend(self.longest_road_update(Overlay::ship(e, seat)));
        events.push(self.after_free_piece(seat, pieces_left, FreePiece::Ship(e)));
        Ok(())
    }

    /// SEA-6: a ship at an open end of a route, not built this turn, not beside the pirate,
    /// to another legal ship edge; once per turn, in the main phase.
    pub(crate) fn decide_move_ship(
        &self,
        seat: Seat,
        from: EdgeId,
        to: EdgeId,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let state = &self.ext.seafarers;
        if state.ship_moved {
            return Err(RuleError::ShipAlreadyMoved);
        }
        let f = self.board.edge(from).ok_or(RuleError::UnknownEdge(from))?;
        let t = self.board.edge(to).ok_or(RuleError::UnknownEdge(to))?;
        if self.ship_index(f) != Some(seat) {
            return Err(RuleError::NotYourShip(from));
        }
        if state.new_ships.contains(&from) {
            return Err(RuleError::ShipBuiltThisTurn);
        }
        if self.pirate_guards(f) {
            return Err(RuleError::PirateBlocksEdge(from));
        }
        if !self.ship_at_open_end(seat, f) {
            return Err(RuleError::ShipNotAtOpenEnd(from));
        }
        if f == t {
            return Err(RuleError::ShipMustMove);
        }
        self.check_ship_site(seat, t, to, Some(f))?;
        if !self.ship_connects(seat, t, FreePiece::None, Some(f)) {
            return Err(RuleError::ShipNotConnected(to));
        }
        events.push(Event::ShipMoved { seat, from, to });
        let overlay = Overlay { ship: Some((t, seat)), ship_removed: Some(f), ..Overlay::default() };
        events.extend(self.longest_road_update(overlay));
        Ok(())
    }

    /// SEA-6: one endpoint touches neither another of the seat's ships nor its building.
    /// SEA-15, CK-KNT-2: a knight stands at the end of its owner's road or ship; a ship that
    /// alone joins one of the seat's knights to its routes stays (engine decision, as the
    /// Diplomat leaves such a road).
    fn ship_at_open_end(&self, seat: Seat, e: u16) -> bool {
        let ends = self.board.edge_vertices[e as usize];
        let other_route = |x: u16| {
            self.board.edges_of(x).any(|other| {
                other != e && (self.ship_index(other) == Some(seat) || self.road_index(other) == Some(seat))
            })
        };
        let strands_knight = ends.iter().any(|&x| self.knight_owner(x) == Some(seat) && !other_route(x));
        // SCN-7: a village closes a route as a building does; the route's ships stay.
        let anchors = &self.rules().components.ship_anchors;
        let anchor = |x: u16| !anchors.is_empty() && anchors.contains(&self.board.vertices[x as usize]);
        !strands_knight
            && ends.iter().any(|&x| {
                let own_building = self.buildings[x as usize].is_some_and(|b| b.seat == seat) || anchor(x);
                let own_ship = self.board.edges_of(x).any(|other| other != e && self.ship_index(other) == Some(seat));
                !own_building && !own_ship
            })
    }

    /// Every ship move `seat` may make now (SEA-6).
    pub(crate) fn ship_move_moves(&self, seat: Seat, moves: &mut Vec<Move>) {
        let state = &self.ext.seafarers;
        if state.ship_moved || !matches!(self.phase, Phase::Main) {
            return;
        }
        let own_ships = self.own_ships(seat);
        let mut movable = BoardSet::default();
        for f in own_ships.iter_sparse() {
            if !state.new_ships.contains(&self.board.edges[f as usize])
                && !self.pirate_guards(f)
                && self.ship_at_open_end(seat, f)
            {
                movable.insert(f);
            }
        }
        if movable.is_empty() {
            return;
        }
        // PIR-7/8: each movable ship to each lane edge, checked as `decide_move_ship` does.
        if let Some(lane) = self.ship_lane(seat) {
            for f in movable.iter_sparse() {
                let from = self.board.edges[f as usize];
                for &to in lane {
                    let Some(t) = self.board.edge(to) else { continue };
                    if t != f
                        && self.check_ship_site(seat, t, to, Some(f)).is_ok()
                        && self.ship_connects(seat, t, FreePiece::None, Some(f))
                    {
                        moves.push_in_place(|| Move::MoveShip { from, to });
                    }
                }
            }
            return;
        }
        let anchors = ShipAnchors::of(self, seat, &own_ships, FreePiece::None);
        // A ship that moves takes its anchor with it and adds none: it can only go where a
        // ship connects with every ship in place. A target connects whichever ship leaves
        // when an endpoint holds the seat's building or two of its ships; otherwise through
        // an endpoint with one of its ships that is not an end of the ship leaving.
        let frontier = self.ship_frontier(&anchors, FreePiece::None);
        let connects_without = |t: u16, [a, b]: [u16; 2]| {
            self.board.edge_vertices[t as usize].iter().any(|&x| {
                anchors.own_building.contains(x)
                    || anchors.two_ships.contains(x)
                    || (anchors.one_ship.contains(x) && x != a && x != b)
            })
        };
        for f in movable.iter_sparse() {
            let from = self.board.edges[f as usize];
            let ends = self.board.edge_vertices[f as usize];
            // Every target away from the ship's ends connects through an anchor the ship
            // does not take with it; of those at its ends (at most two at each: the ship's
            // own edge is taken), only the ones that connect without it.
            let mut lost = [NO_EDGE; 4];
            let at_ends = ends.iter().flat_map(|&x| self.board.edges_of(x));
            for (slot, t) in
                lost.iter_mut().zip(at_ends.filter(|&t| frontier.contains(t) && !connects_without(t, ends)))
            {
                *slot = t;
            }
            for t in frontier.iter_sparse().filter(|t| !lost.contains(t)) {
                moves.push_in_place(|| Move::MoveShip { from, to: self.board.edges[t as usize] });
            }
        }
    }

    pub(crate) fn apply_ship(&mut self, seat: Seat, edge: EdgeId, cost: &Resources) {
        self.mark_built_or_bought();
        if let (Some(e), Some(player)) = (self.board.edge(edge), self.players.get_mut(seat.index())) {
            if self.roads[e as usize].is_some() || player.pieces_left.ships == 0 {
                return; // a coast edge holds one piece (SEA-2); no ship beyond the supply
            }
            if self.ships.len() < self.board.edges.len() {
                self.ships.resize(self.board.edges.len(), None);
            }
            self.ships[e as usize] = Some(seat);
            player.pieces_left.ships -= 1;
        }
        self.pay(seat, cost);
    }

    /// A ship leaves the seat's supply for good: it marks a claimed wonder (WON-8).
    pub(crate) fn retire_ship(&mut self, seat: Seat) {
        if let Some(player) = self.players.get_mut(seat.index()) {
            if player.pieces_left.ships > 0 {
                player.pieces_left.ships -= 1;
                player.supply.ships -= 1;
            }
        }
    }

    pub(crate) fn apply_ship_move(&mut self, seat: Seat, from: EdgeId, to: EdgeId) {
        let (Some(f), Some(t)) = (self.board.edge(from), self.board.edge(to)) else { return };
        if self.ship_index(f) != Some(seat) || self.ship_index(t).is_some() || self.roads[t as usize].is_some() {
            return;
        }
        self.ships[f as usize] = None;
        self.ships[t as usize] = Some(seat);
    }
}

/// Where `seat`'s ships may set out from (SEA-3), per vertex, computed once for a list of
/// moves: an own building, or own ships ending at a vertex without an opponent's building
/// (one, or two and more: a ship that leaves takes one away).
struct ShipAnchors {
    own_building: BoardSet,
    one_ship: BoardSet,
    two_ships: BoardSet,
}

impl ShipAnchors {
    /// The anchors of `seat`, whose ships stand on the edges of `own_ships`.
    fn of(game: &Game, seat: Seat, own_ships: &BoardSet, placed: FreePiece) -> ShipAnchors {
        let board = &game.board;
        let mut anchors = ShipAnchors {
            own_building: BoardSet::default(),
            one_ship: BoardSet::default(),
            two_ships: BoardSet::default(),
        };
        let placed_ship = match placed {
            FreePiece::Ship(p) => Some(p),
            _ => None,
        };
        for e in own_ships.iter_sparse().chain(placed_ship) {
            for x in board.edge_vertices[e as usize] {
                if anchors.one_ship.contains(x) {
                    anchors.two_ships.insert(x);
                }
                anchors.one_ship.insert(x);
            }
        }
        match game.buildings_of(seat) {
            Some(own) => {
                anchors.own_building = own.widen();
                for other in game.seats().filter(|&s| s != seat) {
                    for x in game.buildings_of(other).unwrap_or_default().iter() {
                        anchors.no_ships_from(x);
                    }
                }
            }
            None => {
                for (x, building) in game.buildings.iter().enumerate() {
                    match building {
                        Some(b) if b.seat == seat => anchors.own_building.insert(x as u16),
                        Some(_) => anchors.no_ships_from(x as u16),
                        None => {}
                    }
                }
            }
        }
        // CK-KNT-9, SEA-15: an opponent's knight blocks ships as it blocks roads.
        for knight in game.knights().iter().filter(|k| k.seat != seat) {
            if let Some(x) = board.vertex(knight.vertex) {
                anchors.no_ships_from(x);
            }
        }
        anchors
    }

    /// An opponent's piece on `x`: the seat's ships do not continue there.
    fn no_ships_from(&mut self, x: u16) {
        self.one_ship.remove(x);
        self.two_ships.remove(x);
    }

    /// The vertices ships may set out from with every ship in place, in board order.
    fn vertices(&self) -> impl Iterator<Item = u16> + '_ {
        self.own_building.iter_or(&self.one_ship)
    }
}

/// No edge: a placeholder in a ship's lost targets (see [`Game::ship_move_moves`]).
const NO_EDGE: u16 = u16::MAX;

/// A set of vertex or edge indices for any board, on the stack: a board has fewer than 255
/// hexes and so at most 6 * 254 vertices or edges, fewer than 24 words' 1,536.
type BoardSet = IndexSet<24>;
