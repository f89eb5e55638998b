//! The bot ladder: the built-in bots play seeded round-robin games in each rating pool, and
//! each pool gets a table of win rates (with 95 % Wilson score intervals) and the Weng-Lin
//! ratings the games give ([`super::model`]). Pure: the caller prints the tables
//! (`catan-server ladder`); the same [`Ladder`] gives the same tables, whatever the number of
//! threads.
//!
//! - **Lineups.** In a pool played with `n` seats by `k` entrants, every assignment of
//!   entrants to seats in which each entrant holds at least one seat is a lineup (for two
//!   entrants: `2^n - 2` of them). They are dealt in groups: a lineup, then the same lineup
//!   with every entrant replaced by the next one (entrant `e` becomes `e + 1 mod k`), `k`
//!   games in all. Each group puts every entrant in every seat exactly once, so after any
//!   multiple of `k` games every entrant has held every seat (the first one included) as
//!   often as every other entrant; after all the lineups, every entrant has also met every
//!   mix of the others equally often.
//! - **Seeds.** Game `g` of a pool is seeded by [`game_seed`] from the master seed, the pool,
//!   its seat count and `g` (splitmix64), so a pool's table does not depend on which other
//!   pools were played, and the first games of a longer run are the games of a shorter one;
//!   the bot in seat `s` is seeded `sim::bot_seed(game seed, s)` by the engine's self-play
//!   driver.
//! - **Endings.** Every game gets a turn limit ([`TURN_LIMIT`]): a game still going then is
//!   won by points, like a game with a bot seat on the server, and the table counts such
//!   games. A game that nevertheless does not finish (a rules bug) is counted as unfinished
//!   and neither scored nor rated.
//! - **Ratings.** One account per entrant, starting at [`Rating::default`], rated game after
//!   game in game order with [`rate_game`] from [`finish_order`] (no seat is abandoned).

use std::sync::{
    atomic::{AtomicU32, Ordering},
    mpsc,
};

use catan_engine::{bots::BotKind, sim, Event, VictoryCondition};

use super::{finish_order, rate_game, Pool, Rating};

/// The z of a two-sided 95 % interval (the 97.5th percentile of the standard normal).
pub const Z_95: f64 = 1.959964;

/// The turn limit of a ladder game. The server gives bot games 3,000 turns, but the engine's
/// self-play driver stops at [`sim::TURN_CAP`] turns without a winner; ending at that turn
/// instead makes every game finish with a winner by points (random bots alone have needed
/// up to 1,913 turns; the ladder's games have a heuristic bot in them and end far sooner).
pub const TURN_LIMIT: u32 = sim::TURN_CAP;

/// The most games a pool may have in one run.
pub const MAX_GAMES: u32 = 1_000_000;

/// What to play: the same ladder gives the same tables.
#[derive(Debug, Clone, PartialEq)]
pub struct Ladder {
    seed: u64,
    games: u32,
    pools: Vec<(Pool, u8)>,
    entrants: Vec<BotKind>,
}

impl Ladder {
    /// `games` per pool, each pool with its seat count, between `entrants`.
    ///
    /// # Errors
    /// A message saying what is wrong: no games (or more than [`MAX_GAMES`]), no pool, a pool
    /// twice or with a seat count it does not have, fewer than two entrants, an entrant twice,
    /// or more entrants than a pool's seats (every entrant must hold a seat in every game).
    pub fn new(seed: u64, games: u32, pools: Vec<(Pool, u8)>, entrants: Vec<BotKind>) -> Result<Ladder, String> {
        if games == 0 || games > MAX_GAMES {
            return Err(format!("games per pool must be 1 to {MAX_GAMES}, not {games}"));
        }
        if pools.is_empty() {
            return Err("no pool to play".into());
        }
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
        }
        if entrants.len() < 2 {
            return Err("a ladder needs at least two entrants".into());
        }
        for (i, entrant) in entrants.iter().enumerate() {
            if entrants[..i].contains(entrant) {
                return Err(format!("entrant {entrant} is named twice"));
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

    pub fn entrants(&self) -> &[BotKind] {
        &self.entrants
    }

    /// Plays every pool in order on `threads` threads (at least one), calling `progress(pool,
    /// games done, games of the pool)` on the calling thread as games end.
    ///
    /// # Errors
    /// The engine's refusal of a pool's rules (a bug: every pool's rules start a game).
    pub fn run(&self, threads: usize, progress: &mut dyn FnMut(Pool, u32, u32)) -> Result<Vec<PoolTable>, String> {
        self.pools.iter().map(|&(pool, players)| self.run_pool(pool, players, threads, progress)).collect()
    }

    fn run_pool(
        &self,
        pool: Pool,
        players: u8,
        threads: usize,
        progress: &mut dyn FnMut(Pool, u32, u32),
    ) -> Result<PoolTable, String> {
        let lineups = lineups(self.entrants.len(), players);
        let mut outcomes: Vec<Option<Outcome>> = vec![None; self.games as usize];
        let next = AtomicU32::new(0);
        let (send, receive) = mpsc::channel();
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                let send = send.clone();
                let (next, lineups) = (&next, &lineups);
                scope.spawn(move || loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= self.games {
                        break;
                    }
                    let lineup = &lineups[game as usize % lineups.len()];
                    let outcome = self.play(pool, players, game, lineup);
                    let failed = outcome.is_err();
                    if send.send((game, outcome)).is_err() || failed {
                        break;
                    }
                });
            }
            // Only the workers' copies keep the channel open, so it ends when they do.
            drop(send);
            let mut done = 0;
            for (game, outcome) in receive {
                outcomes[game as usize] = Some(outcome?);
                done += 1;
                progress(pool, done, self.games);
            }
            Ok::<(), String>(())
        })?;
        let outcomes: Vec<Outcome> = outcomes.into_iter().flatten().collect();
        if outcomes.len() != self.games as usize {
            return Err(format!("{pool}: {} of {} games were played", outcomes.len(), self.games));
        }
        Ok(self.table(pool, players, &outcomes))
    }

    /// Game `game` of `pool`, with entrant `lineup[s]` in seat `s`.
    fn play(&self, pool: Pool, players: u8, game: u32, lineup: &[usize]) -> Result<Outcome, String> {
        let mut config = pool.config(players);
        config.turn_limit = Some(TURN_LIMIT);
        // A server-side setting only; the self-play driver has no clock.
        config.turn_timer_seconds = None;
        let kinds: Vec<BotKind> = lineup.iter().map(|&entrant| self.entrants[entrant]).collect();
        let record = sim::play_bots_game(config, game_seed(self.seed, pool, players, game), &kinds)
            .map_err(|e| format!("{pool} with {players} players: {e}"))?;
        let finished = record.finished && record.game.is_over();
        let places = if finished {
            Some(finish_order(&record.game, &[]).iter().map(|finish| finish.place).collect())
        } else {
            None
        };
        let by_turn_limit = record
            .events
            .iter()
            .any(|event| matches!(event, Event::GameWon { condition: VictoryCondition::TurnLimit, .. }));
        let winner = record.game.winner().map(|seat| seat.index());
        Ok(Outcome { lineup: lineup.to_vec(), places, winner, by_turn_limit })
    }

    /// Scores and rates the games of a pool in game order.
    fn table(&self, pool: Pool, players: u8, outcomes: &[Outcome]) -> PoolTable {
        let mut ratings = vec![Rating::default(); self.entrants.len()];
        let mut tallies = vec![(0u32, 0u32, 0u32); self.entrants.len()];
        let (mut by_turn_limit, mut unfinished) = (0, 0);
        for outcome in outcomes {
            let Some(places) = &outcome.places else {
                unfinished += 1;
                continue;
            };
            by_turn_limit += u32::from(outcome.by_turn_limit);
            for (entrant, tally) in tallies.iter_mut().enumerate() {
                let seats = outcome.lineup.iter().filter(|&&e| e == entrant).count();
                if seats > 0 {
                    tally.0 += 1;
                    tally.1 += u32::try_from(seats).unwrap_or(u32::MAX);
                }
            }
            if let Some(winner) = outcome.winner {
                tallies[outcome.lineup[winner]].2 += 1;
            }
            let seats: Vec<(usize, Rating)> = outcome.lineup.iter().map(|&e| (e, ratings[e])).collect();
            for change in rate_game(&seats, places) {
                ratings[change.account] = change.after;
            }
        }
        let mut rows: Vec<Row> = self
            .entrants
            .iter()
            .zip(tallies)
            .zip(ratings)
            .map(|((&entrant, (games, seats, seats_won)), rating)| Row {
                entrant,
                games,
                seats,
                seats_won,
                win_rate: if seats == 0 { 0.0 } else { f64::from(seats_won) / f64::from(seats) },
                interval: wilson(seats_won, seats, Z_95),
                rating,
            })
            .collect();
        // A ladder reads best first; the sort is stable, so equal scores keep entrant order.
        rows.sort_by(|a, b| b.rating.score().total_cmp(&a.rating.score()));
        PoolTable { pool, players, games: self.games, by_turn_limit, unfinished, rows }
    }
}

/// How one game ended, as the table needs it.
#[derive(Debug, Clone)]
struct Outcome {
    /// The entrant (its index) in each seat.
    lineup: Vec<usize>,
    /// Each seat's place; `None` if the game did not finish.
    places: Option<Vec<u32>>,
    winner: Option<usize>,
    by_turn_limit: bool,
}

/// A pool's table.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolTable {
    pub pool: Pool,
    pub players: u8,
    pub games: u32,
    /// Games won by points at [`TURN_LIMIT`] (scored and rated as any other).
    pub by_turn_limit: u32,
    /// Games that did not finish: neither scored nor rated.
    pub unfinished: u32,
    /// Best score first.
    pub rows: Vec<Row>,
}

impl PoolTable {
    /// The win rate per seat if seats won at random: a seat is one of `players`.
    pub fn expected_win_rate(&self) -> f64 {
        1.0 / f64::from(self.players)
    }

    /// The table in Markdown, under a heading naming the pool and its games.
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "### {} ({} players): {} games, {} won at the turn limit ({TURN_LIMIT}), {} unfinished\n\n",
            self.pool, self.players, self.games, self.by_turn_limit, self.unfinished
        );
        out.push_str(
            "| Entrant | Games | Seats held | Games won | Win rate per seat | 95 % Wilson interval \
             | Rating | Deviation | Score |\n",
        );
        out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for row in &self.rows {
            out.push_str(&format!(
                "| builtin:{} | {} | {} | {} | {:.1} % | {:.1} - {:.1} % | {:.2} | {:.2} | {:.2} |\n",
                row.entrant,
                row.games,
                row.seats,
                row.seats_won,
                100.0 * row.win_rate,
                100.0 * row.interval.0,
                100.0 * row.interval.1,
                row.rating.rating,
                row.rating.deviation,
                row.rating.score(),
            ));
        }
        out.push_str(&format!(
            "\nA seat's win rate if seats won at random: {:.1} %.\n",
            100.0 * self.expected_win_rate()
        ));
        out
    }
}

/// An entrant's line in a pool's table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub entrant: BotKind,
    /// Games it held a seat in.
    pub games: u32,
    /// Seats it held, over all its games.
    pub seats: u32,
    /// Seats of its that won: the games it won, since a game has one winner.
    pub seats_won: u32,
    /// `seats_won / seats`.
    pub win_rate: f64,
    /// The 95 % Wilson score interval of `win_rate`.
    pub interval: (f64, f64),
    /// Its rating after the pool's games.
    pub rating: Rating,
}

/// The seat count a pool is played with unless one is chosen: the most its board seats.
pub fn default_players(pool: Pool) -> u8 {
    *pool.players().end()
}

/// The Wilson score interval of `successes` in `trials` at `z`:
/// `(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)` with `p = successes / trials`;
/// `(0, 1)` for no trials. Unlike `p ± z·sqrt(p(1-p)/n)`, it stays within 0 to 1 and does not
/// shrink to nothing at 0 or all successes.
pub fn wilson(successes: u32, trials: u32, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = f64::from(trials);
    let p = f64::from(successes) / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Every lineup of `entrants` entrants in `seats` seats (each entrant in at least one seat),
/// in the order they are dealt (see the module docs): groups of `entrants` lineups, each a
/// lineup and its shifts to the next entrant.
pub fn lineups(entrants: usize, seats: u8) -> Vec<Vec<usize>> {
    let seats = usize::from(seats);
    if entrants == 0 || entrants > seats {
        return Vec::new();
    }
    let mut dealt: Vec<Vec<usize>> = Vec::new();
    let mut lineup = vec![0; seats];
    loop {
        let everyone_seated = (0..entrants).all(|e| lineup.contains(&e));
        if everyone_seated && !dealt.contains(&lineup) {
            for shift in 0..entrants {
                dealt.push(lineup.iter().map(|&e| (e + shift) % entrants).collect());
            }
        }
        // The next lineup in lexicographic order (seat 0 most significant), if any.
        let Some(seat) = lineup.iter().rposition(|&e| e + 1 < entrants) else { break };
        lineup[seat] += 1;
        lineup[seat + 1..].fill(0);
    }
    dealt
}

/// The seed of game `game` of `pool` played with `players` seats, in the ladder seeded `master`.
pub fn game_seed(master: u64, pool: Pool, players: u8, game: u32) -> u64 {
    // FNV-1a of the name: the same on every platform and build, unlike std's hasher.
    let name =
        pool.name().bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    [name, u64::from(players), u64::from(game)].into_iter().fold(splitmix64(master), |h, x| splitmix64(h ^ x))
}

/// splitmix64's output function: nearby inputs (game 7, game 8) give unrelated seeds.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ladder(seed: u64, games: u32) -> Ladder {
        let pools = Pool::ALL.iter().map(|&pool| (pool, *pool.players().start())).collect();
        Ladder::new(seed, games, pools, BotKind::ALL.to_vec()).unwrap()
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
        let alone = Ladder::new(3, 4, vec![(Pool::Wonders, 3)], BotKind::ALL.to_vec()).unwrap();
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
    fn lineups_seat_everyone_and_balance_each_seat_per_group() {
        for (entrants, seats, count) in [(2, 2, 2), (2, 4, 14), (2, 6, 62), (3, 3, 6), (3, 4, 36)] {
            let all = lineups(entrants, seats);
            assert_eq!(all.len(), count, "{entrants} entrants, {seats} seats: k! S(n, k) lineups");
            for (i, lineup) in all.iter().enumerate() {
                assert!((0..entrants).all(|e| lineup.contains(&e)));
                assert!(!all[..i].contains(lineup), "each lineup once");
            }
            for group in all.chunks(entrants) {
                for seat in 0..usize::from(seats) {
                    let mut held: Vec<usize> = group.iter().map(|lineup| lineup[seat]).collect();
                    held.sort_unstable();
                    assert_eq!(held, (0..entrants).collect::<Vec<_>>(), "each entrant once in seat {seat}");
                }
            }
        }
        assert!(lineups(3, 2).is_empty());
    }

    /// By hand, z = 1.959964, z² = 3.841459:
    /// - 0 of 10: z²/n = 0.3841459, centre = (0 + 0.1920730) / 1.3841459 = 0.138767, half =
    ///   (1.959964 / 1.3841459) * sqrt(0 + 3.841459 / 400) = 1.416005 * 0.0979982 = 0.138767:
    ///   0 to 0.27753.
    /// - 5 of 10: centre = (0.5 + 0.1920730) / 1.3841459 = 0.5, half = 1.416005 *
    ///   sqrt(0.025 + 0.0096036) = 1.416005 * 0.186022 = 0.263408: 0.23659 to 0.76341.
    /// - 81 of 263: p = 0.307985, z²/n = 0.0146063, centre = (0.307985 + 0.0073032) /
    ///   1.0146063 = 0.310749, half = (1.959964 / 1.0146063) * sqrt(0.307985 * 0.692015 /
    ///   263 + 3.841459 / 276676) = 1.931748 * sqrt(0.00081039 + 0.00001388) = 1.931748 *
    ///   0.0287101 = 0.055461: 0.25529 to 0.36621 (Wilson's interval for Agresti and Coull's
    ///   81 of 263).
    #[test]
    fn wilson_intervals_match_the_hand_computed_ones() {
        let close = |(lo, hi): (f64, f64), (want_lo, want_hi): (f64, f64)| {
            assert!((lo - want_lo).abs() < 2e-5 && (hi - want_hi).abs() < 2e-5, "{lo} {hi} vs {want_lo} {want_hi}");
        };
        close(wilson(0, 10, Z_95), (0.0, 0.27753));
        close(wilson(5, 10, Z_95), (0.23659, 0.76341));
        close(wilson(81, 263, Z_95), (0.25529, 0.36621));
        close(wilson(10, 10, Z_95), (1.0 - 0.27753, 1.0));
        assert_eq!(wilson(0, 0, Z_95), (0.0, 1.0));
    }

    #[test]
    fn refuses_what_cannot_be_played() {
        let both = BotKind::ALL.to_vec();
        assert!(Ladder::new(1, 0, vec![(Pool::Base, 4)], both.clone()).is_err());
        assert!(Ladder::new(1, 4, vec![], both.clone()).is_err());
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 5)], both.clone()).is_err());
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 4), (Pool::Base, 3)], both.clone()).is_err());
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 4)], vec![BotKind::Random]).is_err());
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 4)], vec![BotKind::Random, BotKind::Random]).is_err());
        assert!(Ladder::new(1, 4, vec![(Pool::Base, 4)], both).is_ok());
    }
}
