//! Self-play: a driver that plays a whole game through the public rules API (legal moves,
//! decide, apply) with one [`Bot`] per seat. Used by the simulator example, the benchmark
//! and the invariant tests. The bots themselves live in [`crate::bots`].

pub use crate::bots::{new_bot, Bot, BotKind, HeuristicBot, RandomBot};
use crate::{
    config::GameConfig,
    game::Game,
    protocol::{Event, SetupError},
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
    if bots.is_empty() {
        return Err(SetupError::InvalidConfig("play_game needs at least one bot".into()));
    }
    let (mut game, mut events) = Game::start(config, seed)?;
    // Room for a typical game's log at once, instead of growing (and copying) it as it goes.
    events.reserve(LOG_RESERVE);
    let mut moves = 0;
    let mut finished = false;
    let mut legal = Vec::new();
    let mut decided = Vec::new();
    while game.turn_number() <= TURN_CAP {
        if game.is_over() {
            finished = true;
            break;
        }
        let Some(seat) = game.next_to_act() else {
            break;
        };
        game.legal_moves_into(seat, &mut legal);
        if legal.is_empty() {
            break; // no move for the seat that must act: a rules bug the tests would report
        }
        let bot = &mut bots[seat.index() % bots.len()];
        let choice = bot.choose(&game, seat, &legal).min(legal.len() - 1);
        let mut chance = game.chance();
        if game.decide_into(seat, &legal[choice], &mut chance, &mut decided).is_err() {
            break;
        }
        for event in &decided {
            game.apply(event);
        }
        events.append(&mut decided);
        moves += 1;
    }
    Ok(GameRecord { game, events, moves, finished })
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
    if kinds.is_empty() {
        return Err(SetupError::InvalidConfig("play_bots_game needs at least one bot kind".into()));
    }
    let mut bots: Vec<Box<dyn Bot + Send>> =
        (0..config.players).map(|i| new_bot(kinds[usize::from(i) % kinds.len()], bot_seed(seed, i))).collect();
    play_game(config, seed, &mut bots)
}

/// The seed of the bot in seat `seat` of the game seeded `seed`.
pub fn bot_seed(seed: u64, seat: u8) -> u64 {
    seed.wrapping_mul(31).wrapping_add(u64::from(seat))
}
