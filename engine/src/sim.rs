//! Self-play: a driver that plays a whole game through the public rules API (legal moves,
//! decide, apply) with one [`Bot`] per seat. Used by the simulator example, the benchmark
//! and the invariant tests. The bots themselves live in [`crate::bots`].

pub use crate::bots::{new_bot, Bot, BotKind, HeuristicBot, RandomBot};
use crate::{
    config::GameConfig,
    game::Game,
    protocol::{Event, Move, SetupError},
};

/// How a self-played game went.
#[derive(Debug, Clone)]
pub struct GameRecord {
    pub game: Game,
    /// The whole log, starting with `game_started`.
    pub events: Vec<Event>,
    pub moves: u64,
    pub finished: bool,
}

/// Events a self-played log has room for from the start (a random 4-player base game logs
/// about 1,600).
const LOG_RESERVE: usize = 2_048;

/// Safety net against a game that never ends; reported by [`GameRecord::finished`].
pub const TURN_CAP: u32 = 2_000;

/// Plays one game to the end (or to [`TURN_CAP`]) with one bot per seat: seat `i` is played
/// by `bots[i % bots.len()]`. Any bot works: `Box<dyn Bot>`, `Box<dyn Bot + Send>` (from
/// [`new_bot`]) or a concrete bot type.
///
/// # Errors
/// [`SetupError`] when the configuration is invalid, or `bots` is empty.
pub fn play_game<B: Bot>(config: GameConfig, seed: u64, bots: &mut [B]) -> Result<GameRecord, SetupError> {
    let mut driver = SelfPlay::new();
    let played = driver.play(config, seed, bots)?;
    let (game, moves, finished) = (played.game, played.moves, played.finished);
    Ok(GameRecord { game, events: std::mem::take(&mut driver.log), moves, finished })
}

/// A self-play driver that keeps its buffers (the legal moves, a move's events and the log)
/// from game to game, so that a run of many games allocates them once, not once a game: a
/// game's log is about 300 KB, and regrowing the lists every game was a tenth of a random
/// game's time.
#[derive(Debug, Default)]
pub struct SelfPlay {
    legal: Vec<Move>,
    decided: Vec<Event>,
    log: Vec<Event>,
    /// Whether the whole log is kept ([`SelfPlay::new`]) or only the last move's events
    /// ([`SelfPlay::unlogged`]).
    keep_log: bool,
}

/// A game [`SelfPlay`] played, its events borrowed from the driver until the next game.
#[derive(Debug)]
pub struct PlayedGame<'a> {
    pub game: Game,
    /// The whole log, starting with `game_started`; from an [`SelfPlay::unlogged`] driver,
    /// the last move's events only (a finished game's `game_won` among them).
    pub events: &'a [Event],
    pub moves: u64,
    pub finished: bool,
}

impl SelfPlay {
    pub fn new() -> Self {
        SelfPlay { legal: Vec::new(), decided: Vec::new(), log: Vec::with_capacity(LOG_RESERVE), keep_log: true }
    }

    /// A driver that keeps no log, for runs that only count games and their outcomes (the
    /// simulator, the benchmarks): copying each move's events into a 300 KB log was about a
    /// twentieth of a random game's time, a cost of the driver rather than of the rules, and
    /// one the engines it is measured against do not pay.
    pub fn unlogged() -> Self {
        SelfPlay { keep_log: false, ..SelfPlay::default() }
    }

    /// Plays one game as [`play_game`] does.
    ///
    /// # Errors
    /// [`SetupError`] when the configuration is invalid, or `bots` is empty.
    pub fn play<B: Bot>(
        &mut self,
        config: GameConfig,
        seed: u64,
        bots: &mut [B],
    ) -> Result<PlayedGame<'_>, SetupError> {
        if bots.is_empty() {
            return Err(SetupError::InvalidConfig("play_game needs at least one bot".into()));
        }
        let (mut game, mut started) = Game::start(config, seed)?;
        let SelfPlay { legal, decided, log, keep_log } = self;
        log.clear();
        if *keep_log {
            log.append(&mut started);
        }
        let mut moves = 0;
        let mut finished = false;
        while game.turn_number() <= TURN_CAP {
            if game.is_over() {
                finished = true;
                break;
            }
            let Some(seat) = game.next_to_act() else {
                break;
            };
            game.legal_moves_into(seat, legal);
            if legal.is_empty() {
                break; // no move for the seat that must act: a rules bug the tests would report
            }
            let bot = &mut bots[seat.index() % bots.len()];
            let choice = bot.choose(&game, seat, legal).min(legal.len() - 1);
            let mut chance = game.chance();
            if game.decide_into(seat, &legal[choice], &mut chance, decided).is_err() {
                break;
            }
            for event in decided.iter() {
                game.apply(event);
            }
            if *keep_log {
                log.append(decided);
            }
            moves += 1;
        }
        if !*keep_log {
            log.append(decided);
        }
        Ok(PlayedGame { game, events: log, moves, finished })
    }

    /// Plays one game as [`play_bots_game`] does.
    ///
    /// # Errors
    /// [`SetupError`] when the configuration is invalid, or `kinds` is empty.
    pub fn play_bots(
        &mut self,
        config: GameConfig,
        seed: u64,
        kinds: &[BotKind],
    ) -> Result<PlayedGame<'_>, SetupError> {
        if kinds.is_empty() {
            return Err(SetupError::InvalidConfig("play_bots_game needs at least one bot kind".into()));
        }
        let mut bots: Vec<Box<dyn Bot + Send>> =
            (0..config.players).map(|i| new_bot(kinds[usize::from(i) % kinds.len()], bot_seed(seed, i))).collect();
        self.play(config, seed, &mut bots)
    }
}

/// Plays a game with random bots in every seat.
///
/// # Errors
/// [`SetupError`] when the configuration is invalid.
pub fn play_random_game(config: GameConfig, seed: u64) -> Result<GameRecord, SetupError> {
    let mut bots: Vec<RandomBot> = (0..config.players).map(|i| RandomBot::new(bot_seed(seed, i))).collect();
    play_game(config, seed, &mut bots)
}

/// Plays a game with one bot of the given kind per seat (`kinds[i % kinds.len()]` in seat
/// `i`), each seeded from `seed` and its seat as in [`play_random_game`]: all-random kinds
/// replay exactly the games of [`play_random_game`].
///
/// # Errors
/// [`SetupError`] when the configuration is invalid, or `kinds` is empty.
pub fn play_bots_game(config: GameConfig, seed: u64, kinds: &[BotKind]) -> Result<GameRecord, SetupError> {
    let mut driver = SelfPlay::new();
    let played = driver.play_bots(config, seed, kinds)?;
    let (game, moves, finished) = (played.game, played.moves, played.finished);
    Ok(GameRecord { game, events: std::mem::take(&mut driver.log), moves, finished })
}

/// The seed of the bot in seat `seat` of the game seeded `seed`.
pub fn bot_seed(seed: u64, seat: u8) -> u64 {
    seed.wrapping_mul(31).wrapping_add(u64::from(seat))
}
