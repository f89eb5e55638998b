//! Self-play: a weighted random bot and a driver that plays a whole game through the public
//! rules API (legal moves, decide, apply). Used by the simulator example, the benchmark and
//! the invariant tests.

use crate::{
    chance::Chance,
    config::GameConfig,
    error::SetupError,
    events::Event,
    moves::Move,
    rng::Rng,
    state::{Game, Seat},
};

/// Picks a move among the legal ones.
pub trait Bot {
    fn choose(&mut self, game: &Game, seat: Seat, moves: &[Move]) -> usize;
}

/// Picks at random, weighted toward moves that score so that games end: cities and
/// settlements first, then development cards and roads; bank trades and ending the turn
/// less often.
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: Rng::new(seed),
        }
    }

    fn weight(mv: &Move) -> u32 {
        match mv {
            Move::BuildCity { .. } => 1000,
            Move::BuildSettlement { .. } => 800,
            Move::BuyDevelopmentCard => 150,
            Move::PlayKnight { .. }
            | Move::PlayRoadBuilding
            | Move::PlayYearOfPlenty { .. }
            | Move::PlayMonopoly { .. } => 40,
            Move::BuildRoad { .. } => 60,
            Move::TradeWithBank { .. } => 8,
            Move::EndTurn => 30,
            _ => 10,
        }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, _game: &Game, _seat: Seat, moves: &[Move]) -> usize {
        let total: u32 = moves.iter().map(RandomBot::weight).sum();
        let mut pick = self.rng.below(total.max(1));
        for (i, mv) in moves.iter().enumerate() {
            let w = RandomBot::weight(mv);
            if pick < w {
                return i;
            }
            pick -= w;
        }
        0
    }
}

/// How a self-played game went.
#[derive(Debug, Clone)]
pub struct GameRecord {
    pub game: Game,
    /// The whole log, starting with `game_started`.
    pub events: Vec<Event>,
    pub moves: u64,
    pub finished: bool,
}

/// Safety net against a game that never ends; reported by [`GameRecord::finished`].
pub const TURN_CAP: u32 = 2_000;

/// Plays one game to the end (or to [`TURN_CAP`]) with one bot per seat.
///
/// # Errors
/// [`SetupError`] when the configuration is invalid.
pub fn play_game(
    config: GameConfig,
    seed: u64,
    bots: &mut [Box<dyn Bot>],
) -> Result<GameRecord, SetupError> {
    let mut events = Game::start_events(&config, seed)?;
    let mut game = Game::replay(config, &events)?;
    let mut moves = 0;
    let mut finished = false;
    let mut legal = Vec::new();
    while game.turn_number() <= TURN_CAP {
        if game.is_over() {
            finished = true;
            break;
        }
        let Some(&seat) = game.waiting_for().first() else {
            break;
        };
        legal.clear();
        legal.extend(game.legal_moves(seat));
        if legal.is_empty() {
            break; // no move for the seat that must act: a rules bug the tests would report
        }
        let bot = &mut bots[seat.index() % bots.len().max(1)];
        let choice = bot.choose(&game, seat, &legal).min(legal.len() - 1);
        let mut chance = game.chance();
        let Ok(new_events) = game.decide(seat, &legal[choice], &mut chance) else {
            break;
        };
        for event in &new_events {
            game.apply(event);
        }
        events.extend(new_events);
        moves += 1;
    }
    Ok(GameRecord {
        game,
        events,
        moves,
        finished,
    })
}

/// Plays a game with random bots in every seat.
///
/// # Errors
/// [`SetupError`] when the configuration is invalid.
pub fn play_random_game(config: GameConfig, seed: u64) -> Result<GameRecord, SetupError> {
    let mut bots: Vec<Box<dyn Bot>> = (0..config.players)
        .map(|i| {
            Box::new(RandomBot::new(
                seed.wrapping_mul(31).wrapping_add(u64::from(i)),
            )) as Box<dyn Bot>
        })
        .collect();
    play_game(config, seed, &mut bots)
}

/// Lets a bot be driven with any chance source (kept for tests that inject outcomes).
pub fn decide_with(
    game: &Game,
    seat: Seat,
    mv: &Move,
    chance: &mut impl Chance,
) -> Option<Vec<Event>> {
    game.decide(seat, mv, chance).ok()
}
