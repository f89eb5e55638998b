//! NEW-11: harbours placed by the players (The New World with `new_world_harbours =
//! players_place`). The board is generated without its harbours; before setup, starting with
//! the first player and going clockwise, each player in turn draws the top harbour of a
//! shuffled face-down stack and places it on an edge NEW-LEGAL-5 allows, until none is left.
//!
//! Players may leave no legal edge for the harbours still face down (e.g. on a board of one
//! large island, at most three a island, NEW-LEGAL-5), which the published rule does not
//! foresee. Engine decision: those harbours stay out of the game and setup begins; a drawn
//! harbour always has an edge.
//!
//! Drawing the top of a shuffled stack is drawing uniformly from what is left of it, so the
//! stack is never laid out in advance: each draw is a [`Draw::HARBOUR`] from the game's chance
//! when it happens, recorded in `harbour_drawn`, and replay needs no randomness.

use super::{
    scenario::new_world::{self, NewWorldHarbours},
    ScenarioId, Seafarers,
};
use crate::{
    board::{EdgeId, Harbour, HarbourKind},
    chance::{Chance, Draw},
    game::Game,
    model::{Phase, Phases, Seat, SetupStep},
    position::{phases::phase_error, PositionError},
    protocol::{Event, Move, RuleError},
};

impl Seafarers {
    /// Whether the players place the harbours (NEW-11).
    pub(super) fn players_place_harbours(&self) -> bool {
        self.scenario == Some(ScenarioId::NewWorld) && self.new_world.harbours == NewWorldHarbours::PlayersPlace
    }

    /// The opening of the game: the first player draws the first harbour.
    pub(super) fn open_harbour_placement(&self, game: &Game, chance: &mut dyn Chance, events: &mut Vec<Event>) {
        if self.players_place_harbours() {
            self.draw_harbour(game, game.first_seat, None, chance, events);
        }
    }

    /// `seat` draws the next harbour and must place it; with the stack empty, or no edge left
    /// for a harbour, setup begins. `placed` is a harbour placed by the same move, not yet on
    /// `game`'s board.
    fn draw_harbour(
        &self,
        game: &Game,
        seat: Seat,
        placed: Option<Harbour>,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) {
        let mut layout = game.board().layout().clone();
        layout.harbours.extend(placed);
        let stack = new_world::harbour_stack(&layout, self.players, None);
        let phase = if stack.is_empty() || new_world::harbour_sites(&layout, self.players).is_empty() {
            Phase::Setup { seat: game.setup_seat(0), placement: 0, step: SetupStep::PlaceSettlement }
        } else {
            let weights: Vec<u32> = stack.iter().map(|&(_, n)| n).collect();
            let (kind, _) = stack[chance.pick(Draw::HARBOUR, &weights).min(stack.len() - 1)];
            events.push(Event::HarbourDrawn { seat, kind });
            Phase::PlaceHarbour { seat, kind }
        };
        events.push(Event::PhaseChanged { phase, then: Phases::new() });
    }

    /// `place_harbour` while `placing` holds a harbour of `kind`: on an edge NEW-LEGAL-5
    /// allows; then the next seat clockwise draws.
    pub(super) fn decide_place_harbour(
        &self,
        game: &Game,
        seat: Seat,
        mv: &Move,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Phase::PlaceHarbour { seat: placing, kind } = *game.phase() else {
            return Err(RuleError::WrongPhase("no harbour waits to be placed"));
        };
        if seat != placing {
            return Err(RuleError::NotYourTurn { active: placing });
        }
        let Move::PlaceHarbour { edge } = *mv else {
            return Err(RuleError::WrongPhase("place the harbour you drew first (NEW-11)"));
        };
        if !new_world::harbour_sites(game.board().layout(), self.players).contains(&edge) {
            return Err(RuleError::HarbourSiteNotAllowed(edge));
        }
        events.push(Event::HarbourPlaced { seat, edge, kind });
        let next = Seat((seat.0 + 1) % self.players);
        self.draw_harbour(game, next, Some(Harbour { edge, kind }), chance, events);
        Ok(())
    }

    /// A position waiting for a harbour (NEW-11): in a game where the players place them, the
    /// seat whose turn it is clockwise from the first player, a kind still in the stack.
    pub(super) fn check_harbour_phase(
        &self,
        game: &Game,
        seat: Seat,
        kind: HarbourKind,
        then: &[Phase],
    ) -> Result<(), PositionError> {
        if !self.players_place_harbours() {
            return Err(PositionError::NotInThisGame("harbours placed by the players (NEW-11)"));
        }
        let layout = game.board().layout();
        let placed = u8::try_from(layout.harbours.len()).unwrap_or(u8::MAX);
        let expected = Seat(((u32::from(game.first_seat.0) + u32::from(placed)) % u32::from(self.players)) as u8);
        if !then.is_empty() {
            return Err(phase_error("nothing resumes after place_harbour: setup follows (NEW-11)"));
        }
        if seat != expected {
            return Err(phase_error(format!(
                "with {placed} harbours placed, seat {expected} places the next one, not seat {seat} (NEW-11)"
            )));
        }
        if !new_world::harbour_stack(layout, self.players, None).iter().any(|(k, _)| *k == kind) {
            return Err(phase_error(format!("no {kind:?} harbour is left in the stack (NEW-11)")));
        }
        Ok(())
    }

    /// Every `place_harbour` open to `seat`.
    pub(super) fn harbour_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        if matches!(game.phase(), Phase::PlaceHarbour { seat: placing, .. } if *placing == seat) {
            let sites = new_world::harbour_sites(game.board().layout(), self.players);
            moves.extend(sites.into_iter().map(|edge| Move::PlaceHarbour { edge }));
        }
    }
}

impl Game {
    /// NEW-11: a placed harbour joins the board (and its trade rates, B-GEO-10).
    pub(crate) fn apply_harbour(&mut self, edge: EdgeId, kind: HarbourKind) {
        if let Some(board) = self.board.with_harbour(Harbour { edge, kind }) {
            self.board = std::sync::Arc::new(board);
        }
    }
}
