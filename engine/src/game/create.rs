//! Creating a game: from a configuration and a seed (the board laid, the first player
//! drawn, the extensions' openings), from a prepared position, or by replaying a log.

use std::sync::{Arc, OnceLock};

use super::{Game, RulesCell, SETUP_STREAM};
use crate::{
    board::{Board, BoardLayout},
    config::{FirstPlayer, GameConfig},
    ext::ExtState,
    model::{Phase, Phases, PlayerState, Seat, SetupStep, Turn},
    protocol::{Event, SetupError, StartingRoll},
    rng::Rng,
    ruleset::Ruleset,
};

impl Game {
    /// Sets up a new game: lays out the board and decides the first player from `seed`.
    ///
    /// # Errors
    /// [`SetupError`] when the configuration or a custom board is invalid.
    pub fn new(config: GameConfig, seed: u64) -> Result<Game, SetupError> {
        Game::start(config, seed).map(|(game, _)| game)
    }

    /// Sets up a new game and returns it with the events that opened it (the first entries
    /// of its log), building the board once: `game_started`, then what the extensions open
    /// the game with before anyone moves (NEW-11: the first harbour drawn).
    ///
    /// # Errors
    /// [`SetupError`] when the configuration or a custom board is invalid.
    pub fn start(config: GameConfig, seed: u64) -> Result<(Game, Vec<Event>), SetupError> {
        let (rules, opening) = Game::opening(&config, seed)?;
        let Event::GameStarted { board, first_seat, .. } = &opening else {
            return Err(SetupError::InvalidLog("the first event must be game_started".into()));
        };
        let mut game = Game::started(config, rules, board.clone(), *first_seat, seed)?;
        let mut events = vec![opening];
        let mut opening_rest = Vec::new();
        let mut chance = game.chance();
        for extension in &game.shared_rules().extensions {
            extension.opening(&game, &mut chance, &mut opening_rest);
        }
        for event in &opening_rest {
            game.apply(event);
        }
        events.append(&mut opening_rest);
        game.check_room_for_setup_rounds()?;
        Ok((game, events))
    }

    /// Sets up a game that starts from a prepared position (a whole one: no hidden hands), with
    /// `seed` as its chance: the events that open it are `game_started` (the position's
    /// board and first seat) and `position_set` (the position), so that replaying them gives
    /// the game.
    ///
    /// # Errors
    /// The position's [`PositionError`](crate::position::PositionError); a reader's view of
    /// one is [`PositionError::Unseen`](crate::position::PositionError::Unseen), and a
    /// finished one [`PositionError::InvalidPhase`](crate::position::PositionError::InvalidPhase).
    pub fn start_from(
        mut position: crate::position::Setup,
        seed: u64,
    ) -> Result<(Game, Vec<Event>), crate::position::PositionError> {
        if position.is_redacted() {
            return Err(crate::position::PositionError::Unseen(
                "a game starts from a whole position, not from a reader's view of one".into(),
            ));
        }
        if position.winner.is_some() {
            return Err(crate::position::PositionError::InvalidPhase(
                "a game starts from a position that is not over (B-WIN-4)".into(),
            ));
        }
        position.seed = seed;
        // `game_started` and `position_set` are the events applied when play begins.
        position.events_applied = 2;
        position.clone().position()?;
        let opening = vec![
            Event::GameStarted {
                players: position.config.players,
                board: position.board.clone(),
                first_seat: position.first_seat,
                starting_rolls: Vec::new(),
                seed: Some(seed),
            },
            Event::PositionSet { position: Box::new(position.clone()) },
        ];
        let game = Game::replay(position.config, &opening)?;
        Ok((game, opening))
    }

    /// Returns the events that open a game: for a server, the first entries of the move log.
    ///
    /// # Errors
    /// [`SetupError`] when the configuration or a custom board is invalid.
    pub fn start_events(config: &GameConfig, seed: u64) -> Result<Vec<Event>, SetupError> {
        Game::start(config.clone(), seed).map(|(_, events)| events)
    }

    /// The ruleset and the opening event, with the board laid but not yet checked
    /// (`Game::started` does).
    fn opening(config: &GameConfig, seed: u64) -> Result<(Arc<Ruleset>, Event), SetupError> {
        let rules = Arc::new(Ruleset::build(config)?);
        let mut rng = Rng::for_stream(seed, SETUP_STREAM);
        let board = rules.generate_board(&mut rng)?;

        let (first_seat, starting_rolls) = match config.first_player {
            FirstPlayer::Seat(seat) if seat < config.players => (Seat(seat), Vec::new()),
            FirstPlayer::Seat(seat) => {
                return Err(SetupError::InvalidConfig(format!("first_player seat {seat} is not in the game")))
            }
            FirstPlayer::Roll => roll_for_first_player(config.players, &mut rng),
        };
        let opening =
            Event::GameStarted { players: config.players, board, first_seat, starting_rolls, seed: Some(seed) };
        Ok((rules, opening))
    }

    /// Rebuilds a game from its log; the first event must be `game_started`.
    ///
    /// # Errors
    /// [`SetupError::InvalidLog`] when the log does not start with `game_started`, or its
    /// board is invalid.
    pub fn replay<'a>(config: GameConfig, events: impl IntoIterator<Item = &'a Event>) -> Result<Game, SetupError> {
        let mut events = events.into_iter();
        let Some(Event::GameStarted { players, board, first_seat, seed, .. }) = events.next() else {
            return Err(SetupError::InvalidLog("the first event must be game_started".into()));
        };
        if *players != config.players {
            return Err(SetupError::InvalidLog(format!(
                "the log is for {players} players, the configuration for {}",
                config.players
            )));
        }
        let Some(seed) = seed else {
            return Err(SetupError::InvalidLog("game_started has no seed (was the log redacted?)".into()));
        };
        let rules = Arc::new(Ruleset::build(&config)?);
        let mut game = Game::started(config, rules, board.clone(), *first_seat, *seed)?;
        for event in events {
            game.apply(event);
        }
        Ok(game)
    }

    /// The position right after `game_started`, under `rules` (built from `config`).
    pub(crate) fn started(
        config: GameConfig,
        rules: Arc<Ruleset>,
        layout: BoardLayout,
        first_seat: Seat,
        seed: u64,
    ) -> Result<Game, SetupError> {
        let board = Board::new(layout)?;
        let robber = board.layout().robber.and_then(|h| board.hex(h));
        let pirate = board.layout().pirate.and_then(|h| board.hex(h));
        let components = &rules.components;
        let players = (0..config.players).map(|_| PlayerState::new(components.pieces)).collect();
        let mut game = Game {
            buildings: vec![None; board.vertices.len()],
            roads: vec![None; board.edges.len()],
            ships: Vec::new(),
            pirate,
            board: Arc::new(board),
            seed,
            events_applied: 1,
            first_seat,
            players,
            bank: components.bank,
            deck: components.development_deck,
            robber,
            phase: Phase::Setup { seat: first_seat, placement: 0, step: SetupStep::PlaceSettlement },
            then: Phases::new(),
            turn: Turn::new(0, first_seat),
            longest_road: None,
            largest_army: None,
            offers: Vec::new(),
            next_offer_id: 1,
            winner: None,
            ext: ExtState::default(),
            commodity_bank: components.commodities,
            rules: RulesCell(OnceLock::from(rules)),
            routes: Default::default(),
            pieces: Default::default(),
            config,
        };
        for extension in &game.shared_rules().extensions {
            extension.reserve(&mut game);
        }
        Ok(game)
    }
}

/// B-SET-2: everyone rolls; the highest sum starts; tied seats re-roll among themselves.
fn roll_for_first_player(players: u8, rng: &mut Rng) -> (Seat, Vec<StartingRoll>) {
    let mut contenders: Vec<Seat> = (0..players).map(Seat).collect();
    let mut rolls = Vec::new();
    loop {
        let round: Vec<StartingRoll> =
            contenders.iter().map(|&seat| StartingRoll { seat, total: rng.die() + rng.die() }).collect();
        let best = round.iter().map(|r| r.total).max().unwrap_or(0);
        contenders = round.iter().filter(|r| r.total == best).map(|r| r.seat).collect();
        rolls.extend(round);
        if contenders.len() == 1 {
            return (contenders[0], rolls);
        }
    }
}
