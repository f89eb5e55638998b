//! Victory points and victory (B-WIN). Points are one function of the state: the victory
//! check, the views and the bots all read [`Game::victory_points`].

use std::cell::RefCell;

use crate::{
    game::Game,
    model::Seat,
    protocol::{Event, VictoryCondition},
};

impl Game {
    /// Returns the victory points visible to everyone (B-WIN-2): buildings, Longest Road,
    /// Largest Army and every extension's points, without hidden VP cards.
    pub fn public_victory_points(&self, seat: Seat) -> u32 {
        let Some(player) = self.players.get(seat.index()) else { return 0 };
        let mut points = player.settlements_on_board() + 2 * player.cities_on_board();
        if self.longest_road == Some(seat) {
            points += 2;
        }
        if self.largest_army == Some(seat) {
            points += 2;
        }
        for extension in &self.rules().extensions {
            // Saturating: a misfit event applied may give an extension any points (SEA-12).
            points = points.saturating_add(extension.victory_points(self, seat));
        }
        points
    }

    /// Returns the full victory points, including hidden VP cards (B-WIN-2).
    pub fn victory_points(&self, seat: Seat) -> u32 {
        let cards = self.players.get(seat.index()).map_or(0, |p| p.victory_point_cards());
        self.public_victory_points(seat).saturating_add(cards)
    }

    /// How `seat`, with `points`, wins the game as it stands, if it does: a variant's own
    /// rule (WON-11), else the target in points (B-WIN-3). Not whose turn it is.
    pub(crate) fn victory_verdict(&self, seat: Seat, points: u32) -> Option<VictoryCondition> {
        let target = u32::from(self.rules().base.vp_target);
        let own_rule = self.rules().extensions.iter().find_map(|x| x.victory(self, seat, points, target));
        own_rule.unwrap_or((points >= target).then_some(VictoryCondition::VictoryPoints))
    }

    /// B-WIN-3: after an action, the player whose turn it now is wins with enough points —
    /// the active player after their own action, or the next player at the start of their
    /// turn. Appends `game_won` to `events` when so.
    pub(super) fn check_victory(&self, events: &mut Vec<Event>) {
        // One pass over the move's events (this runs after every move): the last turn start,
        // and how many events may change points.
        let (mut turn_starts, mut scoring) = (None, 0u32);
        for event in events.iter() {
            match event {
                // A variant's own end (CLV-14 b) came first.
                Event::GameWon { .. } => return,
                Event::TurnStarted { seat, .. } => turn_starts = Some(*seat),
                _ => {}
            }
            scoring += u32::from(may_change_points(event));
        }
        // Nobody wins between turns (setup, X56-9's special building): only at a turn start.
        if self.phase.is_between_turns() && turn_starts.is_none() {
            return;
        }
        let seat = turn_starts.unwrap_or(self.turn.active);
        let target = u32::from(self.rules().base.vp_target);
        // The points after the events are those of the state they lead to. Only when they
        // could reach the target (or a variant's event wins whatever the points) is that
        // state built.
        let most_gained = scoring.saturating_mul(self.rules().components.max_points_per_event);
        if self.victory_points(seat).saturating_add(most_gained) < target {
            let extensions = &self.rules().extensions;
            if !events.iter().any(|e| extensions.iter().any(|x| x.wins_whatever_the_points(e))) {
                return;
            }
        }
        let verdict = AFTER.with(|after| match after.try_borrow_mut() {
            Ok(mut after) => self.verdict_after(seat, events, after.get_or_insert_with(|| self.clone())),
            // Only if a victory check ever ran inside another on this thread.
            Err(_) => self.verdict_after(seat, events, &mut self.clone()),
        });
        let Some((condition, points, victory_point_cards)) = verdict else {
            return;
        };
        // Offers still open (and not lapsing in these events) die with the game.
        let lapsed = events.iter().any(|e| matches!(e, Event::TradesExpired { .. }));
        if !self.offers.is_empty() && !lapsed {
            events.push(Event::TradesExpired { offer_ids: self.offers.iter().map(|o| o.id).collect() });
        }
        events.push(Event::GameWon { seat, victory_points: points, victory_point_cards, condition });
    }

    /// How `seat` wins in the state `events` lead to, built in `after` (any game, which this
    /// one overwrites), with its points and its VP cards.
    fn verdict_after(&self, seat: Seat, events: &[Event], after: &mut Game) -> Option<(VictoryCondition, u32, u32)> {
        after.clone_from(self);
        for event in events {
            after.apply(event);
        }
        let points = after.victory_points(seat);
        let verdict = after.victory_verdict(seat, points);
        let cards = after.players[seat.index()].victory_point_cards();
        after.park_board();
        Some((verdict?, points, cards))
    }
}

thread_local! {
    /// The state the victory check builds, kept from move to move so that building it again
    /// reuses its buffers instead of allocating a copy of the game (issue 28, part 5).
    static AFTER: RefCell<Option<Game>> = const { RefCell::new(None) };
}

/// Tests if an event may change anyone's victory points. Only events known never to do so
/// answer false; any other (every extension's, unless listed here) is looked at closely.
fn may_change_points(event: &Event) -> bool {
    // Beside the events that touch no piece: pieces and figures that score nothing.
    !(event.leaves_pieces_and_points()
        || event.changes_only_knights_or_walls()
        || matches!(
            event,
            Event::FogRevealed { .. }
                | Event::WonderClaimed { .. }
                | Event::WonderStageBuilt { .. }
                | Event::BarbariansAttacked { .. }
        ))
}
