//! What an active knight does (CK-KNT-5..8): move along its owner's roads, or chase the
//! robber from a corner of its hex. Only an active knight that was not activated this turn
//! acts; acting makes it inactive, so it acts once per turn. Displacing comes next.

use std::collections::VecDeque;

use super::{improvements::main_phase_of, CitiesKnights};
use crate::{
    board::{HexCoord, VertexId},
    chance::Chance,
    game::Game,
    model::Seat,
    protocol::{Event, Move, RuleError},
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
    ) -> Result<Vec<Event>, RuleError> {
        self.acting_knight(game, seat, from)?;
        let v = game.board().vertex(to).ok_or(RuleError::UnknownVertex(to))?;
        if game.building_index(v).is_some() || game.knight_owner(v).is_some() {
            return Err(RuleError::VertexOccupied(to));
        }
        if !reachable(game, seat, from).contains(&v) {
            return Err(RuleError::KnightUnreachable(to));
        }
        let moved = Event::KnightMoved { seat, from, to };
        // CK-KNT-9, B-LR-5: the knight unblocks one vertex and blocks another.
        let mut after = game.clone();
        after.apply(&moved);
        let mut events = vec![moved];
        events.extend(after.longest_road_update(crate::base::awards::Overlay::default()));
        Ok(events)
    }

    /// CK-KNT-8, CK-BAR-10: from a corner of the robber's hex, once the barbarians have
    /// attacked, the knight moves the robber and steals as a 7 does; it stays where it is.
    pub(super) fn decide_chase(
        &self,
        game: &Game,
        seat: Seat,
        knight: VertexId,
        hex: HexCoord,
        steal_from: Option<Seat>,
        chance: &mut dyn Chance,
    ) -> Result<Vec<Event>, RuleError> {
        self.acting_knight(game, seat, knight)?;
        if !self.robber_may_move(game) {
            return Err(RuleError::RobberWaits);
        }
        let v = game.board().vertex(knight).ok_or(RuleError::UnknownVertex(knight))?;
        let on_robber = game.robber_index().is_some_and(|h| game.board().hex_vertices[h as usize].contains(&v));
        if !on_robber {
            return Err(RuleError::KnightNotAtRobber(knight));
        }
        let mut events = vec![Event::RobberChased { seat, knight }];
        events.extend(self.decide_robber(game, seat, hex, steal_from, chance)?);
        Ok(events)
    }

    /// Every move and chase the seat's knights may make now.
    pub(super) fn action_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        if main_phase_of(game, seat).is_err() {
            return;
        }
        for knight in game.knights().iter().filter(|k| k.seat == seat && k.active && !k.activated_this_turn) {
            let from = knight.vertex;
            for v in reachable(game, seat, from) {
                if game.building_index(v).is_none() && game.knight_owner(v).is_none() {
                    moves.push(Move::MoveKnight { from, to: game.board().vertices[v as usize] });
                }
            }
            let mut chases = Vec::new();
            Self::robber_moves(game, seat, &mut chases);
            for chase in chases {
                if let Move::MoveRobber { hex, steal_from } = chase {
                    let mv = Move::ChaseRobber { knight: from, hex, steal_from };
                    if self.robber_may_move(game) && self.acting_knight(game, seat, from).is_ok() {
                        let v = game.board().vertex(from);
                        let on_robber = game
                            .robber_index()
                            .zip(v)
                            .is_some_and(|(h, v)| game.board().hex_vertices[h as usize].contains(&v));
                        if on_robber {
                            moves.push(mv);
                        }
                    }
                }
            }
        }
    }
}

/// The vertices a knight of `seat` on `from` reaches along the seat's roads (CK-KNT-6),
/// passing only vertices without an opponent's building or knight; `from` itself excluded.
fn reachable(game: &Game, seat: Seat, from: VertexId) -> Vec<u16> {
    let Some(start) = game.board().vertex(from) else { return Vec::new() };
    let opponent_at = |v: u16| {
        game.building_index(v).is_some_and(|b| b.seat != seat) || game.knight_owner(v).is_some_and(|k| k != seat)
    };
    let mut seen = vec![false; game.board().vertices.len()];
    seen[start as usize] = true;
    let mut queue = VecDeque::from([start]);
    let mut found = Vec::new();
    while let Some(at) = queue.pop_front() {
        for e in game.board().edges_of(at) {
            if game.road_index(e) != Some(seat) {
                continue;
            }
            let next = game.board().other_end(e, at);
            if seen[next as usize] {
                continue;
            }
            seen[next as usize] = true;
            if opponent_at(next) {
                continue;
            }
            found.push(next);
            queue.push_back(next);
        }
    }
    found
}
