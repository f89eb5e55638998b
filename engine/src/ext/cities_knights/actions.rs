//! What an active knight does (CK-KNT-5..8): move along its owner's roads, displace a weaker
//! opponent's knight (whose owner then relocates it), or chase the robber from a corner of its
//! hex. Only an active knight that was not activated this turn acts; acting makes it inactive,
//! so it acts once per turn.

use std::{cell::RefCell, collections::VecDeque};

use super::{improvements::main_phase_of, knights::touches_another_route, CitiesKnights};
use crate::{
    board::{HexCoord, VertexId},
    chance::Chance,
    game::Game,
    model::{Phase, Seat},
    protocol::{Bandit, Event, Move, RuleError},
};

impl CitiesKnights {
    /// CK-KNT-5: the seat's knight on `vertex`, able to act now.
    fn acting_knight(&self, game: &Game, seat: Seat, vertex: VertexId) -> Result<(), RuleError> {
        main_phase_of(game, seat)?;
        match game.knight_at(vertex) {
            Some(k) if k.seat != seat => Err(RuleError::NotYourKnight(vertex)),
            None => Err(RuleError::NotYourKnight(vertex)),
            Some(k) if !k.active || k.activated_this_turn => Err(RuleError::KnightCannotAct),
            Some(_) => Ok(()),
        }
    }

    /// CK-KNT-6: to an empty vertex reached along the seat's roads, through no opponent's
    /// piece.
    pub(super) fn decide_move_knight(
        &self,
        game: &Game,
        seat: Seat,
        from: VertexId,
        to: VertexId,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.acting_knight(game, seat, from)?;
        let v = game.board().vertex(to).ok_or(RuleError::UnknownVertex(to))?;
        if game.building_index(v).is_some() || game.knight_owner(v).is_some() {
            return Err(RuleError::VertexOccupied(to));
        }
        // SEA-15: a knight passes the open sea along ships but stands only where it could
        // be recruited, by land (CK-KNT-2).
        if !game.board().vertex_is_buildable[v as usize] {
            return Err(RuleError::VertexNotBuildable(to));
        }
        if !with_paths(game, seat, from, |found, _| found.contains(&v)) {
            return Err(RuleError::KnightUnreachable(to));
        }
        let moved = Event::KnightMoved { seat, from, to };
        // CK-KNT-9, B-LR-5: the knight unblocks one vertex and blocks another; the award is
        // measured again, on a copy with the knight moved, only when either vertex touches
        // another seat's route (the knight stood on `from`, so it is on the board).
        let from_index = game.board().vertex(from).ok_or(RuleError::UnknownVertex(from))?;
        let changes_a_route = touches_another_route(game, seat, from_index) || touches_another_route(game, seat, v);
        let award = changes_a_route.then(|| {
            game.with_copy(|after| {
                after.apply(&moved);
                after.longest_road_update(crate::game::routes::Overlay::default())
            })
        });
        events.push(moved);
        events.extend(award.flatten());
        Ok(())
    }

    /// CK-KNT-7: along the seat's roads onto a vertex held by an opponent's knight of strictly
    /// lower rank. The displaced knight keeps its state; its owner relocates it to an empty
    /// vertex its roads connect to the old one, or it returns to the supply when there is none.
    pub(super) fn decide_displace(
        &self,
        game: &Game,
        seat: Seat,
        from: VertexId,
        to: VertexId,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.acting_knight(game, seat, from)?;
        let v = game.board().vertex(to).ok_or(RuleError::UnknownVertex(to))?;
        let strength = game.knight_at(from).map_or(0, |k| k.rank);
        let weaker = match game.knight_at(to) {
            Some(k) if k.seat != seat => *k,
            _ => return Err(RuleError::NoKnightToDisplace(to)),
        };
        if weaker.rank >= strength {
            return Err(RuleError::KnightNotWeaker(to));
        }
        if !with_paths(game, seat, from, |_, stops| stops.contains(&v)) {
            return Err(RuleError::KnightUnreachable(to));
        }
        let displaced =
            Event::KnightDisplaced { seat, from, to, displaced: weaker.seat, rank: weaker.rank, active: weaker.active };
        game.with_copy(|after| {
            after.apply(&displaced);
            events.push(displaced);
            let relocates = has_relocation_target(after, weaker.seat, to);
            if !relocates {
                events.push(Event::KnightReturnedToSupply { seat: weaker.seat, vertex: to, rank: weaker.rank });
            }
            // CK-KNT-9, B-LR-5: the vertex now blocks the other seat's roads instead.
            events.extend(after.longest_road_update(crate::game::routes::Overlay::default()));
            if relocates {
                events.push(after.interrupt(Phase::RelocateKnight {
                    seat: weaker.seat,
                    vertex: to,
                    rank: weaker.rank,
                    active: weaker.active,
                }));
            }
        });
        Ok(())
    }

    /// CK-KNT-7: the displaced knight's owner puts it on an empty vertex connected to its old
    /// one by its roads; it keeps its rank and state. Then the interrupted phase resumes.
    pub(super) fn decide_relocate(
        &self,
        game: &Game,
        seat: Seat,
        to: VertexId,
        displaced: (Seat, VertexId, u8, bool),
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let (owner, from, rank, active) = displaced;
        if seat != owner {
            return Err(RuleError::NothingToDecide);
        }
        let v = game.board().vertex(to).ok_or(RuleError::UnknownVertex(to))?;
        if game.building_index(v).is_some() || game.knight_owner(v).is_some() {
            return Err(RuleError::VertexOccupied(to));
        }
        if !(with_paths(game, seat, from, |found, _| found.contains(&v)) && standing_room(game, v)) {
            return Err(RuleError::KnightUnreachable(to));
        }
        let relocated = Event::KnightRelocated { seat, from, to, rank, active };
        let award = game.with_copy(|after| {
            after.apply(&relocated);
            after.longest_road_update(crate::game::routes::Overlay::default())
        });
        events.push(relocated);
        events.extend(award);
        events.push(game.resume());
        Ok(())
    }

    /// CK-KNT-7: where the seat may put its knight displaced from `from`.
    pub(super) fn relocation_moves(game: &Game, seat: Seat, from: VertexId, moves: &mut Vec<Move>) {
        with_paths(game, seat, from, |found, _| {
            for &v in found.iter().filter(|&&v| standing_room(game, v)) {
                moves.push(Move::RelocateKnight { to: game.board().vertices[v as usize] });
            }
        });
    }

    /// CK-KNT-8, CK-BAR-10: from a corner of the robber's hex, once the barbarians have
    /// attacked, the knight moves the robber and steals as a 7 does; it stays where it is.
    /// SEA-15: the same from a corner of the pirate's hex, which then sails to another sea hex.
    pub(super) fn decide_chase(
        &self,
        game: &Game,
        seat: Seat,
        (knight, hex, steal_from, bandit): (VertexId, HexCoord, Option<Seat>, Bandit),
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.acting_knight(game, seat, knight)?;
        if bandit == Bandit::Pirate && !game.config().seafarers {
            return Err(RuleError::NotInThisGame("the pirate"));
        }
        if !self.robber_may_move(game) {
            return Err(RuleError::RobberWaits);
        }
        let v = game.board().vertex(knight).ok_or(RuleError::UnknownVertex(knight))?;
        if !on_corner_of(game, v, bandit_hex(game, bandit)) {
            return Err(RuleError::KnightNotAtRobber(knight));
        }
        events.push(Event::RobberChased { seat, knight });
        match bandit {
            Bandit::Robber => self.decide_robber(game, seat, hex, steal_from, chance, events),
            Bandit::Pirate => {
                events.append(&mut game.decide_pirate_chase(seat, hex, steal_from, chance)?);
                Ok(())
            }
        }
    }

    /// Every move and chase the seat's knights may make now.
    pub(super) fn action_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        if main_phase_of(game, seat).is_err() {
            return;
        }
        for knight in game.knights().iter().filter(|k| k.seat == seat && k.active && !k.activated_this_turn) {
            let from = knight.vertex;
            with_paths(game, seat, from, |passed, stops| {
                for &v in passed {
                    if standing_room(game, v) {
                        moves.push(Move::MoveKnight { from, to: game.board().vertices[v as usize] });
                    }
                }
                for &v in stops {
                    let weaker = game.knight_owner(v).is_some_and(|s| s != seat)
                        && game.knight_at(game.board().vertices[v as usize]).is_some_and(|k| k.rank < knight.rank);
                    if weaker {
                        moves.push(Move::DisplaceKnight { from, to: game.board().vertices[v as usize] });
                    }
                }
            });
            if !self.robber_may_move(game) {
                continue;
            }
            let Some(v) = game.board().vertex(from) else { continue };
            if on_corner_of(game, v, bandit_hex(game, Bandit::Robber)) {
                // The robber's moves, listed at the end and made chases in place.
                let start = moves.len();
                Self::robber_moves(game, seat, moves);
                let mut kept = start;
                for i in start..moves.len() {
                    if let Move::MoveRobber { hex, steal_from } = moves[i] {
                        moves[kept] = Move::ChaseRobber { knight: from, hex, steal_from, bandit: Bandit::Robber };
                        kept += 1;
                    }
                }
                moves.truncate(kept);
            }
            if on_corner_of(game, v, bandit_hex(game, Bandit::Pirate)) {
                game.pirate_chase_moves(seat, moves, |hex, steal_from| Move::ChaseRobber {
                    knight: from,
                    hex,
                    steal_from,
                    bandit: Bandit::Pirate,
                });
            }
        }
    }
}

/// The hex the robber or the pirate stands on, if it is on the board.
fn bandit_hex(game: &Game, bandit: Bandit) -> Option<u8> {
    match bandit {
        Bandit::Robber => game.robber_index(),
        Bandit::Pirate => game.pirate_index(),
    }
}

/// Whether vertex index `v` is a corner of hex `h` (CK-KNT-8).
fn on_corner_of(game: &Game, v: u16, h: Option<u8>) -> bool {
    h.is_some_and(|h| game.board().hex_vertices[h as usize].contains(&v))
}

/// CK-KNT-7: whether a displaced knight of `seat` has an empty vertex to go to from `from`,
/// along its roads as a move would (CK-KNT-6).
pub(super) fn has_relocation_target(game: &Game, seat: Seat, from: VertexId) -> bool {
    with_paths(game, seat, from, |found, _| found.iter().any(|&v| standing_room(game, v)))
}

/// Whether a knight may end a move on vertex index `v`: an empty vertex by land (CK-KNT-2/6,
/// SEA-15).
fn standing_room(game: &Game, v: u16) -> bool {
    game.board().vertex_is_buildable[v as usize] && game.building_index(v).is_none() && game.knight_owner(v).is_none()
}

/// The lists [`with_paths`] fills, kept per thread so that listing a knight's moves
/// allocates nothing once they have grown.
#[derive(Default)]
struct PathScratch {
    seen: Vec<bool>,
    queue: VecDeque<u16>,
    found: Vec<u16>,
    stops: Vec<u16>,
}

thread_local! {
    static PATH_SCRATCH: RefCell<PathScratch> = RefCell::new(PathScratch::default());
}

/// Calls `f` with the vertices reached along the seat's roads and ships (SEA-15) from `from`
/// through vertices without an opponent's piece, in the order found, and the vertices with an
/// opponent's piece where such a path stops (a displacement ends there, CK-KNT-7).
fn with_paths<R>(game: &Game, seat: Seat, from: VertexId, f: impl FnOnce(&[u16], &[u16]) -> R) -> R {
    PATH_SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => {
            paths(game, seat, from, &mut scratch);
            f(&scratch.found, &scratch.stops)
        }
        // Called again from inside `f`: lists of its own.
        Err(_) => {
            let mut scratch = PathScratch::default();
            paths(game, seat, from, &mut scratch);
            f(&scratch.found, &scratch.stops)
        }
    })
}

/// Fills `scratch` for [`with_paths`].
fn paths(game: &Game, seat: Seat, from: VertexId, scratch: &mut PathScratch) {
    let PathScratch { seen, queue, found, stops } = scratch;
    found.clear();
    stops.clear();
    queue.clear();
    let Some(start) = game.board().vertex(from) else { return };
    let opponent_at = |v: u16| {
        game.building_index(v).is_some_and(|b| b.seat != seat) || game.knight_owner(v).is_some_and(|k| k != seat)
    };
    seen.clear();
    seen.resize(game.board().vertices.len(), false);
    seen[start as usize] = true;
    queue.push_back(start);
    while let Some(at) = queue.pop_front() {
        for e in game.board().edges_of(at) {
            if !game.knight_route(seat, e) {
                continue;
            }
            let next = game.board().other_end(e, at);
            if seen[next as usize] {
                continue;
            }
            seen[next as usize] = true;
            if opponent_at(next) {
                stops.push(next);
                continue;
            }
            found.push(next);
            queue.push_back(next);
        }
    }
}
