//! Built-in bots on the server: the [`BotRunner`] plays the moves of seats held by the
//! engine's bots (`catan_engine::bots`) right after each commit, off the request path.
//!
//! Every bot move goes through the same write path as a user's move ([`store::play_on`]):
//! one transaction that locks the game, lets the engine decide, appends the log entry (marked
//! with the bot's kind) and writes the snapshot. So bot moves are validated and replayable
//! like any other, and long-poll and SSE readers see them as they commit.
//!
//! How it never stalls a game, nor hogs the database:
//! - a few worker threads (`CATAN_BOT_WORKERS`, default 2) take games from a queue; a game is
//!   in the queue at most once and played by one worker at a time;
//! - one bot move per transaction, then the game goes to the back of the queue (other games
//!   get their turn), no sooner than `1 / CATAN_BOT_MOVES_PER_SECOND` after its last move;
//! - a bot thinks on its own thread for at most `CATAN_BOT_THINK_MS` (default 250 ms); when
//!   it is late, panics, or names a move the engine rejects, a fallback legal move is played
//!   (`end_turn` if listed, else the first listed move) and the incident logged;
//! - a failed transaction (database error, lost race) is retried with exponential backoff;
//! - the bot reads the game outside any transaction and plays only if the game is still at
//!   the version it read, so its thinking never holds a lock;
//! - on startup every playing game with a bot seat is queued, so a restart resumes bot play;
//! - in a game with a turn timer, a human seat that does not act in time is played for by a
//!   bot ([`crate::play::turn_timer`]): the game waits in the queue until the deadline; every
//!   15 s the runner also looks for timed games it does not hold (left by a previous run or
//!   another process);
//! - the workers stop once the server that owns the runner is gone.

use std::{
    collections::{HashMap, HashSet, VecDeque},
    panic::AssertUnwindSafe,
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc, Arc, Condvar, Mutex, MutexGuard,
    },
    time::{Duration, Instant},
};

use catan_engine::{
    bots::{new_bot, BotKind},
    sim::bot_seed,
    Game, Move, Seat,
};
use diesel::prelude::*;
use uuid::Uuid;

use crate::{
    error::ApiError,
    live::notify::Notifier,
    play::turn_timer,
    store::db::{write_transaction, DbPool},
    store::schema::{game_players, games},
    store::{self, GameStatus},
};

/// How often the runner looks for games with a turn timer that it does not hold.
const TIMER_SWEEP: Duration = Duration::from_secs(15);

/// How the runner paces itself.
#[derive(Debug, Clone)]
pub struct BotSettings {
    /// Worker threads playing bot moves.
    pub workers: usize,
    /// The shortest pause between two bot moves of one game.
    pub min_interval: Duration,
    /// The longest a bot may think before a fallback move is played.
    pub think_budget: Duration,
}

impl Default for BotSettings {
    fn default() -> Self {
        BotSettings { workers: 2, min_interval: Duration::from_millis(2), think_budget: Duration::from_millis(250) }
    }
}

impl BotSettings {
    /// Reads `CATAN_BOT_WORKERS`, `CATAN_BOT_MOVES_PER_SECOND` (0: no cap) and
    /// `CATAN_BOT_THINK_MS` over the defaults (2 workers, 500 moves/s per game, 250 ms).
    pub fn from_env() -> BotSettings {
        let mut settings = BotSettings::default();
        let number = |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse::<u64>().ok());
        if let Some(workers) = number("CATAN_BOT_WORKERS") {
            settings.workers = (workers as usize).clamp(1, 64);
        }
        if let Some(rate) = number("CATAN_BOT_MOVES_PER_SECOND") {
            settings.min_interval =
                if rate == 0 { Duration::ZERO } else { Duration::from_micros(1_000_000 / rate.min(1_000_000)) };
        }
        if let Some(ms) = number("CATAN_BOT_THINK_MS") {
            settings.think_budget = Duration::from_millis(ms.clamp(1, 60_000));
        }
        settings
    }
}

/// The longest pause before retrying a game whose bot move failed.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// Plays the built-in bots' moves. Cheap to clone; the workers stop when the last clone is
/// dropped.
#[derive(Clone)]
pub struct BotRunner {
    shared: Arc<Shared>,
    _owner: Arc<Owner>,
}

impl std::fmt::Debug for BotRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotRunner").field("settings", &self.shared.settings).finish_non_exhaustive()
    }
}

/// Stops the workers when the last [`BotRunner`] goes.
struct Owner(Arc<Shared>);

impl Drop for Owner {
    fn drop(&mut self) {
        self.0.stopped.store(true, Ordering::SeqCst);
        self.0.wake.notify_all();
    }
}

struct Shared {
    pool: DbPool,
    notifier: Notifier,
    settings: BotSettings,
    queue: Mutex<Queue>,
    wake: Condvar,
    stopped: AtomicBool,
}

/// Games with (possibly) a bot to move. Each game is either waiting in `ready` (due at the
/// given instant) or being played by a worker.
#[derive(Default)]
struct Queue {
    ready: VecDeque<(Uuid, Instant)>,
    games: HashMap<Uuid, Slot>,
    /// Started games with no bot seat: seats are fixed at the start, so pokes for these
    /// games are ignored without a query (most games are between humans).
    without_bots: HashSet<Uuid>,
}

/// Forget the games known to have no bots beyond this many (they are only looked up again).
const WITHOUT_BOTS_CAP: usize = 100_000;

struct Slot {
    /// A worker plays the game now; `again` asks it to look once more when done.
    running: bool,
    again: bool,
    /// Consecutive failures, for the backoff.
    failures: u32,
    /// Waiting for a turn timer's deadline: a commit (poke) makes it due at once.
    timed: bool,
}

/// What one step on a game did.
enum Step {
    /// A bot move committed.
    Moved,
    /// No bot has to act.
    Idle,
    /// The game moved on while the bot thought: look again at once.
    Stale,
    /// A turn timer runs out after this long: look again then.
    Wait(Duration),
}

impl BotRunner {
    /// Starts the workers, which first queue every playing game with a bot seat (resuming
    /// bot play after a restart).
    ///
    /// # Errors
    /// When a thread cannot be spawned.
    pub fn start(pool: DbPool, notifier: Notifier, settings: BotSettings) -> std::io::Result<BotRunner> {
        let shared = Arc::new(Shared {
            pool,
            notifier,
            settings,
            queue: Mutex::new(Queue::default()),
            wake: Condvar::new(),
            stopped: AtomicBool::new(false),
        });
        for i in 0..shared.settings.workers.max(1) {
            let worker = Arc::clone(&shared);
            std::thread::Builder::new().name(format!("catan-bots-{i}")).spawn(move || {
                if i == 0 {
                    worker.resume();
                }
                worker.work();
            })?;
        }
        let sweeper = Arc::clone(&shared);
        std::thread::Builder::new().name("catan-timer-sweep".into()).spawn(move || sweeper.sweep_timers())?;
        Ok(BotRunner { _owner: Arc::new(Owner(Arc::clone(&shared))), shared })
    }

    /// Asks the runner to look at `game`: call it after every commit. Returns at once.
    pub fn poke(&self, game: Uuid) {
        self.shared.poke(game);
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn poke(&self, game: Uuid) {
        let mut queue = self.lock();
        if queue.without_bots.contains(&game) {
            return;
        }
        match queue.games.get_mut(&game) {
            Some(slot) if slot.running => slot.again = true,
            Some(slot) if slot.timed => {
                // Waiting for a deadline that this commit moved: look now.
                slot.timed = false;
                let now = Instant::now();
                for entry in queue.ready.iter_mut().filter(|(id, _)| *id == game) {
                    entry.1 = now;
                }
                drop(queue);
                self.wake.notify_one();
            }
            Some(_) => {} // already waiting
            None => {
                queue.games.insert(game, Slot { running: false, again: false, failures: 0, timed: false });
                queue.ready.push_back((game, Instant::now()));
                drop(queue);
                self.wake.notify_one();
            }
        }
    }

    /// Queues every playing game in which a bot holds a seat.
    fn resume(&self) {
        let found = self.pool.get().map_err(ApiError::from).and_then(|mut conn| {
            let ids: Vec<String> = games::table
                .inner_join(game_players::table)
                .filter(games::status.eq(GameStatus::Playing.as_str()))
                .filter(game_players::bot.is_not_null())
                .select(games::id)
                .distinct()
                .load(&mut conn)?;
            Ok(ids)
        });
        match found {
            Ok(ids) => {
                if !ids.is_empty() {
                    tracing::info!(games = ids.len(), "resuming bot play");
                }
                for id in ids.iter().filter_map(|id| Uuid::parse_str(id).ok()) {
                    self.poke(id);
                }
            }
            Err(error) => tracing::error!(%error, "cannot look for games with bots to resume"),
        }
        // Games with a turn timer are queued by the first sweep.
    }

    /// Queues a game unless the runner holds it already (a sweep must not cut a wait short).
    fn adopt(&self, game: Uuid) {
        if !self.lock().games.contains_key(&game) {
            self.poke(game);
        }
    }

    /// Every [`TIMER_SWEEP`], queues the playing games with a turn timer that this runner
    /// does not hold, so that no deadline depends on the process that set it; until stopped.
    fn sweep_timers(&self) {
        let mut next = Instant::now();
        while !self.stopped.load(Ordering::SeqCst) {
            if Instant::now() >= next {
                next = Instant::now() + TIMER_SWEEP;
                let found =
                    self.pool.get().map_err(ApiError::from).and_then(|mut conn| turn_timer::timed_games(&mut conn));
                match found {
                    Ok(ids) => ids.into_iter().for_each(|id| self.adopt(id)),
                    Err(error) => tracing::warn!(%error, "cannot look for games with a turn timer"),
                }
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// Takes the next due game, waiting for one; `None` once the runner is stopped.
    fn next(&self) -> Option<Uuid> {
        let mut queue = self.lock();
        loop {
            if self.stopped.load(Ordering::SeqCst) {
                return None;
            }
            let now = Instant::now();
            let soonest =
                queue.ready.iter().enumerate().min_by_key(|(_, (_, due))| *due).map(|(i, (_, due))| (i, *due));
            let wait = match soonest {
                Some((i, due)) if due <= now => {
                    let (game, _) = queue.ready.remove(i)?;
                    if let Some(slot) = queue.games.get_mut(&game) {
                        slot.running = true;
                        slot.again = false;
                    }
                    return Some(game);
                }
                Some((_, due)) => due - now,
                None => Duration::from_secs(1),
            };
            queue = self.wake.wait_timeout(queue, wait).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// Puts a game back after a step: due after `delay`, or forgotten when idle.
    fn done(&self, game: Uuid, outcome: Result<Step, String>) {
        let mut queue = self.lock();
        let Some(slot) = queue.games.get_mut(&game) else {
            return;
        };
        slot.running = false;
        slot.timed = false;
        let delay = match outcome {
            Ok(Step::Wait(_)) if slot.again => Some(Duration::ZERO),
            Ok(Step::Wait(wait)) => {
                slot.timed = true;
                Some(wait)
            }
            Ok(Step::Moved) => {
                slot.failures = 0;
                Some(self.settings.min_interval)
            }
            Ok(Step::Stale) => Some(Duration::ZERO),
            Ok(Step::Idle) if slot.again => Some(Duration::ZERO),
            Ok(Step::Idle) => None,
            Err(error) => {
                crate::store::db::suspect_connections();
                slot.failures += 1;
                let delay = Duration::from_millis(50).saturating_mul(1 << slot.failures.min(10)).min(MAX_BACKOFF);
                tracing::warn!(%game, failures = slot.failures, retry_in = ?delay, %error, "bot move failed");
                Some(delay)
            }
        };
        match delay {
            Some(delay) => {
                queue.ready.push_back((game, Instant::now() + delay));
                drop(queue);
                self.wake.notify_one();
            }
            None => {
                queue.games.remove(&game);
            }
        }
    }

    fn work(&self) {
        while let Some(game) = self.next() {
            let outcome = match std::panic::catch_unwind(AssertUnwindSafe(|| self.step(game))) {
                Ok(Ok(step)) => Ok(step),
                Ok(Err(error)) => Err(format!("{error:?}")),
                Err(_) => Err("panicked".to_owned()),
            };
            self.done(game, outcome);
        }
    }

    /// Plays at most one bot move of `game`, in one transaction.
    fn step(&self, game_id: Uuid) -> Result<Step, ApiError> {
        let mut conn = self.pool.get()?;
        let Some(row) = store::find_game(&mut conn, game_id)? else {
            return Ok(Step::Idle);
        };
        if row.status() != GameStatus::Playing {
            return Ok(Step::Idle);
        }
        let seats = store::load_seats(&mut conn, game_id)?;
        let bots: Vec<(Seat, BotKind)> =
            seats.iter().filter_map(|holder| holder.bot_kind().map(|kind| (Seat(holder.seat as u8), kind))).collect();
        if bots.is_empty() && row.config()?.turn_timer_seconds.is_none() {
            let mut queue = self.lock();
            if queue.without_bots.len() >= WITHOUT_BOTS_CAP {
                queue.without_bots.clear();
            }
            queue.without_bots.insert(game_id);
            return Ok(Step::Idle);
        }
        let game = row.game()?.ok_or_else(|| ApiError::internal("a started game has no snapshot"))?;
        // The bots' own decisions first; then a human seat whose turn timer ran out.
        let (seat, kind, moves, timed_out) = match pending_decision(&game, &bots) {
            Some((seat, kind, moves)) => (seat, kind, moves, false),
            None => match turn_timer::pending(&mut conn, &row, &game, &seats)? {
                None => return Ok(Step::Idle),
                Some(pending) if !pending.remaining().is_zero() => return Ok(Step::Wait(pending.remaining())),
                Some(pending) => (pending.seat, turn_timer::TIMER_BOT, game.legal_moves(pending.seat), true),
            },
        };
        let seed = bot_seed(row.seed().wrapping_add(row.version as u64), seat.0);
        let chosen = self.think(&game, seat, kind, seed, &moves);
        let fallback = fallback_move(&moves);
        let read_version = row.version;
        let applied = write_transaction(&mut conn, |conn| {
            let row = store::lock_game(conn, game_id)?.ok_or_else(|| store::game_not_found(game_id))?;
            if row.version != read_version {
                return Ok(None);
            }
            let mut game = Game::clone(&game);
            let applied = match store::play_on(conn, &row, &mut game, seat, &chosen, None, Some(kind), None) {
                Err(ApiError::Rule(error)) if chosen != *fallback => {
                    tracing::error!(%game_id, %error, ?chosen, "the engine rejected a bot's move; playing a fallback");
                    store::play_on(conn, &row, &mut game, seat, fallback, None, Some(kind), None)?
                }
                other => other?,
            };
            if timed_out {
                turn_timer::mark(conn, &row.id, applied.version)?;
                tracing::info!(%game_id, %seat, seq = applied.version, "turn timer ran out: a bot played for the seat");
            }
            // After the mark: a seat the timer played to the end was abandoned.
            store::ratings::settle(conn, &row, &game)?;
            Ok(Some(applied))
        })?;
        match applied {
            Some(applied) => {
                self.notifier.publish(game_id, applied.version);
                Ok(Step::Moved)
            }
            None => Ok(Step::Stale),
        }
    }

    /// Lets a bot of `kind` choose among `moves`, on its own thread and within the think
    /// budget; a late, panicking or out-of-range bot gets the fallback move.
    fn think(&self, game: &Game, seat: Seat, kind: BotKind, seed: u64, moves: &[Move]) -> Move {
        let (tx, rx) = mpsc::channel();
        let (game_copy, moves_copy) = (game.clone(), moves.to_vec());
        let spawned = std::thread::Builder::new().name("catan-bot-think".into()).spawn(move || {
            let mut bot = new_bot(kind, seed);
            let _ = tx.send(bot.choose(&game_copy, seat, &moves_copy));
        });
        let choice = match spawned {
            Ok(_) => match rx.recv_timeout(self.settings.think_budget) {
                Ok(choice) if choice < moves.len() => Some(choice),
                Ok(choice) => {
                    tracing::warn!(%kind, choice, moves = moves.len(), "a bot chose a move out of range");
                    None
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    tracing::warn!(%kind, budget = ?self.settings.think_budget, "a bot thought too long");
                    None
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    tracing::error!(%kind, "a bot panicked");
                    None
                }
            },
            Err(error) => {
                tracing::error!(%error, "cannot spawn a bot thread");
                None
            }
        };
        match choice {
            Some(i) => moves[i].clone(),
            None => fallback_move(moves).clone(),
        }
    }
}

/// The move played when a bot cannot choose: `end_turn` if listed, else the first one.
fn fallback_move(moves: &[Move]) -> &Move {
    moves.iter().find(|mv| matches!(mv, Move::EndTurn)).unwrap_or(&moves[0])
}

/// Finds a decision a bot owes: a bot seat the game waits for (its turn, a discard, a gold
/// choice, ...), or else an offer made to a bot that it has neither accepted nor declined
/// (then only the answers to that offer are the choices). Returns the seat, its bot kind
/// and its choices (never empty).
pub fn pending_decision(game: &Game, bots: &[(Seat, BotKind)]) -> Option<(Seat, BotKind, Vec<Move>)> {
    if game.is_over() {
        return None;
    }
    let bot_of = |seat: Seat| bots.iter().find(|(s, _)| *s == seat).map(|(_, kind)| *kind);
    for seat in game.waiting_for() {
        if let Some(kind) = bot_of(seat) {
            let moves = game.legal_moves(seat);
            if !moves.is_empty() {
                return Some((seat, kind, moves));
            }
        }
    }
    for offer in game.open_offers() {
        for &seat in &offer.to {
            let Some(kind) = bot_of(seat) else { continue };
            if offer.accepted_by.contains(&seat) || offer.declined_by.contains(&seat) {
                continue;
            }
            let answers: Vec<Move> = game
                .legal_moves(seat)
                .into_iter()
                .filter(|mv| {
                    matches!(mv, Move::AcceptTrade { offer_id } | Move::DeclineTrade { offer_id } if *offer_id == offer.id)
                })
                .collect();
            if !answers.is_empty() {
                return Some((seat, kind, answers));
            }
        }
    }
    None
}
