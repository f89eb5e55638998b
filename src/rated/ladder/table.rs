//! A pool's table: the games of a pool scored and rated in game order, and printed as
//! Markdown.

use super::{Entrant, Outcome, TURN_LIMIT};
use crate::rated::{rate_game, Pool, Rating};

/// The z of a two-sided 95 % interval (the 97.5th percentile of the standard normal).
pub const Z_95: f64 = 1.959964;

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
    /// Seats left to the turn timer's autoplay at the end of their game (placed last); only
    /// a ladder on a server has any.
    pub abandoned: u32,
    /// Best score first.
    pub rows: Vec<Row>,
}

impl PoolTable {
    /// Scores and rates the games of a pool in game order: `outcomes[g]` is game `g`'s.
    pub(super) fn new(pool: Pool, players: u8, entrants: &[Entrant], outcomes: &[Outcome]) -> PoolTable {
        let mut ratings = vec![Rating::default(); entrants.len()];
        let mut tallies = vec![(0u32, 0u32, 0u32); entrants.len()];
        let (mut by_turn_limit, mut unfinished, mut abandoned) = (0, 0, 0);
        for outcome in outcomes {
            let Some(places) = &outcome.places else {
                unfinished += 1;
                continue;
            };
            by_turn_limit += u32::from(outcome.by_turn_limit);
            abandoned += outcome.abandoned;
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
        let mut rows: Vec<Row> = entrants
            .iter()
            .zip(tallies)
            .zip(ratings)
            .map(|((entrant, (games, seats, seats_won)), rating)| Row {
                entrant: entrant.clone(),
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
        let games = u32::try_from(outcomes.len()).unwrap_or(u32::MAX);
        PoolTable { pool, players, games, by_turn_limit, unfinished, abandoned, rows }
    }

    /// The win rate per seat if seats won at random: a seat is one of `players`.
    pub fn expected_win_rate(&self) -> f64 {
        1.0 / f64::from(self.players)
    }

    /// The table in Markdown, under a heading naming the pool and its games.
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "### {} ({} players): {} games, {} won at the turn limit ({TURN_LIMIT}), {} unfinished",
            self.pool, self.players, self.games, self.by_turn_limit, self.unfinished
        );
        if self.abandoned > 0 {
            out.push_str(&format!(", {} seats abandoned to the turn timer", self.abandoned));
        }
        out.push_str("\n\n");
        out.push_str(
            "| Entrant | Games | Seats held | Games won | Win rate per seat | 95 % Wilson interval \
             | Rating | Deviation | Score |\n",
        );
        out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for row in &self.rows {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {:.1} % | {:.1} - {:.1} % | {:.2} | {:.2} | {:.2} |\n",
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
    pub entrant: Entrant,
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

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Two games of two seats between a bot and an account: the account wins the first
    /// (seat 1), the bot the second; then an unfinished game and one the account abandoned.
    #[test]
    fn a_table_scores_rates_and_counts_the_games_it_is_given() {
        let entrants = vec![Entrant::Builtin(catan_engine::bots::BotKind::Random), Entrant::Account("ada".into())];
        let outcome = |lineup: Vec<usize>, places: Option<Vec<u32>>, winner, abandoned| Outcome {
            lineup,
            places,
            winner,
            by_turn_limit: false,
            abandoned,
        };
        let outcomes = vec![
            outcome(vec![0, 1], Some(vec![2, 1]), Some(1), 0),
            outcome(vec![1, 0], Some(vec![2, 1]), Some(1), 0),
            outcome(vec![0, 1], None, None, 0),
            outcome(vec![1, 0], Some(vec![2, 1]), Some(1), 1),
        ];
        let table = PoolTable::new(Pool::Base, 2, &entrants, &outcomes);
        assert_eq!((table.games, table.unfinished, table.abandoned), (4, 1, 1));
        let row = |entrant: &Entrant| table.rows.iter().find(|row| &row.entrant == entrant).unwrap();
        let (bot, ada) = (row(&entrants[0]), row(&entrants[1]));
        assert_eq!((bot.games, bot.seats, bot.seats_won), (3, 3, 2));
        assert_eq!((ada.games, ada.seats, ada.seats_won), (3, 3, 1));
        assert!(bot.rating.rating > ada.rating.rating, "two wins of three rate higher: {}", table.markdown());
        assert_eq!(table.rows[0].entrant, entrants[0], "best first");
        let markdown = table.markdown();
        assert!(markdown.contains("| builtin:random | 3 | 3 | 2 |"), "{markdown}");
        assert!(markdown.contains("| ada | 3 | 3 | 1 |"), "{markdown}");
        assert!(markdown.contains("1 seats abandoned to the turn timer"), "{markdown}");
    }
}
