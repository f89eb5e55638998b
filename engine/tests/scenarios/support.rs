//! Given/when/then for rule scenarios: a position built with the engine's validated `Setup`
//! (the beginner board of a fresh game, P0 first, unless a scenario says otherwise), one
//! decided move, and checks on the error code or the new state.

use catan_engine::{
    BuildingKind, DevCard, EdgeId, Event, FirstPlayer, FixedChance, Game, GameConfig, HexCoord, Move, Phase, Resources,
    Seat, Setup, VertexId,
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

/// The position of a fresh 4-player game on the beginner board: nothing placed, setup next.
pub fn given() -> Setup {
    given_with(config(4))
}

/// The position of a fresh game of `config` (its board laid out from seed 7).
pub fn given_with(config: GameConfig) -> Setup {
    Setup::from(&Game::new(config, 7).expect("game"))
}

/// The "given" part of a scenario, on a [`Setup`]: pieces, hands, cards and the turn.
pub trait Given {
    fn settlement(self, seat: Seat, vertex: &str) -> Self;
    fn city(self, seat: Seat, vertex: &str) -> Self;
    fn road(self, seat: Seat, edge: &str) -> Self;
    /// Roads along a walk of adjacent vertices.
    fn roads_along(self, seat: Seat, walk: &[&str]) -> Self;
    /// Cards from the bank into a hand.
    fn give(self, seat: Seat, resources: Resources) -> Self;
    /// A development card bought on an earlier turn: playable now (B-DEV-3).
    fn card(self, seat: Seat, card: DevCard) -> Self;
    fn robber(self, hex: &str) -> Self;
    /// A ship (Seafarers, SEA-1).
    fn ship(self, seat: Seat, edge: &str) -> Self;
    /// Ships on each of `edges`.
    fn ships(self, seat: Seat, edges: &[&str]) -> Self;
    /// The pirate on a sea hex (Seafarers, SEA-7).
    fn pirate(self, hex: &str) -> Self;
    /// A settlement that was one of `seat`'s setup settlements (Seafarers' island bonus,
    /// SEA-12, looks back on them).
    fn setup_settlement(self, seat: Seat, vertex: &str) -> Self;
    /// `seat`'s turn begins: PRE_ROLL.
    fn turn(self, seat: Seat) -> Self;
    /// `seat`'s turn, already rolled (a 5): MAIN.
    fn main_phase(self, seat: Seat) -> Self;
    /// The position, validated: a scenario to play on.
    fn start(self) -> Scenario;
}

impl Given for Setup {
    fn settlement(self, seat: Seat, vertex: &str) -> Setup {
        self.with_building(v(vertex), seat, BuildingKind::Settlement)
    }
    fn city(self, seat: Seat, vertex: &str) -> Setup {
        self.with_building(v(vertex), seat, BuildingKind::City)
    }
    fn road(self, seat: Seat, edge: &str) -> Setup {
        self.with_road(e(edge), seat)
    }
    fn roads_along(self, seat: Seat, walk: &[&str]) -> Setup {
        path(walk).into_iter().fold(self, |setup, edge| setup.with_road(edge, seat))
    }
    fn give(mut self, seat: Seat, resources: Resources) -> Setup {
        self.seat_mut(seat).resources += resources;
        self
    }
    fn card(mut self, seat: Seat, card: DevCard) -> Setup {
        *self.seat_mut(seat).dev_cards.get_mut(card) += 1;
        self
    }
    fn robber(self, hex: &str) -> Setup {
        self.with_robber(h(hex))
    }
    fn ship(self, seat: Seat, edge: &str) -> Setup {
        self.with_ship(e(edge), seat)
    }
    fn ships(self, seat: Seat, edges: &[&str]) -> Setup {
        edges.iter().fold(self, |setup, edge| setup.with_ship(e(edge), seat))
    }
    fn pirate(self, hex: &str) -> Setup {
        self.with_pirate(h(hex))
    }
    fn setup_settlement(self, seat: Seat, vertex: &str) -> Setup {
        self.settlement(seat, vertex).with_setup_settlement(v(vertex), seat)
    }
    fn turn(self, seat: Seat) -> Setup {
        self.with_turn(1, seat)
    }
    fn main_phase(self, seat: Seat) -> Setup {
        self.with_turn(1, seat).with_dice(2, 3).with_phase(Phase::Main, vec![])
    }
    /// Builds the position; Longest Road goes where the roads put it unless a holder was given.
    fn start(self) -> Scenario {
        let setup = if self.longest_road.is_none() { self.with_longest_road_as_measured() } else { self };
        match setup.position() {
            Ok(game) => Scenario { game },
            Err(error) => panic!("the given position is invalid: {} ({error})", error.code()),
        }
    }
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
    /// The position reached so far, to give more from.
    pub fn then_given(&self) -> Setup {
        Setup::from(&self.game)
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
    pub fn ships_left(&self, seat: Seat) -> u8 {
        self.game.player(seat).unwrap().pieces_left().ships
    }
    pub fn road_length(&self, seat: Seat) -> u32 {
        self.game.view(catan_engine::Viewer::Spectator).players[seat.index()].road_length
    }
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
