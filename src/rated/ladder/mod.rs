//! The bot ladder: entrants play seeded round-robin games in each rating pool, and each pool
//! gets a table of win rates (with 95 % Wilson score intervals) and the Weng-Lin ratings the
//! games give ([`super::model`]). The callers print the tables (`catan-server ladder`); the
//! same [`Ladder`] at the same [`Venue`] gives the same tables, whatever the number of threads.
//!
//! - **Entrants** ([`Entrant`]) are the built-in bots and, on a server, accounts whose
//!   programs play over the HTTP API. The games are played by a [`Venue`]: in this process by
//!   the engine's self-play driver ([`InProcess`], built-in bots only; pure), or on a server
//!   over its API ([`remote::Server`], the ladder's one part that does I/O).
//! - **Lineups** ([`lineups`]). Built-in bots only: in a pool played with `n` seats by `k`
//!   entrants, every assignment of entrants to seats in which each entrant holds at least one
//!   seat, dealt in groups of `k`: a lineup, then the same lineup with every entrant replaced
//!   by the next one. With an account (which a server seats once per game): every assignment
//!   in which each account holds one seat and each bot at least one, dealt in groups of `n`:
//!   a lineup and its rotations. Either way a group puts every entrant in every seat as often
//!   as it holds seats, and all the lineups together meet every mix of the others equally.
//! - **Seeds.** Game `g` of a pool is seeded by [`game_seed`] from the master seed, the pool,
//!   its seat count and `g` (splitmix64), so a pool's table does not depend on which other
//!   pools were played, and the first games of a longer run are the games of a shorter one;
//!   in this process the bot in seat `s` is seeded `sim::bot_seed(game seed, s)` by the
//!   engine's self-play driver.
//! - **Endings.** Every game gets a turn limit ([`TURN_LIMIT`]): a game still going then is
//!   won by points, like a game with a bot seat on the server, and the table counts such
//!   games. A game that nevertheless does not finish (a rules bug, or a server game past the
//!   ladder's patience) is counted as unfinished and neither scored nor rated.
//! - **Ratings.** One rating per entrant, starting at [`Rating::default`], rated game after
//!   game in game order with [`rate_game`](super::rate_game) from the finish order (a seat
//!   abandoned to a server's turn timer finishes last, as in rated play).

pub mod lineups;
pub mod remote;
pub mod table;

use std::fmt;
use std::sync::{
    atomic::{AtomicU32, Ordering},
    mpsc,
};

use catan_engine::{bots::BotKind, sim, Event, VictoryCondition};

use super::{finish_order, Pool};

pub use lineups::{game_seed, lineups};
pub use table::{wilson, PoolTable, Row, Z_95};

/// The turn limit of a ladder game. The server gives bot games 3,000 turns, but the engine's
/// self-play driver stops at [`sim::TURN_CAP`] turns without a winner; ending at that turn
/// instead makes every game finish with a winner by points (random bots alone have needed
/// up to 1,913 turns; the ladder's games have a heuristic bot in them and end far sooner).
pub const TURN_LIMIT: u32 = sim::TURN_CAP;

/// The most games a pool may have in one run.
pub const MAX_GAMES: u32 = 1_000_000;

/// Who plays in a ladder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entrant {
    /// A built-in bot (`builtin:<kind>`).
    Builtin(BotKind),
    /// An account of the server whose program plays its seats over the API (a server ladder
    /// only), by its username.
    Account(String),
}

impl Entrant {
    pub fn is_account(&self) -> bool {
        matches!(self, Entrant::Account(_))
    }
}

impl fmt::Display for Entrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entrant::Builtin(kind) => write!(f, "builtin:{kind}"),
            Entrant::Account(name) => f.write_str(name),
        }
    }
}

/// One game of a ladder, for a [`Venue`] to play.
#[derive(Debug, Clone, Copy)]
pub struct LadderGame<'a> {
    pub pool: Pool,
    pub players: u8,
    /// Its number in the pool, from 0.
    pub number: u32,
    pub seed: u64,
    /// The entrant (its index in `entrants`) in each seat.
    pub lineup: &'a [usize],
    pub entrants: &'a [Entrant],
}

/// How one game ended, as the table needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The entrant (its index) in each seat.
    pub lineup: Vec<usize>,
    /// Each seat's place; `None` if the game did not finish.
    pub places: Option<Vec<u32>>,
    pub winner: Option<usize>,
    pub by_turn_limit: bool,
    /// Seats that were on the turn timer's autoplay when the game ended.
    pub abandoned: u32,
}

/// Where a ladder's games are played.
pub trait Venue: Sync {
    /// Plays one game to its end (or gives up on it: an outcome without places).
    ///
    /// # Errors
    /// Why the ladder cannot go on (the rules refused, the server is gone): the run stops.
    fn play(&self, game: LadderGame<'_>) -> Result<Outcome, String>;
}

/// The engine's self-play driver in this process: built-in bots only.
#[derive(Debug, Clone, Copy, Default)]
pub struct InProcess;

impl Venue for InProcess {
    fn play(&self, game: LadderGame<'_>) -> Result<Outcome, String> {
        let (pool, players) = (game.pool, game.players);
        let mut config = pool.config(players);
        config.turn_limit = Some(TURN_LIMIT);
        // A server-side setting only; the self-play driver has no clock.
        config.turn_timer_seconds = None;
        let kinds = game
            .lineup
            .iter()
            .map(|&entrant| match &game.entrants[entrant] {
                Entrant::Builtin(kind) => Ok(*kind),
                Entrant::Account(name) => Err(format!("{name} is an account: only a ladder on a server seats it")),
            })
            .collect::<Result<Vec<BotKind>, String>>()?;
        let record = sim::play_bots_game(config, game.seed, &kinds)
            .map_err(|e| format!("{pool} with {players} players: {e}"))?;
        let finished = record.finished && record.game.is_over();
        let places = finished.then(|| finish_order(&record.game, &[]).iter().map(|finish| finish.place).collect());
        let by_turn_limit = record
            .events
            .iter()
            .any(|event| matches!(event, Event::GameWon { condition: VictoryCondition::TurnLimit, .. }));
        let winner = record.game.winner().map(|seat| seat.index());
        Ok(Outcome { lineup: game.lineup.to_vec(), places, winner, by_turn_limit, abandoned: 0 })
    }
}

/// What to play: the same ladder gives the same tables.
#[derive(Debug, Clone, PartialEq)]
pub struct Ladder {
    seed: u64,
    games: u32,
    pools: Vec<(Pool, u8)>,
    entrants: Vec<Entrant>,
}

impl Ladder {
    /// `games` per pool, each pool with its seat count, between `entrants`.
    ///
    /// # Errors
    /// A message saying what is wrong: no games (or more than [`MAX_GAMES`]), no pool, a pool
    /// twice or with a seat count it does not have, fewer than two entrants, an entrant twice,
    /// more entrants than a pool's seats (every entrant must hold a seat in every game), or
    /// only accounts and more seats than accounts (an account holds one seat a game).
    pub fn new(seed: u64, games: u32, pools: Vec<(Pool, u8)>, entrants: Vec<Entrant>) -> Result<Ladder, String> {
        if games == 0 || games > MAX_GAMES {
            return Err(format!("games per pool must be 1 to {MAX_GAMES}, not {games}"));
        }
        if pools.is_empty() {
            return Err("no pool to play".into());
        }
        if entrants.len() < 2 {
            return Err("a ladder needs at least two entrants".into());
        }
        for (i, entrant) in entrants.iter().enumerate() {
            if entrants[..i].contains(entrant) {
                return Err(format!("entrant {entrant} is named twice"));
            }
        }
        let only_accounts = entrants.iter().all(Entrant::is_account);
        for (i, &(pool, players)) in pools.iter().enumerate() {
            if pools[..i].iter().any(|&(other, _)| other == pool) {
                return Err(format!("pool {pool} is named twice"));
            }
            if !pool.players().contains(&players) {
                let seats = pool.players();
                return Err(format!("pool {pool} plays {} to {} players, not {players}", seats.start(), seats.end()));
            }
            if usize::from(players) < entrants.len() {
                return Err(format!(
                    "{} entrants cannot all hold a seat in a {players}-player game of {pool}",
                    entrants.len()
                ));
            }
            if only_accounts && usize::from(players) > entrants.len() {
                return Err(format!(
                    "{} accounts cannot fill a {players}-player game of {pool}: an account holds one seat a game; \
                     add a built-in bot",
                    entrants.len()
                ));
            }
        }
        Ok(Ladder { seed, games, pools, entrants })
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn games(&self) -> u32 {
        self.games
    }

    pub fn pools(&self) -> &[(Pool, u8)] {
        &self.pools
    }

    pub fn entrants(&self) -> &[Entrant] {
        &self.entrants
    }

    /// The games of a pool played with `players` seats after which every entrant has held
    /// every seat in proportion (see [`lineups`]).
    pub fn group_size(&self, players: u8) -> usize {
        lineups(&self.entrants, players).1
    }

    /// Plays every pool in order in this process on `threads` threads (at least one); see
    /// [`Ladder::run_at`].
    ///
    /// # Errors
    /// The engine's refusal of a pool's rules (a bug: every pool's rules start a game), or an
    /// account among the entrants.
    pub fn run(&self, threads: usize, progress: &mut dyn FnMut(Pool, u32, u32)) -> Result<Vec<PoolTable>, String> {
        self.run_at(&InProcess, threads, progress)
    }

    /// Plays every pool in order at `venue`, `threads` games at a time (at least one), calling
    /// `progress(pool, games done, games of the pool)` on the calling thread as games end.
    ///
    /// # Errors
    /// The venue's error for a game: the run stops there.
    pub fn run_at(
        &self,
        venue: &dyn Venue,
        threads: usize,
        progress: &mut dyn FnMut(Pool, u32, u32),
    ) -> Result<Vec<PoolTable>, String> {
        self.pools.iter().map(|&(pool, players)| self.run_pool(venue, pool, players, threads, progress)).collect()
    }

    fn run_pool(
        &self,
        venue: &dyn Venue,
        pool: Pool,
        players: u8,
        threads: usize,
        progress: &mut dyn FnMut(Pool, u32, u32),
    ) -> Result<PoolTable, String> {
        let (lineups, _) = lineups(&self.entrants, players);
        let mut outcomes: Vec<Option<Outcome>> = vec![None; self.games as usize];
        let next = AtomicU32::new(0);
        let (send, receive) = mpsc::channel();
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                let send = send.clone();
                let (next, lineups) = (&next, &lineups);
                scope.spawn(move || loop {
                    let number = next.fetch_add(1, Ordering::Relaxed);
                    if number >= self.games {
                        break;
                    }
                    let game = LadderGame {
                        pool,
                        players,
                        number,
                        seed: game_seed(self.seed, pool, players, number),
                        lineup: &lineups[number as usize % lineups.len()],
                        entrants: &self.entrants,
                    };
                    let outcome = venue.play(game);
                    let failed = outcome.is_err();
                    if send.send((number, outcome)).is_err() || failed {
                        // Another worker may still be on a game; no new one starts.
                        next.store(self.games, Ordering::Relaxed);
                        break;
                    }
                });
            }
            // Only the workers' copies keep the channel open, so it ends when they do.
            drop(send);
            let mut done = 0;
            let mut failure = None;
            for (number, outcome) in receive {
                match outcome {
                    Ok(outcome) => outcomes[number as usize] = Some(outcome),
                    Err(message) => {
                        failure.get_or_insert(message);
                        continue;
                    }
                }
                done += 1;
                progress(pool, done, self.games);
            }
            failure.map_or(Ok(()), Err)
        })?;
        let outcomes: Vec<Outcome> = outcomes.into_iter().flatten().collect();
        if outcomes.len() != self.games as usize {
            return Err(format!("{pool}: {} of {} games were played", outcomes.len(), self.games));
        }
        Ok(PoolTable::new(pool, players, &self.entrants, &outcomes))
    }
}

/// The seat count a pool is played with unless one is chosen: the most its board seats.
pub fn default_players(pool: Pool) -> u8 {
    *pool.players().end()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rated::Rating;

    fn builtins() -> Vec<Entrant> {
        BotKind::ALL.iter().map(|&kind| Entrant::Builtin(kind)).collect()
    }

    fn ladder(seed: u64, games: u32) -> Ladder {
        let pools = Pool::ALL.iter().map(|&pool| (pool, *pool.players().start())).collect();
        Ladder::new(seed, games, pools, builtins()).unwrap()
    }

    fn tables(ladder: &Ladder, threads: usize) -> Vec<PoolTable> {
        ladder.run(threads, &mut |_, _, _| {}).unwrap()
    }

    #[test]
    fn the_same_seed_gives_the_same_table_and_another_seed_another() {
        let first = tables(&ladder(7, 6), 2);
        assert_eq!(first, tables(&ladder(7, 6), 1), "the thread count must not matter");
        assert_eq!(
            first.iter().map(PoolTable::markdown).collect::<Vec<_>>(),
            tables(&ladder(7, 6), 2).iter().map(PoolTable::markdown).collect::<Vec<_>>()
        );
        assert_ne!(first, tables(&ladder(8, 6), 2));
    }

    #[test]
    fn a_pools_table_does_not_depend_on_the_other_pools() {
        let all = tables(&ladder(3, 4), 2);
        let alone = Ladder::new(3, 4, vec![(Pool::Wonders, 3)], builtins()).unwrap();
        assert_eq!(tables(&alone, 1)[0], all[3]);
    }

    #[test]
    fn every_entrant_holds_seats_in_every_game_of_every_pool() {
        let games = 6;
        for table in tables(&ladder(11, games), 2) {
            assert_eq!(table.unfinished, 0, "{}", table.markdown());
            let seats: u32 = table.rows.iter().map(|row| row.seats).sum();
            assert_eq!(seats, games * u32::from(table.players));
            let wins: u32 = table.rows.iter().map(|row| row.seats_won).sum();
            assert_eq!(wins, games, "every game has one winner");
            for row in &table.rows {
                assert_eq!(row.games, games, "{}", table.markdown());
                // An even number of games with two entrants: the seats are shared equally.
                assert_eq!(row.seats, seats / 2, "{}", table.markdown());
                assert!(row.rating != Rating::default(), "rated: {}", table.markdown());
            }
        }
    }

    #[test]
    fn an_account_is_played_only_on_a_server() {
        let mut entrants = builtins();
        entrants.push(Entrant::Account("ada".into()));
        let ladder = Ladder::new(1, 2, vec![(Pool::Base, 4)], entrants).unwrap();
        let error = ladder.run(1, &mut |_, _, _| {}).unwrap_err();
        assert!(error.contains("ada is an account"), "{error}");
        assert_eq!(ladder.group_size(4), 4, "an account's lineups come in rotations of the seats");
    }

    /// A venue that says every game was won by the lowest seat holding entrant 0, and fails at
    /// one game number.
    struct Scripted {
        fail_at: Option<u32>,
    }

    impl Venue for Scripted {
        fn play(&self, game: LadderGame<'_>) -> Result<Outcome, String> {
            if Some(game.number) == self.fail_at {
                return Err(format!("game {} failed", game.number));
            }
            let winner = game.lineup.iter().position(|&e| e == 0);
            let places = game.lineup.iter().enumerate().map(|(seat, _)| if Some(seat) == winner { 1 } else { 2 });
            Ok(Outcome {
                lineup: game.lineup.to_vec(),
                places: Some(places.collect()),
                winner,
                by_turn_limit: false,
                abandoned: 0,
            })
        }
    }

    #[test]
    fn a_venue_plays_every_lineup_and_its_failure_stops_the_run() {
        let entrants = vec![Entrant::Account("ada".into()), Entrant::Builtin(BotKind::Random)];
        let ladder = Ladder::new(5, 9, vec![(Pool::Base, 3)], entrants.clone()).unwrap();
        let tables = ladder.run_at(&Scripted { fail_at: None }, 2, &mut |_, _, _| {}).unwrap();
        let ada = tables[0].rows.iter().find(|row| row.entrant == entrants[0]).unwrap();
        assert_eq!((ada.games, ada.seats, ada.seats_won), (9, 9, 9), "one seat a game, and every win");
        assert_eq!(tables[0].rows[0].entrant, entrants[0]);
        let error = ladder.run_at(&Scripted { fail_at: Some(4) }, 2, &mut |_, _, _| {}).unwrap_err();
        assert_eq!(error, "game 4 failed");
    }

    #[test]
    fn refuses_what_cannot_be_played() {
        let both = builtins();
        let ada = Entrant::Account("ada".into());
        let bob = Entrant::Account("bob".into());
        assert!(Ladder::new(1, 0, vec![(Pool::Base, 4)], both.clone()).is_err());
        assert!(Ladder::new(1, 4, vec![], both.clone()).is_err());
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 5)], both.clone()).is_err());
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 4), (Pool::Base, 3)], both.clone()).is_err());
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 4)], vec![both[0].clone()]).is_err());
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 4)], vec![both[0].clone(), both[0].clone()]).is_err());
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 3)], vec![ada.clone(), bob.clone()]).is_err(), "a seat left over");
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 2)], vec![ada.clone(), bob.clone()]).is_ok());
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 4)], vec![ada, both[1].clone()]).is_ok());
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 4)], both).is_ok());
    }
}
