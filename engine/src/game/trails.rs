//! The trail search behind Longest Road (B-LR-1/2, SEA-10): one seat's roads and ships as a
//! small local graph, with the pieces of a move being decided laid over the board
//! ([`Overlay`]), and its longest trail found component by component (a tree in one walk,
//! loops searched with the trees hanging off them measured as arms). `routes.rs` keeps the
//! lengths it finds.

use crate::{
    game::Game,
    model::{indices_where, Seat},
};

/// Pieces a pending move adds, so awards can be computed before `apply` runs.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Overlay {
    pub road: Option<(u16, Seat)>,
    pub building: Option<(u16, Seat)>,
    /// A ship placed (SEA-1) ...
    pub ship: Option<(u16, Seat)>,
    /// ... and, when the ship was moved, the edge it left (SEA-6).
    pub ship_removed: Option<u16>,
}

impl Overlay {
    pub(crate) fn road(e: u16, seat: Seat) -> Self {
        Overlay { road: Some((e, seat)), ..Overlay::default() }
    }

    pub(crate) fn building(v: u16, seat: Seat) -> Self {
        Overlay { building: Some((v, seat)), ..Overlay::default() }
    }

    pub(crate) fn ship(e: u16, seat: Seat) -> Self {
        Overlay { ship: Some((e, seat)), ..Overlay::default() }
    }

    /// The seat whose ship moves, when that is all the overlay does (no piece is added: 0).
    pub(crate) fn moved_ship(&self) -> Option<(Seat, u32)> {
        match (self.road, self.ship, self.building, self.ship_removed) {
            (None, Some((_, seat)), None, Some(_)) => Some((seat, 0)),
            _ => None,
        }
    }

    /// The one seat whose routes the overlay changes, with the pieces it adds (1 for a road
    /// or ship built, 0 for a ship moved), when that is all the overlay does.
    pub(crate) fn changed_seat(&self) -> Option<(Seat, u32)> {
        self.added_piece().map(|seat| (seat, 1)).or(self.moved_ship())
    }

    /// The piece that lengthens one seat's routes, when that is all the overlay does.
    pub(crate) fn added_piece(&self) -> Option<Seat> {
        match (self.road, self.ship, self.building, self.ship_removed) {
            (Some((_, seat)), None, None, None) | (None, Some((_, seat)), None, None) => Some(seat),
            _ => None,
        }
    }
}

impl Overlay {
    /// Tests if the pieces of the overlay may change `seat`'s trails: its own road or ship, a
    /// ship of its that leaves an edge, or any building (which may break the seat's trails
    /// or join its roads and ships).
    pub(super) fn touches(&self, game: &Game, seat: Seat) -> bool {
        let owns = |piece: Option<(u16, Seat)>| piece.is_some_and(|(_, s)| s == seat);
        let left = self.ship_removed.is_some_and(|e| game.ships.get(usize::from(e)) == Some(&Some(seat)));
        owns(self.road) || owns(self.ship) || left || self.building.is_some()
    }
}

/// The indices of `pieces` that hold `seat`'s piece, ascending, on a board of any size.
pub(crate) fn owned(pieces: &[Option<Seat>], seat: Seat) -> impl Iterator<Item = usize> + '_ {
    indices_where(pieces, move |&piece| piece == Some(seat))
}

/// Most roads (and, with Seafarers, ships) one network can hold; bounds the bit masks.
pub(crate) const MAX_NETWORK_EDGES: usize = 32;
const MAX_NETWORK_VERTICES: usize = 2 * MAX_NETWORK_EDGES;

/// One seat's roads as a small local graph, so the trail search runs on arrays and masks.
pub(super) struct RoadNetwork {
    /// Local endpoints of each local edge.
    ends: [[u8; 2]; MAX_NETWORK_EDGES],
    edge_count: usize,
    /// Local edges at each local vertex (at most 3 on a hex grid).
    incident: [[u8; 3]; MAX_NETWORK_VERTICES],
    degree: [u8; MAX_NETWORK_VERTICES],
    /// The same local edges at each local vertex, as a bit mask for the trail search.
    incident_mask: [u32; MAX_NETWORK_VERTICES],
    /// Vertices holding an opponent's building: a trail may end there but not pass.
    blocked: [bool; MAX_NETWORK_VERTICES],
    /// Vertices holding the seat's own building, where roads and ships join (SEA-10).
    junction: [bool; MAX_NETWORK_VERTICES],
    /// Which local edges are ships.
    ship: u32,
    vertex_count: usize,
}

impl RoadNetwork {
    pub(super) fn of(game: &Game, seat: Seat, overlay: Overlay) -> Self {
        let mut net = RoadNetwork {
            ends: [[0; 2]; MAX_NETWORK_EDGES],
            edge_count: 0,
            incident: [[0; 3]; MAX_NETWORK_VERTICES],
            degree: [0; MAX_NETWORK_VERTICES],
            incident_mask: [0; MAX_NETWORK_VERTICES],
            blocked: [false; MAX_NETWORK_VERTICES],
            junction: [false; MAX_NETWORK_VERTICES],
            ship: 0,
            vertex_count: 0,
        };
        // The local index of each board vertex seen (NO_LOCAL: none yet), instead of a search
        // of the vertices seen for each end of each piece.
        let mut local_of = [NO_LOCAL; MAX_BOARD_VERTICES];
        let extra_road = overlay.road.filter(|(_, s)| *s == seat).map(|(e, _)| e as usize);
        // From the sets the game keeps when the board fits them, else a scan of the board.
        // Each kind read alone: the seat's buildings are not needed.
        let (kept_roads, kept_ships) = (game.roads_of(seat), game.ships_of(seat));
        let kept = kept_roads.is_some() && kept_ships.is_some();
        let (kept_roads, kept_ships) = (kept_roads.unwrap_or_default(), kept_ships.unwrap_or_default());
        let scan = |pieces| (!kept).then(|| owned(pieces, seat)).into_iter().flatten();
        let roads = kept_roads.iter().map(usize::from).chain(scan(&game.roads)).map(|e| (e, false));
        let extra_ship = overlay.ship.filter(|(_, s)| *s == seat).map(|(e, _)| (e as usize, true));
        let removed = overlay.ship_removed.map(usize::from);
        let ships = kept_ships.iter().map(usize::from).chain(scan(&game.ships));
        let ships = ships.filter(|e| Some(*e) != removed).map(|e| (e, true));
        for (e, is_ship) in roads.chain(extra_road.map(|e| (e, false))).chain(ships).chain(extra_ship) {
            if net.edge_count == MAX_NETWORK_EDGES {
                break;
            }
            let local_edge = net.edge_count as u8;
            if is_ship {
                net.ship |= 1 << local_edge;
            }
            for (side, &v) in game.board.edge_vertices[e].iter().enumerate() {
                let local = match local_of.get(v as usize).copied().unwrap_or(NO_LOCAL) {
                    NO_LOCAL => {
                        let i = net.vertex_count;
                        if let Some(slot) = local_of.get_mut(v as usize) {
                            *slot = i as u8;
                        }
                        let owner = match overlay.building {
                            Some((bv, s)) if bv == v => Some(s),
                            _ => game.buildings[v as usize].map(|b| b.seat),
                        };
                        // CK-KNT-9: an opponent's knight breaks the road like a building.
                        let knight = game.knight_owner(v);
                        net.blocked[i] = owner.is_some_and(|o| o != seat) || knight.is_some_and(|k| k != seat);
                        net.junction[i] = owner == Some(seat);
                        net.vertex_count += 1;
                        i
                    }
                    i => i as usize,
                };
                net.ends[local_edge as usize][side] = local as u8;
                let d = net.degree[local] as usize;
                if d < 3 {
                    net.incident[local][d] = local_edge;
                    net.incident_mask[local] |= 1 << local_edge;
                    net.degree[local] += 1;
                }
            }
            net.edge_count += 1;
        }
        net
    }

    /// Tests if a trail may pass vertex `v` from edge `from` to edge `to`: not through an
    /// opponent's building, and between a road and a ship only at an own building.
    fn may_turn(&self, v: usize, from: u8, to: u8) -> bool {
        let kind = |e: u8| self.ship & (1 << e) != 0;
        kind(from) == kind(to) || self.junction[v]
    }

    /// Tests if trails can only end at `v`: blocked, or where a road meets a ship away from
    /// an own building.
    fn is_trail_end(&self, v: usize) -> bool {
        let edges = &self.incident[v][..self.degree[v] as usize];
        self.blocked[v] || edges.iter().any(|&a| edges.iter().any(|&b| !self.may_turn(v, a, b)))
    }

    /// The longest trail, component by component. A component without a loop is a tree, in
    /// which a trail is a path: its longest is found in one walk ([`RoadNetwork::tree_arm`]).
    /// In one with loops, a trail enters a tree hanging off them at most once (it cannot come
    /// back up), so it takes at most the longest arm down each tree, at its two ends; the
    /// search walks the loops alone. A maximal trail can always be taken to start at a vertex
    /// whose degree is not 2 or that is blocked (otherwise it could be extended backwards, or
    /// it is a closed trail that can be rotated to such a vertex), and every trail from those
    /// is walked; a component with no such vertex is a plain cycle that every vertex lets a
    /// trail pass, walked whole.
    pub(super) fn longest_trail(&self) -> u32 {
        let all = if self.edge_count == 32 { u32::MAX } else { (1u32 << self.edge_count) - 1 };
        // No trail is longer than the network: once one uses every edge, the search is done.
        let every_edge = self.edge_count as u32;
        let mut best = 0;
        let mut seen: u32 = 0;
        while seen != all && best != every_edge {
            let first = (!seen & all).trailing_zeros() as usize;
            let component = self.component_of(first);
            seen |= component;
            let size = component.count_ones();
            if size <= best {
                continue;
            }
            let vertices = (0..self.vertex_count).filter(|&v| self.incident_mask[v] & component != 0);
            if vertices.clone().count() == size as usize + 1 {
                self.tree_arm(self.ends[first][0] as usize, NO_EDGE, &mut best);
                continue;
            }
            // The trees hanging off the loops are measured once, each as an arm from the
            // loop vertex it hangs from; the search then walks the loops alone.
            let loops = self.loops_of(component);
            let mut hanging = Hanging { edge: [NO_EDGE; MAX_NETWORK_VERTICES], arm: [0; MAX_NETWORK_VERTICES] };
            for v in vertices.clone().filter(|&v| self.incident_mask[v] & loops != 0) {
                let hang = self.incident_mask[v] & component & !loops;
                if hang != 0 {
                    let h = hang.trailing_zeros() as u8;
                    let [a, b] = self.ends[h as usize];
                    let child = if a as usize == v { b } else { a } as usize;
                    let arm = 1 + self.tree_arm(child, h, &mut best);
                    best = best.max(arm);
                    (hanging.edge[v], hanging.arm[v]) = (h, arm);
                }
            }
            let on_loops = vertices.filter(|&v| self.incident_mask[v] & loops != 0);
            let mut starts = on_loops.filter(|&v| self.degree[v] != 2 || self.is_trail_end(v)).peekable();
            if starts.peek().is_none() {
                best = best.max(size);
            }
            for v in starts {
                if best == size {
                    break;
                }
                let walk = Walk { loops, hanging: &hanging, began_with_arm_at: NO_VERTEX };
                self.extend(v, NO_EDGE, 0, 0, &walk, &mut best);
                if hanging.edge[v] != NO_EDGE && !self.blocked[v] {
                    let walk = Walk { began_with_arm_at: v, ..walk };
                    self.extend(v, hanging.edge[v], 0, hanging.arm[v], &walk, &mut best);
                }
            }
        }
        best
    }

    /// The edges of `component` on its loops: what is left once the trees hanging off them
    /// are taken away, leaf by leaf.
    fn loops_of(&self, component: u32) -> u32 {
        let mut loops = component;
        let is_leaf = |v: usize, loops: u32| (self.incident_mask[v] & loops).count_ones() == 1;
        let mut leaves = [0u8; MAX_NETWORK_VERTICES];
        let mut count = 0;
        for v in (0..self.vertex_count).filter(|&v| is_leaf(v, loops)) {
            leaves[count] = v as u8;
            count += 1;
        }
        // A vertex becomes a leaf once at most, so the stack holds each vertex once at most.
        while count > 0 {
            count -= 1;
            let v = leaves[count] as usize;
            if !is_leaf(v, loops) {
                continue;
            }
            let e = (self.incident_mask[v] & loops).trailing_zeros() as usize;
            loops &= !(1 << e);
            let [a, b] = self.ends[e];
            let other = if a as usize == v { b } else { a };
            if is_leaf(other as usize, loops) {
                if let Some(slot) = leaves.get_mut(count) {
                    *slot = other;
                    count += 1;
                }
            }
        }
        loops
    }

    /// The local edges connected to local edge `e` (through any vertex, blocked or not).
    fn component_of(&self, e: usize) -> u32 {
        let mut component = 1u32 << e;
        let mut frontier = component;
        while frontier != 0 {
            let next = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let [a, b] = self.ends[next];
            let reached = (self.incident_mask[a as usize] | self.incident_mask[b as usize]) & !component;
            component |= reached;
            frontier |= reached;
        }
        component
    }

    /// In a tree entered at `v` by edge `from` (NO_EDGE at the root): raises `best` to the
    /// longest path whose highest vertex is `v` or below it, and returns the longest path down
    /// from `v` that may follow `from` there (0 when `v` is blocked). A path's highest vertex
    /// joins at most two arms down, and passes only where a trail may turn.
    fn tree_arm(&self, v: usize, from: u8, best: &mut u32) -> u32 {
        let mut arms = [(NO_EDGE, 0u32); 3];
        let mut count = 0;
        for &e in &self.incident[v][..self.degree[v] as usize] {
            if e == from {
                continue;
            }
            let [a, b] = self.ends[e as usize];
            let child = if a as usize == v { b } else { a } as usize;
            let onward = self.tree_arm(child, e, best);
            // At most three edges meet at a vertex, one of them `from` below the root.
            if let Some(arm) = arms.get_mut(count) {
                *arm = (e, 1 + onward);
                count += 1;
            }
        }
        let arms = &arms[..count];
        for (i, &(a, length)) in arms.iter().enumerate() {
            *best = (*best).max(length);
            if !self.blocked[v] {
                for &(b, other) in &arms[i + 1..] {
                    if self.may_turn(v, a, b) {
                        *best = (*best).max(length + other);
                    }
                }
            }
        }
        if self.blocked[v] {
            return 0;
        }
        arms.iter().filter(|&&(e, _)| from == NO_EDGE || self.may_turn(v, from, e)).map(|&(_, l)| l).max().unwrap_or(0)
    }

    /// The edges a trail at `at` may go on by, having come by `came_by` (NO_EDGE at the
    /// start) with the edges of `used` taken: those not used, and away from an own building
    /// only those of the kind (road or ship) it came by (see [`RoadNetwork::may_turn`]).
    fn onward(&self, at: usize, came_by: u8, used: u32) -> u32 {
        let options = self.incident_mask[at] & !used;
        if came_by == NO_EDGE || self.junction[at] {
            options
        } else if self.ship & (1 << came_by) != 0 {
            options & self.ship
        } else {
            options & !self.ship
        }
    }

    /// Raises `best` to the longest trail on from `at` along the loops of `walk`, having come
    /// by `came_by` (NO_EDGE at the start) with the `length` edges of `used` taken (and the
    /// arm it began with), and ending, where it may turn there, down the arm hanging from
    /// the vertex it stops at. Where a trail can go on by one edge only, it is followed in a
    /// loop rather than by a call, so that only the branchings recurse.
    fn extend(&self, at: usize, came_by: u8, used: u32, length: u32, walk: &Walk, best: &mut u32) {
        let mut options = self.onward(at, came_by, used) & walk.loops;
        while options != 0 {
            let first = options.trailing_zeros() as u8;
            options &= options - 1;
            let (mut here, mut by, mut taken, mut length) = (at, first, used, length);
            loop {
                taken |= 1 << by;
                length += 1;
                let [a, b] = self.ends[by as usize];
                here = if a as usize == here { b } else { a } as usize;
                if self.blocked[here] {
                    *best = (*best).max(length);
                    break;
                }
                let hang = walk.hanging.edge[here];
                let arm_taken = here == walk.began_with_arm_at;
                let ending = if hang != NO_EDGE && !arm_taken && self.may_turn(here, by, hang) {
                    walk.hanging.arm[here]
                } else {
                    0
                };
                *best = (*best).max(length + ending);
                let next = self.onward(here, by, taken) & walk.loops;
                if next == 0 {
                    break;
                }
                if next & (next - 1) != 0 {
                    self.extend(here, by, taken, length, walk, best);
                    break;
                }
                by = next.trailing_zeros() as u8;
            }
        }
    }
}

/// The trees hanging off a component's loops: for each vertex on a loop, the edge a tree
/// hangs from there (at most one: three edges meet at a vertex, two of them on the loops;
/// NO_EDGE for none) and the longest path down it that a trail may take.
struct Hanging {
    edge: [u8; MAX_NETWORK_VERTICES],
    arm: [u32; MAX_NETWORK_VERTICES],
}

/// What a search along a component's loops knows: the loops' edges, the arms hanging off
/// them, and the vertex whose arm the trail began with (NO_VERTEX for none), which it may
/// not take again.
#[derive(Clone, Copy)]
struct Walk<'a> {
    loops: u32,
    hanging: &'a Hanging,
    began_with_arm_at: usize,
}

/// No local vertex, as a search's index.
const NO_VERTEX: usize = usize::MAX;

/// No local edge: where a trail starts.
const NO_EDGE: u8 = u8::MAX;
/// No local vertex (a network has at most 64).
const NO_LOCAL: u8 = u8::MAX;
/// More vertices than any board has (fewer than 255 hexes, at most six corners each).
const MAX_BOARD_VERTICES: usize = 6 * 255;
