//! Given/when/then for rule scenarios: a fresh beginner-board game, synthetic "given" events
//! (apply has no rules), one decided move, and checks on the error code or the new state.

use catan_engine::{
    DevCard, EdgeId, Event, FirstPlayer, FixedChance, Game, GameConfig, HexCoord, Move, Phase, Resources, Seat,
    VertexId,
};

pub const P0: Seat = Seat(0);
pub const P1: Seat = Seat(1);
pub const P2: Seat = Seat(2);
pub const P3: Seat = Seat(3);

pub fn v(id: &str) -> VertexId {
    id.parse().unwrap_or_else(|_| panic!("bad vertex id {id}"))
}
pub fn e(id: &str) -> EdgeId {
    id.parse().unwrap_or_else(|_| panic!("bad edge id {id}"))
}
pub fn h(id: &str) -> HexCoord {
    id.parse().unwrap_or_else(|_| panic!("bad hex id {id}"))
}

/// 4 players on the beginner board (B-GEO-14), P0 first.
pub fn config(players: u8) -> GameConfig {
    GameConfig { first_player: FirstPlayer::Seat(0), ..GameConfig::for_players(players) }
}

pub struct Scenario {
    pub game: Game,
}

impl Scenario {
    pub fn new() -> Self {
        Scenario::with(config(4))
    }
    pub fn with(config: GameConfig) -> Self {
        Scenario { game: Game::new(config, 7).expect("game") }
    }
    /// Applies synthetic events that set up the position.
    pub fn given(mut self, events: impl IntoIterator<Item = Event>) -> Self {
        for event in events {
            self.game.apply(&event);
        }
        self
    }
    /// Decides `mv` (it must be accepted and listed by `legal_moves`), applies the events and
    /// returns them.
    pub fn when(&mut self, seat: Seat, mv: Move) -> Vec<Event> {
        self.when_with(seat, mv, FixedChance::default())
    }
    pub fn when_with(&mut self, seat: Seat, mv: Move, mut chance: FixedChance) -> Vec<Event> {
        if !matches!(mv, Move::OfferTrade { .. }) {
            assert!(self.game.legal_moves(seat).contains(&mv), "{mv:?} by {seat} is not listed as legal");
        }
        let events = match self.game.decide(seat, &mv, &mut chance) {
            Ok(events) => events,
            Err(err) => panic!("{mv:?} by seat {seat} rejected: {} ({err})", err.code()),
        };
        for event in &events {
            self.game.apply(event);
        }
        events
    }
    /// Asserts that `mv` is rejected with `code`, is not listed as legal, and changes nothing.
    pub fn rejects(&self, seat: Seat, mv: Move, code: &str) {
        let before = self.game.clone();
        let err = self
            .game
            .decide(seat, &mv, &mut FixedChance::default())
            .expect_err(&format!("{mv:?} by {seat} should be rejected"));
        assert_eq!(err.code(), code, "{mv:?} by {seat}: {err}");
        assert!(self.game == before, "a rejected move changed the game");
        assert!(!self.game.legal_moves(seat).contains(&mv), "{mv:?} is rejected but listed as legal");
    }
    pub fn hand(&self, seat: Seat) -> Resources {
        *self.game.player(seat).unwrap().resources()
    }
    pub fn road_length(&self, seat: Seat) -> u32 {
        self.game.view(catan_engine::Viewer::Spectator).players[seat.index()].road_length
    }
}

// Event builders for the "given" part.
pub fn settlement(seat: Seat, vertex: &str) -> Event {
    Event::SettlementBuilt { seat, vertex: v(vertex), cost: Resources::ZERO }
}
/// A city: a settlement, then its upgrade (CityBuilt returns the settlement piece).
pub fn city(seat: Seat, vertex: &str) -> [Event; 2] {
    [settlement(seat, vertex), Event::CityBuilt { seat, vertex: v(vertex), cost: Resources::ZERO }]
}
pub fn road(seat: Seat, edge: &str) -> Event {
    Event::RoadBuilt { seat, edge: e(edge), cost: Resources::ZERO }
}
/// Roads along a walk of adjacent vertices.
pub fn roads_along(seat: Seat, walk: &[&str]) -> Vec<Event> {
    path(walk).into_iter().map(|edge| Event::RoadBuilt { seat, edge, cost: Resources::ZERO }).collect()
}
/// The edges joining consecutive vertices of a walk.
pub fn path(walk: &[&str]) -> Vec<EdgeId> {
    walk.windows(2)
        .map(|pair| {
            let (a, b) = (v(pair[0]), v(pair[1]));
            *a.edges()
                .iter()
                .find(|edge| edge.endpoints().contains(&b))
                .unwrap_or_else(|| panic!("{a} and {b} are not adjacent"))
        })
        .collect()
}
/// Cards from the bank into a hand.
pub fn give(seat: Seat, resources: Resources) -> Event {
    Event::StartingResourcesReceived { seat, resources }
}
/// A development card drawn before the next `turn`, hence playable then (B-DEV-3).
pub fn card(seat: Seat, card: DevCard) -> Event {
    Event::DevelopmentCardBought { seat, cost: Resources::ZERO, discoveries: 0, card: Some(card) }
}
/// `seat`'s turn begins: PRE_ROLL.
pub fn turn(seat: Seat) -> Event {
    Event::TurnStarted { seat, turn: 1 }
}
/// `seat`'s turn, already rolled (a 5): MAIN.
pub fn main_phase(seat: Seat) -> [Event; 3] {
    [turn(seat), Event::DiceRolled { seat, red: 2, white: 3 }, Event::PhaseChanged { phase: Phase::Main, then: vec![] }]
}
