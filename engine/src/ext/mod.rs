//! Extensions: each variant of the base game is one folder that plugs into the engine
//! through [`Extension`], contributing what it changes — components, board set-up, legal
//! moves and decisions of its own phases and purchases, how its events apply, production,
//! point sources and reactions to the base game's turn — and keeping its own state in
//! [`ExtState`]. The ruleset builder (`ruleset.rs`) decides which extensions are in play.

pub(crate) mod big_river;
pub(crate) mod cities_knights;
pub(crate) mod five_six;
pub(crate) mod jungle;
pub(crate) mod seafarers;
pub(crate) mod wonders;

use std::{fmt::Debug, ops::RangeInclusive};

use serde::{Deserialize, Serialize};

use crate::{
    board::BoardLayout,
    chance::Chance,
    game::Game,
    game::{production::Production, trading::TradeWindow},
    model::{Phase, Seat},
    position::{PositionError, PositionPart, Setup, TurnSetup},
    protocol::{Event, Move, RuleError, SetupError, VictoryCondition},
    ruleset::{Components, Ruleset},
};

/// A variant's contribution to the rules. Every hook has a default that changes nothing, so
/// an extension implements only what it changes.
pub(crate) trait Extension: Debug + Send + Sync {
    /// The variant's name, as in `GameConfig::variant_name`.
    fn name(&self) -> &'static str;

    /// The player counts the variant is for, and what to say otherwise.
    fn player_counts(&self) -> Option<(RangeInclusive<u8>, &'static str)> {
        None
    }

    /// Checks the variant's own options.
    fn validate(&self, _rules: &Ruleset) -> Result<(), SetupError> {
        Ok(())
    }

    /// Why the variant cannot be played together with the named variants, if it cannot.
    fn conflicts_with(&self, _others: &[&str]) -> Option<&'static str> {
        None
    }

    /// Development cards given away so far out of those set aside (FTR-8).
    fn cards_gifted(&self, _game: &Game) -> u32 {
        0
    }

    /// Changes the components of the game.
    fn components(&self, _components: &mut Components) {}

    /// Changes the components once every extension has laid its own (PIR-16: the deck's VP
    /// cards, in whatever deck the 5-6 player extension lays).
    fn finish_components(&self, _components: &mut Components) {}

    /// Lays out the whole board when the variant has its own (the first extension to answer
    /// wins; otherwise the base game's board is laid).
    fn generate_board(&self, _rules: &Ruleset, _rng: &mut crate::rng::Rng) -> Option<Result<BoardLayout, SetupError>> {
        None
    }

    /// Appends the events that open the game after `game_started`, before anyone moves (e.g.
    /// NEW-11: the first harbour drawn), their chance recorded in them; `game` is the position
    /// `game_started` set up.
    fn opening(&self, _game: &Game, _chance: &mut dyn Chance, _events: &mut Vec<Event>) {}

    /// Gives the extension's lists in `game` (just set up) the room a whole game needs, so
    /// that play does not grow them move by move (issue 28: no allocation per move).
    fn reserve(&self, _game: &mut Game) {}

    /// Checks a custom board beyond its components.
    fn check_custom_board(&self, _board: &BoardLayout) -> Result<(), SetupError> {
        Ok(())
    }

    /// Checks a setup settlement site beyond the distance rule.
    fn check_setup_site(&self, _game: &Game, _vertex: u16) -> Result<(), RuleError> {
        Ok(())
    }

    /// Decides a move in a phase the variant owns, appending its events to `events` (the
    /// caller's buffer: self-play need not allocate a list per move); `None` when the phase is
    /// not its own. On an error the caller drops whatever was appended.
    fn decide(
        &self,
        _game: &Game,
        _seat: Seat,
        _mv: &Move,
        _chance: &mut dyn Chance,
        _events: &mut Vec<Event>,
    ) -> Option<Result<(), RuleError>> {
        None
    }

    /// Lists the moves of a phase the variant owns; returns false when the phase is not its
    /// own.
    fn legal_moves(&self, _game: &Game, _seat: Seat, _moves: &mut Vec<Move>) -> bool {
        false
    }

    /// Adds the variant's moves to what the phase allows `seat` (after the base game's and a
    /// phase owner's moves), e.g. ships and the pirate.
    fn more_moves(&self, _game: &Game, _seat: Seat, _moves: &mut Vec<Move>) {}

    /// Decides a purchase the base game does not know, where building and buying is allowed,
    /// appending its events to `events` (on an error it may have appended a part of them,
    /// which the caller drops).
    fn decide_purchase(
        &self,
        _game: &Game,
        _seat: Seat,
        _mv: &Move,
        _chance: &mut dyn Chance,
        _events: &mut Vec<Event>,
    ) -> Option<Result<(), RuleError>> {
        None
    }

    /// Lists the variant's own purchases, where building and buying is allowed.
    fn purchase_moves(&self, _game: &Game, _seat: Seat, _moves: &mut Vec<Move>) {}

    /// Adds what the variant's hexes produce on `roll`.
    fn produce(&self, _game: &Game, _roll: u8, _production: &mut Production) {}

    /// Applies an event the variant owns, and its part of any other (after the base game's
    /// part, so `game.phase` is the phase the event happened in, or the one it started). The
    /// whole game is open to it: pieces, hands, routes, the board's mutable parts and its own
    /// state in [`ExtState`]; `apply` checks no rules, and an event that does not fit the state
    /// changes less rather than creating pieces or cards.
    fn apply(&self, _game: &mut Game, _event: &Event) {}

    /// The variant's victory points for `seat` (all public).
    fn victory_points(&self, _game: &Game, _seat: Seat) -> u32 {
        0
    }

    /// The most victory points the variant's own sources can give one seat, with `pieces`
    /// its supply (an upper bound: a `vp_target` beyond every source is refused); `None` when
    /// it lets a seat win without the target (WON-11's fourth stage).
    fn most_points(&self, _pieces: &crate::Pieces) -> Option<u32> {
        Some(0)
    }

    /// Whether `seat` wins in `after`, the state a move's events lead to, when the variant
    /// has its own victory rule (WON-11): `Some(Some(condition))` wins, `Some(None)` does not,
    /// `None` leaves it to the base rule (the target in points, B-WIN-3). `points` are the
    /// seat's full points there.
    fn victory(&self, _after: &Game, _seat: Seat, _points: u32, _target: u32) -> Option<Option<VictoryCondition>> {
        None
    }

    /// Tests if the event may win the game for its seat whatever the points (WON-11's last
    /// wonder stage), so the victory check looks closer.
    fn wins_whatever_the_points(&self, _event: &Event) -> bool {
        false
    }

    /// Reacts to the events a move caused (any rule's): appends the events that follow from
    /// them under this variant (e.g. the barbarians advancing on a roll). Asked once per
    /// accepted move, before the victory check, with `events` in the order they happen.
    fn react(&self, _game: &Game, _seat: Seat, _events: &mut Vec<Event>, _chance: &mut dyn Chance) {}

    /// What follows the end of a turn instead of the next turn, if anything.
    fn turn_end(&self, _game: &Game) -> Option<Event> {
        None
    }

    /// Whether the settlement a city replaces on `vertex` goes back to the supply (B-BLD-6);
    /// asked once as the city is applied, so the variant may forget what it kept about the
    /// vertex (CK-BAR-8: a pillaged city that took no settlement piece gives none back).
    fn settlement_returns_to_supply(&self, _game: &mut Game, _vertex: crate::board::VertexId) -> bool {
        true
    }

    /// Adds the resources `seat` trades with the bank at 2:1 besides its harbours (CK-MER-2),
    /// one in `special` for each.
    fn two_for_one(&self, _game: &Game, _seat: Seat, _special: &mut crate::Resources) {}

    /// Draws the card a thief takes from `victim`'s hand when the variant's hands hold more
    /// than resources (CK-7-2); `None` leaves it to the base game (B-ROB-3).
    fn steal_card(&self, _game: &Game, _thief: Seat, _victim: Seat, _chance: &mut dyn Chance) -> Option<Event> {
        None
    }

    /// Adds the variant's part to what `you` (a seat, or `None` for a spectator) see of the
    /// game; `over` shows everything.
    fn view(&self, _game: &Game, _you: Option<Seat>, _over: bool, _view: &mut crate::view::GameView) {}

    /// The parts of a position ([`Setup`]) the variant reads: a position that gives a part no
    /// extension of its game reads is refused as not in this game.
    fn position_parts(&self) -> &'static [PositionPart] {
        &[]
    }

    /// Checks and places the variant's pieces of a position, beside the base game's buildings
    /// and roads and before the supply is counted (e.g. ships, SEA-1).
    fn place_position_pieces(&self, _game: &mut Game, _setup: &Setup) -> Result<(), PositionError> {
        Ok(())
    }

    /// Checks and places the rest of the variant's part of a position, once the base game's
    /// part (pieces, hands, bank, deck, phase, offers) stands.
    fn place_position(&self, _game: &mut Game, _setup: &Setup) -> Result<(), PositionError> {
        Ok(())
    }

    /// Checks a phase of a position (`phase`, one of the current phase and those it
    /// interrupted) when the variant owns it or changes what the base game allows in it;
    /// `None` leaves it to the base game's check.
    fn check_position_phase(
        &self,
        _game: &Game,
        _phase: &Phase,
        _then: &[Phase],
        _turn: &TurnSetup,
    ) -> Option<Result<(), PositionError>> {
        None
    }

    /// Writes the variant's part of `game`'s position into `setup` (what
    /// [`Extension::place_position`] reads back).
    fn export_position(&self, _game: &Game, _setup: &mut Setup) {}

    /// Hides from `redacted` (a reader's view of `whole`, the base game's part hidden) the
    /// variant's cards the reader does not see: counts in the seats' `hidden`, the cards
    /// pooled in `unseen` (`Setup::redacted_for`).
    fn redact_position(&self, _whole: &Setup, _redacted: &mut Setup) {}

    /// Deals the variant's pooled cards of a redacted position (`unseen`) into the hidden
    /// hands by their counts, taking each count it deals from the seats' `hidden`.
    fn deal_position(&self, _unseen: &crate::position::Unseen, _setup: &mut Setup) -> Result<(), PositionError> {
        Ok(())
    }

    /// Whether the building on `vertex` holds no piece of its owner's supply, so that a
    /// position's count of pieces passes it by (CK-BAR-8: a pillaged city without a
    /// settlement piece).
    fn holds_no_piece(&self, _game: &Game, _vertex: u16) -> bool {
        false
    }

    /// Who may trade in a phase the variant owns.
    fn trade_window(&self, _game: &Game) -> Option<TradeWindow> {
        None
    }
}

/// The state the extensions keep, each part owned by its extension's module.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ExtState {
    #[serde(default, skip_serializing_if = "jungle::JungleState::is_unused")]
    pub jungle: jungle::JungleState,
    #[serde(default, skip_serializing_if = "seafarers::SeafarersState::is_unused")]
    pub seafarers: seafarers::SeafarersState,
    #[serde(default, skip_serializing_if = "wonders::WondersState::is_unused")]
    pub wonders: wonders::WondersState,
    #[serde(default, skip_serializing_if = "cities_knights::CitiesKnightsState::is_unused")]
    pub cities_knights: cities_knights::CitiesKnightsState,
}

/// By hand for `clone_from`, which the game's copy for looking ahead calls move after move:
/// each part reuses the copy's buffers where its own `clone_from` does. `clone_from` names
/// every field; `clone` is a `clone_from` into an empty state.
impl Clone for ExtState {
    fn clone(&self) -> Self {
        let mut copy = ExtState::default();
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &Self) {
        let ExtState { jungle, seafarers, wonders, cities_knights } = source;
        self.jungle.clone_from(jungle);
        self.seafarers.clone_from(seafarers);
        self.wonders.clone_from(wonders);
        self.cities_knights.clone_from(cities_knights);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{model::Phase, GameConfig, Resources};

    /// A variant that pays a lumber to whoever rolls a 12 (only to test the reaction hook).
    #[derive(Debug)]
    struct BoxcarsBonus;

    impl Extension for BoxcarsBonus {
        fn name(&self) -> &'static str {
            "boxcars_bonus"
        }

        fn react(&self, _game: &Game, seat: Seat, events: &mut Vec<Event>, _chance: &mut dyn Chance) {
            if events.iter().any(|e| matches!(e, Event::DiceRolled { red: 6, white: 6, .. })) {
                let bonus = Event::StartingResourcesReceived { seat, resources: Resources::new(1, 0, 0, 0, 0) };
                events.push(bonus);
            }
        }
    }

    #[test]
    fn extensions_react_to_other_rules_events_before_the_victory_check() {
        let config = GameConfig { first_player: crate::FirstPlayer::Seat(0), ..GameConfig::for_players(3) };
        let mut game = Game::new(config.clone(), 3).unwrap();
        let mut ruleset = Ruleset::assemble(&config);
        ruleset.extensions.push(Box::new(BoxcarsBonus));
        game.set_rules(Arc::new(ruleset));
        // Through setup with the first legal moves, to the first roll.
        while matches!(game.phase(), Phase::Setup { .. }) {
            let seat = game.active_seat();
            let mv = game.legal_moves(seat).remove(0);
            for event in game.decide(seat, &mv, &mut game.chance()).unwrap() {
                game.apply(&event);
            }
        }
        let boxcars = game.decide(Seat(0), &Move::RollDice, &mut crate::FixedChance::dice(6, 6)).unwrap();
        assert!(boxcars
            .contains(&Event::StartingResourcesReceived { seat: Seat(0), resources: Resources::new(1, 0, 0, 0, 0) }));
        let other = game.decide(Seat(0), &Move::RollDice, &mut crate::FixedChance::dice(5, 6)).unwrap();
        assert!(!other.iter().any(|e| matches!(e, Event::StartingResourcesReceived { .. })));
    }
}
