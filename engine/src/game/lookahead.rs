//! A copy of the game to look ahead in: the state a move's events lead to, built in a copy
//! kept per thread and overwritten by [`Game::clone_from`] each time, so that looking ahead
//! reuses its buffers instead of allocating a new copy of the game (issue 28, part 5).

use std::cell::RefCell;

use crate::game::Game;

thread_local! {
    /// The copy [`Game::with_copy`] overwrites.
    static COPY: RefCell<Option<Game>> = const { RefCell::new(None) };
}

impl Game {
    /// Calls `f` with a copy of this game, to change as it likes (apply a move's events to
    /// see where they lead). The copy is this thread's, reused from call to call; a call
    /// inside `f` gets a copy of its own.
    pub(crate) fn with_copy<R>(&self, f: impl FnOnce(&mut Game) -> R) -> R {
        COPY.with(|cell| match cell.try_borrow_mut() {
            Ok(mut slot) => {
                let copy = match slot.as_mut() {
                    Some(copy) => {
                        copy.clone_from(self);
                        copy
                    }
                    None => slot.insert(self.clone()),
                };
                f(copy)
            }
            Err(_) => f(&mut self.clone()),
        })
    }
}
