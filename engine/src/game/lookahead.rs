//! A copy of the game to look ahead in: the state a move's events lead to, built in a copy
//! kept per thread and overwritten by [`Game::clone_from`] each time, so that looking ahead
//! reuses its buffers instead of allocating a new copy of the game (issue 28, part 5). And
//! the ruleset held apart from the game while an event is applied, for the same reason.

use std::{
    cell::RefCell,
    sync::{Arc, OnceLock},
};

use crate::{
    board::{layout::beginner_layout, Board},
    game::Game,
    ruleset::Ruleset,
};

thread_local! {
    /// The copies [`Game::with_copy`] overwrites: one per level of nesting (a progress card
    /// looked ahead in a copy looks ahead again in its own), kept for the next call. Boxed,
    /// so that taking one out and putting it back moves a pointer, not a game of 2.5 KB.
    #[allow(clippy::vec_box, reason = "a game moved in and out of the pool is a pointer, not 2.5 KB")]
    static COPIES: RefCell<Vec<Box<Game>>> = const { RefCell::new(Vec::new()) };
}

impl Game {
    /// Calls `f` with a copy of this game, to change as it likes (apply a move's events to
    /// see where they lead). The copy is this thread's, reused from call to call; a call
    /// inside `f` gets a copy of its own, reused as well.
    pub(crate) fn with_copy<R>(&self, f: impl FnOnce(&mut Game) -> R) -> R {
        let mut copy = match COPIES.with(|copies| copies.borrow_mut().pop()) {
            Some(mut copy) => {
                Game::clone_from(&mut copy, self);
                copy
            }
            None => Box::new(self.clone()),
        };
        let result = f(&mut copy);
        copy.park_board();
        COPIES.with(|copies| copies.borrow_mut().push(copy));
        result
    }

    /// Lets go of the board a kept copy shares with the game it copied, pointing it at a
    /// parked one until its next `clone_from`: a board shared with no copy changes in place
    /// when the game changes it (a fog hex revealed, two tokens swapped), where a shared one
    /// would be copied whole (`Arc::make_mut`).
    pub(crate) fn park_board(&mut self) {
        static PARKED: OnceLock<Arc<Board>> = OnceLock::new();
        let parked = PARKED.get_or_init(|| Arc::new(Board::new(beginner_layout()).expect("the beginner board")));
        if !Arc::ptr_eq(&self.board, parked) {
            self.board = Arc::clone(parked);
        }
    }

    /// Calls `f` with the game's ruleset and the game itself, to change: the ruleset is taken
    /// out of the game for the call (a move, not a clone of its `Arc`: applying an event
    /// would otherwise pay two atomic operations) and put back after it. `f` must not read
    /// the game's ruleset: while it is apart, `rules` would assemble another from the
    /// configuration (a game played under rules of its own would lose them). The extensions'
    /// `apply` hooks, the one caller, never do.
    pub(crate) fn with_rules_apart(&mut self, f: impl FnOnce(&Ruleset, &mut Game)) {
        self.rules_arc();
        let rules = std::mem::take(&mut self.rules);
        if let Some(ruleset) = rules.0.get() {
            f(ruleset, self);
        }
        self.rules = rules;
    }
}
